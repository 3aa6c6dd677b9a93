"""500 open NDJSON streams on one server process while a match is played over sockets.

Run from the project folder, with PostgreSQL and Redis listening on 127.0.0.1::

    python -m bench.streams              # about 2 minutes; writes docs/BENCHMARKS.md
    python -m bench.streams --no-write --moves 60

The benchmark owns the database ``portal_bench_streams`` (dropped, created and migrated at the
start, dropped at the end), Redis database 3 (emptied at the start and at the end) and the
channel prefix ``benchstreams``; it leaves everything else alone.

It registers bot accounts, opens a live match of Game of God between two of them, and starts
the portal under uvicorn with one worker process. It then opens, on that one process, 250
spectator streams of the match (``GET /api/matches/<id>/stream/``, each by another bot's
token) and 250 event streams (``GET /api/stream/events/``, one per bot account, the two
players' among them), and the two players play the match over their match sockets (signed in
by token), each answering its turn after a short think. For every move it notes when the
mover sent it and when the other player's socket, every spectator stream and the next
mover's event stream (its ``yourTurn`` line) held the new version. Bounded by a number of
moves and a time limit. The server's memory (RSS of its processes) is read before the
streams open, once they are all open and at the end. Results go to bench/results/streams.json
and between ``<!-- streams:start -->`` and ``<!-- streams:end -->`` in docs/BENCHMARKS.md.
Latencies include the client's own work: one Python process reads all 500 streams.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import time
from pathlib import Path

from . import report, servers
from .live import choose, ms, pct
from .servers import UvicornServer, group_rss_mb, portal_env

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "portal_bench_streams"
REDIS_URL = "redis://127.0.0.1:6379/3"
CHANNEL_PREFIX = "benchstreams"
GAME = "game-of-god"
SPECTATORS = 250
EVENT_STREAMS = 250
THINK = 0.15  # seconds a player waits before answering its turn
OPEN_AT_ONCE = 25


def server_env() -> dict[str, str]:
    return portal_env(DB_NAME, REDIS_URL, CHANNEL_PREFIX, BOT_ACCOUNTS_PER_PERSON="1000")


def recreate_database(drop_only: bool = False) -> None:
    servers.recreate_database(DB_NAME, drop_only=drop_only)


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL, socket_timeout=10).flushdb()


def seed(bots: int) -> tuple[int, list[str], int]:
    """Bot accounts and their tokens, and a started live match of the first two: (the match,
    the tokens, the match's version)."""
    os.environ.update(server_env())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from accounts.services import bot_account_create
    from games import services

    call_command("migrate", verbosity=0, interactive=False)
    owners = [get_user_model().objects.create_user(f"owner{i}", password=None) for i in range(bots // 900 + 1)]
    tokens, accounts = [], []
    for i in range(bots):
        account, token = bot_account_create(owner=owners[i // 900], name=f"streamer{i}")
        accounts.append(account)
        tokens.append(token)
    match = services.match_create(
        user=accounts[0],
        game=GAME,
        num_players=2,
        rated=False,
        speed="correspondence",
        days_per_move=3,
        accepts_bots=True,
    )
    services.match_join(match_id=match.pk, user=accounts[1])
    match.refresh_from_db()
    return match.pk, tokens, match.version


class Stream:
    """One NDJSON stream read over a raw HTTP/1.1 connection (chunked), line by line."""

    def __init__(self, port: int, path: str, token: str, kind: str):
        self.port, self.path, self.token, self.kind = port, path, token, kind
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**22)
        request = (
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {self.token}\r\n"
            "Accept: application/x-ndjson\r\n\r\n"
        )
        self.writer.write(request.encode())
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"{self.path}: {head[:60]!r}")

    async def read(self, on_line) -> None:
        assert self.reader is not None
        buffer = b""
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            while True:
                size = int((await self.reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await self.reader.readexactly(size)
                await self.reader.readexactly(2)
                *lines, buffer = buffer.split(b"\n")
                now = time.perf_counter()
                for line in lines:
                    if line.strip():
                        on_line(json.loads(line), now)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


async def run(port: int, pgid: int, match_id: int, tokens: list[str], moves: int, seconds: float) -> dict:
    from websockets.asyncio.client import connect

    sent: dict[int, float] = {}  # version -> when the move that makes it was sent
    delays: dict[str, list[float]] = {"socket": [], "spectator": [], "event": []}
    turn_of: dict[int, int] = {}  # version -> the seat to move at it (0 or 1)

    def spectator_line(frame: dict, now: float) -> None:
        version = frame.get("version")
        if isinstance(version, int) and version in sent:
            delays["spectator"].append(now - sent[version])

    def event_line(frame: dict, now: float) -> None:
        if frame.get("type") == "yourTurn" and frame.get("match") == match_id and frame.get("version") in sent:
            delays["event"].append(now - sent[frame["version"]])

    memory = {"before": group_rss_mb(pgid)}
    streams = [Stream(port, f"/api/matches/{match_id}/stream/", t, "spectator") for t in tokens[2 : 2 + SPECTATORS]]
    streams += [Stream(port, "/api/stream/events/", t, "event") for t in tokens[:EVENT_STREAMS]]
    started = time.perf_counter()
    for i in range(0, len(streams), OPEN_AT_ONCE):
        await asyncio.gather(*(s.open() for s in streams[i : i + OPEN_AT_ONCE]))
    opened_in = time.perf_counter() - started
    readers = [asyncio.create_task(s.read(spectator_line if s.kind == "spectator" else event_line)) for s in streams]
    await asyncio.sleep(2)
    memory["streams_open"] = group_rss_mb(pgid)

    url = f"ws://127.0.0.1:{port}/ws/matches/{match_id}/"
    sockets = [
        await connect(url, additional_headers={"Authorization": f"Token {t}"}, ping_interval=None, max_size=2**22)
        for t in tokens[:2]
    ]
    latest: list[dict | None] = [None, None]
    played = 0
    done = asyncio.Event()
    rng = random.Random(1)

    async def player(index: int) -> None:
        nonlocal played
        ws = sockets[index]
        acted = -1
        async for raw in ws:
            now = time.perf_counter()
            frame = json.loads(raw)
            version = frame.get("version")
            if not isinstance(version, int):
                continue
            if version in sent and turn_of.get(version - 1) != index:
                delays["socket"].append(now - sent[version])  # the other player's socket
            latest[index] = frame
            if frame.get("status") in ("finished", "aborted") or done.is_set():
                done.set()
                return
            if frame.get("legal_actions") and version > acted:
                acted = version
                action = choose(frame["legal_actions"], rng)
                await asyncio.sleep(THINK)
                if latest[index] is not frame or done.is_set():
                    continue
                turn_of[version] = index
                sent[version + 1] = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
                played += 1
                if played >= moves:
                    await asyncio.sleep(1)  # the last move's lines arrive
                    done.set()
                    return

    play_started = time.perf_counter()
    players = [asyncio.create_task(player(i)) for i in range(2)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), timeout=seconds)
    play_seconds = time.perf_counter() - play_started
    memory["end"] = group_rss_mb(pgid)
    for task in players + readers:
        task.cancel()
    for ws in sockets:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
    for s in streams:
        s.close()
    return {
        "streams": len(streams),
        "spectator_streams": SPECTATORS,
        "event_streams": EVENT_STREAMS,
        "opened_seconds": round(opened_in, 2),
        "moves": played,
        "play_seconds": round(play_seconds, 1),
        "think_seconds": THINK,
        "memory_mb": memory,
        "latency_ms": {
            kind: {"count": len(values), "p50": ms(pct(values, 0.5)), "p99": ms(pct(values, 0.99))}
            for kind, values in delays.items()
        },
    }


def lscpu_model() -> str:
    """The CPU's model as ``lscpu`` names it ("?" without lscpu)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout.splitlines():
            if line.startswith("Model name:"):
                return line.split(":", 1)[1].strip()
    return "?"


def body(result: dict, info: dict) -> str:
    lat, mem = result["latency_ms"], result["memory_mb"]
    rows = [
        ("Socket (the other player's)", lat["socket"]),
        (f"Spectator streams ({result['spectator_streams']})", lat["spectator"]),
        ("Event stream (`yourTurn` of the next mover)", lat["event"]),
    ]
    table = "\n".join(f"| {name} | {v['count']} | {v['p50']} | {v['p99']} |" for name, v in rows)
    r = result
    lines = [
        f"Measured on {info['date']} by `python -m bench.streams`: {info['lscpu']} (`lscpu`), "
        f"{info['cores']} cores, {info['python']}; load average {info['load_start']} and {info['load_end']} at "
        "the start and end (the machine is shared with other work).",
        "",
        f"One uvicorn worker process on PostgreSQL and Redis holds {r['streams']} NDJSON streams: "
        f"{r['spectator_streams']} spectator streams of one live match (`GET /api/matches/<id>/stream/`, each "
        f"by another bot account's token) and {r['event_streams']} event streams of bot accounts "
        f"(`GET /api/stream/events/`), opened {OPEN_AT_ONCE} at a time (all open in {r['opened_seconds']} s). "
        "Meanwhile the match's two bot accounts play Game of God over their match sockets (signed in by "
        f"token), each answering {int(r['think_seconds'] * 1000)} ms after its turn comes: {r['moves']} moves "
        f"in {r['play_seconds']} s. A delivery's latency runs from the mover's send until the line (the frame) "
        "holding the new version is read; one Python client process reads every stream and both sockets, so "
        "its own work is in the figures.",
        "",
        "| Delivery | Samples | p50 ms | p99 ms |",
        "|---|---:|---:|---:|",
        table,
        "",
        f"Server memory (RSS of its processes): {mem['before']} MB before the streams, {mem['streams_open']} MB "
        f"with the {r['streams']} streams open, {mem['end']} MB at the end.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    load_start = f"{os.getloadavg()[0]:.2f}"
    recreate_database()
    flush_redis()
    logs = ROOT / "bench" / "results"
    logs.mkdir(parents=True, exist_ok=True)
    server = None
    try:
        match_id, tokens, _version = seed(max(SPECTATORS + 2, EVENT_STREAMS))
        server = UvicornServer(
            "portal.asgi:application", 1, log_path=logs / "streams-server.log", env=server_env(), cwd=ROOT
        )
        server.wait_ready()
        result = asyncio.run(run(server.port, server.proc.pid, match_id, tokens, args.moves, args.seconds))
    finally:
        if server is not None:
            server.stop()
        flush_redis()
        recreate_database(drop_only=True)
    load_end = f"{os.getloadavg()[0]:.2f}"
    info = {**report.machine(), "lscpu": lscpu_model(), "load_start": load_start, "load_end": load_end}
    result["machine"] = info
    (logs / "streams.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    if not args.no_write:
        report.write_section(ROOT / "docs" / "BENCHMARKS.md", "streams", "500 open streams", body(result, info))


if __name__ == "__main__":
    main()
