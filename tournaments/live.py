"""The tournament page's socket group: told when the standings or the rounds changed (a table
finished, a round began, the tournament started or ended), so open pages fetch their live part
again. Never told on a move: the move path costs nothing."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

TOURNAMENT_CHANGED = "tournament.changed"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def notify(tournament_id: int) -> None:
    """Tell the tournament's open pages that it changed (after commit). A channel layer that
    cannot be reached is logged, never raised into the change: pages catch up on reconnect."""
    from games.bot_runner import send_on_server_loop

    message = {"type": TOURNAMENT_CHANGED}
    group = tournament_group(tournament_id)
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        if not send_on_server_loop(layer.group_send, group, message):
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.warning("Could not tell the pages of tournament %s that it changed", tournament_id, exc_info=True)
