"""The Celery application, and the one list of periodic jobs. Eager (in-process) when
REDIS_URL is unset; see settings.

``PERIODIC_JOBS`` is read by Celery beat (``beat_schedule`` below) and by ``manage.py
run_clocks``, which runs the same jobs at the same intervals when there is no beat (``make
run``). A new job is one line here.
"""

import os
from dataclasses import dataclass

from celery import Celery, Task
from celery.signals import worker_process_init

from .redis_pool import RedisDown, breaker_for, unreachable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")


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
