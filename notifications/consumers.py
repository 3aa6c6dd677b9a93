"""``/ws/me/``: the per-user socket every page of a signed-in person holds, which keeps the
header's counts current (matches waiting for your move, unread notifications).

Whose turn it is costs the move path nothing: this socket listens with the players of each
match its person sits in, and reads who is to move from the ``match.updated`` message every
move sends to that group anyway (no extra message, no query). It counts the notifications
again only when ``me.changed`` or ``me.notice`` says they changed (a notification written or
read, a seat taken or given back).

Client -> server: {"type": "ping"} (every minute or so; it also notes the person is on the
site). Server -> client: {"type": "counts", "your_turn": int, "unread": int},
{"type": "notice", "title": str, "text": str, "url": str} (something to act on soon, such as a
tournament table ready: the page says it and puts it in the tab's title),
{"type": "challenge", "challenge": {"id", "state", "match_url"}} (a challenge of theirs stopped
waiting: the challenges page follows it), {"type": "pong"},
{"type": "error", "code": str, "message": str}.
"""

from __future__ import annotations

import json
import time

from django.utils import translation

from live.executor import db
from live.groups import match_players_group, user_group
from live.sockets import JsonSocket
from portal.phrases import say

from . import selectors, services
from .models import Notification

# How often an open socket notes its person as present, at most.
SEEN_EVERY = 60.0
# The matches one socket follows live (the newest); a person in more is counted from the
# database for the rest whenever their seats change.
FOLLOW_AT_MOST = 100


class MeConsumer(JsonSocket):
    # The players' groups it listens to carry messages it has no use for (chat, takebacks).
    skip_unknown_events = True

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
        self.seen_at = 0.0
        await self.join(self.group)
        await self.accept()
        await self.note_seen()
        await self.refresh(seats=True)

    async def disconnect(self, code):
        if not hasattr(self, "group"):
            return
        await super().disconnect(code)
        await db(services.user_seen)(user_id=self.user.pk)

    def refusal(self, frame) -> str:
        return 'The only message this socket takes is {"type": "ping"}.'

    async def frame_ping(self, frame):
        await super().frame_ping(frame)
        await self.note_seen()

    # -- events --------------------------------------------------------------------------
    async def match_updated(self, event):
        match_id = event.get("match_id")
        if match_id not in self.seats:
            return
        seat = event["players"].get(self.user_key)
        if seat is None:  # left the match (resigned, timed out): it no longer waits for them
            del self.seats[match_id]
            await self.leave(match_players_group(match_id))
        else:
            self.seats[match_id] = (seat, event.get("to_move") == seat)
        await self.send_counts()

    async def me_changed(self, event):
        await self.refresh(seats=bool(event.get("seats")))

    async def me_challenge(self, event):
        await self.send(text_data=json.dumps({"type": "challenge", "challenge": event["challenge"]}))

    async def me_notice(self, event):
        """Said in the language of the page that holds the socket."""
        with translation.override(self.language):
            title = str(Notification.Kind(event["kind"]).label)
            text = say(event["phrase"]) if event["phrase"] else event["text"]
        notice = {"type": "notice", "title": title, "text": text, "url": event["url"]}
        await self.send(text_data=json.dumps(notice))
        await self.refresh(seats=True)

    # -- helpers -------------------------------------------------------------------------
    async def refresh(self, *, seats: bool) -> None:
        listening, unfollowed, self.unread = await self._read(seats)
        # A move made in a newly followed match between the read and joining its players'
        # group reached the group before this socket did: read once more after joining, so a
        # turn that came meanwhile (a bot answering at once) is counted.
        for attempt in range(3):
            if listening is None:
                break
            self.waiting_unfollowed = unfollowed
            for match_id in self.seats.keys() - listening.keys():
                await self.leave(match_players_group(match_id))
            joined = listening.keys() - self.seats.keys()
            for match_id in joined:
                await self.join(match_players_group(match_id))
            self.seats = listening
            if not joined or attempt == 2:
                break
            listening, unfollowed, self.unread = await self._read(True)
        await self.send_counts()

    async def send_counts(self) -> None:
        counts = (self.waiting_unfollowed + sum(1 for _, mine in self.seats.values() if mine), self.unread)
        if counts != self.sent:
            self.sent = counts
            await self.send(text_data=json.dumps({"type": "counts", "your_turn": counts[0], "unread": counts[1]}))

    async def note_seen(self) -> None:
        if time.monotonic() - self.seen_at >= SEEN_EVERY:
            self.seen_at = time.monotonic()
            await db(services.user_seen)(user_id=self.user.pk)

    @db
    def _read(self, seats: bool):
        if not seats:
            return None, 0, selectors.unread_count(self.user)
        listening = selectors.listening_seats(self.user.pk, FOLLOW_AT_MOST)
        unfollowed = 0
        if len(listening) == FOLLOW_AT_MOST:  # perhaps more: the waiting ones beyond are counted here
            unfollowed = selectors.waiting_count(self.user) - sum(1 for _, mine in listening.values() if mine)
        return listening, unfollowed, selectors.unread_count(self.user)
