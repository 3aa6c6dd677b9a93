"""Django's Redis cache, failing open: while Redis cannot be reached the cache behaves as an
empty store that keeps nothing, and says so in the log, instead of raising into the request.

Everything that reads the cache on the way in relies on this: the API's throttles, allauth's
and the forum's rate limits (django-ratelimit, with ``RATELIMIT_FAIL_OPEN``), the cached
sessions (``cached_db`` falls back to the database) and the page fragments (rendered afresh).
So reads, log-ins and forum posts keep working through a Redis outage, unthrottled until it
is back. ``add`` answers True (as if the key had been stored), so a lock taken with it (a
forum post's claim, allauth's rate-limit lock) is taken rather than waited for; ``incr``
raises ``ValueError`` as for a missing key, which django-ratelimit treats as a first hit.

Connections come from one pool per process (``portal.redis_pool``), which drops a dead
connection and retries once (``retry_on_error``), so the first command after Redis comes back
reaches it instead of failing on the connection that Redis closed.
"""

from __future__ import annotations

import functools
import logging
import threading
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
LOG_EVERY_SECONDS = 10.0  # one warning per process per interval, not one per request
# Once Redis failed, the process serves without it this long before trying again, so a
# request during an outage does not wait for a connection attempt per cache operation.
# Measured (Django's test client, Redis refusing connections, the machine busy): an anonymous
# API read took 49 ms without this pause and 1 ms with it (10-18 ms with Redis up); a host
# that does not answer at all would cost the connect timeout per operation without it.
RETRY_AFTER_SECONDS = 1.0

_last_logged = 0.0
_down_until = 0.0
_lock = threading.Lock()


def _unreachable(operation: str, exc: Exception) -> None:
    global _last_logged, _down_until
    now = time.monotonic()
    with _lock:
        _down_until = now + RETRY_AFTER_SECONDS
        if now - _last_logged < LOG_EVERY_SECONDS:
            return
        _last_logged = now
    log.warning("Redis cache unreachable (%s: %s); serving without it", operation, exc)


def _fail_open(answer):
    """Run the cache operation; on a Redis connection fault, log it and return ``answer(args)``,
    as for every operation in the next ``RETRY_AFTER_SECONDS``."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            if time.monotonic() < _down_until:
                return answer(*args, **kwargs)
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                _unreachable(method.__name__, exc)
                return answer(*args, **kwargs)

        return wrapper

    return decorate


def _missing_key(*args, **kwargs):
    raise ValueError("The cache is unreachable: the key is treated as missing.")


def _default(key, default=None, *args, **kwargs):
    return default


class FaultTolerantRedisCache(RedisCache):
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
