"""``JsonSocket``: the base of every socket of the site.

It reads each frame under the limits of ``portal.json_limits`` (size in bytes, nesting depth),
refuses a client that sends more than ``max_frames_per_second``, answers ``{"type": "ping"}`` with
``{"type": "pong"}``, and hands every other JSON object to the method named after its type
(``frame_act`` for ``{"type": "act"}``). Anything else gets an error frame,
``{"type": "error", "code", "message"}``, and the socket stays open. A subclass adds its own
frames and its own events (the methods Channels calls for a group message) only.

Revoked means revoked (``credentials``): a signed-in socket joins its person's group as it is
accepted and closes with ``SIGNED_OUT`` when their sign-in ends (``sockets.revoked``: a new
password, a deactivated account, or signing out of its session). A frame that writes runs
through ``as_signed_in``, which checks the sign-in again in the same database thread as the
write, so a socket that missed that message is refused and closed all the same.

Events skip Channels' ``aclose_old_connections()`` hop into the one thread every socket of the
process shares: these sockets touch the database only in their own threads (``executor``),
which give their connections back themselves.

A socket opened while the live path is down (``live.reach``: Redis timed out or refused a
moment ago, or does so now) is accepted and closed with ``reach.LIVE_DOWN_CLOSE_CODE``
(4503): no server error at the handshake, and the page knows to move over the REST API.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from channels.utils import await_many_dispatch
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from portal import json_limits, logs, metrics
from portal.languages import socket_language

from . import bridge, reach
from .credentials import SIGNED_OUT, Credentials
from .executor import db
from .groups import user_sockets_group

PONG = '{"type": "pong"}'
SIGNED_OUT_MESSAGE = _("You were signed out (a new password, or signed out elsewhere): sign in again to carry on.")

T = TypeVar("T")


class LiveDown(Exception):
    """The live path (the channel layer) is down: a socket cannot listen to its groups."""


class JsonSocket(AsyncWebsocketConsumer):
    max_frame_bytes = 4096
    max_frames_per_second = 20
    # A group message of a type this socket has no handler for: skipped (a socket that
    # listens to groups other sockets share, whose messages it does not all use), or an error.
    skip_unknown_events = False

    # -- Channels' side ------------------------------------------------------------------
    async def dispatch(self, message):
        """As Channels' own, less the hop into the shared sync thread before every handler."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            if self.skip_unknown_events:
                return
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope, receive, send):
        """As Channels' own, except that a socket opened while the live path is down (its
        channel cannot be subscribed to) is accepted and closed at once with
        ``LIVE_DOWN_CLOSE_CODE``, rather than failing its handshake with a server error, and
        that it sends past the session middleware's wrapper (``direct_send``)."""
        self.scope = scope
        self.base_send = direct_send(send)
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        if self.channel_layer is None:
            raise ValueError("A JsonSocket needs a channel layer")
        try:
            if reach.down():
                raise LiveDown
            self.channel_name = await self.channel_layer.new_channel()
        except Exception as exc:
            if not isinstance(exc, LiveDown) and not reach.failed(exc):
                raise
            await self._refuse_while_down(receive)
            return
        self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
        try:
            await await_many_dispatch([receive, self.channel_receive], self.dispatch)
        except StopConsumer:
            pass

    async def _refuse_while_down(self, receive) -> None:
        message = await receive()
        if message["type"] == "websocket.connect":
            await self.base_send({"type": "websocket.accept"})
            await self.base_send({"type": "websocket.close", "code": reach.LIVE_DOWN_CLOSE_CODE})

    async def websocket_connect(self, message):
        bridge.note_loop()
        logs.bind(socket_id=logs.new_id())  # this connection's task: its log lines carry the id
        self._counted = False
        self.joined: list[str] = []
        self.credentials = Credentials.of(self.scope)
        self.language = socket_language(self.scope)
        self.signed_out = False
        self._checked_at = time.monotonic()  # the handshake's session was just read
        self._accepted = False
        self._window_start = time.monotonic()
        self._window_frames = 0
        try:
            await super().websocket_connect(message)
        except LiveDown:
            # The groups this socket would listen to cannot be joined: the page is told so
            # by the close code (it moves over the REST API meanwhile and comes back later).
            if not self._accepted:
                self._accepted = True
                await AsyncWebsocketConsumer.accept(self)  # without joining any group
            await self.close(code=reach.LIVE_DOWN_CLOSE_CODE)

    async def accept(self, subprotocol=None, headers=None):
        """Accept the handshake; a signed-in socket listens for the end of its sign-in first."""
        if self.credentials is not None:
            await self.join(user_sockets_group(self.credentials.user_id))
        self._accepted = True
        await super().accept(subprotocol, headers)
        metrics.socket_opened(type(self).__name__)
        self._counted = True

    async def websocket_disconnect(self, message):
        if getattr(self, "_counted", False):
            self._counted = False
            metrics.socket_closed(type(self).__name__)
        await super().websocket_disconnect(message)

    async def join(self, group: str) -> None:
        """Listen to ``group``; ``LiveDown`` if the live path is down (known, or found so)."""
        if reach.down():
            raise LiveDown
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as exc:
            if reach.failed(exc):
                raise LiveDown from exc
            raise
        self.joined.append(group)

    async def leave(self, group: str) -> None:
        if group in self.joined:
            self.joined.remove(group)
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception as exc:
            # Redis not answering: this process's subscriptions end with its connection.
            if not reach.failed(exc):
                raise

    async def disconnect(self, code):
        for group in list(getattr(self, "joined", ())):
            await self.leave(group)

    # -- frames from the client ----------------------------------------------------------
    async def receive(self, text_data=None, bytes_data=None):
        if self.signed_out:
            return  # closed: frames already on their way are dropped
        if self.flooding():
            await self.send_error("bad_request", _("Too many messages: slow down."))
            return
        raw = text_data if text_data is not None else bytes_data or b""
        try:
            frame = json_limits.loads(raw, max_bytes=self.max_frame_bytes)
        except json_limits.JSONRejected as exc:
            await self.send_error("bad_request", str(exc))
            return
        kind = frame.get("type") if isinstance(frame, dict) else None
        handler = getattr(self, f"frame_{kind}", None) if isinstance(kind, str) and kind.isidentifier() else None
        if handler is None:
            await self.send_error("bad_request", self.refusal(frame))
            return
        await handler(frame)

    def flooding(self) -> bool:
        now = time.monotonic()
        if now - self._window_start >= 1.0:
            self._window_start = now
            self._window_frames = 0
        self._window_frames += 1
        return self._window_frames > self.max_frames_per_second

    def refusal(self, frame: Any) -> str:
        """What a frame this socket does not take is told."""
        if not isinstance(frame, dict):
            return "A message is a JSON object with a type."
        if frame.get("type") == "auth":  # a token comes only first, on a socket opened to wait for it
            return 'A token is sent only as the first frame of a socket opened with "?auth=frame".'
        return f"Unknown message type {str(frame.get('type'))[:20]!r}."

    async def frame_ping(self, frame: dict) -> None:
        await self.send(text_data=PONG)

    # -- the sign-in ---------------------------------------------------------------------
    async def as_signed_in(self, fn: Callable[..., T], *args: Any) -> T | None:
        """``fn(*args)``, a write on behalf of this socket's person, in a database thread, once
        the same thread has found their sign-in still standing (``Credentials.still_valid``,
        one query; an anonymous socket has none to check). If it has ended, nothing runs: the
        frame gets a ``signed_out`` error, the socket closes, and the result is None.

        The sign-in is checked again at most every ``SOCKET_RECHECK_SECONDS`` (it was checked at
        the handshake): the revocation event closes the socket at once, and this check only
        bounds how long a socket that missed it may still write, so a move does not pay a query
        of its own."""
        credentials = self.credentials
        now = time.monotonic()
        due = credentials is not None and now - self._checked_at >= settings.SOCKET_RECHECK_SECONDS

        def checked() -> tuple[T] | None:
            if due and credentials is not None and not credentials.still_valid():
                return None
            return (fn(*args),)

        ran = await db(checked)()
        if due:
            self._checked_at = now
        if ran is None:
            await self.send_error("signed_out", SIGNED_OUT_MESSAGE)
            await self.sign_out()
            return None
        return ran[0]

    async def still_signed_in(self) -> bool:
        """Whether this socket's person is still signed in, for a write that runs on the loop
        (``as_signed_in``'s check, on its own: one query at most every
        ``SOCKET_RECHECK_SECONDS``). If not, the frame gets a ``signed_out`` error and the
        socket closes."""
        credentials = self.credentials
        now = time.monotonic()
        if credentials is None or now - self._checked_at < settings.SOCKET_RECHECK_SECONDS:
            return True
        valid = await db(credentials.still_valid)()
        self._checked_at = now
        if not valid:
            await self.send_error("signed_out", SIGNED_OUT_MESSAGE)
            await self.sign_out()
        return valid

    async def sockets_revoked(self, event) -> None:
        """The person's sign-in ended: every socket of theirs closes, or those of one session."""
        session = event.get("session")
        if self.credentials is not None and (session is None or session == self.credentials.session):
            await self.sign_out()

    async def sign_out(self) -> None:
        if not self.signed_out:
            self.signed_out = True
            await self.close(code=SIGNED_OUT)

    # -- to the client -------------------------------------------------------------------
    async def send(self, text_data=None, bytes_data=None, close=False):
        """As Channels' own; a text frame, the common case, handed on in one step."""
        if text_data is not None and bytes_data is None and not close:
            await self.base_send({"type": "websocket.send", "text": text_data})
            return
        await super().send(text_data, bytes_data, close)

    async def send_json(self, content: Any) -> None:
        await self.send(text_data=json.dumps(content))

    async def send_error(self, code: str, message: str | Promise) -> None:
        """An error frame; its message (lazy: ``portal.errors``) in the language of the page."""
        with translation.override(self.language):
            message = str(message)
        await self.send_json({"type": "error", "code": code, "message": message})


def direct_send(send: Callable) -> Callable:
    """``send`` past Channels' session middleware: its wrapper acts only on an HTTP response's
    start (to save the session and set its cookie), which a socket never sends, and reads the
    session's state on every message all the same; a socket's frames skip it."""
    wrapper = getattr(send, "__self__", None)
    while isinstance(wrapper, InstanceSessionWrapper):
        send = wrapper.real_send
        wrapper = getattr(send, "__self__", None)
    return send
