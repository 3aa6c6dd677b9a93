"""With Redis, every cache object of a process (Django makes one per request context, and
under ASGI each request has its own) shares one connection pool, so requests do not connect
to Redis anew."""

import pytest
from django.conf import settings
from django.core.cache import caches

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (the embedded default has no Redis)")


def test_two_request_contexts_share_the_redis_connection_pool():
    first, second = caches.create_connection("default"), caches.create_connection("default")
    first.set("pool-check", 1)
    assert second.get("pool-check") == 1
    assert first._cache.get_client().connection_pool is second._cache.get_client().connection_pool
