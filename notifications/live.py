"""The per-user socket's group and the one message that tells it to count again.

Every page of a signed-in person holds ``/ws/me/`` (``notifications.consumers.MeConsumer``).
It keeps the header's two counts current: matches waiting for that person's move and unread
notifications. The first it follows from the match updates themselves (it listens with the
players of each match the person sits in); the second changes only when a notification is
written or read, which sends ``me.changed`` to the person's group from here.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

ME_CHANGED = "me.changed"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def tell_users(user_ids, *, seats: bool = False) -> None:
    """Ask every open socket of these people to count again (``seats``: their matches
    changed, so they also listen again to the right ones). Called after commit; a channel
    layer that cannot be reached is logged, never raised into the change."""
    layer = get_channel_layer()
    if layer is None:
        return
    from games.bot_runner import send_on_server_loop

    message = {"type": ME_CHANGED, "seats": seats}
    for user_id in dict.fromkeys(user_ids):
        group = user_group(user_id)
        try:
            if not send_on_server_loop(layer.group_send, group, message):
                async_to_sync(layer.group_send)(group, message)
        except Exception:
            log.warning("Could not tell user %s's sockets to count again", user_id, exc_info=True)
            return
