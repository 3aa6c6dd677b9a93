"""The servers a benchmark starts: uvicorn in a process group of its own, on a free loopback
port, with the CPU time its processes spent (Linux /proc). Shared by ``bench.live``,
``bench.pages`` and ``bench.streams``, with the environment and database of a served portal."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

PG_SERVER = "postgres://postgres@127.0.0.1:5432"


def portal_env(database: str, redis_url: str, channel_prefix: str, **extra: str) -> dict[str, str]:
    """The environment of a portal a benchmark serves: this process's, on its own PostgreSQL
    database, Redis database and channel prefix, with no socket limit per address (every
    client of a benchmark comes from 127.0.0.1); ``extra`` adds or overrides variables."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{PG_SERVER}/{database}",
        REDIS_URL=redis_url,
        CHANNEL_PREFIX=channel_prefix,
        PORTAL_TESTING="1",
        DJANGO_ENV="development",
        DJANGO_SETTINGS_MODULE="portal.settings",
        DEBUG="false",
        PYTHONUNBUFFERED="1",
        SOCKETS_PER_ADDRESS="100000",
    )
    env.update(extra)
    return env


def recreate_database(name: str, *, drop_only: bool = False) -> None:
    """Drop the benchmark's database (its sessions ended), then create it empty unless ``drop_only``."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_status(port: int, path: str, timeout: float = 2.0) -> int | None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(64)
        return int(head.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return None


def group_cpu_seconds(pgid: int) -> float:
    """User and system CPU time of every process of the group ``pgid`` so far (Linux /proc)."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # pgrp, after state and ppid
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def group_rss_mb(pgid: int) -> float:
    """Resident memory of every process of the group ``pgid`` (Linux /proc), in MB."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            if os.getpgid(int(entry)) != pgid:
                continue
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return round(total / 1024, 1)


class UvicornServer:
    """``uvicorn APP --workers W`` from ``cwd``, in its own process group, logging to
    ``log_path``; ``name`` is how its errors call it. Started as the deployments start it,
    ``python -m portal.serve`` (a listening socket per worker), where ``cwd``'s code has it;
    plain ``uvicorn`` for older code."""

    def __init__(
        self,
        app: str,
        workers: int,
        *,
        log_path: Path,
        env: dict[str, str],
        cwd: Path,
        name: str = "the server",
        extra_args: Sequence[str] = (),
        launcher: str | None = None,
    ):
        self.app, self.workers, self.name = app, workers, name
        self.port = free_port()
        self.log_path = log_path
        self.log = open(log_path, "ab")  # noqa: SIM115 (closed in stop)
        if launcher is None:
            launcher = "portal.serve" if (Path(cwd) / "portal" / "serve.py").is_file() else "uvicorn"
        command = [sys.executable, "-m", launcher, app, "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--workers", str(workers), "--log-level", "warning", *extra_args]
        self.proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait_ready(self, timeout: float = 90.0, path: str = "/healthz") -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}; see {self.log_path}")
            if http_status(self.port, path) == 200:
                # Every worker imports the app on its own: give the others time to catch up.
                time.sleep(2.0 if self.workers > 1 else 0.2)
                return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within {timeout:.0f} s; see {self.log_path}")

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the server's processes."""
        return group_cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        # Workers left behind by a supervisor that died first.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()
