"""Channel-layer group names: the one place they are spelled.

A match has two groups: the sockets of people who hold (or held) a seat, and everyone else's.
Every message goes to the players' group first, so a crowd of spectators never stands
between a move and the opponent who must answer it.
"""

from __future__ import annotations


def match_group(match_id: int) -> str:
    """The spectators' sockets of a match."""
    return f"match-{match_id}"


def match_players_group(match_id: int) -> str:
    """The sockets of the people seated in a match."""
    return f"match-{match_id}-players"


def match_groups(match_id: int) -> tuple[str, str]:
    """Both groups of a match, in the order messages are sent."""
    return match_players_group(match_id), match_group(match_id)


def user_group(user_id: int) -> str:
    """Every ``/ws/me/`` socket of one person."""
    return f"user-{user_id}"


def user_sockets_group(user_id: int) -> str:
    """Every socket a signed-in person holds, whatever its page (``JsonSocket`` joins it): what
    ends their sign-in closes them (``credentials.close_user_sockets``)."""
    return f"user-{user_id}-sockets"


def tournament_group(tournament_id: int) -> str:
    """The open pages of one tournament."""
    return f"tournament-{tournament_id}"


# Every socket of the lobby page: told when the list of open matches changes (never on a move).
LOBBY_GROUP = "lobby"
