"""The match socket: a thin layer over games.services and games.selectors.

Client -> server frames: {"type": "act", "action": str, "version": int},
{"type": "snapshot"}, {"type": "chat", "text": str}, {"type": "ping"}.
Server -> client: {"type": "snapshot", ...payload}, {"type": "ack", "version": int},
{"type": "error", "code": str, "message": str}, {"type": "chat", "message": {...}}, {"type": "pong"}.
Every change is broadcast as ``match.updated`` with the new version, and each socket then
sends its own user's view. Bad frames get an error and the socket stays open.
"""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import selectors, services
from .groups import match_group
from .models import Match

MAX_FRAME_BYTES = 4096
MAX_FRAMES_PER_SECOND = 20


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [None])[0]
        allowed = await self._can_view(token)
        if not allowed:
            await self.close(code=4403)
            return
        self.group = match_group(self.match_id)
        self.sent_version = -1
        self.window_start = time.monotonic()
        self.window_frames = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # -- frames from the client --------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self._flooding():
            await self.send_error("bad_request", "Too many messages: slow down.")
            return
        raw = text_data.encode() if text_data is not None else bytes_data  # the limit is in bytes
        if raw is None or len(raw) > MAX_FRAME_BYTES:
            await self.send_error("bad_request", f"A message may be at most {MAX_FRAME_BYTES} bytes.")
            return
        try:
            frame = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            await self.send_error("bad_request", "That message is not valid JSON.")
            return
        if not isinstance(frame, dict):
            await self.send_error("bad_request", "A message is a JSON object with a type.")
            return
        kind = frame.get("type")
        if kind == "act":
            await self.act(frame)
        elif kind == "snapshot":
            await self.send_snapshot(force=True)
        elif kind == "chat":
            await self.chat(frame)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_error("bad_request", f"Unknown message type {str(kind)[:20]!r}.")

    def _flooding(self) -> bool:
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            self.window_start = now
            self.window_frames = 0
        self.window_frames += 1
        return self.window_frames > MAX_FRAMES_PER_SECOND

    async def act(self, frame):
        try:
            result = await database_sync_to_async(services.match_act)(
                match_id=self.match_id, user=self.user, action=frame.get("action"), version=frame.get("version")
            )
        except services.MatchError as exc:
            await self.send_error(exc.code, exc.message)
            if exc.code in ("stale", "finished"):
                await self.send_snapshot(force=True)
            return
        await self.send_json({"type": "ack", "version": result.match.version})

    async def chat(self, frame):
        try:
            await database_sync_to_async(services.chat_post)(
                match_id=self.match_id, user=self.user, text=frame.get("text")
            )
        except services.MatchError as exc:
            await self.send_error(exc.code, exc.message)

    # -- events from the group ---------------------------------------------------------
    async def match_updated(self, event):
        if event["version"] > self.sent_version:
            await self.send_snapshot()

    async def chat_message(self, event):
        await self.send_json({"type": "chat", "message": event["message"]})

    # -- helpers -----------------------------------------------------------------------
    async def send_snapshot(self, force: bool = False):
        payload = await self._payload()
        if payload is None:
            await self.send_error("not_found", "This match no longer exists.")
            return
        if force or payload["version"] > self.sent_version:
            self.sent_version = payload["version"]
            await self.send_json({"type": "snapshot", **payload})

    async def send_error(self, code: str, message: str):
        await self.send_json({"type": "error", "code": code, "message": message})

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content))

    @database_sync_to_async
    def _can_view(self, token) -> bool:
        match = Match.objects.filter(pk=self.match_id).first()
        return match is not None and services.can_view(match, self.user, token)

    @database_sync_to_async
    def _payload(self):
        match = selectors.match_with_seats(self.match_id)
        if match is None:
            return None
        if services.match_check_clock(match=match):
            match = selectors.match_with_seats(self.match_id)
        return selectors.match_payload(match, self.user)
