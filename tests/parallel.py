"""The suite in parallel processes (``pytest -n 2``, ``make test TEST_WORKERS=2``): each process
gets Redis of its own before Django reads its settings.

pytest-django already gives each process a test database of its own (``test_portal_gw0``,
``test-db.sqlite3_gw1``). Redis is shared, so without this the processes' Celery workers would
take each other's tasks (and run them on the wrong test database), their caches would mix and
their channel-layer messages would cross (pub/sub ignores the database number). Process N uses
Redis database N + 1 and the channel prefix ``portal-gwN``; processes a test starts (live
servers, workers) inherit both, unless the test hands them a Redis of their own.

Loaded with ``-p tests.parallel`` (``pytest.ini``), so it runs before pytest-django sets up
Django. In two processes the browser tests may run side by side.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit, urlunsplit


def _own_redis(url: str, worker: int) -> str:
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + worker + 1}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if (match := re.fullmatch(r"gw(\d+)", _worker)) is not None:
    number = int(match.group(1))
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = _own_redis(os.environ["REDIS_URL"], number)
    os.environ["CHANNEL_PREFIX"] = f"{os.environ.get('CHANNEL_PREFIX', 'portal')}-{_worker}"
