"""The Celery application, and the one list of periodic jobs. Eager (in-process) when
REDIS_URL is unset; see settings.

``PERIODIC_JOBS`` is read by Celery beat (``beat_schedule`` below) and by ``manage.py
run_clocks``, which runs the same jobs at the same intervals when there is no beat (``make
run``). A new job is one line here.
"""

import logging
import os
import socket
import time
from dataclasses import dataclass

from celery import Celery, Task
from celery.signals import (
    beat_init,
    before_task_publish,
    heartbeat_sent,
    task_failure,
    task_postrun,
    task_prerun,
    worker_init,
    worker_process_init,
    worker_ready,
    worker_shutdown,
)

from . import logs, metrics, readiness
from .redis_pool import RedisDown, breaker_for, unreachable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PeriodicJob:
    """A task run every ``every`` seconds. ``said``, when set, is what ``run_clocks`` prints of
    a run whose counts (the task's return value, one number or a tuple) are not all zero."""

    task: str
    every: float
    said: str = ""

    @property
    def name(self) -> str:
        """Its entry in beat's schedule: ``games.tasks.enforce_clocks`` -> ``enforce-clocks``."""
        return self.task.rsplit(".", 1)[1].replace("_", "-")


PERIODIC_JOBS = (
    PeriodicJob("games.tasks.enforce_clocks", 5.0, "{} seat(s) ran out of time"),
    PeriodicJob("rankings.tasks.rate_unrated", 5.0, "{} finished match(es) left unrated were rated"),
    PeriodicJob("tournaments.tasks.run_tournaments", 10.0, "{} tournament(s) started, {} advanced to their next round"),
    PeriodicJob("games.tasks.expire_open_matches", 300.0, "{} open match(es) called off after waiting too long"),
    PeriodicJob("challenges.tasks.expire_challenges", 300.0, "{} challenge(s) or rematch offer(s) expired unanswered"),
    PeriodicJob("notifications.tasks.sweep_your_turn", 60.0, "{} player(s) away may be owed a your-turn e-mail"),
    PeriodicJob(
        "notifications.tasks.notify_untold_finished_matches", 30.0, "{} finished match(es) left untold were told"
    ),
)


def beat_schedule() -> dict:
    return {job.name: {"task": job.task, "schedule": job.every} for job in PERIODIC_JOBS}


class BreakerTask(Task):
    """Queuing a task consults the broker's Redis breaker (``portal.redis_pool``): while Redis
    is known to be down, ``delay`` and ``apply_async`` raise ``RedisDown`` at once instead of
    waiting on it, and the callers' handling of a failed queuing takes over (the periodic
    checks queue again what was lost); a timeout or connection fault opens the breaker."""

    def apply_async(self, *args, **kwargs):
        if self.app.conf.task_always_eager:
            return super().apply_async(*args, **kwargs)
        breaker = breaker_for(self.app.conf.broker_url)
        if not breaker.allow():
            raise RedisDown(f"Redis is down: {self.name} not queued")
        try:
            result = super().apply_async(*args, **kwargs)
        except Exception as exc:
            if unreachable(exc):
                breaker.failed(exc, "broker")
            raise
        breaker.succeeded()
        return result


app = Celery("portal", task_cls=BreakerTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.beat_schedule = beat_schedule()
app.autodiscover_tasks()


@worker_process_init.connect
def _own_database_pool(**kwargs):
    """A forked worker child must not share its parent's connection pool (its sockets and
    its background threads): drop the inherited one so the child opens its own."""
    # Imported here: only a forked worker on PostgreSQL needs the PostgreSQL backend loaded.
    from django.db.backends.postgresql.base import DatabaseWrapper  # noqa: PLC0415

    DatabaseWrapper._connection_pools.clear()


def cores() -> int:
    """The cores this process may run on (its affinity, which a container's cpuset narrows)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@worker_init.connect
def _concurrency_within_cores(sender=None, **kwargs):
    """A prefork worker never runs more children than its cores: bots think on the CPU, and a
    child beyond the cores only slices the others' time, so a level's search would take longer
    on the wall clock for nothing (its strength is its iteration budget, which stays, but its
    reply time would not). ``--concurrency auto`` is left to Celery, which sizes it the same way;
    thread pools (a task waiting on I/O) are not limited."""
    from celery.concurrency.prefork import TaskPool  # noqa: PLC0415

    asked = getattr(sender, "concurrency", None)
    if not isinstance(asked, int) or not (isinstance(sender.pool_cls, type) and issubclass(sender.pool_cls, TaskPool)):
        return
    limit = cores()
    if asked > limit:
        log.warning(
            "worker concurrency %d is more than the %d core(s) this worker may use: using %d", asked, limit, limit
        )
        sender.concurrency = limit


# -- what the operators see of the tasks: metrics, log context, heartbeats ---------------------
SENT_AT_HEADER = "portal_sent_at"
_started: dict[str, tuple[float, object]] = {}
_in_beat = False


@before_task_publish.connect
def _stamp_sent(headers=None, **kwargs):
    """A task carries the time it was queued, for its wait in the queue; in beat, sending the
    periodic jobs is beat's heartbeat (``portal.readiness``)."""
    if headers is not None:
        headers[SENT_AT_HEADER] = time.time()
    if _in_beat:
        readiness.beat_ran()


@beat_init.connect
def _beat_started(**kwargs):
    global _in_beat
    _in_beat = True
    readiness.beat_ran()


@worker_ready.connect
def _worker_ready(sender=None, **kwargs):
    readiness.worker_alive(getattr(sender, "hostname", None) or socket.gethostname())


@heartbeat_sent.connect
def _worker_heartbeat(sender=None, **kwargs):
    eventer = getattr(sender, "eventer", None)
    readiness.worker_alive(getattr(eventer, "hostname", None) or socket.gethostname())


@worker_shutdown.connect
def _worker_gone(sender=None, **kwargs):
    readiness.worker_gone(getattr(sender, "hostname", None) or socket.gethostname())


@task_prerun.connect
def _task_started(task_id=None, task=None, **kwargs):
    sent_at = getattr(task.request, SENT_AT_HEADER, None) if task is not None else None
    if sent_at is not None:
        metrics.task_waited(task.name, time.time() - float(sent_at))
    _started[task_id] = (time.perf_counter(), logs.bind(**{**logs.current(), "task_id": task_id}))


@task_postrun.connect
def _task_done(task_id=None, task=None, **kwargs):
    started = _started.pop(task_id, None)
    if started is None:
        return
    began, token = started
    metrics.task_ran(getattr(task, "name", "unknown"), time.perf_counter() - began)
    try:
        logs.unbind(token)  # type: ignore[arg-type]
    except (ValueError, RuntimeError):
        pass  # bound in another context (a task run from a different thread)


@task_failure.connect
def _task_failed(sender=None, **kwargs):
    metrics.task_failed(getattr(sender, "name", "unknown"))
