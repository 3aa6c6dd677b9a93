"""The bridge from worker threads to the server's event loop.

The sockets of a process, and the in-memory channel layer of the embedded default, live on
the ASGI server's event loop. Sync code that runs for the server in a thread of its own (a
bot thinking in ``games.bot_runner``) must send through that loop, not a loop of its own.
The loop is noted as requests and sockets come in (``ServerLoop``, ``note_loop``); a worker
thread says it works for the server (``bind``); ``call`` then runs a coroutine on that loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync

from . import pg

log = logging.getLogger(__name__)

_loop: tuple[asyncio.AbstractEventLoop, int] | None = None
_thread = threading.local()


def note_loop() -> None:
    """Note the running loop as this process's server loop (called on the loop)."""
    global _loop
    loop = asyncio.get_running_loop()
    if _loop is None or _loop[0] is not loop:
        _loop = (loop, os.getpid())


class ServerLoop:
    """ASGI middleware: notes the server's loop for the bridge, then serves as ``inner``."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        note_loop()
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return None
        return await self.inner(scope, receive, send)


async def _lifespan(receive, send) -> None:
    """The server's start and end: at the end, the loop's own database connections close."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await pg.close()
            await send({"type": "lifespan.shutdown.complete"})
            return


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's running loop, for a thread that works for it; None on the loop's own
    thread (a coroutine there awaits instead), in another process, or with no server."""
    try:
        asyncio.get_running_loop()
        return None
    except RuntimeError:
        pass
    if _loop is None:
        return None
    loop, pid = _loop
    return loop if pid == os.getpid() and loop.is_running() else None


def bind() -> None:
    """This thread works for the server (a bot's thread): its messages go through the
    server's loop whenever there is one running."""
    _thread.for_server = True


def call(coroutine_function: Callable[..., Coroutine[Any, Any, Any]], *args: Any, timeout: float = 5.0) -> None:
    """Run ``coroutine_function(*args)`` to its end from sync code: on the server's loop for a
    thread bound to it, else through ``async_to_sync``. A loop that stops meanwhile (the
    server shutting down) costs at most ``timeout``, never a thread stuck for good; the
    message is then lost, as the layer may lose any, and pages resync. An error of the
    coroutine is raised here, as it would be on the loop (the publisher tells its kinds apart)."""
    loop = server_loop() if getattr(_thread, "for_server", False) else None
    if loop is None:
        async_to_sync(coroutine_function)(*args)
        return
    future = asyncio.run_coroutine_threadsafe(coroutine_function(*args), loop)
    try:
        future.result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        future.cancel()
        log.warning("A message from a worker thread did not go out in %g s", timeout)
