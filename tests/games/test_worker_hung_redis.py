"""Fault suite: the Celery worker's Redis (its broker) hangs instead of refusing (SIGSTOP on
a redis-server of the test's own, then SIGCONT), under a worker as production runs it (the
prefork pool, two processes).

What must hold: the tasks under way finish their work while Redis hangs (every Redis call of
theirs gives up within its timeout); the worker notices the broker is gone rather than waiting
on it for good, and keeps trying; once Redis answers again, the task that was waiting in the
queue when it hung is played, the worker takes new work, and every bot move is played exactly
once. Everything is bounded in time."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings
from django.db import connections, transaction

from games import tasks
from games.models import Match
from tests.conftest import wait_for

from .helpers import fresh
from .test_bot_queue import answered, bot_to_move
from .test_redis_outage import WAIT, redis_server, worker

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it): the fault is a Redis that hangs"),
    pytest.mark.skipif(
        not settings.USING_POSTGRES, reason="needs DATABASE_URL on PostgreSQL: the worker shares the test database"
    ),
]

NAME = "hung-broker-worker"
PRODUCTION_POOL = ("prefork", "--concurrency", "2")  # as `make worker` runs it
# What the worker says when it finds its broker gone (celery.worker.consumer).
LOST = "Connection to broker lost"


def played_once(match: Match, moves_before: int) -> None:
    """The bot of ``match`` played its turn once: one version per action, nothing applied twice
    (a task whose acknowledgement was lost is delivered again, and finds its version gone)."""
    now = fresh(match.pk)
    seats = [s for s in now.moves.filter(index__gte=moves_before).values_list("seat", flat=True) if s is not None]
    assert seats and set(seats) == {1}
    assert now.version - match.version == len(seats), "each action applied once"


def worker_sessions() -> list[tuple]:
    """The worker's database sessions: state, what each waits on, and its statement."""
    other = connections.create_connection("default")  # the test's own holds the locks
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT state, wait_event_type, wait_event, left(query, 80) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [NAME],
            )
            return cursor.fetchall()
    finally:
        other.close()


def blocked_on_locks() -> int:
    """How many of the worker's database sessions wait on a row lock."""
    return sum(1 for _, wait_type, _, _ in worker_sessions() if wait_type == "Lock")


@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_redis_hangs_loses_no_task_and_works_again_once_redis_answers(make_user, monkeypatch):
    from portal.celery import app

    alice = make_user("alice")
    held = [bot_to_move(alice, monkeypatch) for _ in range(2)]  # being played when Redis hangs
    queued = bot_to_move(alice, monkeypatch)  # waiting in the queue when Redis hangs
    later = bot_to_move(alice, monkeypatch)  # queued once Redis is back
    moves_before = {match.pk: match.moves.count() for match in [*held, queued, later]}

    with redis_server() as own_redis, worker(own_redis.url, NAME, PRODUCTION_POOL) as process:
        queue = redis.Redis.from_url(own_redis.url, socket_timeout=WAIT)

        def send(match: Match) -> None:
            with app.connection_for_write(own_redis.url) as connection:
                tasks.bot_act.apply_async(args=(match.pk, match.version), connection=connection)

        with transaction.atomic():
            # Both of the worker's processes take a bot turn and block in its write; the third
            # turn waits in the queue.
            list(Match.objects.select_for_update().filter(pk__in=[m.pk for m in held]))
            for match in held:
                send(match)
            # Two fresh processes may take a while on a loaded machine: waited for longer, and
            # what they were doing is told if they never got there.
            try:
                wait_for(lambda: blocked_on_locks() == 2, timeout=2 * WAIT, interval=0.2, message="both at work")
            except AssertionError as exc:
                raise AssertionError(
                    f"both worker processes not at work: sessions {worker_sessions()},"
                    f" queued {queue.llen('celery')}\n{process.output()[-3000:]}"
                ) from exc
            send(queued)
            assert queue.llen("celery") == 1, "the third turn waits in the queue"
            own_redis.hang()
        try:
            # The turns under way finish: their moves are saved though nothing can be told.
            for match in held:
                wait_for(lambda m=match: answered(m), timeout=WAIT, message=f"the bot of match {match.pk}")
            # The worker finds its broker gone, and does not wait on it for good.
            wait_for(lambda: LOST in process.output(), timeout=WAIT, interval=0.5, message="the worker to notice")
            assert not answered(queued), "nothing is taken from a Redis that hangs"
        finally:
            own_redis.resume()

        # Redis answers again: the turn that waited is played, and new work is taken.
        wait_for(lambda: answered(queued), timeout=2 * WAIT, interval=0.2, message="the turn that waited")
        send(later)
        wait_for(lambda: answered(later), timeout=WAIT, interval=0.2, message="a turn queued afterwards")
        assert process.process.poll() is None, "the worker kept running"
        wait_for(lambda: queue.llen("celery") == 0, timeout=WAIT, message="the queue drained")

    for match in [*held, queued, later]:
        played_once(match, moves_before[match.pk])
