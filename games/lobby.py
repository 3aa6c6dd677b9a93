"""The lobby's socket: it tells each open lobby page when the list of open matches changed,
so the page fetches its list again (``static/js/lobby.js``) instead of asking every minute.

Fed by ``games.signals.open_matches_changed`` (a match opened, a seat taken or given back, a
match started, called off or expired; ``games.receivers.tell_lobby``), which moves never
send: the move path costs nothing.
"""

from __future__ import annotations

from live.groups import LOBBY_GROUP
from live.sockets import JsonSocket

CHANGED = '{"type": "changed"}'


class LobbyConsumer(JsonSocket):
    """Listens only: frames from the page are ignored."""

    async def connect(self):
        await self.join(LOBBY_GROUP)
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        pass

    async def lobby_changed(self, event):
        await self.send(text_data=CHANGED)
