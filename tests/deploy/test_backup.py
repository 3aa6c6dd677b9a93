"""deploy/backup.sh and deploy/restore.sh end to end, as an operator runs them: a scratch
database on the test's PostgreSQL gets the migrations and the demo's finished, rated matches
(played through the services); it is backed up, dropped, and restored from the file; the site
then serves the same match pages, game records and rankings (the demo's short matches: the
whole demo is ``tests/portal/test_seed_demo.py``'s). A restore never writes over a
database that has tables.

Runs only on PostgreSQL: set DATABASE_URL=postgres://... (CI does)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
BACKUP, RESTORE = ROOT / "deploy" / "backup.sh", ROOT / "deploy" / "restore.sh"

pytestmark = pytest.mark.skipif(
    not settings.USING_POSTGRES, reason="backup and restore need PostgreSQL: set DATABASE_URL=postgres://..."
)


def server_url(database: str) -> str:
    db = settings.DATABASES["default"]
    credentials = quote(db["USER"] or "postgres") + (f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{database}"


def exists(name: str) -> bool:
    with psycopg.connect(server_url("postgres"), autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def drop(name: str) -> None:
    with psycopg.connect(server_url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _needs_pg_dump() -> None:
    if not shutil.which("pg_dump"):
        if os.environ.get("CI"):
            pytest.fail("CI needs pg_dump and pg_restore (.ci/run installs postgresql-client)")
        pytest.skip("pg_dump is not installed (apt-get install postgresql-client)")


def _scratch_name(suffix: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"{settings.DATABASES['default']['NAME']}_{suffix}_{worker}"[:63]


@pytest.fixture(scope="module")
def migrated():
    """A database at the code's migrations, made once for the module: the tests' scratch
    databases that need the schema are copies of it."""
    _needs_pg_dump()
    name = _scratch_name("migrated")
    drop(name)
    with psycopg.connect(server_url("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    done = run([sys.executable, "manage.py", "migrate", "--noinput"], server_url(name))
    assert done.returncode == 0, done.stderr
    yield name
    drop(name)


def _scratch(template: str | None):
    _needs_pg_dump()
    name = _scratch_name("backup")
    drop(name)
    with psycopg.connect(server_url("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    return name, server_url(name)


@pytest.fixture
def scratch():
    """The name and address of an empty database of this test's own, gone before and after."""
    name, url = _scratch(None)
    yield name, url
    drop(name)


@pytest.fixture
def scratch_migrated(migrated):
    """The same, at the code's migrations."""
    name, url = _scratch(migrated)
    yield name, url
    drop(name)


def run(command: list, database_url: str) -> subprocess.CompletedProcess:
    """A command as the operator runs it, on the scratch database, with eager Celery (no Redis)."""
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "CHANNEL_PREFIX")}
    env.update(DATABASE_URL=database_url, PORTAL_TESTING="1")
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def site(database_url: str) -> dict:
    done = run([sys.executable, "-m", "tests.deploy.site_snapshot"], database_url)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_backup_restored_into_a_new_database_serves_the_same_matches_and_ratings(scratch_migrated, tmp_path):
    name, url = scratch_migrated
    done = run([sys.executable, "-m", "tests.deploy.seed_short"], url)
    assert done.returncode == 0, done.stderr
    before = site(url)
    assert len(before["matches"]) >= 3
    assert all(m["page"] == 200 and isinstance(m["record"], dict) for m in before["matches"].values())
    assert sum(len(r["results"]) for r in before["rankings"].values()) > 0

    backup = run([str(BACKUP), str(tmp_path / "portal.dump")], url)
    assert backup.returncode == 0, backup.stderr
    assert backup.stdout.strip() == str(tmp_path / "portal.dump")
    assert not (tmp_path / "portal.dump.partial").exists()

    drop(name)
    assert not exists(name)
    restore = run([str(RESTORE), str(tmp_path / "portal.dump")], url)
    assert restore.returncode == 0, restore.stderr
    assert exists(name)

    assert site(url) == before
    # The restored database is at the code's migrations: nothing left to apply.
    plan = run([sys.executable, "manage.py", "migrate", "--check", "--noinput"], url)
    assert plan.returncode == 0, plan.stdout + plan.stderr


def test_a_restore_refuses_a_database_that_has_tables_and_changes_nothing(scratch_migrated, tmp_path):
    name, url = scratch_migrated
    assert run([str(BACKUP), str(tmp_path / "empty-site.dump")], url).returncode == 0
    done = run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", "ops", "--email", "o@e.org"], url
    )
    assert done.returncode == 0, done.stderr
    with psycopg.connect(url) as conn:
        users = conn.execute("SELECT username FROM accounts_user ORDER BY id").fetchall()
    assert ("ops",) in users

    refused = run([str(RESTORE), str(tmp_path / "empty-site.dump")], url)
    assert refused.returncode == 1
    assert f"database {name} already has" in refused.stderr and "nothing was changed" in refused.stderr
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT username FROM accounts_user ORDER BY id").fetchall() == users


def test_a_restore_refuses_a_file_that_is_no_backup(scratch, tmp_path):
    _, url = scratch
    (tmp_path / "notes.txt").write_text("not a dump")
    refused = run([str(RESTORE), str(tmp_path / "notes.txt")], url)
    assert refused.returncode == 1
    assert "is not a pg_dump archive" in refused.stderr
