"""/readyz: 200 naming each dependency it found answering, or 503 naming the one that does
not. Each dependency is taken down by pointing its check at a port of 127.0.0.1 where nothing
listens (or at a Redis of the test's own), never by stopping a shared service."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connections
from django.db.backends.postgresql.base import DatabaseWrapper
from django.test import override_settings

from portal import readiness
from tests.conftest import wait_for
from tests.games.live_servers import free_port
from tests.games.test_redis_outage import redis_server

pytestmark = pytest.mark.django_db


def closed_port_url() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"


def ready(client) -> tuple[int, dict]:
    response = client.get("/readyz")
    return response.status_code, response.json()


@pytest.fixture
def embedded(settings):
    """The embedded defaults whatever this run is on: local memory, in-memory layer, eager Celery."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.CELERY_TASK_ALWAYS_EAGER = True


def test_on_the_embedded_defaults_every_check_passes_and_says_what_it_found(client, embedded):
    status, body = ready(client)
    assert status == 200, body
    assert body["status"] == "ready" and body["failing"] == []
    checks = body["checks"]
    assert list(checks) == ["database", "cache", "channel_layer", "celery_worker", "celery_beat"]
    assert all(check["ok"] for check in checks.values())
    assert checks["celery_worker"]["detail"].startswith("embedded")
    assert checks["celery_beat"]["detail"].startswith("embedded")


def test_the_real_dependencies_of_this_run_answer(client, settings):
    """On PostgreSQL and Redis (the CI run), the database and both uses of Redis answer."""
    status, body = ready(client)
    for name in ("database", "cache", "channel_layer"):
        assert body["checks"][name]["ok"], body


def test_a_database_that_does_not_answer_is_named(client, embedded, monkeypatch):
    port = free_port()
    unreachable = connections.configure_settings(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "HOST": "127.0.0.1",
                "PORT": port,
                "NAME": "portal",
                "USER": "postgres",
                "OPTIONS": {"connect_timeout": 1},
            }
        }
    )["default"]
    # Made in the check's own thread, as the check's connection is.
    monkeypatch.setattr(readiness, "database", lambda: DatabaseWrapper(unreachable, alias="unreachable"))
    status, body = ready(client)
    assert status == 503
    assert body["status"] == "failing" and body["failing"] == ["database"]
    assert "OperationalError" in body["checks"]["database"]["detail"]


def test_a_cache_redis_that_does_not_answer_is_named(client, embedded, settings):
    url = closed_port_url()
    settings.CACHES = {"default": {"BACKEND": "portal.cache.FaultTolerantRedisCache", "LOCATION": url}}
    status, body = ready(client)
    assert status == 503 and body["failing"] == ["cache"]
    assert "ConnectionError" in body["checks"]["cache"]["detail"]


def test_a_channel_layer_redis_that_does_not_answer_is_named(client, embedded, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": closed_port_url()}]},
        }
    }
    status, body = ready(client)
    assert status == 503 and body["failing"] == ["channel_layer"]
    assert "ConnectionError" in body["checks"]["channel_layer"]["detail"]


def celery_on(broker_url: str):
    """Celery with a broker (restored before the test's end drains the real one)."""
    return override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL=broker_url)


@pytest.fixture
def own_broker(embedded):
    """Celery on a broker of the test's own, that no worker or beat has written to yet."""
    with redis_server() as server, celery_on(server.url):
        readiness._last_written.clear()
        yield server
        readiness._last_written.clear()


def test_without_a_live_worker_the_worker_is_named_and_a_heartbeat_brings_it_back(client, own_broker):
    readiness.beat_ran()
    status, body = ready(client)
    assert status == 503 and body["failing"] == ["celery_worker"]
    assert "no Celery worker" in body["checks"]["celery_worker"]["detail"]

    readiness.worker_alive("worker@old", now=time.time() - readiness.WORKER_STALE_SECONDS - 5)
    assert ready(client)[1]["failing"] == ["celery_worker"], "a worker that stopped reporting is not alive"

    readiness.worker_alive("worker@host")
    status, body = ready(client)
    assert status == 200, body
    assert body["checks"]["celery_worker"]["detail"].startswith("1 worker(s)")

    readiness.worker_gone("worker@host")
    assert ready(client)[1]["failing"] == ["celery_worker"], "a worker that shut down is gone at once"


def test_a_beat_that_has_not_run_for_twice_its_period_is_named(client, own_broker):
    readiness.worker_alive("worker@host")
    status, body = ready(client)
    assert status == 503 and body["failing"] == ["celery_beat"]
    assert "has not sent" in body["checks"]["celery_beat"]["detail"]

    readiness.beat_ran(now=time.time() - 11)  # the shortest job runs every 5 s: stale past 10 s
    status, body = ready(client)
    assert status == 503 and body["failing"] == ["celery_beat"]
    assert "at most 10 s expected" in body["checks"]["celery_beat"]["detail"]

    readiness.beat_ran()
    assert ready(client)[0] == 200


def test_a_broker_that_does_not_answer_fails_both_celery_checks(client, embedded):
    with celery_on(closed_port_url()):
        status, body = ready(client)
    assert status == 503 and body["failing"] == ["celery_worker", "celery_beat"]


def test_beat_sending_its_jobs_is_its_heartbeat(own_broker, monkeypatch):
    from portal import celery

    monkeypatch.setattr(celery, "_in_beat", True)
    celery._stamp_sent(headers={})
    assert readiness.broker().get(readiness.BEAT_KEY) is not None


ROOT = Path(__file__).resolve().parents[2]


def start(tmp_path, broker_url: str, *command: str) -> subprocess.Popen:
    environment = {**os.environ, "REDIS_URL": broker_url, "CHANNEL_PREFIX": "readyz", "PORTAL_TESTING": "1"}
    environment.pop("DATABASE_URL", None)  # no task of theirs runs: nothing touches a database
    log = (tmp_path / f"{command[0]}.log").open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "portal", *command],
        env=environment,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)  # a warm shutdown, as a service manager stops it
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def test_a_real_worker_and_beat_make_the_site_ready_and_a_stopped_worker_is_named(client, own_broker, tmp_path):
    """A Celery worker and beat of the test's own, on its own Redis. The worker listens to a queue
    nobody sends to, so beat's jobs wait unrun: only their heartbeats matter here."""
    worker = start(
        tmp_path, own_broker.url, "worker", "--pool=solo", "--without-mingle", "--without-gossip", "-Q", "readyz-idle"
    )
    beat = start(tmp_path, own_broker.url, "beat", "--schedule", str(tmp_path / "beat-schedule"))
    try:
        wait_for(lambda: ready(client)[0] == 200, timeout=60, message="the worker's and beat's heartbeats")
        checks = ready(client)[1]["checks"]
        assert checks["celery_worker"]["detail"].startswith("1 worker(s)")
        assert checks["celery_beat"]["detail"].startswith("ok, last run")
        stop(worker)
        status, body = ready(client)
        assert status == 503 and body["failing"] == ["celery_worker"]
    finally:
        stop(worker)
        stop(beat)
