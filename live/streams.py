"""Event streams over HTTP: what a socket would get, as NDJSON lines on one long response.

For clients that prefer a plain HTTP response to a WebSocket (bots, scripts): a stream listens
to channel-layer groups as a socket does, on the event loop of the server that serves it, and
hands each message to the app's view, which turns it into lines. A minute without anything to
say, it sends a blank line, so proxies and clients know it is alive. A client that goes away
ends it (Django cancels the response), and its channel leaves its groups.

Streams are bounded per person and process (``STREAMS_PER_PERSON``): a stream holds a channel
and a task on the server for as long as it is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import JsonResponse, StreamingHttpResponse

from . import reach
from .credentials import session_digest
from .events import SOCKETS_REVOKED

CONTENT_TYPE = "application/x-ndjson"
KEEP_ALIVE = b"\n"

_open: Counter[int] = Counter()  # open streams per person in this process


class TooManyStreams(Exception):
    """The person holds as many streams on this process as they may."""


def session_of(request) -> str | None:
    """The digest of the session a stream is opened in (None for one opened by an API token):
    signing out of that session ends it."""
    if "Authorization" in request.headers or not request.session.session_key:
        return None
    return session_digest(request.session.session_key)


def line(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode() + b"\n"


def text_line(text: str) -> bytes:
    """A payload already serialised (a socket's frame): one line of the stream."""
    return text.encode() + b"\n"


class Listener:
    """A channel of this process listening to ``groups``; ``next`` waits for a message, or
    returns None when ``keep_alive`` seconds pass without one."""

    def __init__(self, person: int | None) -> None:
        self.person = person
        self.layer = get_channel_layer()
        self.channel = ""
        self.groups: list[str] = []
        self._receiving: asyncio.Future | None = None

    async def open(self, groups: Iterable[str]) -> None:
        if self.person is not None:
            if _open[self.person] >= settings.STREAMS_PER_PERSON:
                raise TooManyStreams
            _open[self.person] += 1
        if reach.down():
            raise ConnectionError("the live path is down")
        self.channel = await self.layer.new_channel()
        for group in groups:
            await self.join(group)

    async def join(self, group: str) -> None:
        if group not in self.groups:
            await self.layer.group_add(group, self.channel)
            self.groups.append(group)

    async def leave(self, group: str) -> None:
        if group in self.groups:
            self.groups.remove(group)
            await self.layer.group_discard(group, self.channel)

    async def next(self, keep_alive: float) -> dict | None:
        # The receive is not cancelled on a quiet minute: a cancelled receive gives up its
        # channel (channels-redis unsubscribes it). It goes on waiting for the next call.
        if self._receiving is None:
            self._receiving = asyncio.ensure_future(self.layer.receive(self.channel))
        done, _ = await asyncio.wait({self._receiving}, timeout=keep_alive)
        if not done:
            return None
        message, self._receiving = self._receiving.result(), None
        return message

    async def close(self) -> None:
        if self._receiving is not None:
            self._receiving.cancel()
            with contextlib.suppress(BaseException):
                await self._receiving
        for group in list(self.groups):
            with contextlib.suppress(Exception):  # Redis gone: the subscriptions end with it
                await self.leave(group)
        if self.person is not None:
            _open[self.person] -= 1
            if _open[self.person] <= 0:
                del _open[self.person]


async def closing(listener: Listener, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``lines``, then the listener closed however the stream ends (the client gone included)."""
    try:
        async for chunk in lines:
            yield chunk
    finally:
        await listener.close()


async def opened(listener: Listener, groups: Iterable[str]) -> JsonResponse | None:
    """Open ``listener`` on ``groups``; the refusal to answer instead, if it cannot be."""
    try:
        await listener.open(groups)
        return None
    except TooManyStreams:
        await listener.close()
        message = f"At most {settings.STREAMS_PER_PERSON} open streams a person."
        return JsonResponse({"code": "too_many_streams", "message": message}, status=429)
    except Exception:
        await listener.close()
        message = "The live connection is down: poll meanwhile."
        return JsonResponse({"code": "unavailable", "message": message}, status=503)


def response(listener: Listener, lines: AsyncIterator[bytes]) -> StreamingHttpResponse:
    """The streamed answer: ``lines``, passed on by proxies as they come, never cached."""
    answer = StreamingHttpResponse(closing(listener, lines), content_type=CONTENT_TYPE)
    answer["Cache-Control"] = "no-store"
    answer["X-Accel-Buffering"] = "no"
    return answer


async def messages(listener: Listener, session: str | None) -> AsyncIterator[dict | None]:
    """What reaches ``listener``, None for each quiet ``STREAM_KEEP_ALIVE_SECONDS``, until the
    sign-in ends: a new password or a token issued anew (every stream of the person), or
    signing out of ``session`` (the digest of the session the stream was opened in)."""
    while True:
        message = await listener.next(settings.STREAM_KEEP_ALIVE_SECONDS)
        if message is not None and message.get("type") == SOCKETS_REVOKED:
            if message.get("session") in (None, session):
                return
            continue
        yield message
