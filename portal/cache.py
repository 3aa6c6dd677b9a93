"""Django's Redis cache, failing open: while Redis cannot be reached the cache behaves as an
empty store that keeps nothing, and says so in the log, instead of raising into the request.

Everything that reads the cache on the way in relies on this: the API's throttles, allauth's
and the forum's rate limits (django-ratelimit, with ``RATELIMIT_FAIL_OPEN``), the cached
sessions (``cached_db`` falls back to the database) and the page fragments (rendered afresh).
So reads, log-ins and forum posts keep working through a Redis outage, unthrottled until it
is back. ``add`` answers True (as if the key had been stored), so a lock taken with it (a
forum post's claim, allauth's rate-limit lock) is taken rather than waited for; ``incr``
raises ``ValueError`` as for a missing key, which django-ratelimit treats as a first hit.

A Redis that refuses connections fails a call at once; one that hangs (a blackholed network,
a stopped process) fails it after the socket timeout (settings ``REDIS_SOCKET_TIMEOUT``). Either
opens the server's breaker (``portal.redis_pool.Breaker``): for the back-off that follows, every
cache operation of the process answers as an empty store without touching Redis, so a request
during an outage waits for Redis at most once per back-off, not once per operation. The outage
is logged when it starts and when it ends.

Connections come from one pool per process (``portal.redis_pool``), which drops a dead
connection and retries once on a connection error (never on a timeout), so the first command after Redis comes back
reaches it instead of failing on the connection that Redis closed.

``aget``, ``aget_many`` (the page fragments, the cached sessions) and ``aset_many`` (a page's
generation moved on by the live room, on the move path) are native: they wait on Redis in the
event loop through ``redis.asyncio``, one pool per event loop, where Django's own would run the
sync call in a thread. The same breaker guards them.
"""

from __future__ import annotations

import asyncio
import functools
import re
import weakref
from collections.abc import Callable
from typing import Any

import redis.asyncio
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisSerializer
from django.core.exceptions import ImproperlyConfigured
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from .redis_pool import UNREACHABLE, Breaker, breaker_for

# The asyncio clients, per event loop and server.
_ASYNC_CLIENTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis.asyncio.Redis]] = (
    weakref.WeakKeyDictionary()
)


def _fail_open(answer):
    """Run the cache operation unless Redis is known to be down; on a timeout or a connection
    fault, open the breaker and return ``answer(args)``, as while it stays open."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            breaker = self.breaker
            if not breaker.allow():
                return answer(*args, **kwargs)
            try:
                result = method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                breaker.failed(exc, f"cache {method.__name__}")
                return answer(*args, **kwargs)
            breaker.succeeded()
            return result

        return wrapper

    return decorate


def _missing_key(*args, **kwargs):
    raise ValueError("The cache is unreachable: the key is treated as missing.")


def _default(key, default=None, *args, **kwargs):
    return default


class FaultTolerantRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        first = re.split("[;,]", server)[0] if isinstance(server, str) else server[0]
        self.breaker: Breaker = breaker_for(first)
        # For the reads in the event loop: the first server (the one the sync client reads
        # when there is one), its timeouts, and the values as the sync client stores them.
        self._first_server = first
        options = params.get("OPTIONS", {})
        self._async_options = {k: options[k] for k in self._ASYNC_OPTIONS if k in options}
        serializer = options.get("serializer")
        if serializer is not None:
            raise ImproperlyConfigured(f"{type(self).__name__} stores values with Django's RedisSerializer only.")
        self._loads: Callable[[Any], Any] = RedisSerializer().loads
        self._dumps: Callable[[Any], Any] = RedisSerializer().dumps

    add = _fail_open(lambda *a, **k: True)(RedisCache.add)
    get = _fail_open(_default)(RedisCache.get)
    set = _fail_open(lambda *a, **k: None)(RedisCache.set)
    touch = _fail_open(lambda *a, **k: False)(RedisCache.touch)
    delete = _fail_open(lambda *a, **k: False)(RedisCache.delete)
    get_many = _fail_open(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _fail_open(lambda *a, **k: False)(RedisCache.has_key)
    incr = _fail_open(_missing_key)(RedisCache.incr)
    set_many = _fail_open(lambda *a, **k: [])(RedisCache.set_many)
    delete_many = _fail_open(lambda *a, **k: None)(RedisCache.delete_many)
    clear = _fail_open(lambda *a, **k: False)(RedisCache.clear)

    @property
    def address(self) -> str:
        """The Redis this cache reads (its first server's address, as configured)."""
        return self._first_server

    # -- reads in the event loop -----------------------------------------------------------

    # The options of the sync pool that mean the same for the async one.
    _ASYNC_OPTIONS = ("socket_connect_timeout", "socket_timeout", "health_check_interval")

    def _async_client(self) -> redis.asyncio.Redis:
        """The client of this server for the running event loop (an asyncio pool serves one
        loop only), shared by every cache object of the process: Django makes one per
        request context."""
        clients = _ASYNC_CLIENTS.setdefault(asyncio.get_running_loop(), {})
        client = clients.get(self._first_server)
        if client is None:
            retry = Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,))
            client = redis.asyncio.Redis.from_url(self._first_server, retry=retry, **self._async_options)
            clients[self._first_server] = client
        return client

    async def aget_many(self, keys, version=None):
        if not self.breaker.allow():
            return {}
        key_map = {self.make_and_validate_key(key, version=version): key for key in keys}
        try:
            values = await self._async_client().mget(list(key_map))
        except UNREACHABLE as exc:
            self.breaker.failed(exc, "cache aget_many")
            return {}
        self.breaker.succeeded()
        return {key_map[k]: self._loads(v) for k, v in zip(key_map, values, strict=True) if v is not None}

    async def aget(self, key, default=None, version=None):
        found = await self.aget_many([key], version=version)
        return found.get(key, default)

    async def aset_many(self, data: dict, timeout=None, version=None) -> list:
        """``set_many`` in the event loop: one SET (one round trip) for one key, a pipeline for
        more; ``timeout`` in seconds, None for no expiry. Nothing is raised: while Redis cannot
        be reached nothing is kept, as with the sync calls. Returns the keys not kept: none."""
        if not data or not self.breaker.allow():
            return []
        seconds = self.get_backend_timeout(timeout)
        expiry = None if seconds is None else int(seconds)
        items = [(self.make_and_validate_key(key, version=version), self._dumps(value)) for key, value in data.items()]
        client = self._async_client()
        try:
            if len(items) == 1:
                await client.set(items[0][0], items[0][1], ex=expiry)
            else:
                pipeline = client.pipeline(transaction=False)
                for key, value in items:
                    pipeline.set(key, value, ex=expiry)
                await pipeline.execute()
        except UNREACHABLE as exc:
            self.breaker.failed(exc, "cache aset_many")
            return []
        self.breaker.succeeded()
        return []


async def aget_many(cache, keys) -> dict:
    """``cache.get_many(keys)`` for async code without a thread where none is needed: Redis
    read in the event loop (above), the local-memory cache of the embedded default read at
    once (it is in this process's memory); any other backend through Django's thread."""
    if isinstance(cache, LocMemCache):
        return cache.get_many(keys)
    return await cache.aget_many(keys)


async def aset_many(cache, data: dict, timeout=None) -> None:
    """``cache.set_many(data, timeout)`` for async code, as ``aget_many`` reads."""
    if isinstance(cache, LocMemCache):
        cache.set_many(data, timeout)
    else:
        await cache.aset_many(data, timeout)
