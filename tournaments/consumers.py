"""The tournament page's socket, ``/ws/tournaments/<id>/``: it tells each open page when the
standings or the rounds changed (``tournaments.services``), and the page fetches its live part
again (``static/js/tournament.js``), which is the same for every watcher.

Anyone who may see the tournament may watch, signed in or not (``?token=`` for one by
invitation). Client -> server: ``{"type": "ping"}``; frames are read under the limits of
``live.sockets.JsonSocket`` (4 KB, ``JSON_MAX_DEPTH``, 20 a second). Server -> client:
``{"type": "changed"}``, ``{"type": "pong"}``, ``{"type": "error", "code", "message"}``.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from live.executor import db
from live.groups import tournament_group
from live.sockets import JsonSocket

from . import services
from .models import Tournament

CHANGED = json.dumps({"type": "changed"})


@db
def _may_watch(tournament_id: int, user, token: str | None) -> bool:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    return tournament is not None and services.can_view(tournament, user, token)


class TournamentConsumer(JsonSocket):
    async def connect(self):
        self.tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [None])[0]
        if not await _may_watch(self.tournament_id, self.scope["user"], token):
            await self.close(code=4403)
            return
        await self.join(tournament_group(self.tournament_id))
        await self.accept()

    def refusal(self, frame) -> str:
        return 'This socket only listens; send {"type": "ping"} at most.'

    async def tournament_changed(self, event):
        await self.send(text_data=CHANGED)
