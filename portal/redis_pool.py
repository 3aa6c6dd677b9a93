"""One Redis connection pool per process for Django's cache, and one circuit breaker per
Redis server for every client of the process (the cache, the live path, the broker).

Django keeps a cache object per request context, and under ASGI every request runs in a
context of its own; the Redis backend's pool belongs to that object, so each request would
connect to Redis anew (the API's throttles and the forum's rate limits read the cache on
every request). This pool class hands every cache object of the process the same pool for
the same address. redis-py pools are thread-safe and start afresh in a forked child.
"""

from __future__ import annotations

import logging
import threading
import time
import urllib.parse

import redis
from django.conf import settings


class SharedConnectionPool(redis.ConnectionPool):
    _pools: dict[tuple, redis.ConnectionPool] = {}
    _lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs) -> redis.ConnectionPool:
        key = (url, tuple(sorted((name, repr(value)) for name, value in kwargs.items())))
        with cls._lock:
            pool = cls._pools.get(key)
            if pool is None:
                pool = cls._pools[key] = redis.ConnectionPool.from_url(url, **kwargs)
            return pool


# -- the circuit breaker --------------------------------------------------------------------
# One Redis serves the process's cache, channel layer and broker. A Redis that hangs (a
# blackholed network, a stopped process) answers nothing: every call waits out its socket
# timeout. So the first call that times out or cannot connect opens the breaker of that
# server, and for BACK_OFF_SECONDS every client of the process (the cache, the live path, the
# broker) treats Redis as down without waiting on it; then one call is let through as a trial,
# which closes the breaker if it succeeds and opens it for another back-off if it fails.

UNREACHABLE: tuple[type[Exception], ...] = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
BACK_OFF_SECONDS = 5.0


class RedisDown(redis.exceptions.ConnectionError):
    """Redis is known to be down (its breaker is open): the call was not even tried."""


log = logging.getLogger(__name__)


def unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it: kombu wraps redis-py's errors) says Redis did not
    answer: a timeout or a connection that failed, as opposed to a bug or a bad command."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, UNREACHABLE):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class Breaker:
    """Whether one Redis server is to be called now. ``allow()`` is a comparison of two floats
    while Redis is healthy; ``failed()`` and ``succeeded()`` log once per change of state (the
    outage's start and its end), never once per call."""

    def __init__(self, name: str, back_off: float = BACK_OFF_SECONDS) -> None:
        self.name = name
        self.back_off = back_off
        self._until = 0.0  # 0.0: closed (Redis healthy); else no call before this time
        self._down_since = 0.0
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """Whether a call may go to Redis now: yes while it is healthy; while it is down, no,
        except one trial call once the back-off has passed."""
        until = self._until
        if not until:
            return True
        now = time.monotonic()
        if now < until:
            return False
        with self._lock:
            if now < self._until or not self._until:
                return not self._until
            self._until = now + self.back_off  # the others keep skipping while the trial runs
            return True

    @property
    def down(self) -> bool:
        return bool(self._until)

    def failed(self, exc: BaseException | None = None, what: str = "") -> None:
        """A call timed out or could not connect: no call for the back-off."""
        with self._lock:
            self._until = time.monotonic() + self.back_off
        self.noted(exc, what)

    def noted(self, exc: BaseException | None = None, what: str = "") -> None:
        """Redis was found down (by a call, or by a client of its own such as the channel
        layer's receiving loop): logged if this is news; the breaker itself is not opened."""
        with self._lock:
            if self._down_since:
                return
            self._down_since = time.monotonic()
        log.warning(
            "Redis at %s is down (%s%s); serving without it, trying again every %g s",
            self.name,
            f"{what}: " if what else "",
            exc if exc is not None else "no answer",
            self.back_off,
        )

    def succeeded(self) -> None:
        """A call reached Redis: the breaker closes, and an outage logged is over."""
        if not self._until and not self._down_since:
            return
        with self._lock:
            since, self._until, self._down_since = self._down_since, 0.0, 0.0
        if since:
            log.warning("Redis at %s is back after %.1f s", self.name, time.monotonic() - since)

    def reset(self) -> None:
        """Forget any outage (for tests)."""
        with self._lock:
            self._until = self._down_since = 0.0


_breakers: dict[str, Breaker] = {}
_by_url: dict[str, Breaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(url: str) -> Breaker:
    """The breaker of the Redis server at ``url`` (one per host and port in the process,
    whichever database number the client uses)."""
    breaker = _by_url.get(url)
    if breaker is not None:
        return breaker
    parsed = urllib.parse.urlsplit(url)
    name = f"{parsed.hostname or parsed.path}:{parsed.port or 6379}" if parsed.hostname else url
    breaker = _breakers.get(name)
    if breaker is None:
        with _breakers_lock:
            breaker = _breakers.setdefault(name, Breaker(name))
    _by_url[url] = breaker
    return breaker


def short_timeout_client(url: str, **kwargs) -> redis.Redis:
    """A client of the Redis at ``url`` that gives up on a Redis that does not answer within
    ``REDIS_SOCKET_TIMEOUT`` (connecting: ``REDIS_CONNECT_TIMEOUT``), for the callers that
    carry on without it (their breaker, ``breaker_for(url)``, then skips it for a while)."""
    timeout = getattr(settings, "REDIS_SOCKET_TIMEOUT", 1.0)
    return redis.Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=getattr(settings, "REDIS_CONNECT_TIMEOUT", timeout),
        **kwargs,
    )


def reset_breakers() -> None:
    """Forget every outage of the process (for tests)."""
    for breaker in list(_breakers.values()):
        breaker.reset()


class OutageLogFilter(logging.Filter):
    """Drops the log records whose error is Redis not answering (a traceback per request, per
    socket or per second of channels-redis' receiving loop during an outage) after noting the
    outage on the breaker, which logs it once when it starts and once when it ends. Noting
    does not open the breaker: a process that made no call of its own meanwhile (only its
    receiving loop failed) sends its first call after Redis is back straight to it.
    Installed on the handlers in settings.LOGGING."""

    def __init__(self, url: str = "") -> None:
        super().__init__()
        self.url = url

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None or not unreachable(exc):
            return True
        if self.url and not isinstance(exc, RedisDown):  # a skipped call is no news
            breaker_for(self.url).noted(exc, record.getMessage()[:80])
        return False
