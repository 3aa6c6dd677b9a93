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

from . import reach

CONTENT_TYPE = "application/x-ndjson"
KEEP_ALIVE = b"\n"

_open: Counter[int] = Counter()  # open streams per person in this process


class TooManyStreams(Exception):
    """The person holds as many streams on this process as they may."""


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
