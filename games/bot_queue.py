"""Bots' turns, queued fairly between people: one person's matches against bots cannot starve
another's.

A match's bot turns belong to its creator. At most ``BOT_TURNS_AT_ONCE_PER_PERSON`` of one
person's bot turns are handed to the workers at once (queued for a worker or being played),
each under a lease; the person's other turns wait in the person's own queue, oldest first, and
the next one goes to the workers when a lease is given back (the turn was played, found stale
or failed for good). So the workers' queue holds at most that many turns of anybody, and a
person with one match against a bot waits behind at most that many turns of each other person,
however many matches they keep going.

Nothing is lost on the way: a lease ends by itself after ``LEASE_SECONDS`` (a worker killed in
the middle of a turn never gives it back), a turn waiting twice is queued once, and the
periodic check (``games.tasks.enforce_clocks``) queues again the turn of any bot that has been
to move for too long, whatever became of it (the queues live in Redis and vanish with it).

With Redis, the queues and leases are Redis keys changed by one script per call, so every
process (servers, workers) shares them; in the embedded default (eager Celery, no Redis) they
are in the process's memory, where the bots' threads (``games.bot_runner``) play. A limit of
0 hands every turn to the workers at once, first come, first served, as without this module.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from typing import NamedTuple, Protocol, cast

import redis
from django.conf import settings

from portal.redis_pool import RedisDown, breaker_for, short_timeout_client, unreachable

# Twice bot_act's hard time limit: a turn still being played keeps its lease.
LEASE_SECONDS = 60.0
# A person's queue that nobody touches for this long is dropped (the periodic check would have
# queued its turns again long before).
WAITING_KEPT_SECONDS = 24 * 3600
PREFIX = "bots"


class Turn(NamedTuple):
    """A bot turn handed to the workers: the match at ``version``, under ``lease`` of ``person``."""

    match_id: int
    version: int
    person: str
    lease: str


class Turns(Protocol):
    def add(self, person: str, match_id: int, version: int, limit: int) -> list[Turn]: ...
    def done(self, person: str, lease: str, limit: int) -> list[Turn]: ...
    def waiting(self) -> int: ...
    def clear(self) -> None: ...


def now() -> float:
    """The time leases are counted in (seconds since the epoch)."""
    return time.time()


def limit() -> int:
    return settings.BOT_TURNS_AT_ONCE_PER_PERSON


def fair() -> bool:
    """Whether turns are queued per person (else straight to the workers)."""
    return limit() > 0


def add(person: str, match_id: int, version: int) -> list[Turn]:
    """Queue the bot's turn in ``match_id`` at ``version`` behind ``person``'s others: the
    turns to hand to the workers now (this one, if the person has a lease free)."""
    return turns().add(person, match_id, version, limit())


def done(person: str, lease: str) -> list[Turn]:
    """The turn under ``lease`` is over: the lease is free, and the turns to hand to the workers now."""
    return turns().done(person, lease, limit())


def give_back(person: str, lease: str) -> None:
    """A turn that could not be handed to the workers gives its lease back, and starts no other."""
    turns().done(person, lease, 0)


def waiting() -> int:
    """How many turns wait in the people's queues (not yet handed to the workers)."""
    return turns().waiting()


def clear() -> None:
    """Forget every queue and lease (tests, and an operator resetting the queues)."""
    turns().clear()


def turns() -> Turns:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return _local()
    return _on_redis(settings.CELERY_BROKER_URL)


# -- in the process (the embedded default) --------------------------------------------------


class LocalTurns:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, deque[tuple[int, int]]] = {}
        self._leases: dict[str, dict[str, float]] = {}
        self._next = 0

    def add(self, person: str, match_id: int, version: int, limit: int) -> list[Turn]:
        with self._lock:
            queue = self._waiting.setdefault(person, deque())
            if (match_id, version) not in queue:
                queue.append((match_id, version))
            return self._claim(person, limit)

    def done(self, person: str, lease: str, limit: int) -> list[Turn]:
        with self._lock:
            self._leases.get(person, {}).pop(lease, None)
            return self._claim(person, limit)

    def _claim(self, person: str, limit: int) -> list[Turn]:
        at = now()
        leases = self._leases.setdefault(person, {})
        for lease in [lease for lease, until in leases.items() if until <= at]:
            del leases[lease]
        queue = self._waiting.get(person, deque())
        claimed = []
        while queue and len(leases) < limit:
            match_id, version = queue.popleft()
            self._next += 1
            lease = str(self._next)
            leases[lease] = at + LEASE_SECONDS
            claimed.append(Turn(match_id, version, person, lease))
        if not queue:
            self._waiting.pop(person, None)
        if not leases:
            self._leases.pop(person, None)
        return claimed

    def waiting(self) -> int:
        with self._lock:
            return sum(len(queue) for queue in self._waiting.values())

    def clear(self) -> None:
        with self._lock:
            self._waiting.clear()
            self._leases.clear()


@functools.cache
def _local() -> LocalTurns:
    return LocalTurns()


# -- in Redis (every process shares them) ---------------------------------------------------

# KEYS: the person's waiting turns (a sorted set, by arrival), the person's leases (a sorted
# set, by expiry in ms), the counter, the set of people with turns waiting.
# ARGV: the person, the limit, the lease's length in ms, how long a queue is kept in s, the
# lease given back ('' for none), the turn added ('' for none), the time now in ms (the
# callers' clocks: a few seconds' skew between machines shortens or stretches a lease as much).
# Returns [turn, lease, turn, lease, ...]: the turns handed to the workers now.
_CLAIM = """
local now = tonumber(ARGV[7])
if ARGV[5] ~= '' then redis.call('ZREM', KEYS[2], ARGV[5]) end
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[1], 'NX', redis.call('INCR', KEYS[3]), ARGV[6])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local limit = tonumber(ARGV[2])
local out = {}
while redis.call('ZCARD', KEYS[2]) < limit do
  local first = redis.call('ZPOPMIN', KEYS[1])
  if #first == 0 then break end
  local lease = tostring(redis.call('INCR', KEYS[3]))
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), lease)
  out[#out + 1] = first[1]
  out[#out + 1] = lease
end
if redis.call('ZCARD', KEYS[1]) > 0 then
  redis.call('SADD', KEYS[4], ARGV[1])
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
else
  redis.call('SREM', KEYS[4], ARGV[1])
end
if redis.call('ZCARD', KEYS[2]) > 0 then redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3])) end
return out
"""


class RedisTurns:
    def __init__(self, url: str) -> None:
        # A connection Redis closed (it restarted) is replaced and the call sent once more.
        self._client = short_timeout_client(url, retry_on_error=[redis.exceptions.ConnectionError])
        self._claim_script = self._client.register_script(_CLAIM)
        self._breaker = breaker_for(url)

    @staticmethod
    def _keys(person: str) -> list[str]:
        return [f"{PREFIX}:waiting:{person}", f"{PREFIX}:leases:{person}", f"{PREFIX}:counter", f"{PREFIX}:people"]

    def _call(self, person: str, limit: int, lease: str = "", turn: str = "") -> list[Turn]:
        if not self._breaker.allow():
            raise RedisDown("Redis is down: the bot's turn was not queued")
        args: list[str | int] = [person, limit, int(LEASE_SECONDS * 1000), WAITING_KEPT_SECONDS, lease, turn]
        args.append(int(now() * 1000))
        try:
            out = self._claim_script(keys=self._keys(person), args=args)
        except Exception as exc:
            if unreachable(exc):
                self._breaker.failed(exc, "bot queue")
            raise
        self._breaker.succeeded()
        claimed = []
        for i in range(0, len(out), 2):
            match_id, version = out[i].decode().split(":")
            claimed.append(Turn(int(match_id), int(version), person, out[i + 1].decode()))
        return claimed

    def add(self, person: str, match_id: int, version: int, limit: int) -> list[Turn]:
        return self._call(person, limit, turn=f"{match_id}:{version}")

    def done(self, person: str, lease: str, limit: int) -> list[Turn]:
        return self._call(person, limit, lease=lease)

    def waiting(self) -> int:
        people = cast("set[bytes]", self._client.smembers(f"{PREFIX}:people"))
        if not people:
            return 0
        pipe = self._client.pipeline(transaction=False)
        for person in people:
            pipe.zcard(f"{PREFIX}:waiting:{person.decode()}")
        return sum(pipe.execute())

    def clear(self) -> None:
        keys = list(self._client.scan_iter(f"{PREFIX}:*", count=1000))
        if keys:
            self._client.delete(*keys)


@functools.cache
def _on_redis(url: str) -> RedisTurns:
    return RedisTurns(url)
