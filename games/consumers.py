"""The match socket: a ``live.sockets.JsonSocket`` over ``games.services`` and ``games.selectors``.

Client -> server frames: {"type": "act", "action": str, "version": int},
{"type": "snapshot"}, {"type": "sync", "version": int} (a snapshot follows only if that is not
the latest version), {"type": "chat", "text": str}, {"type": "ping"},
{"type": "takeback_request", "version": int} and {"type": "takeback_answer", "accept": bool,
"version": int} (casual matches: ``games.services.takebacks``).
Server -> client: {"type": "snapshot", ...payload}, whose "ack": int (the new version) tells the
mover that the update is their own move's, accepted; {"type": "ack", "version": int} when no
update of theirs can carry it;
{"type": "error", "code": str, "message": str}, {"type": "chat", "message": {...}},
{"type": "chat_hidden", "id": int} (a moderator hid that message), {"type": "pong"},
{"type": "takeback", "version": int, "takeback": {...} | null} (a request asked or answered; once
taken back, the new version's snapshot follows instead),
{"type": "rematch", "offer": {...}} (a rematch of the finished match offered or answered),
{"type": "analysis", "status": str, "progress": int} (its analysis moved on).
Every change is broadcast as ``match.updated`` carrying the new version's payloads, built once
by the process that committed it (one per seat, one for spectators): each socket forwards its
own user's and runs no query. Every update is a whole snapshot (less the chat), so a socket
that missed a message is healed by the next; a client that reconnects, or that asks, gets a
fresh snapshot from the database. Bad frames get an error and the socket stays open.

A write of this socket's user (act, chat, takebacks) runs in the sockets' database threads with
an outbox of the socket's own, after a check of their sign-in in the same thread (a new
password or a sign-out closes the socket, code 4401: ``live.credentials``); the socket sends
its user's own update at once, then publishes the outbox on the event loop
(``live.publish``): the channel layer is never awaited from a database thread.
"""

from __future__ import annotations

import time
from urllib.parse import parse_qs

from django.utils.translation import gettext_lazy as _

import live
from live.events import MATCH_UPDATED
from live.executor import db
from live.groups import match_group, match_players_group
from live.sockets import JsonSocket
from portal import metrics
from portal.errors import ServiceError

from . import selectors, services, state_cache
from .models import Match

UNAVAILABLE = _(
    "Your move is saved, but the live connection is down: the other players will see it once "
    "it is back. The clocks are stopped meanwhile."
)


def _run(service, outbox: live.Outbox, kwargs: dict):
    """``service(**kwargs, outbox=outbox)`` in a database thread: its result, or its refusal."""
    try:
        return service(**kwargs, outbox=outbox), None
    except ServiceError as exc:
        return None, exc


class MatchConsumer(JsonSocket):
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
        await self.join(self.group)
        await self.accept()
        await self.send_snapshot()

    # -- frames from the client --------------------------------------------------------
    async def frame_act(self, frame):
        started = time.perf_counter()
        await self._act(frame.get("action"), frame.get("version"))
        metrics.move_served(time.perf_counter() - started)

    async def _act(self, action, version):
        if not services.owner.enabled():
            await self._serve(services.match_act, ack=True, action=action, version=version)
            return
        # On PostgreSQL the move is taken in this process's room of the match, on the loop.
        if not await self.still_signed_in():
            return
        outbox = live.Outbox()
        try:
            result, error = (
                await services.owner.act(
                    match_id=self.match_id, user=self.user, action=action, version=version, outbox=outbox
                ),
                None,
            )
        except ServiceError as exc:
            result, error = None, exc
        await self._answer(result, error, outbox, ack=True)

    async def frame_snapshot(self, frame):
        await self.send_snapshot(force=True)

    async def frame_sync(self, frame):
        """The page says which version it shows (now and then, while the match goes on): a
        snapshot if that is not the latest, as when the update was lost on the way. A page
        that also says which takeback request it shows (``takeback``) gets one if that changed."""
        version, takeback = await self._current_version()
        if version != frame.get("version") or ("takeback" in frame and frame["takeback"] != takeback):
            await self.send_snapshot(force=True)

    async def frame_chat(self, frame):
        outbox = live.Outbox()
        ran = await self.as_signed_in(
            _run, services.chat_post, outbox, {"match_id": self.match_id, "user": self.user, "text": frame.get("text")}
        )
        if ran is None:
            return  # signed out meanwhile: refused, and the socket closed
        _, error = ran
        if error is not None:
            await self.send_error(error.code, error.message)
        await live.publish(outbox)

    async def frame_takeback_request(self, frame):
        """Ask to take back a move (``games.services.takebacks``)."""
        await self._serve(services.takeback_request, ack=False, version=frame.get("version"))

    async def frame_takeback_answer(self, frame):
        """Answer a request to take back a move."""
        await self._serve(services.takeback_answer, ack=False, accept=frame.get("accept"), version=frame.get("version"))

    async def _serve(self, service, *, ack: bool, **kwargs):
        """Run a write of this socket's user (once their sign-in is found still standing, in
        the same database thread: ``JsonSocket.as_signed_in``): its own update first (and an ack for a move), or
        an error frame; then what changed reaches every socket. A refusal because the position
        moved on, or a broadcast that failed, also gets this socket the current snapshot."""
        outbox = live.Outbox()
        ran = await self.as_signed_in(_run, service, outbox, {"match_id": self.match_id, "user": self.user, **kwargs})
        if ran is None:
            return  # signed out meanwhile: refused, and the socket closed
        result, error = ran
        await self._answer(result, error, outbox, ack=ack)

    async def _answer(self, result, error: ServiceError | None, outbox: live.Outbox, *, ack: bool) -> None:
        if error is None:
            version = result.match.version if ack else None
            if not await self._send_own_update(outbox, ack=version) and version is not None:
                await self.send_json({"type": "ack", "version": version})
        else:
            await self.send_error(error.code, error.message)
        if not await live.publish(outbox):
            # The change is saved but nobody was told, this socket included: say so, and show it.
            await self.send_error("unavailable", UNAVAILABLE)
            await self.send_snapshot(force=True)
        elif error is not None and error.code in ("stale", "finished"):
            await self.send_snapshot(force=True)

    async def _send_own_update(self, outbox: live.Outbox, *, ack: int | None = None) -> bool:
        """The mover's page draws its move from the update its move made, sent here at once
        rather than after a trip through the channel layer (the group's copy is then
        skipped as already sent). Text the service built already: no query. The update of
        version ``ack`` carries the ack (``"ack": version``): whether one did."""
        acked = False
        for group, message in outbox.messages:
            if group != match_group(self.match_id) or message.get("type") != MATCH_UPDATED:
                continue
            seat = message["players"].get(self.user_key)
            text = message["seats"][seat] if seat is not None else None
            if text is not None and message["version"] > self.sent_version:
                self.sent_version = message["version"]
                if message["version"] == ack:
                    text, acked = f'{text[:-1]}, "ack": {ack}}}', True  # the object's closing brace, moved
                await self.send(text_data=text)
        return acked

    # -- events from the group ---------------------------------------------------------
    async def match_updated(self, event):
        if event["version"] <= self.sent_version:
            return  # already sent (a snapshot asked for meanwhile may be newer)
        # The first socket of this process to see the update keeps the match's state here
        # current, before its page can answer it.
        if services.owner.enabled():
            services.owner.advance(event)
        elif event.get("catch_up"):
            catch_up = event["catch_up"]
            before = (catch_up["from_version"], catch_up["from_moves"])
            state_cache.advance(int(self.match_id), *before, event["version"], catch_up["actions"])
        seat = event["players"].get(self.user_key) if self.user_key else None
        if seat is not None and self.group != match_players_group(self.match_id):
            # Seated since this socket joined the spectators (a seat taken in another tab):
            # from now on it listens with the players, starting from a fresh snapshot.
            await self.leave(self.group)
            self.group = match_players_group(self.match_id)
            await self.join(self.group)
            await self.send_snapshot(force=True)
            return
        text = event["spectator"] if seat is None else event["seats"][seat]
        self.sent_version = event["version"]
        await self.send(text_data=text)

    async def match_takeback(self, event):
        """A request to take back a move was asked or answered: public to every audience. The
        version tells the page which position it is about."""
        await self.send_json({"type": "takeback", "version": event["version"], "takeback": event["takeback"]})

    async def chat_message(self, event):
        await self.send_json({"type": "chat", "message": event["message"]})

    async def chat_hidden(self, event):
        """A moderator hid a message: the page drops it."""
        await self.send_json({"type": "chat_hidden", "id": event["id"]})

    async def analysis_progress(self, event):
        """The analysis of the finished match moved on (games.services.analysis): the page's
        progress bar follows, and once it is done the page puts in the result."""
        await self.send_json({"type": "analysis", "status": event["status"], "progress": event["progress"]})

    async def rematch_offer(self, event):
        """A rematch offered or answered (challenges.services): the page draws how it stands.
        Answers go through the services, which take them from the players asked only."""
        await self.send_json({"type": "rematch", "offer": event["offer"]})

    # -- helpers -----------------------------------------------------------------------
    async def send_snapshot(self, force: bool = False):
        outbox = live.Outbox()
        payload = await self._payload(outbox)
        await live.publish(outbox)
        if payload is None:
            await self.send_error("not_found", _("This match no longer exists."))
            return
        if force or payload["version"] > self.sent_version:
            self.sent_version = payload["version"]
            await self.send_json({"type": "snapshot", **payload})

    @db
    def _can_view(self, token) -> tuple[bool, bool]:
        """Whether this user may watch the match, and whether they hold a seat in it."""
        _, allowed, seated = services.watcher(self.match_id, self.user, token)
        return allowed, seated

    @db
    def _current_version(self) -> tuple[int | None, dict | None]:
        """The match's version and its takeback request as pages show it, in one query."""
        row = Match.objects.filter(pk=self.match_id).values_list("version", "status", "takeback").first()
        if row is None:
            return None, None
        return row[0], selectors.public_takeback(row[2], row[0], row[1])

    @db
    def _payload(self, outbox: live.Outbox):
        """The snapshot from the database, after forfeiting a seat whose time ran out (whose
        broadcast goes into ``outbox``)."""
        match = selectors.match_with_seats(self.match_id)
        if match is None:
            return None
        try:
            if services.match_check_clock(match=match, outbox=outbox):
                match = selectors.match_with_seats(self.match_id)
        except services.MatchError:
            pass  # the match changed meanwhile: its snapshot as read still stands
        return selectors.match_payload(match, self.user, wire=True)
