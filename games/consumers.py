"""The match socket: a thin layer over games.services and games.selectors.

Client -> server frames: {"type": "act", "action": str, "version": int},
{"type": "snapshot"}, {"type": "sync", "version": int} (a snapshot follows only if that is not
the latest version), {"type": "chat", "text": str}, {"type": "ping"},
{"type": "takeback_request", "version": int} and {"type": "takeback_answer", "accept": bool,
"version": int} (casual matches: ``games.takebacks``).
Server -> client: {"type": "snapshot", ...payload}, {"type": "ack", "version": int},
{"type": "error", "code": str, "message": str}, {"type": "chat", "message": {...}}, {"type": "pong"},
{"type": "takeback", "version": int, "takeback": {...} | null} (a request asked or answered; once
taken back, the new version's snapshot follows instead),
{"type": "rematch", "offer": {...}} (a rematch of the finished match offered or answered).
Every change is broadcast as ``match.updated`` carrying the new version's payloads, built once
by the process that committed it (one per seat, one for spectators): each socket forwards its
own user's and runs no query. Every update is a whole snapshot (less the chat), so a socket
that missed a message is healed by the next; a client that reconnects, or that asks, gets a
fresh snapshot from the database. Bad frames get an error and the socket stays open.

Database work runs in a small pool of threads of its own (``DB_THREADS``), not in the one
thread Channels would otherwise share between every socket of the process, and the channel
layer is awaited here on the event loop, never from a database thread.
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from portal import json_limits

from . import selectors, services, state_cache, takebacks
from .groups import MATCH_UPDATED, match_group, match_players_group
from .models import Match

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
MAX_FRAMES_PER_SECOND = 20

UNAVAILABLE = (
    "Your move is saved, but the live connection is down: the other players will see it once "
    "it is back. The clocks are stopped meanwhile."
)

_db_threads = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="socket-db")


def _db(fn):
    """``fn`` run in the sockets' database threads, its connection given back afterwards."""
    return database_sync_to_async(fn, thread_sensitive=False, executor=_db_threads)


async def publish(outcome: services.Deferred) -> bool:
    """Send what a deferred service left: group messages first, then the bots' turns, each
    attempted on its own (a failure is logged; the periodic check queues a lost bot move
    again). Returns whether every group message went out."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    sent = True
    for group, message in outcome.events:
        try:
            await layer.group_send(group, message)
        except Exception:
            log.exception("Could not broadcast to %s", group)
            sent = False
            break  # the next message goes through the same Redis
    if not sent:
        await _db(services.broadcast_failed)()
    if outcome.bots:
        from .tasks import schedule_bot

        for match_id, version in outcome.bots:
            try:
                await _db(schedule_bot)(match_id, version)
            except Exception:
                log.exception("Could not queue the bot's move in match %s", match_id)
    return sent


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope["user"]
        token = parse_qs(self.scope.get("query_string", b"").decode()).get("token", [None])[0]
        allowed, seated = await self._can_view(token)
        if not allowed:
            await self.close(code=4403)
            return
        self.group = match_players_group(self.match_id) if seated else match_group(self.match_id)
        self.user_key = str(self.user.pk) if self.user.is_authenticated else None
        self.sent_version = -1
        self.window_start = time.monotonic()
        self.window_frames = 0
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_snapshot()

    async def dispatch(self, message):
        """As Channels' own, less the ``aclose_old_connections()`` it awaits before every
        handler: that is a hop into the one thread every socket of the process shares, for
        every frame and every update of every socket. This consumer touches the database only
        in its own threads (``_db``), which close their connections themselves."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    # -- frames from the client --------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self._flooding():
            await self.send_error("bad_request", "Too many messages: slow down.")
            return
        raw = text_data if text_data is not None else bytes_data or b""
        try:  # the size limit is in bytes; nesting is bounded too (json_limits)
            frame = json_limits.loads(raw, max_bytes=MAX_FRAME_BYTES)
        except json_limits.JSONRejected as exc:
            await self.send_error("bad_request", str(exc))
            return
        if not isinstance(frame, dict):
            await self.send_error("bad_request", "A message is a JSON object with a type.")
            return
        kind = frame.get("type")
        if kind == "act":
            await self.act(frame)
        elif kind == "snapshot":
            await self.send_snapshot(force=True)
        elif kind == "sync":
            await self.sync(frame)
        elif kind == "chat":
            await self.chat(frame)
        elif kind == "takeback_request":
            await self.takeback(takebacks.takeback_request, version=frame.get("version"))
        elif kind == "takeback_answer":
            await self.takeback(takebacks.takeback_answer, accept=frame.get("accept"), version=frame.get("version"))
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
        await self._serve(services.match_act, ack=True, action=frame.get("action"), version=frame.get("version"))

    async def takeback(self, service, **kwargs):
        """Ask to take back a move, or answer such a request (``games.takebacks``)."""
        await self._serve(service, ack=False, **kwargs)

    async def _serve(self, service, *, ack: bool, **kwargs):
        """Run a write of this socket's user: its own update first (and an ack for a move), or
        an error frame; then what changed reaches every socket. A refusal because the position
        moved on, or a broadcast that failed, also gets this socket the current snapshot."""
        outcome = await _db(services.deferred)(service, match_id=self.match_id, user=self.user, **kwargs)
        if outcome.error is None:
            await self._send_own_update(outcome)
            if ack:
                await self.send_json({"type": "ack", "version": outcome.result.match.version})
        else:
            await self.send_error(outcome.error.code, outcome.error.message)
        if not await publish(outcome):
            # The change is saved but nobody was told, this socket included: say so, and show it.
            await self.send_error("unavailable", UNAVAILABLE)
            await self.send_snapshot(force=True)
        elif outcome.error is not None and outcome.error.code in ("stale", "finished"):
            await self.send_snapshot(force=True)

    async def _send_own_update(self, outcome: services.Deferred) -> None:
        """The mover's page draws its move from the update its move made, sent here at once
        rather than after a trip through the channel layer (the group's copy is then
        skipped as already sent). Text the service built already: no query."""
        for group, message in outcome.events:
            if group != self.group or message.get("type") != MATCH_UPDATED or not message.get("seats"):
                continue
            seat = message["players"].get(self.user_key)
            if seat is not None and message["seats"][seat] is not None and message["version"] > self.sent_version:
                self.sent_version = message["version"]
                await self.send(text_data=message["seats"][seat])

    async def sync(self, frame):
        """The page says which version it shows (now and then, while the match goes on): a
        snapshot if that is not the latest, as when the update was lost on the way. A page
        that also says which takeback request it shows (``takeback``) gets one if that changed."""
        version, takeback = await self._current_version()
        if version != frame.get("version") or ("takeback" in frame and frame["takeback"] != takeback):
            await self.send_snapshot(force=True)

    async def chat(self, frame):
        outcome = await _db(services.deferred)(
            services.chat_post, match_id=self.match_id, user=self.user, text=frame.get("text")
        )
        if outcome.error is not None:
            await self.send_error(outcome.error.code, outcome.error.message)
        await publish(outcome)

    # -- events from the group ---------------------------------------------------------
    async def match_updated(self, event):
        if event["version"] <= self.sent_version:
            return  # already sent (a snapshot asked for meanwhile may be newer)
        seat = event["players"].get(self.user_key) if self.user_key else None
        if seat is not None and not event["seats"]:
            # Seated since this socket joined the spectators (a seat taken in another tab):
            # from now on it listens with the players, starting from a fresh snapshot.
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = match_players_group(self.match_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.send_snapshot(force=True)
            return
        text = event["spectator"] if seat is None else event["seats"][seat]
        self.sent_version = event["version"]
        await self.send(text_data=text)
        catch_up = event.get("catch_up")
        if catch_up:  # the first socket of this process to see the update keeps its state current
            before = (catch_up["from_version"], catch_up["from_moves"])
            state_cache.advance(int(self.match_id), *before, event["version"], catch_up["actions"])

    async def match_takeback(self, event):
        """A request to take back a move was asked or answered: public to every audience. The
        version tells the page which position it is about."""
        await self.send_json({"type": "takeback", "version": event["version"], "takeback": event["takeback"]})

    async def chat_message(self, event):
        await self.send_json({"type": "chat", "message": event["message"]})

    async def rematch_offer(self, event):
        """A rematch offered or answered (challenges.services): the page draws how it stands.
        Answers go through the services, which take them from the players asked only."""
        await self.send_json({"type": "rematch", "offer": event["offer"]})

    # -- helpers -----------------------------------------------------------------------
    async def send_snapshot(self, force: bool = False):
        payload, outcome = await self._payload()
        await publish(outcome)
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

    @_db
    def _can_view(self, token) -> tuple[bool, bool]:
        """Whether this user may watch the match, and whether they hold a seat in it."""
        match = Match.objects.filter(pk=self.match_id).first()
        if match is None or not services.can_view(match, self.user, token):
            return False, False
        seated = self.user.is_authenticated and match.seats.filter(user=self.user).exists()
        return True, seated

    @_db
    def _current_version(self) -> tuple[int | None, dict | None]:
        """The match's version and its takeback request as pages show it, in one query."""
        row = Match.objects.filter(pk=self.match_id).values_list("version", "status", "takeback").first()
        if row is None:
            return None, None
        return row[0], selectors.public_takeback(row[2], row[0], row[1])

    @_db
    def _payload(self):
        """The snapshot from the database, after forfeiting a seat whose time ran out (whose
        broadcast is handed back with it)."""
        match = selectors.match_with_seats(self.match_id)
        if match is None:
            return None, services.Deferred()
        outcome = services.deferred(services.match_check_clock, match=match)
        if outcome.result:
            match = selectors.match_with_seats(self.match_id)
        return selectors.match_payload(match, self.user), outcome
