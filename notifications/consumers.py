"""``/ws/me/``: the per-user socket every page of a signed-in person holds, which keeps the
header's counts current (matches waiting for your move, unread notifications).

Whose turn it is costs the move path nothing: this socket listens with the players of each
match its person sits in, and reads who is to move from the ``match.updated`` message every
move sends to that group anyway (no extra message, no query). It counts the notifications
again only when ``me.changed`` says they changed (a notification written or read, a seat
taken or given back).

Client -> server: {"type": "ping"} (every minute or so; it also notes the person is on the
site). Server -> client: {"type": "counts", "your_turn": int, "unread": int},
{"type": "pong"}, {"type": "error", "code": str, "message": str}.
"""

from __future__ import annotations

import json
import time

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from games.consumers import MAX_FRAME_BYTES, MAX_FRAMES_PER_SECOND, _db
from games.groups import match_players_group
from portal import json_limits

from . import selectors, services
from .live import user_group

# How often an open socket notes its person as present, at most.
SEEN_EVERY = 60.0
# The matches one socket follows live (the newest); a person in more is counted from the
# database for the rest whenever their seats change.
FOLLOW_AT_MOST = 100


class MeConsumer(AsyncWebsocketConsumer):
    async def dispatch(self, message):
        """As ``MatchConsumer.dispatch`` (no hop into the shared thread: database work runs in
        the sockets' own threads), and a message of a type this socket has no use for, which
        the players' groups may carry, is skipped rather than closing the socket."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:
            await handler(message)

    async def connect(self):
        self.user = self.scope["user"]
        if not self.user.is_authenticated:
            await self.close(code=4403)
            return
        self.user_key = str(self.user.pk)
        self.group = user_group(self.user.pk)
        self.seats: dict[int, tuple[int, bool]] = {}
        self.waiting_unfollowed = 0
        self.sent: tuple[int, int] | None = None
        self.unread = 0
        self.window_start, self.window_frames = time.monotonic(), 0
        self.seen_at = 0.0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.note_seen()
        await self.refresh(seats=True)

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        for match_id in self.seats:
            await self.channel_layer.group_discard(match_players_group(match_id), self.channel_name)
        await _db(services.user_seen)(user_id=self.user.pk)

    async def receive(self, text_data=None, bytes_data=None):
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            self.window_start, self.window_frames = now, 0
        self.window_frames += 1
        if self.window_frames > MAX_FRAMES_PER_SECOND:
            await self.send_error("Too many messages: slow down.")
            return
        try:
            frame = json_limits.loads(
                text_data if text_data is not None else bytes_data or b"", max_bytes=MAX_FRAME_BYTES
            )
        except json_limits.JSONRejected as exc:
            await self.send_error(str(exc))
            return
        if not isinstance(frame, dict) or frame.get("type") != "ping":
            await self.send_error('The only message this socket takes is {"type": "ping"}.')
            return
        await self.send(text_data='{"type": "pong"}')
        await self.note_seen()

    # -- events --------------------------------------------------------------------------
    async def match_updated(self, event):
        match_id = event.get("match_id")
        if match_id not in self.seats:
            return
        seat = event["players"].get(self.user_key)
        if seat is None:  # left the match (resigned, timed out): it no longer waits for them
            del self.seats[match_id]
            await self.channel_layer.group_discard(match_players_group(match_id), self.channel_name)
        else:
            self.seats[match_id] = (seat, event.get("to_move") == seat)
        await self.send_counts()

    async def me_changed(self, event):
        await self.refresh(seats=bool(event.get("seats")))

    # -- helpers -------------------------------------------------------------------------
    async def refresh(self, *, seats: bool) -> None:
        listening, unfollowed, self.unread = await self._read(seats)
        if listening is not None:
            self.waiting_unfollowed = unfollowed
            for match_id in self.seats.keys() - listening.keys():
                await self.channel_layer.group_discard(match_players_group(match_id), self.channel_name)
            for match_id in listening.keys() - self.seats.keys():
                await self.channel_layer.group_add(match_players_group(match_id), self.channel_name)
            self.seats = listening
        await self.send_counts()

    async def send_counts(self) -> None:
        counts = (self.waiting_unfollowed + sum(1 for _, mine in self.seats.values() if mine), self.unread)
        if counts != self.sent:
            self.sent = counts
            await self.send(text_data=json.dumps({"type": "counts", "your_turn": counts[0], "unread": counts[1]}))

    async def note_seen(self) -> None:
        if time.monotonic() - self.seen_at >= SEEN_EVERY:
            self.seen_at = time.monotonic()
            await _db(services.user_seen)(user_id=self.user.pk)

    async def send_error(self, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": "bad_request", "message": message}))

    @_db
    def _read(self, seats: bool):
        if not seats:
            return None, 0, selectors.unread_count(self.user)
        listening = selectors.listening_seats(self.user.pk, FOLLOW_AT_MOST)
        unfollowed = 0
        if len(listening) == FOLLOW_AT_MOST:  # perhaps more: the waiting ones beyond are counted here
            unfollowed = selectors.waiting_count(self.user) - sum(1 for _, mine in listening.values() if mine)
        return listening, unfollowed, selectors.unread_count(self.user)
