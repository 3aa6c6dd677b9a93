"""The circuit breaker every Redis client of a process shares (``portal.redis_pool``): after a
failure Redis is skipped for a back-off, then tried once; an outage is two log lines."""

import logging

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

from portal import redis_pool
from portal.redis_pool import BACK_OFF_SECONDS, Breaker, OutageLogFilter, RedisDown, breaker_for


def back_off_passed(breaker: Breaker) -> None:
    breaker._until -= BACK_OFF_SECONDS


def test_a_healthy_redis_is_always_called():
    breaker = Breaker("test:1")
    assert all(breaker.allow() for _ in range(3))


def test_after_a_failure_redis_is_skipped_then_tried_once_and_a_success_closes_the_breaker():
    breaker = Breaker("test:2")
    breaker.failed(RedisTimeoutError("Timeout reading from socket"))
    assert not breaker.allow(), "skipped during the back-off"
    back_off_passed(breaker)
    assert breaker.allow(), "one trial once it has passed"
    assert not breaker.allow(), "the others keep skipping while the trial runs"
    breaker.succeeded()
    assert breaker.allow() and not breaker.down


def test_an_outage_is_logged_when_it_starts_and_when_it_ends_only(caplog):
    breaker = Breaker("test:3")
    with caplog.at_level(logging.WARNING, logger="portal.redis_pool"):
        for _ in range(5):
            breaker.failed(RedisTimeoutError("Timeout reading from socket"), "cache get")
        back_off_passed(breaker)
        breaker.allow()
        breaker.succeeded()
        breaker.succeeded()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and "is down" in lines[0] and "is back" in lines[1]


def test_every_client_of_one_redis_server_shares_its_breaker_whatever_the_database():
    assert breaker_for("redis://127.0.0.1:6390/0") is breaker_for("redis://127.0.0.1:6390/15")
    assert breaker_for("redis://127.0.0.1:6390/0") is not breaker_for("redis://127.0.0.1:6391/0")


@pytest.mark.parametrize("skipped", [False, True])
def test_a_log_record_of_redis_not_answering_is_dropped_and_the_outage_noted_once(skipped):
    url = "redis://127.0.0.1:6392/0"
    breaker_for(url).reset()
    error = RedisDown("down") if skipped else RedisTimeoutError("Timeout reading from socket")
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "Could not send", (), (type(error), error, None))
    other = ValueError("a bug")
    bug = logging.LogRecord("x", logging.ERROR, __file__, 1, "Could not send", (), (type(other), other, None))
    log_filter = OutageLogFilter(url)
    assert log_filter.filter(record) is False
    assert log_filter.filter(bug) is True, "any other error keeps its traceback"
    assert breaker_for(url).allow(), "a log record does not open the breaker"
    assert bool(breaker_for(url)._down_since) is not skipped
    redis_pool.reset_breakers()
