"""Fixtures shared by the whole suite.

The same tests run on the embedded defaults and, with DATABASE_URL and REDIS_URL set, on
PostgreSQL, channels-redis and a real Celery worker (see ``drain_worker`` below).
"""

import collections
import functools
import os
import shutil
import socket
import threading
import time

import pytest
import pytest_asyncio
from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.services import user_confirm_email
from games import bot_queue, state_cache
from live import pg

DEMO_PASSWORD = "a-long-test-password-42"
CHROMIUM = "/usr/bin/chromium"
ANALYSIS_QUEUE = settings.CELERY_TASK_ROUTES["games.tasks.analyse_match"]["queue"]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = settings.BASE_DIR / "test-artifacts"


_tasks_running = 0
# Sent by this process (tests, live-server threads, the worker's own retries) and not yet
# received by the worker, by task id: when each was sent. A retry is a new message under the
# same id, sent and received again. One published to another broker (a test's own Redis), or
# whose sending failed, is never received here: past RECEIVE_GRACE_SECONDS it is not waited
# for any more.
_tasks_unreceived: dict[str, float] = {}
_tasks_not_over: collections.Counter = collections.Counter()  # received by the worker, by task id, not yet run
_tasks_lock = threading.Lock()
RECEIVE_GRACE_SECONDS = 5.0


def _task_started(**kwargs):
    global _tasks_running
    with _tasks_lock:  # the worker's two threads start and end tasks at once
        _tasks_running += 1


def _task_done(**kwargs):
    global _tasks_running
    from django.db import connection

    if threading.current_thread() is not threading.main_thread() and not connection.in_atomic_block:
        connection.close()  # the worker thread's own connection: the test database must be droppable
    with _tasks_lock:
        _tasks_running -= 1


def _task_sending(headers=None, **kwargs):
    # Before it is sent: the worker may receive a message before its sender hears it went out.
    with _tasks_lock:
        if headers and headers.get("id"):
            _tasks_unreceived[headers["id"]] = time.monotonic()


def _task_received(request, **kwargs):
    with _tasks_lock:
        _tasks_unreceived.pop(request.id, None)
        _tasks_not_over[request.id] += 1


def _task_over(task_id, **kwargs):
    # A task applied in the test's own thread (``Task.apply``) runs without being received.
    with _tasks_lock:
        if _tasks_not_over[task_id] > 0:
            _tasks_not_over[task_id] -= 1
        if _tasks_not_over[task_id] <= 0:
            del _tasks_not_over[task_id]


def _awaited_receipts() -> int:
    """Messages sent and not yet received by the worker, within their grace period."""
    since = time.monotonic() - RECEIVE_GRACE_SECONDS
    with _tasks_lock:
        for task_id in [t for t, sent in _tasks_unreceived.items() if sent < since]:
            del _tasks_unreceived[task_id]  # never received: sent to another broker
        return len(_tasks_unreceived)


@functools.cache
def _broker(url: str):
    import redis

    return redis.Redis.from_url(url)


def drain_worker(timeout=60.0):
    """Wait until the Celery worker (or, when eager, the server's bot threads) has nothing
    queued or running, so a test never ends, and its database is never flushed, under a task
    still at work."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        from games.bot_runner import analysis_runner, runner

        assert runner.wait_idle(timeout), "bot moves still running"
        assert analysis_runner.wait_idle(timeout), "analyses still running"
        assert bot_queue.waiting() == 0, "bot turns left waiting in their queues"
        return
    client = _broker(settings.CELERY_BROKER_URL)

    def idle() -> bool:
        # Queued (on the live work's queue or the analyses'), or taken by the worker and not
        # yet acknowledged (every task acks late, so one taken from the queue is in ``unacked``
        # until it has run), or received and not over, or running. A person's bot turns beyond
        # their share wait in their queue (games.bot_queue) until one of theirs is over.
        return (
            client.llen("celery") == 0
            and client.llen(ANALYSIS_QUEUE) == 0
            and client.hlen("unacked") == 0
            and not _tasks_not_over
            and _tasks_running == 0
            and bot_queue.waiting() == 0
        )

    def settled() -> bool:
        # Between popping a message from the queue and receiving it, the worker holds it in
        # none of the places ``idle`` looks: messages sent and not yet received are waited for
        # (``_awaited_receipts``), then the worker is asked again.
        if not idle():
            return False
        if not _awaited_receipts():
            return True
        while _awaited_receipts():
            time.sleep(0.01)
        return idle()

    wait_for(settled, timeout=timeout, message="idle worker")


@pytest.fixture(autouse=True)
def _finished_matches_replay_to_their_snapshots(request):
    """After every test that uses the database: each match it finished, replayed from its
    moves, gives exactly the snapshot stored for it (the moves are the truth, the snapshot a
    cache), whichever way it ended."""
    if request.node.get_closest_marker("django_db") is None:
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up before this fixture, torn down after
    yield
    from games.engines import get_game
    from games.models import Match

    drain_worker()
    for match in Match.objects.filter(status=Match.Status.FINISHED):
        actions = list(match.moves.order_by("index").values_list("action", flat=True))
        if not actions:
            continue  # a result record made by hand (the rankings tests), never played
        state = get_game(match.game).replay(match.num_players, match.options, actions)
        assert state.view(None) == match.snapshot, f"finished match {match.pk} ({match.game}) does not replay"


@pytest.fixture(autouse=True)
def _fresh_state(settings):
    """Each test starts with an empty cache (rate limits), no remembered engine states, no
    Redis outage an earlier test met (a call that timed out on a loaded machine), and in
    English (a request of the test client leaves its language active in the test's thread:
    a refusal's message, translated when read, would read in it)."""
    from django.core.cache import cache
    from django.utils import translation

    from portal import redis_pool

    translation.activate(settings.LANGUAGE_CODE)

    redis_pool.reset_breakers()
    cache.clear()
    state_cache.forget_all()
    bot_queue.clear()  # no lease of an earlier test's person (ids repeat) holds up this one's bots
    yield
    drain_worker()
    state_cache.forget_all()


@pytest_asyncio.fixture(autouse=True)
async def _live_connections_closed():
    """The event loop's own database connections (``live.pg``) end with the test's loop."""
    yield
    await pg.close()


@pytest.fixture
def make_user(db):
    counter = iter(range(1, 10_000))

    def make(username=None, **extra):
        n = next(counter)
        username = username or f"player{n}"
        user = get_user_model().objects.create_user(
            username=username, email=extra.pop("email", f"{username}@example.com"), password=DEMO_PASSWORD, **extra
        )
        if user.email:
            user_confirm_email(user=user)  # sign-up would have confirmed it by mail
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server(transactional_db):
    """The real ASGI application (HTTP and WebSockets) served by uvicorn in a thread."""
    import uvicorn

    from portal.asgi import application

    port = _free_port()
    # proxy_headers off, as `make serve` runs it: the site alone reads X-Forwarded-For, through
    # TRUSTED_PROXY_COUNT (uvicorn would otherwise trust it from 127.0.0.1, every test client).
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        ws="websockets-sansio",
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def browser():
    """Debian's chromium driven by Playwright. Missing chromium is a failure, not a skip, in CI."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def screenshot():
    ARTIFACTS.mkdir(exist_ok=True)

    def save(page, name):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return save


@pytest.fixture(scope="session", autouse=True)
def celery_worker_on_redis(django_db_setup, django_db_blocker):
    """With REDIS_URL set, tasks go through Redis to a real Celery worker (in a thread of this
    process, so it uses the test database). On the embedded defaults Celery is eager."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield None
        return
    from celery.contrib.testing.worker import start_worker
    from celery.signals import (
        before_task_publish,
        task_postrun,
        task_prerun,
        task_received,
    )

    from portal.celery import app

    before_task_publish.connect(_task_sending, weak=False)
    task_received.connect(_task_received, weak=False)
    task_prerun.connect(_task_started, weak=False)
    task_postrun.connect(_task_done, weak=False)
    task_postrun.connect(_task_over, weak=False)
    app.control.purge()
    # Nor messages an earlier run's worker took and never acknowledged (drain_worker counts them).
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete("unacked", "unacked_index")
    with (
        django_db_blocker.unblock(),
        start_worker(
            app,
            pool="threads",
            concurrency=2,
            perform_ping_check=False,
            shutdown_timeout=20,
            queues=["celery", ANALYSIS_QUEUE],  # the live work's and the analyses' (games.tasks.analyse_match)
        ) as worker,
    ):
        yield worker


@pytest.fixture(scope="session", autouse=True)
def _emptied_by_delete():
    """A test on the real database (``transaction=True``, the live servers) ends with Django
    emptying every table. On PostgreSQL it does so with one TRUNCATE of them all, which takes
    1.5 s even when they are nearly empty (each table's files are made anew): a second and a
    half for each of hundreds of tests. DELETE of a test's few rows takes 10-20 ms, and
    leaves the tables the same: no rows, the sequences running on (the TRUNCATE restarts none
    either). The foreign keys are all deferrable, so they are checked once, at the end.
    Resetting sequences, or cascading into tables left out, still goes through TRUNCATE."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield  # SQLite empties its tables with DELETE already
        return
    operations = type(connection.ops)
    truncate = operations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        deletes = [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]
        return ["SET CONSTRAINTS ALL DEFERRED;", *deletes]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(operations, "sql_flush", sql_flush)
        yield


@pytest.fixture(scope="session", autouse=True)
def _test_database_droppable(django_db_setup, django_db_blocker):
    """On PostgreSQL, connections left open by threads of the live servers and the worker would
    keep the test database from being dropped at the end; close them first (torn down before
    ``django_db_setup``, which drops the database)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def wait_for(predicate, timeout=30.0, interval=0.05, message="condition"):
    """Poll until ``predicate()`` is truthy: bots may move in a worker process."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(interval)
