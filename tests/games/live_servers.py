"""The portal served by uvicorn in processes of their own, on the test database and Redis.

Tests that need more than one process (a move crossing from one to another through the
channel layer) or a process of its own (its connection pool under load) start servers here.
Each server's PostgreSQL sessions carry an ``application_name`` of its own, so a test can
tell them from the test process's sessions, and the server is stopped, and its sessions
gone, before the test's data is flushed.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import connection

START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url(application_name: str) -> str:
    """The test database (not the one DATABASE_URL names: pytest-django created its own)."""
    s = connection.settings_dict
    user, password = quote(s["USER"] or "", safe=""), quote(s["PASSWORD"] or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = s["HOST"] or "127.0.0.1", s["PORT"] or 5432
    options = {k: v for k, v in s["OPTIONS"].items() if isinstance(v, str | int) and k != "application_name"}
    options["application_name"] = application_name
    return f"postgres://{auth}{host}:{port}/{quote(s['NAME'], safe='')}?{urlencode(options)}"


def server_sessions(application_name: str) -> int:
    """How many PostgreSQL sessions the servers named ``application_name`` hold right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
            [application_name],
        )
        return cursor.fetchone()[0]


@dataclass
class LiveServer:
    port: int
    process: subprocess.Popen
    log: object

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]


@contextlib.contextmanager
def uvicorn_server(application_name: str, **env: str):
    """One uvicorn process serving ``portal.asgi:application`` on a free loopback port."""
    with uvicorn_servers([application_name], **env) as (server,):
        yield server


@contextlib.contextmanager
def uvicorn_servers(application_names: list[str], **env: str):
    """One uvicorn process per name, started together; all stopped, and their database
    sessions gone, on the way out."""
    servers = []
    try:
        for name in application_names:
            servers.append(_start(name, env))
        for server in servers:
            _wait_until_serving(server)
        yield servers
    finally:
        for server in servers:
            _stop(server.process)
        for server in servers:
            output = server.output().strip()
            if output:
                print(f"--- uvicorn on port {server.port} ---\n{output}")  # shown by pytest on failure
            server.log.close()
        for name in application_names:
            _wait_until_gone(name)


def _start(application_name: str, env: dict) -> LiveServer:
    layer = settings.CHANNEL_LAYERS["default"]
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(application_name),
        "REDIS_URL": settings.REDIS_URL,
        "CHANNEL_PREFIX": layer.get("CONFIG", {}).get("prefix", "portal"),
        "SECRET_KEY": settings.SECRET_KEY,  # sessions made by the test process are valid there
        "PORTAL_TESTING": "1",
        **env,
    }
    environment.pop("DJANGO_ENV", None)
    port = free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed when the server stops)
    command = [sys.executable, "-m", "uvicorn", "portal.asgi:application", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--log-level", "warning", "--lifespan", "off"]
    process = subprocess.Popen(command, cwd=settings.BASE_DIR, env=environment, stdout=log, stderr=subprocess.STDOUT)
    return LiveServer(port, process, log)


def _wait_until_serving(server: LiveServer) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {server.process.returncode}:\n{server.output()}")
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not answer within {START_TIMEOUT:.0f} s:\n{server.output()}")
        time.sleep(0.1)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT)


def _wait_until_gone(application_name: str) -> None:
    """A killed server's sessions end as PostgreSQL notices; wait, so none outlives the test."""
    deadline = time.monotonic() + STOP_TIMEOUT
    while server_sessions(application_name) and time.monotonic() < deadline:
        time.sleep(0.05)


def session_cookie(user) -> str:
    """A ``Cookie`` header value signing ``user`` in, as logging in through the site would."""
    session = importlib.import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def http(method: str, url: str, *, body: dict | None = None, headers: dict | None = None, timeout: float = 30.0):
    """(status, decoded JSON or text) of one request; errors are answers, not exceptions."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, kind = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        status, raw, kind = exc.code, exc.read(), exc.headers.get("Content-Type", "")
    text = raw.decode(errors="replace")
    return status, json.loads(text) if kind.startswith("application/json") else text
