"""The sockets' database threads.

Database work of the sockets runs in a small pool of threads of its own (``DB_THREADS``), not
in the one thread Channels would otherwise share between every socket of the process, and
each call gives its connection back afterwards (``database_sync_to_async``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings

THREAD_NAME = "socket-db"

_threads = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix=THREAD_NAME)


def db(fn):
    """``fn`` as a coroutine function run in the sockets' database threads."""
    return database_sync_to_async(fn, thread_sensitive=False, executor=_threads)
