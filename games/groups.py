"""Channel-layer group names and event types: the one place they are spelled.

A match has two groups: the sockets of people who hold (or held) a seat, and everyone else's.
Every message goes to the players' group first, so a crowd of spectators never stands
between a move and the opponent who must answer it.
"""

MATCH_UPDATED = "match.updated"
CHAT_MESSAGE = "chat.message"
# A request to take back a move was asked, answered or declined (games.takebacks).
MATCH_TAKEBACK = "match.takeback"


def match_group(match_id: int) -> str:
    """The spectators' sockets."""
    return f"match-{match_id}"


def match_players_group(match_id: int) -> str:
    """The sockets of the people seated in the match."""
    return f"match-{match_id}-players"


def match_groups(match_id: int) -> tuple[str, str]:
    """Both groups, in the order messages are sent."""
    return match_players_group(match_id), match_group(match_id)


# Every socket of the lobby page: told when the list of open matches changes (never on a move).
LOBBY_GROUP = "lobby"
LOBBY_CHANGED = "lobby.changed"
