"""The cache fails open: with its Redis unreachable, reads, pages, log-ins, the API and forum
posts keep working (unthrottled until Redis is back), and the fault is logged, not raised."""

import logging

import pytest
from django.core.cache import caches

from portal import page_cache, redis_pool
from portal.cache import FaultTolerantRedisCache
from tests.conftest import DEMO_PASSWORD
from tests.games.live_servers import free_port


def unreachable_redis_cache() -> dict:
    """A cache on a port where no Redis listens (nothing answers: connection refused)."""
    return {
        "BACKEND": "portal.cache.FaultTolerantRedisCache",
        "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        "OPTIONS": {"pool_class": "portal.redis_pool.SharedConnectionPool", "socket_connect_timeout": 1},
    }


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {"default": unreachable_redis_cache()}
    page_cache.shared_cache.cache_clear()
    yield
    page_cache.shared_cache.cache_clear()


@pytest.fixture(autouse=True)
def _no_outage_remembered():
    redis_pool.reset_breakers()
    yield
    redis_pool.reset_breakers()


def test_an_unreachable_cache_answers_as_an_empty_store_and_logs_once(caplog):
    store = FaultTolerantRedisCache(unreachable_redis_cache()["LOCATION"], {"OPTIONS": {"socket_connect_timeout": 1}})
    with caplog.at_level(logging.WARNING):
        assert store.get("k") is None and store.get("k", 7) == 7
        assert store.set("k", 1) is None
        assert store.add("k", 1) is True, "a lock taken with add() is taken, not waited for forever"
        with pytest.raises(ValueError):
            store.incr("k")
        assert store.get_many(["a", "b"]) == {}
        assert store.set_many({"a": 1}) == []
        assert store.delete("k") is False and store.has_key("k") is False
        assert store.get_or_set("k", 3) == 3
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "is down" in warnings[0].getMessage()


def test_after_a_failure_the_cache_serves_without_redis_for_a_moment_then_tries_again():
    store = FaultTolerantRedisCache(unreachable_redis_cache()["LOCATION"], {"OPTIONS": {"socket_connect_timeout": 1}})
    tries = []
    real = store._cache.get_client

    def get_client(*args, **kwargs):
        tries.append(1)
        return real(*args, **kwargs)

    store._cache.get_client = get_client
    assert store.get("k") is None and len(tries) == 1
    assert store.get("k") is None and store.set("k", 1) is None
    assert len(tries) == 1, "no connection attempt while Redis is known to be down"
    store.breaker._until -= redis_pool.BACK_OFF_SECONDS  # the back-off has passed
    assert store.get("k") is None and len(tries) == 2


@pytest.mark.django_db
def test_anonymous_reads_and_pages_answer_while_the_cache_is_down(client, redis_down):
    assert isinstance(caches["default"], FaultTolerantRedisCache)
    assert client.get("/api/games/").status_code == 200, "the API's throttles read the cache"
    assert client.get("/api/matches/").status_code == 200
    assert client.get("/").status_code == 200, "the page fragments come from the cache"
    assert client.get("/accounts/login/").status_code == 200


@pytest.mark.django_db
def test_logging_in_works_while_the_cache_is_down(client, alice, redis_down):
    response = client.post("/accounts/login/", {"login": "alice", "password": DEMO_PASSWORD})
    assert response.status_code == 302
    assert client.get("/api/matches/").status_code == 200
    assert int(client.session["_auth_user_id"]) == alice.pk, "the session lives on in the database"


@pytest.mark.django_db
def test_a_forum_reply_is_posted_while_the_cache_is_down(client, alice, bob, redis_down):
    from forums import services
    from forums.models import Forum, Post

    topic = services.topic_create(forum_id=Forum.objects.get(slug="general").pk, user=bob, title="Hi", body="First.")
    client.force_login(alice)
    response = client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "A reply while Redis is down."})
    assert response.status_code == 302
    assert Post.objects.filter(author=alice, topic=topic).count() == 1
