"""Channel-layer group names and event types: the one place they are spelled."""

MATCH_UPDATED = "match.updated"
CHAT_MESSAGE = "chat.message"


def match_group(match_id: int) -> str:
    return f"match-{match_id}"
