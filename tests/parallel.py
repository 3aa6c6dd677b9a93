"""The suite in parallel processes (``pytest -n 2``, ``make test TEST_WORKERS=2``): each process
gets Redis of its own before Django reads its settings.

pytest-django already gives each process a test database of its own (``test_portal_gw0``,
``test-db.sqlite3_gw1``). Redis is shared, so without this the processes' Celery workers would
take each other's tasks (and run them on the wrong test database), their caches would mix and
their channel-layer messages would cross (pub/sub ignores the database number). Process N uses
Redis database N + 1 and the channel prefix ``portal-gwN``; processes a test starts (live
servers, workers) inherit both, unless the test hands them a Redis of their own.

Loaded with ``-p tests.parallel`` (``pytest.ini``), so it runs before pytest-django sets up
Django. Also: the browser tests run one at a time, in the same process (``--dist loadgroup``),
so two Chromiums never share the machine's two cores with everything else.
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit, urlunsplit

import pytest

BROWSER_GROUP = "browser"


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


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups off the items
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("browser") is not None or "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(BROWSER_GROUP))
