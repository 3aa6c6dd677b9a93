"""Whether a live bot is thinking, so that the analyses of finished matches step aside.

Priority cannot keep an analysis (``games.tasks.analyse_match``, at ``nice 19``) from slowing
a live bot's reply on a machine with few cores: two threads of one core share its units
whatever the scheduler says. So they cooperate. A bot's search runs inside ``thinking()``, and
an analysis calls its ``pause`` (``pauser()``, built on ``wait_while_bots_think``) every few
milliseconds of its work (``games.bots.analysis.PAUSE_EVERY``): it returns at once while no
bot thinks, and otherwise waits until none does.

An analysis never starves: a single wait lasts at most ``MAX_WAIT`` seconds, after which the
analysis does at least one more stretch of work before it may wait again, and an analysis's
waits add up to at most the ``total`` given to ``pauser`` (the task gives half its soft time
limit, ``ANALYSIS_SECONDS``), after which it runs on as it did before, at its low priority,
beside the bots. So on a site whose bots think all the time analyses slow to a crawl, but
still end.

With ``REDIS_URL``, the thinkers are a sorted set in Redis, which every process of the
deployment (servers, workers) shares: a member per thinking turn, scored by when it runs out
by Redis's own clock, ``THINKING_TTL`` after it began (``bot_act``'s hard time limit), and the
key expires with its last member. So a worker killed in the middle of a thought blocks the
analyses no longer than that. The key is the deployment's own (``key``: under its
``CHANNEL_PREFIX``, apart from the bot queue's keys, which ``bot_queue.clear`` wipes while a bot
may still be thinking). Without Redis (the embedded default: bots and analyses are threads
of the server process, ``games.bot_runner``) it is a counter in the process's memory.

A Redis that is down or slow holds nothing up: a bot that cannot mark itself thinks all the
same, and an analysis that cannot read the mark goes on with its work.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, cast

from django.conf import settings

from portal.redis_pool import breaker_for, short_timeout_client, unreachable

log = logging.getLogger(__name__)

# The longest a single pause of an analysis waits for the bots, in seconds.
MAX_WAIT = 2.0
# How long a thinking turn counts at most, in seconds: bot_act's hard time limit.
THINKING_TTL = 30.0
# How often a pause waiting on Redis looks again, in seconds.
POLL = 0.02


def key() -> str:
    """The deployment's key of the thinkers (its ``CHANNEL_PREFIX``: several sites sharing one
    Redis each have their own)."""
    return f"{getattr(settings, 'CHANNEL_PREFIX', 'portal')}:bots-thinking"


class Thinkers(Protocol):
    def add(self, ttl: float) -> str: ...
    def remove(self, token: str) -> None: ...
    def count(self) -> int: ...
    def wait(self, timeout: float) -> None: ...


# -- in the process (the embedded default) --------------------------------------------------


class LocalThinkers:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._thinking: set[str] = set()

    def add(self, ttl: float) -> str:
        token = uuid.uuid4().hex
        with self._lock:
            self._thinking.add(token)
        return token

    def remove(self, token: str) -> None:
        with self._lock:
            self._thinking.discard(token)
            if not self._thinking:
                self._idle.notify_all()

    def count(self) -> int:
        with self._lock:
            return len(self._thinking)

    def wait(self, timeout: float) -> None:
        with self._lock:
            self._idle.wait_for(lambda: not self._thinking, timeout=timeout)


@functools.cache
def _local() -> LocalThinkers:
    return LocalThinkers()


# -- in Redis (every process shares them) ---------------------------------------------------

# KEYS: the sorted set of thinkers. ARGV: the thinker's token, its time to live in ms. Redis's
# clock, not the callers': machines a few seconds apart agree on when a thought runs out.
_ADD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
"""
_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
"""


class RedisThinkers:
    def __init__(self, url: str) -> None:
        self._client = short_timeout_client(url)
        self._add = self._client.register_script(_ADD)
        self._count = self._client.register_script(_COUNT)
        self._breaker = breaker_for(url)

    def _call(self, run: Callable[[], object], what: str) -> object:
        if not self._breaker.allow():
            return None
        try:
            out = run()
        except Exception as exc:
            if unreachable(exc):
                self._breaker.failed(exc, what)
            log.warning("Could not %s in Redis", what, exc_info=True)
            return None
        self._breaker.succeeded()
        return out

    def add(self, ttl: float) -> str:
        token = uuid.uuid4().hex
        self._call(lambda: self._add(keys=[key()], args=[token, max(1, int(ttl * 1000))]), "mark a bot thinking")
        return token

    def remove(self, token: str) -> None:
        self._call(lambda: self._client.zrem(key(), token), "mark a bot's thought over")

    def count(self) -> int:
        return int(cast(int, self._call(lambda: self._count(keys=[key()]), "count the bots thinking") or 0))

    def wait(self, timeout: float) -> None:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(POLL, left))
            if not self.count():
                return


@functools.cache
def _on_redis(url: str) -> RedisThinkers:
    return RedisThinkers(url)


def thinkers() -> Thinkers:
    url = getattr(settings, "REDIS_URL", "")
    return _on_redis(url) if url else _local()


# -- the calls ------------------------------------------------------------------------------


@contextmanager
def thinking(ttl: float = THINKING_TTL) -> Iterator[None]:
    """Mark a live bot as thinking for the block (counted for at most ``ttl`` seconds)."""
    signal = thinkers()
    token = signal.add(ttl)
    try:
        yield
    finally:
        signal.remove(token)


def bots_thinking() -> int:
    """How many live bots are thinking now (0 when that cannot be told)."""
    return thinkers().count()


def wait_while_bots_think(max_wait: float = MAX_WAIT) -> float:
    """Wait while a live bot thinks, for at most ``max_wait`` seconds; the seconds waited
    (exactly 0.0 when no bot was thinking)."""
    signal = thinkers()
    if max_wait <= 0 or not signal.count():
        return 0.0
    started = time.monotonic()
    signal.wait(max_wait)
    return time.monotonic() - started


def pauser(max_wait: float = MAX_WAIT, total: float | None = None) -> Callable[[], float]:
    """An analysis's ``pause``: each call waits while bots think, at most ``max_wait``
    seconds; once its waits add up to ``total`` seconds (None: no bound) it waits no more.
    Returns the seconds waited by that call."""
    waited = [0.0]

    def pause() -> float:
        budget = max_wait if total is None else min(max_wait, total - waited[0])
        if budget <= 0:
            return 0.0
        seconds = wait_while_bots_think(budget)
        waited[0] += seconds
        return seconds

    return pause
