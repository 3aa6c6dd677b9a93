"""`make run` on another port: the links in the site's e-mails follow it."""

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("make") is None or not (ROOT / ".venv" / ".installed-base").exists(),
    reason="needs make and an installed .venv",
)


def run_commands(tmp_path, *args, env=None):
    """What `make run` would start, each command's SITE_URL first (a stand-in Python echoes it)."""
    fake = tmp_path / "python"
    fake.write_text('#!/bin/sh\necho "SITE_URL=$SITE_URL $*"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    environ = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "MAKEFLAGS", "PORT")}
    environ.update(env or {})
    out = subprocess.run(
        ["make", "--no-print-directory", "run", f"PY={fake}", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return out.stdout


def test_make_run_on_another_port_links_its_emails_to_that_port(tmp_path):
    out = run_commands(tmp_path, "PORT=8301")
    assert "SITE_URL=http://127.0.0.1:8301 manage.py runserver 127.0.0.1:8301" in out


def test_a_site_url_given_is_kept(tmp_path):
    out = run_commands(tmp_path, "PORT=8301", env={"SITE_URL": "https://games.example.org"})
    assert "SITE_URL=https://games.example.org manage.py runserver 127.0.0.1:8301" in out
