"""A Celery worker never runs more prefork children than the cores it may use: bots think on
the CPU, and a child beyond the cores only slows the others' replies."""

import logging
from contextlib import contextmanager

from celery.concurrency.prefork import TaskPool as PreforkPool
from celery.concurrency.thread import TaskPool as ThreadPool

from portal.celery import app, cores


def _worker(concurrency, pool):
    # The worker as `celery worker` builds it, up to (not including) starting its pool.
    return app.WorkController(concurrency=concurrency, pool_cls=pool, without_heartbeat=True, without_mingle=True)


@contextmanager
def warnings_said():
    """What the worker writes to its log at WARNING, as the operator reads it."""
    said: list[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("portal.celery")
    logger.addHandler(handler)
    try:
        yield said
    finally:
        logger.removeHandler(handler)


def test_a_prefork_worker_asked_for_more_children_than_cores_runs_one_per_core():
    with warnings_said() as said:
        worker = _worker(cores() + 6, PreforkPool)
    assert worker.concurrency == cores()
    assert said == [
        f"worker concurrency {cores() + 6} is more than the {cores()} core(s) this worker may use: using {cores()}"
    ]


def test_a_prefork_worker_within_its_cores_keeps_its_concurrency():
    with warnings_said() as said:
        worker = _worker(1, PreforkPool)
    assert worker.concurrency == 1
    assert said == []


def test_a_thread_pool_waiting_on_io_is_not_limited_to_the_cores():
    assert _worker(cores() + 6, ThreadPool).concurrency == cores() + 6
