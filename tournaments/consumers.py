"""The tournament page's socket, ``/ws/tournaments/<id>/``: it tells each open page when the
standings or the rounds changed (``tournaments.live``), and the page fetches its live part
again (``static/js/tournament.js``), which is the same for every watcher.

Anyone who may see the tournament may watch, signed in or not (``?token=`` for one by
invitation). Client -> server: ``{"type": "ping"}``; frames are read under the socket limits
of ``portal.json_limits`` (4 KB, ``JSON_MAX_DEPTH``). Server -> client: ``{"type": "changed"}``,
``{"type": "pong"}``, ``{"type": "error", "code", "message"}``.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from portal import json_limits

from .live import tournament_group

MAX_FRAME_BYTES = 4096
CHANGED = json.dumps({"type": "changed"})


def _error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


@database_sync_to_async
def _may_watch(tournament_id: int, user, token: str | None) -> bool:
    from . import services
    from .models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and services.can_view(tournament, user, token)


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [None])[0]
        if not await _may_watch(self.tournament_id, self.scope["user"], token):
            await self.close(code=4403)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            frame = json_limits.loads(text_data if text_data is not None else bytes_data, max_bytes=MAX_FRAME_BYTES)
        except json_limits.JSONRejected as exc:
            await self.send(text_data=_error("bad_request", str(exc)))
            return
        if not isinstance(frame, dict) or frame.get("type") != "ping":
            await self.send(text_data=_error("bad_request", 'This socket only listens; send {"type": "ping"} at most.'))
            return
        await self.send(text_data='{"type": "pong"}')

    async def tournament_changed(self, event):
        await self.send(text_data=CHANGED)
