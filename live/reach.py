"""Whether the live path (the channel layer that carries every move to the sockets) can be
reached now, and the news that it was found down.

With Redis, a PING on a small client of the process's own, answered within a second or taken
as "down"; the in-memory layer of the embedded default is always up. Asked when a message
could not be sent, when a clock would forfeit someone and by the periodic clock check, never
on the move path. ``live_down`` is sent when a failed send finds the path down: the apps that
keep time (the games' clocks) note an outage.
"""

from __future__ import annotations

import logging
import threading

import redis
from django.conf import settings
from django.dispatch import Signal

log = logging.getLogger(__name__)

PROBE_TIMEOUT = 1.0

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


def reachable() -> bool:
    if not settings.REDIS_URL:
        return True
    try:
        return bool(_redis().ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        log.warning("The live path (Redis) cannot be reached: %s", exc)
        return False


def send_failed() -> None:
    """A message did not go out: if the live path is down, say so (``live_down``)."""
    if not reachable():
        live_down.send(sender=None)
