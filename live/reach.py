"""Whether the live path (the channel layer that carries every move to the sockets) can be
reached now, and the news that it was found down.

With Redis, the live path shares the Redis server's circuit breaker with the process's other
clients of that server (``portal.redis_pool``): a send that times out or cannot connect opens
it (``failed``), and while it is open (``down``, a comparison of two floats, consulted before
every send and every join) the live path is taken as down without waiting on Redis: sends fail
at once into the outage handling and new sockets are refused with ``LIVE_DOWN_CLOSE_CODE``.
After a back-off one send goes through as a trial; its success closes the breaker.

``reachable`` asks Redis itself (unless the breaker is open): a PING on a small client of the
process's own, answered within a second or taken as "down". Asked when a message could not be sent for a reason other
than Redis not answering, when a clock would forfeit someone and by the periodic clock check,
never on the move path. ``live_down`` is sent when a failed send finds the path down: the apps
that keep time (the games' clocks) note an outage. The in-memory layer of the embedded default
is always up.
"""

from __future__ import annotations

import threading

import redis
from django.conf import settings
from django.dispatch import Signal

from portal.redis_pool import Breaker, breaker_for, unreachable

PROBE_TIMEOUT = 1.0
# The close code a socket opened while the live path is down is closed with: the page then
# sends its moves over the REST API and opens the socket again later (static/js/match.js).
LIVE_DOWN_CLOSE_CODE = 4503

# Sent (no arguments) when a message could not be sent and the live path is found down.
live_down = Signal()

_client: redis.Redis | None = None
_client_lock = threading.Lock()


def _redis() -> redis.Redis:
    global _client
    with _client_lock:
        if _client is None:
            _client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_connect_timeout=PROBE_TIMEOUT,
                socket_timeout=PROBE_TIMEOUT,
                # A connection that Redis closed when it restarted is replaced and asked again.
                retry_on_error=[redis.exceptions.ConnectionError],
            )
        return _client


def breaker() -> Breaker | None:
    """The breaker of the live path's Redis; None with the in-memory layer."""
    return breaker_for(settings.REDIS_URL) if settings.REDIS_URL else None


def down() -> bool:
    """Whether the live path is known to be down now, without asking Redis: a send or a join
    is not even tried. False again once the back-off has passed, for one trial."""
    circuit = breaker()
    return circuit is not None and not circuit.allow()


def sent() -> None:
    """A send or a join reached Redis: an outage it was the trial of is over."""
    circuit = breaker()
    if circuit is not None:
        circuit.succeeded()


def failed(exc: BaseException) -> bool:
    """A send or a join raised ``exc``: whether that was Redis not answering (then the
    breaker is open and the live path is down; the caller logs nothing more)."""
    if not unreachable(exc):
        return False
    circuit = breaker()
    if circuit is not None:
        circuit.failed(exc, "live path")
    return True


def reachable() -> bool:
    if not settings.REDIS_URL:
        return True
    circuit = breaker()
    if circuit is not None and not circuit.allow():
        return False  # known down: asked again once the back-off has passed
    try:
        answered = bool(_redis().ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        if circuit is not None:
            circuit.failed(exc, "probe")
        return False
    if answered and circuit is not None:
        circuit.succeeded()
    return answered


def send_failed(redis_down: bool = False) -> None:
    """A message did not go out: if the live path is down, say so (``live_down``). With
    ``redis_down`` (the send found Redis not answering, or did not try as it is known to be
    down) Redis is not asked again: a Redis that hangs would hold the caller for the probe."""
    if redis_down or not reachable():
        live_down.send(sender=None)
