"""Is the site ready to serve? The checks behind ``/readyz`` (``portal.probes``), and the
heartbeats Celery's worker and beat leave for them.

Each check names its dependency and says what it found: PostgreSQL (or the SQLite file), the
cache's Redis, the channel layer's Redis, a live Celery worker, and beat's last run.

A worker's main process writes its heartbeat (``worker_alive``, on Celery's own heartbeat
every few seconds, ``portal.celery``) into a hash on the broker; beat writes the time each
time it sends its periodic jobs (``beat_ran``). Reading them costs ``/readyz`` one Redis
command each, no round trip to a worker. With eager Celery (no broker: the embedded default)
there is no worker or beat to look for, and both checks say so and pass.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

# Seconds a probe waits for each dependency, and for all of them together.
PROBE_TIMEOUT = 1.0
CHECKS_TIMEOUT = 3.0
# A worker whose heartbeat is older than this is gone (Celery beats every 2 s; written every 5 s).
WORKER_STALE_SECONDS = 30.0
WORKER_WRITE_EVERY = 5.0
WORKERS_KEY = "portal:ready:workers"
BEAT_KEY = "portal:ready:beat"
# The database alias the database check reads.
DATABASE = "default"


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


class NotReady(Exception):
    """A dependency answered, but not as a ready site needs (no worker, a stale beat)."""


# -- the heartbeats ---------------------------------------------------------------------------
@functools.cache
def _broker(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=PROBE_TIMEOUT, socket_timeout=PROBE_TIMEOUT)


def _broker_url() -> str:
    return settings.CELERY_BROKER_URL


def broker() -> redis.Redis:
    """A client of the broker's Redis that waits at most ``PROBE_TIMEOUT`` for an answer."""
    return _broker(_broker_url())


_last_written: dict[str, float] = {}


def worker_alive(hostname: str, *, now: float | None = None) -> None:
    """A worker says it is alive (at most every ``WORKER_WRITE_EVERY`` seconds). Never raises:
    a broker that cannot be reached is the worker's own problem, and the probe's finding."""
    now = time.time() if now is None else now
    if now - _last_written.get(hostname, 0.0) < WORKER_WRITE_EVERY:
        return
    try:
        client = broker()
        client.hset(WORKERS_KEY, hostname, now)
        client.expire(WORKERS_KEY, 86400)
        _last_written[hostname] = now
    except redis.RedisError as exc:
        log.debug("Could not write the worker's heartbeat: %s", exc)


def worker_gone(hostname: str) -> None:
    """A worker shutting down takes its heartbeat with it."""
    _last_written.pop(hostname, None)
    try:
        broker().hdel(WORKERS_KEY, hostname)
    except redis.RedisError as exc:
        log.debug("Could not remove the worker's heartbeat: %s", exc)


def beat_ran(*, now: float | None = None) -> None:
    """Beat sent its periodic jobs: note the time (at most once a second). Never raises."""
    now = time.time() if now is None else now
    if now - _last_written.get(BEAT_KEY, 0.0) < 1.0:
        return
    try:
        broker().set(BEAT_KEY, now, ex=86400)
        _last_written[BEAT_KEY] = now
    except redis.RedisError as exc:
        log.debug("Could not write beat's heartbeat: %s", exc)


# -- the checks -------------------------------------------------------------------------------
def _ping(url: str) -> str:
    client = redis.Redis.from_url(url, socket_connect_timeout=PROBE_TIMEOUT, socket_timeout=PROBE_TIMEOUT)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def database():
    """The connection the database check reads through (in the check's own thread)."""
    return connections[DATABASE]


def check_database() -> str:
    connection = database()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()
    return "ok" if connection.vendor != "sqlite" else "ok (SQLite)"


def check_cache() -> str:
    config = settings.CACHES["default"]
    if "redis" not in config["BACKEND"].lower():
        return "embedded (local memory)"
    location = config["LOCATION"]
    return _ping(location[0] if isinstance(location, list | tuple) else location)


def check_channel_layer() -> str:
    config: dict[str, Any] = settings.CHANNEL_LAYERS["default"]
    if "redis" not in config["BACKEND"].lower():
        return "embedded (in memory)"
    host = config.get("CONFIG", {}).get("hosts", ["redis://127.0.0.1:6379"])[0]
    return _ping(host["address"] if isinstance(host, dict) else host)


def check_worker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "embedded (eager Celery: tasks run in the web process)"
    now = time.time()
    beats = broker().hgetall(WORKERS_KEY)
    alive = sorted(
        (now - float(at), name.decode() if isinstance(name, bytes) else name)
        for name, at in beats.items()
        if now - float(at) <= WORKER_STALE_SECONDS
    )
    if not alive:
        raise NotReady(f"no Celery worker has reported in the last {WORKER_STALE_SECONDS:.0f} s")
    return f"{len(alive)} worker(s), the latest heard {alive[0][0]:.0f} s ago"


def check_beat(period: float) -> str:
    """Beat's last run, at most twice ``period`` (its shortest job's interval) ago."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "embedded (eager Celery: manage.py run_clocks runs the periodic jobs)"
    at = broker().get(BEAT_KEY)
    if at is None:
        raise NotReady("beat has not sent its periodic jobs (is it running?)")
    age, limit = time.time() - float(at), 2 * period
    if age > limit:
        raise NotReady(f"beat last sent its periodic jobs {age:.0f} s ago (at most {limit:.0f} s expected)")
    return f"ok, last run {age:.0f} s ago"


def checks(beat_period: float) -> dict[str, Callable[[], str]]:
    """The checks by name, in the order ``/readyz`` shows them."""
    return {
        "database": check_database,
        "cache": check_cache,
        "channel_layer": check_channel_layer,
        "celery_worker": check_worker,
        "celery_beat": functools.partial(check_beat, beat_period),
    }


_threads = ThreadPoolExecutor(max_workers=5, thread_name_prefix="readyz")


def _run(check) -> str:
    try:
        return check()
    finally:
        connections.close_all()  # this thread's connections go back (to the pool)


def run_checks(named: dict[str, Callable[[], str]]) -> list[Check]:
    """Every check at once, all within ``CHECKS_TIMEOUT`` seconds."""
    futures = {name: _threads.submit(_run, check) for name, check in named.items()}
    deadline = time.monotonic() + CHECKS_TIMEOUT
    results = []
    for name, future in futures.items():
        try:
            results.append(Check(name, True, future.result(timeout=max(deadline - time.monotonic(), 0.0))))
        except FutureTimeout:
            results.append(Check(name, False, f"no answer within {CHECKS_TIMEOUT:.0f} s"))
        except Exception as exc:
            results.append(Check(name, False, _described(exc)))
    return results


def _described(exc: Exception) -> str:
    if isinstance(exc, NotReady):
        return str(exc)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:300]
