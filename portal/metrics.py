"""The site's Prometheus metrics (prometheus-client), served at ``/metrics`` (``portal.probes``).

Code records through the small functions here, one line at the place it happens:
``move_played``, ``move_refused``, ``move_served``, ``socket_opened``/``socket_closed``,
``broadcast_failed``, ``bot_thought``, ``task_ran``/``task_failed``, ``match_rated``.
docs/METRICS.md lists each metric and what to alert on.

Several processes (uvicorn ``--workers N``, Celery's worker children, beat): give each the same
``PROMETHEUS_MULTIPROC_DIR`` (an empty directory, emptied again before the processes start)
and ``/metrics`` of any web process adds up every process's samples. Without it each process
counts for itself only. A process that ends takes its open sockets out of the sum; one that is
killed leaves them in until the directory is emptied at the next start.
"""

from __future__ import annotations

import atexit
import contextvars
import functools
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from asgiref.sync import iscoroutinefunction
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector

F = TypeVar("F", bound=Callable[..., Any])

# Seconds: a move answered in a few ms on a quiet server, up to the seconds a loaded one takes.
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0)
LAG_BUCKETS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)

MOVES = Counter("portal_moves", "Moves played (by people, bots and clocks alike), by game.", ["game"])
MOVE_REFUSALS = Counter("portal_move_refusals", "Moves refused, by the refusal's code (stale, illegal...).", ["code"])
MOVE_SECONDS = Histogram(
    "portal_move_seconds",
    "Time to serve a move: 'service' is the write (match_act), 'socket' the socket's frame to its ack.",
    ["path"],
    buckets=LATENCY_BUCKETS,
)
OPEN_SOCKETS = Gauge(
    "portal_open_sockets", "WebSockets open now, by consumer.", ["consumer"], multiprocess_mode="livesum"
)
BROADCAST_FAILURES = Counter(
    "portal_broadcast_failures",
    "Outboxes whose messages did not reach the channel layer ('redis_down' or 'error').",
    ["reason"],
)
BOT_THINK_SECONDS = Histogram(
    "portal_bot_think_seconds", "Time a bot took to choose a move.", ["bot"], buckets=THINK_BUCKETS
)
BOT_WAIT_SECONDS = Histogram(
    "portal_bot_wait_seconds",
    "Time from a bot's turn to its thinking: the queues and the workers' backlog, by bot.",
    ["bot"],
    buckets=LAG_BUCKETS,
)
BOT_SAFETY_STOPS = Counter(
    "portal_bot_safety_stops",
    "A bot's searches that its wall-clock safety cap stopped before its budget (a weaker move), by bot and game.",
    ["bot", "game"],
)
TASK_SECONDS = Histogram(
    "portal_celery_task_seconds",
    "Time a Celery task ran, by task.",
    ["task"],
    buckets=LATENCY_BUCKETS + (10.0, 20.0, 30.0, 60.0),
)
TASK_WAIT_SECONDS = Histogram(
    "portal_celery_task_wait_seconds",
    "Time a Celery task waited in the queue before a worker started it, by task.",
    ["task"],
    buckets=LAG_BUCKETS,
)
TASK_FAILURES = Counter("portal_celery_task_failures", "Celery tasks that raised, by task.", ["task"])
RATING_LAG_SECONDS = Histogram(
    "portal_rating_lag_seconds", "Time from a match's end to its ratings being written.", buckets=LAG_BUCKETS
)


if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # A process that ends takes its live gauges (its open sockets) out of the sum.
    atexit.register(lambda: multiprocess.mark_process_dead(os.getpid()))


# -- recording --------------------------------------------------------------------------------
# The move path's children, looked up once per label (``labels()`` takes a lock each call).
_moves = functools.cache(MOVES.labels)
_move_seconds = functools.cache(MOVE_SECONDS.labels)


def move_played(game: str) -> None:
    _moves(game).inc()


def move_refused(code: str) -> None:
    MOVE_REFUSALS.labels(code).inc()


def move_served(seconds: float, path: str = "socket") -> None:
    _move_seconds(path).observe(seconds)


# Set while a decorated move service runs: one it calls in turn (the room's fallback to the
# locked path) is not counted a second time.
_counting: contextvars.ContextVar[bool] = contextvars.ContextVar("move_counting", default=False)


def _counted(result, started: float) -> None:
    move_served(time.perf_counter() - started, "service")
    move_played(result.match.game)


def timed_move(service: F) -> F:
    """Decorates a move service (sync or async): each call counted as played (by its match's
    game) or refused (by its error's ``code``), and its time observed as the 'service' path."""
    if iscoroutinefunction(service):

        @functools.wraps(service)
        async def awaited(*args, **kwargs):
            started, token = time.perf_counter(), _counting.set(True)
            try:
                result = await service(*args, **kwargs)
            except Exception as exc:
                move_refused(str(getattr(exc, "code", "error")))
                raise
            finally:
                _counting.reset(token)
            _counted(result, started)
            return result

        return awaited  # type: ignore[return-value]

    @functools.wraps(service)
    def called(*args, **kwargs):
        if _counting.get():
            return service(*args, **kwargs)
        started, token = time.perf_counter(), _counting.set(True)
        try:
            result = service(*args, **kwargs)
        except Exception as exc:
            move_refused(str(getattr(exc, "code", "error")))
            raise
        finally:
            _counting.reset(token)
        _counted(result, started)
        return result

    return called  # type: ignore[return-value]


def socket_opened(consumer: str) -> None:
    OPEN_SOCKETS.labels(consumer).inc()


def socket_closed(consumer: str) -> None:
    OPEN_SOCKETS.labels(consumer).dec()


def broadcast_failed(redis_down: bool) -> None:
    BROADCAST_FAILURES.labels("redis_down" if redis_down else "error").inc()


def bot_thought(bot: str, seconds: float) -> None:
    BOT_THINK_SECONDS.labels(bot).observe(seconds)


def bot_waited(bot: str, seconds: float) -> None:
    BOT_WAIT_SECONDS.labels(bot).observe(max(seconds, 0.0))


def bot_safety_stop(bot: str, game: str) -> None:
    BOT_SAFETY_STOPS.labels(bot, game).inc()


def task_ran(task: str, seconds: float) -> None:
    TASK_SECONDS.labels(task).observe(seconds)


def task_waited(task: str, seconds: float) -> None:
    TASK_WAIT_SECONDS.labels(task).observe(max(seconds, 0.0))


def task_failed(task: str) -> None:
    TASK_FAILURES.labels(task).inc()


def match_rated(lag_seconds: float) -> None:
    RATING_LAG_SECONDS.observe(max(lag_seconds, 0.0))


# -- reading ----------------------------------------------------------------------------------
def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    """A gauge read at scrape time (a queue's length), for ``render``'s ``extra``."""
    return GaugeMetricFamily(name, documentation, value=value)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class _Scrape(Collector):
    def __init__(self, base: Collector, extra: Callable[[], Iterable[Metric]]):
        self.base, self.extra = base, extra

    def collect(self) -> Iterator[Metric]:
        yield from self.base.collect()
        yield from self.extra()


def render(extra: Callable[[], Iterable[Metric]] = lambda: ()) -> bytes:
    """Every metric in Prometheus' text format: this process's, or every process's that shares
    ``PROMETHEUS_MULTIPROC_DIR``, then the gauges ``extra`` reads now."""
    base: Collector
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        base = registry
    else:
        base = REGISTRY
    return generate_latest(_Scrape(base, extra))
