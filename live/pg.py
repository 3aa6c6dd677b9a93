"""The event loop's own PostgreSQL connections: a statement run without leaving the loop.

Django's ORM is synchronous: each call from a socket hops to a database thread and back
(``executor``), and the ORM builds and compiles its SQL anew every time. The few statements of
the live path that run on every move are plain SQL instead, run here on psycopg's async
connections (``psycopg_pool.AsyncConnectionPool``, one pool per event loop, so one per server
process, of at most ``LIVE_DB_POOL_MAX_SIZE`` connections), in autocommit: a statement that
returned has committed, and ``synchronous_commit`` is the server's (on). psycopg prepares a
statement on a connection once it has run it a few times (``prepare_threshold``), so a move's
statement is parsed and planned once per connection (``LIVE_DB_PREPARED_STATEMENTS``: off behind
a pooler that cannot keep prepared statements).

Only on PostgreSQL (``available()``); SQLite keeps the threads. The pool connects as Django
does (``DATABASES["default"]``, the test database's name included) and is opened on first use.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connections
from psycopg_pool import AsyncConnectionPool, PoolTimeout

POOL_TIMEOUT = 10.0  # seconds a statement waits for a connection before it is refused
PREPARE_THRESHOLD = 2  # runs of a statement on a connection before psycopg prepares it

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()


def available() -> bool:
    """Whether the live path may run its statements here (the database is PostgreSQL)."""
    return bool(getattr(settings, "USING_POSTGRES", False))


def _conninfo() -> dict[str, Any]:
    """Django's connection parameters for the default database, as psycopg takes them."""
    params = dict(connections["default"].get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold", "pool"):
        params.pop(django_only, None)
    return params


async def _pool():
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:

        async def configure(conn) -> None:
            conn.prepare_threshold = PREPARE_THRESHOLD if settings.LIVE_DB_PREPARED_STATEMENTS else None
            await conn.set_autocommit(True)

        pool = AsyncConnectionPool(
            kwargs=_conninfo(),
            min_size=1,
            max_size=settings.LIVE_DB_POOL_MAX_SIZE,
            timeout=POOL_TIMEOUT,
            configure=configure,
            open=False,
            name="live",
        )
        _pools[loop] = pool
        await pool.open()
    return pool


class DatabaseUnavailable(Exception):
    """No connection within ``POOL_TIMEOUT``, or the connection failed: the statement may not
    have run (or, if the connection broke after it was sent, may have)."""


async def execute(sql: str, params: Sequence[Any]) -> int:
    """Run one statement in autocommit; the number of rows it changed."""
    try:
        pool = await _pool()
        async with pool.connection() as conn, conn.cursor() as cursor:
            await cursor.execute(sql, params)
            return cursor.rowcount
    except (PoolTimeout, psycopg.OperationalError) as exc:
        raise DatabaseUnavailable(str(exc)) from exc


async def close() -> None:
    """Close this event loop's pool (a test's loop before it ends; a server at shutdown)."""
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()
