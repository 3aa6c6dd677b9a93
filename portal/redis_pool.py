"""One Redis connection pool per process for Django's cache.

Django keeps a cache object per request context, and under ASGI every request runs in a
context of its own; the Redis backend's pool belongs to that object, so each request would
connect to Redis anew (the API's throttles and the forum's rate limits read the cache on
every request). This pool class hands every cache object of the process the same pool for
the same address. redis-py pools are thread-safe and start afresh in a forked child.
"""

from __future__ import annotations

import threading

import redis


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
