"""Channel-layer group names: the one place they are spelled.

A match's sockets listen in one group of two tiers: the sockets of people who hold (or held) a
seat in ``match-N-players``, everyone else's in ``match-N``. A message sent to the match reaches
both, the players' sockets first in each process (``live.layer``), so a crowd of spectators
never stands between a move and the opponent who must answer it.
"""

from __future__ import annotations

# A group's name with this ending is the first tier of the group named without it.
FIRST_TIER = "-players"


def match_group(match_id: int) -> str:
    """Every socket of a match: listening here, the spectators'; sending here, to all."""
    return f"match-{match_id}"


def page_group(group: str) -> str | None:
    """The group whose page shows what a message to ``group`` tells its sockets: a match's
    group, for either of its tiers (its page is kept in the page cache under the generation
    of that group, which every message sent to it moves on: ``live.publishing``); None for
    the groups of no kept page."""
    base = group[: -len(FIRST_TIER)] if group.endswith(FIRST_TIER) else group
    return base if base.startswith("match-") else None


def match_players_group(match_id: int) -> str:
    """The sockets of the people seated in a match, served before the spectators."""
    return f"match-{match_id}{FIRST_TIER}"


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
