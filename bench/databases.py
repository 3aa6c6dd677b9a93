"""Django and a database of its own for a benchmark that runs in-process on PostgreSQL
(``bench.forum_search``, ``bench.admin_pages``): the test database machinery, under a name
the benchmark owns."""

from __future__ import annotations

import os


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    os.environ["DEBUG"] = "false"  # timings as served, without the query log
    import django

    django.setup()


def create_database(name: str, bench: str) -> tuple[str, str]:
    """Create (dropping any earlier one) and migrate the database ``name``, and connect to it;
    (the former database name, to give back to ``destroy_test_db``, and the new one)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit(f"{bench} needs PostgreSQL: set DATABASE_URL to a postgres:// address")
    connection.settings_dict["TEST"]["NAME"] = name
    old = connection.settings_dict["NAME"]
    return old, connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)


def postgres_label() -> str:
    """ "PostgreSQL 15.4": the server the benchmark's connection talks to, for its report."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        return "PostgreSQL " + cursor.fetchone()[0].split()[0]
