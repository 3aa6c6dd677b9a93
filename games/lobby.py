"""The lobby's socket: it tells each open lobby page when the list of open matches changed,
so the page fetches its list again (``static/js/lobby.js``) instead of asking every minute.

Fed by ``games.signals.open_matches_changed`` (a match opened, a seat taken or given back, a
match started, called off or expired), which moves never send: the move path costs nothing.
The message carries no data: the page asks for its own page of the list, with its filters,
which the page cache answers.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

from .consumers import MatchConsumer
from .groups import LOBBY_CHANGED, LOBBY_GROUP

log = logging.getLogger(__name__)


class LobbyConsumer(AsyncWebsocketConsumer):
    """Listens only: frames from the page are ignored."""

    dispatch = MatchConsumer.dispatch  # no hop into the shared sync thread: no database here

    async def connect(self):
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        pass

    async def lobby_changed(self, event):
        await self.send(text_data='{"type": "changed"}')


def open_matches_changed(sender, match_id, **kwargs) -> None:
    """Tell the lobby's sockets (connected in ``GamesConfig.ready``; runs after commit). A
    channel layer that cannot be reached is logged, never raised into the change."""
    layer = get_channel_layer()
    if layer is None:
        return
    from .bot_runner import send_on_server_loop

    try:
        if not send_on_server_loop(layer.group_send, LOBBY_GROUP, {"type": LOBBY_CHANGED}):
            async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": LOBBY_CHANGED})
    except Exception:
        log.warning("Could not tell the lobby that the open matches changed", exc_info=True)
