"""How the web server's workers share the connections opened at once: uvicorn's own
``--workers`` (one listening socket shared by the workers) against ``python -m portal.serve``
(a socket per worker, ``SO_REUSEPORT``).

    python -m bench.accept_spread            # 3 passes, 20 rounds of 16 connections each

Each pass starts both servers (2 workers, an app that answers with the id of the process that
served it: ``tests/portal/pid_app.py``), and alternates them round by round: 16 connections
opened together, one request on each, counting how many the busiest worker took. A client
that keeps its connections (a proxy's pool, a browser, the benchmarks' clients) then sends
everything through the workers those connections landed on. Reports the median and range of
the busiest worker's share, per server, over all rounds; writes its section of
docs/BENCHMARKS.md unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from bench.report import machine, write_section
from bench.servers import UvicornServer

ROOT = Path(__file__).resolve().parent.parent
APP = "tests.portal.pid_app:application"
# How long both workers of a server may take to answer once it is ready: far more than they need.
WORKERS_UP_SECONDS = 30
LAUNCHERS = {"uvicorn --workers 2": "uvicorn", "python -m portal.serve --workers 2": "portal.serve"}


async def _pids(port: int, connections: int) -> list[int]:
    async def one() -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        await writer.drain()
        answer = await reader.read()
        writer.close()
        return int(answer.split(b"\r\n\r\n", 1)[1])

    return await asyncio.gather(*[one() for _ in range(connections)])


def busiest(port: int, connections: int) -> int:
    return max(Counter(asyncio.run(_pids(port, connections))).values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    shares: dict[str, list[int]] = {name: [] for name in LAUNCHERS}
    logs = Path("/tmp/bench-accept-spread")
    logs.mkdir(exist_ok=True)
    for number in range(1, args.passes + 1):
        servers = {}
        for name, launcher in LAUNCHERS.items():
            servers[name] = UvicornServer(
                APP,
                2,
                log_path=logs / f"{launcher}.log",
                env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
                cwd=ROOT,
                name=name,
                launcher=launcher,
            )
        try:
            for name, server in servers.items():
                server.wait_ready(path="/")
                until = time.monotonic() + WORKERS_UP_SECONDS
                while len(set(asyncio.run(_pids(server.port, 32)))) < 2:  # both workers up
                    if time.monotonic() > until:
                        raise SystemExit(f"{name}: one of its 2 workers answered nothing in {WORKERS_UP_SECONDS} s")
                    time.sleep(0.05)
            for _ in range(args.rounds):
                for name, server in servers.items():
                    shares[name].append(busiest(server.port, args.connections))
        finally:
            for server in servers.values():
                server.stop()
        print(f"pass {number}: " + "; ".join(f"{n}: {sorted(v[-args.rounds :])}" for n, v in shares.items()))
    rows = []
    for name, taken in shares.items():
        rows.append(
            f"| `{name}` | {len(taken)} | {statistics.median(taken):g} of {args.connections} | "
            f"{min(taken)}-{max(taken)} | {sum(t == args.connections for t in taken)} |"
        )
    info = machine()
    text = "\n".join(
        [
            f"Measured by `python -m bench.accept_spread` on {info['summary']}: {args.passes} passes of "
            f"{args.rounds} rounds, the two servers alternating round by round; in each round "
            f"{args.connections} connections opened together, one request on each, to 2 workers.",
            "",
            "| Server | Rounds | Busiest worker's connections, median | Range | Rounds with all on one worker |",
            "|---|---:|---:|---:|---:|",
            *rows,
        ]
    )
    print(text)
    if not args.no_write:
        write_section(
            ROOT / "docs" / "BENCHMARKS.md", "accept-spread", "The web server's workers and the connections", text
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
