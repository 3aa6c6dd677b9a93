"""Bots' moves in the embedded default (no broker): threads of the server process, off the
request and socket paths.

A person's move is committed, acknowledged and broadcast by its own thread; the bot that is to
answer thinks here meanwhile, in one of a few threads. One match's bot moves run strictly one
after another (a bot-against-bot stretch is a queue per match, drained by one thread at a
time); different matches' bots think in parallel. With Redis set, Celery workers do this job
and this module is not used.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections

from live import bridge

log = logging.getLogger(__name__)


class BotRunner:
    def __init__(self, threads: int = 2):
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="bot")
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._queues: dict[int, deque[tuple[int, Callable[[int, int], None]]]] = {}
        self._pending = 0

    def submit(self, match_id: int, version: int, run: Callable[[int, int], None]) -> None:
        """Queue ``run(match_id, version)`` behind the match's earlier bot moves."""
        with self._lock:
            self._pending += 1
            queue = self._queues.get(match_id)
            if queue is not None:  # a thread is draining this match: it will get there
                queue.append((version, run))
                return
            self._queues[match_id] = deque([(version, run)])
        self._executor.submit(self._drain, match_id)

    def _drain(self, match_id: int) -> None:
        # Broadcasts made from this thread go through the server's event loop, where the
        # sockets and the in-memory channel layer live (``live.bridge``).
        bridge.bind()
        while True:
            with self._lock:
                queue = self._queues[match_id]
                if not queue:
                    del self._queues[match_id]
                    return
                version, run = queue.popleft()
            try:
                run(match_id, version)
            except Exception:
                log.exception("bot move in match %s at version %s failed", match_id, version)
            finally:
                close_old_connections()
                with self._lock:
                    self._pending -= 1
                    self._idle.notify_all()

    @property
    def pending(self) -> int:
        """Bot moves queued or running (the metrics' bot queue depth)."""
        return self._pending

    def wait_idle(self, timeout: float) -> bool:
        """Block until no bot move is queued or running (for tests and shutdown)."""
        with self._lock:
            return self._idle.wait_for(lambda: self._pending == 0, timeout=timeout)


runner = BotRunner()
# The analyses of finished matches (games.tasks.analyse_match), in one thread of their own:
# never in the way of a bot's move, one analysis at a time.
analysis_runner = BotRunner(threads=1)
