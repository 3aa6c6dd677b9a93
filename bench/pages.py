"""Pages under load: the portal's ``/healthz`` against a bare ASGI app, and each cached page
against ``/healthz``, served by uvicorn with 2 worker processes as in production.

Run from the project folder, with PostgreSQL and Redis listening on 127.0.0.1::

    python -m bench.pages                  # 3 passes, a few minutes; writes docs/BENCHMARKS.md
    python -m bench.pages --against main   # main's portal and this working tree's, interleaved
    python -m bench.pages --passes 1 --seconds 2 --no-write
    python -m bench.pages --against main --pages hall-of-fame,game,lobby,match  # those pages only

Everything stays on this machine. The benchmark owns one database (``--db``, default
``portal_bench_pages``: dropped, created, migrated and seeded at the start, dropped at the end)
and one Redis database (``--redis-db``, default 3: emptied at the start and at the end); it
leaves everything else alone.

Each pass starts, with uvicorn (``--workers``, default 2), the bare ASGI app of
``bench/baseline_asgi.py`` (answers ``ok`` to any request: no Django on the way) and the
portal (``portal.asgi``, on PostgreSQL and Redis, ``DEBUG`` off), and with ``--against REF``
the portal of REF as well (its files unpacked with ``git archive`` into a temporary folder,
removed at the end; both portals share the database, so the run refuses when their
migrations differ). Then, one after the other: the bare app, and each portal's pages, the
portals in alternating order from pass to pass. A page is requested by ``--clients``
keep-alive connections (default 16) for ``--seconds`` after a warm-up, anonymous, and for the
cached pages and the page of an active match (120 moves into a game; the one signed in
watches it) signed in too; a static file is requested the same way. Each page is judged by its
share of ``/healthz`` and by its p99.

The load generator runs in a process of its own: one event loop (uvloop) with an
``asyncio.Protocol`` per connection that writes a prepared request as soon as the previous
answer is complete (the headers parsed for Content-Length and Set-Cookie only). Its CPU time is
measured and reported as a share of one core during the bare app's window: well under 100%
there, where the rate is highest, means the client was not what limited the rate.

Every figure is the median over the passes; a page's share of ``/healthz`` is the median of the
per-pass ratios (each page against the same portal's ``/healthz`` in the same pass). Results
go to bench/results/pages.json and to the text between ``<!-- pages:start -->`` and
``<!-- pages:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import machine, write_section
from bench.servers import UvicornServer, portal_env, recreate_database

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
RESULTS = ROOT / "bench" / "results" / "pages.json"
GAME = "game-of-god"

# The pages served from the page cache (portal.page_cache), and the trivial one they are
# measured against. A static file is measured too, for the record.
HEALTHZ = ("healthz", "/healthz", "/healthz")
CACHED = [
    ("home", "Home page", "/"),
    ("hall-of-fame", "Hall of Fame", "/hall-of-fame/"),
    ("game", "Game page", f"/games/{GAME}/"),
    ("ranking", "Game ranking", f"/games/{GAME}/ranking/"),
    ("lobby", "Lobby", "/play/"),
    ("lobby-list", "Lobby list (refresh)", "/play/?part=open"),
    # 120 moves into a game of two players; the one signed in watches (bench.live's seed).
    ("match", "Match page (active match)", "/matches/{match}/"),
]
STATIC = ("static", "Static file", "/static/css/site.css")

# Targets: /healthz at least this many times the version before (the same run), each cached
# page at least this share of /healthz.
HEALTHZ_GAIN = 10.0
PAGE_SHARE = 0.5
PAGE_P99_MS = 100.0


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


# ------------------------------------------------------------------------------------------
# The load generator (in a process of its own)


class _Client(asyncio.Protocol):
    """One keep-alive connection: a request written as soon as the previous answer is complete."""

    def __init__(self, request: bytes, cookie_line: bytes, times: list, errors: dict, done: asyncio.Future):
        self.base, self.cookie_line = request, cookie_line
        self.cookies: dict[bytes, bytes] = {}
        self.times, self.errors, self.done = times, errors, done
        self.buffer = b""
        self.stop_at = 0.0
        self.started = 0.0
        self.transport: asyncio.Transport | None = None

    def request(self) -> bytes:
        cookies = b"; ".join(b"=".join(kv) for kv in self.cookies.items())
        return self.base + (b"Cookie: " + cookies + b"\r\n" if cookies else b"") + b"\r\n"

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.send()

    def send(self) -> None:
        self.started = time.perf_counter()
        assert self.transport is not None
        self.transport.write(self.request())

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        head = self.buffer[:end]
        length = -1
        status = head[9:12]
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"set-cookie":
                pair = value.strip().split(b";", 1)[0]
                k, _, v = pair.partition(b"=")
                self.cookies[k] = v
        if length < 0:  # chunked: complete at the last, empty chunk
            last = self.buffer.find(b"0\r\n\r\n", end + 4)
            if last < 0:
                return
            length = last + 5 - (end + 4)
        if len(self.buffer) < end + 4 + length:
            return
        self.buffer = self.buffer[end + 4 + length :]
        now = time.perf_counter()
        self.times.append((self.started, now))
        if status != b"200":
            key = f"HTTP {status.decode()}"
            self.errors[key] = self.errors.get(key, 0) + 1
        if now < self.stop_at:
            self.send()
        elif not self.done.done():
            self.done.set_result(None)

    def connection_lost(self, exc) -> None:
        if not self.done.done():
            self.errors["closed"] = self.errors.get("closed", 0) + 1
            self.done.set_result(None)


def _factory(protocol: _Client) -> Callable[[], _Client]:
    return lambda: protocol


async def _load(port: int, path: str, cookie: str, clients: int, warmup: float, seconds: float) -> dict:
    loop = asyncio.get_running_loop()
    base = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    times: list = []
    errors: dict = {}
    protocols = []
    start = time.perf_counter()
    stop = start + warmup + seconds
    for _ in range(clients):
        done = loop.create_future()
        protocol = _Client(base, b"", times, errors, done)
        if cookie:
            k, _, v = cookie.partition("=")
            protocol.cookies[k.encode()] = v.encode()
        protocol.stop_at = stop
        protocols.append(protocol)
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.gather(*(loop.create_connection(_factory(p), "127.0.0.1", port) for p in protocols))
    await asyncio.wait_for(asyncio.gather(*(p.done for p in protocols)), warmup + seconds + 30)
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    for p in protocols:
        if p.transport is not None:
            p.transport.close()
    t0, t1 = start + warmup, stop
    window = [end - begin for begin, end in times if t0 <= end < t1]
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    return {
        "rate": round(len(window) / (t1 - t0), 1),
        "completed": len(window),
        "p50_ms": _ms(pct(window, 0.5)),
        "p99_ms": _ms(pct(window, 0.99)),
        "client_cpu": round(cpu / (time.perf_counter() - start), 3),
        "total": len(times),
        "errors": errors,
    }


def _load_process(jobs, answers) -> None:
    """The client's process: runs each job it is sent, answers with the result."""
    import uvloop

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        job = jobs.get()
        if job is None:
            return
        try:
            answers.put(uvloop.run(_load(**job)))
        except Exception as exc:  # noqa: BLE001 (reported as the run's failure)
            answers.put({"rate": 0.0, "failed": f"{type(exc).__name__}: {exc}"})


class LoadGenerator:
    def __init__(self):
        context = multiprocessing.get_context("spawn")
        self.jobs, self.answers = context.Queue(), context.Queue()
        self.proc = context.Process(target=_load_process, args=(self.jobs, self.answers), daemon=True)
        self.proc.start()

    def run(self, **job) -> dict:
        self.jobs.put(job)
        return self.answers.get(timeout=job["warmup"] + job["seconds"] + 90)

    def close(self) -> None:
        self.jobs.put(None)
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()


# ------------------------------------------------------------------------------------------
# Servers, database


@dataclass
class Env:
    db: str
    redis_url: str
    prefix: str
    secret: str

    def server(self) -> dict[str, str]:
        return portal_env(
            self.db,
            self.redis_url,
            self.prefix,
            BASELINE_CHANNEL_PREFIX=f"{self.prefix}base",
            SECRET_KEY=self.secret,
            LOG_LEVEL="WARNING",
        )


class Server(UvicornServer):
    """``uvicorn APP --workers W`` from ``cwd``, in its own process group, logging to ``log``."""

    def __init__(self, app: str, workers: int, cwd: Path, env: dict, log: Path):
        super().__init__(app, workers, log_path=log, env=env, cwd=cwd, extra_args=["--no-access-log"])


def prepare_database(env: Env, players: int, finished: int) -> tuple[str, int]:
    """Create, migrate and seed the bench database; the session key of a signed-in player and
    the active match whose page is measured."""
    import redis

    redis.Redis.from_url(env.redis_url).flushdb()
    recreate_database(env.db)
    server_env = env.server()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=server_env, check=True, timeout=600
    )
    os.environ.update(server_env)
    import django

    django.setup()
    from django.db import connections

    from bench.live import seed

    seeded = seed(players, finished, random.Random(2026))
    connections.close_all()
    return seeded.page_user_session, seeded.page_match


def drop_database(env: Env) -> None:
    import redis

    with contextlib.suppress(Exception):
        redis.Redis.from_url(env.redis_url).flushdb()
    with contextlib.suppress(Exception):
        recreate_database(env.db, drop_only=True)


def git(*args: str) -> str:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


# ------------------------------------------------------------------------------------------
# The passes


@dataclass
class Arm:
    key: str  # "ref" or "tree"
    label: str
    root: Path


@dataclass
class Bench:
    args: argparse.Namespace
    env: Env
    session: str
    match: int
    arms: list[Arm]
    logs: Path
    load: LoadGenerator
    results: list[dict] = field(default_factory=list)
    began: float = field(default_factory=time.monotonic)

    def measure(self, pass_no: int, arm: str, key: str, visitor: str, server: Server, path: str) -> None:
        cookie = f"sessionid={self.session}" if visitor == "signed in" else ""
        port = server.port
        cpu = server.cpu_seconds()
        result = self.load.run(
            port=port,
            path=path,
            cookie=cookie,
            clients=self.args.clients,
            warmup=self.args.warmup,
            seconds=self.args.seconds,
        )
        cpu = server.cpu_seconds() - cpu
        if result.get("total"):
            # The server's CPU per request, over the whole run: on a machine shared with other
            # work the rate follows what the others leave; this follows the code.
            result["cpu_ms"] = round(cpu * 1000 / result["total"], 3)
            result["per_core"] = round(result["total"] / cpu, 1) if cpu else None
        row = {"pass": pass_no, "arm": arm, "page": key, "visitor": visitor, **result}
        self.results.append(row)
        line = f"[{time.monotonic() - self.began:5.0f} s] pass {pass_no} {arm:<5} {key:<13} {visitor:<9}"
        line += f" {row.get('rate', 0):>8.1f} req/s  p50 {row.get('p50_ms')} ms  p99 {row.get('p99_ms')} ms"
        line += f"  server {row.get('cpu_ms')} ms cpu/req  client cpu {row.get('client_cpu')}"
        if row.get("errors") or row.get("failed"):
            line += f"  {row.get('errors') or row.get('failed')}"
        print(line, flush=True)

    def one_pass(self, pass_no: int) -> None:
        workers = self.args.workers
        env = self.env.server()
        servers: dict[str, Server] = {}
        try:
            servers["bare"] = Server(
                "bench.baseline_asgi:application", workers, ROOT, env, self.logs / f"bare-p{pass_no}.log"
            )
            for arm in self.arms:
                servers[arm.key] = Server(
                    "portal.asgi:application", workers, arm.root, env, self.logs / f"{arm.key}-p{pass_no}.log"
                )
            for server in servers.values():
                server.wait_ready()
            self.measure(pass_no, "bare", "healthz", "anonymous", servers["bare"], "/healthz")
            arms = self.arms if pass_no % 2 else list(reversed(self.arms))
            for arm in arms:
                server = servers[arm.key]
                self.measure(pass_no, arm.key, "healthz", "anonymous", server, "/healthz")
                for key, _, path in CACHED:
                    if key in self.args.pages:
                        for visitor in ("anonymous", "signed in"):
                            self.measure(pass_no, arm.key, key, visitor, server, path.format(match=self.match))
                if STATIC[0] in self.args.pages:
                    self.measure(pass_no, arm.key, "static", "anonymous", server, STATIC[2])
        finally:
            for server in servers.values():
                server.stop()


# ------------------------------------------------------------------------------------------
# Medians and the report


def _rows(results, arm, page, visitor) -> dict[int, dict]:
    return {r["pass"]: r for r in results if r["arm"] == arm and r["page"] == page and r["visitor"] == visitor}


def _ratio(top: dict[int, dict], bottom: dict[int, dict], key: str) -> float | None:
    ratios = [top[p][key] / bottom[p][key] for p in top if p in bottom and top[p].get(key) and bottom[p].get(key)]
    return round(statistics.median(ratios), 3) if ratios else None


def summarise(results: list[dict]) -> dict:
    """Medians per (version, page, visitor); each ratio twice: by requests/s (the wall clock)
    and by requests per CPU-second of the server (``per_core``)."""
    out: dict = {}
    groups = {(r["arm"], r["page"], r["visitor"]) for r in results}
    for arm, page, visitor in sorted(groups):
        rows = _rows(results, arm, page, visitor)
        healthz = _rows(results, arm, "healthz", "anonymous")
        bare = _rows(results, "bare", "healthz", "anonymous")
        ref = _rows(results, "ref", page, visitor)
        row = {"arm": arm, "page": page, "visitor": visitor}
        for key in ("rate", "p50_ms", "p99_ms", "cpu_ms", "per_core", "client_cpu"):
            row[key] = median(r.get(key) for r in rows.values())
        for key in ("rate", "per_core"):
            row[f"vs_healthz_{key}"] = _ratio(rows, healthz, key) if arm != "bare" else None
            row[f"vs_bare_{key}"] = _ratio(rows, bare, key)
            row[f"vs_ref_{key}"] = _ratio(rows, ref, key) if arm == "tree" else None
        out[f"{arm}:{page}:{visitor}"] = row
    return out


def fmt(value, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _pct(value) -> str:
    return "-" if value is None else f"{value:.0%}"


def _verdict(by_rate, by_cpu, goal: float) -> str:
    met = [name for name, value in (("rate", by_rate), ("CPU", by_cpu)) if value is not None and value >= goal]
    if len(met) == 2:
        return "met"
    return f"met by {met[0]} only" if met else "missed"


def targets(summary: dict, against: bool) -> list[tuple[str, str, str]]:
    """(target, measured, verdict): each judged by the wall-clock rate and by the server's CPU
    per request (which another load on the machine does not move)."""
    goals = []
    tree = summary.get("tree:healthz:anonymous", {})
    if against:
        ref = summary.get("ref:healthz:anonymous", {})
        by_rate, by_cpu = tree.get("vs_ref_rate"), tree.get("vs_ref_per_core")
        goals.append(
            (
                f"`/healthz` at least {HEALTHZ_GAIN:g}x the version before",
                f"x{fmt(by_rate, 1)} by rate ({fmt(tree.get('rate'))} against {fmt(ref.get('rate'))} req/s), "
                f"x{fmt(by_cpu, 1)} by CPU ({fmt(tree.get('cpu_ms'), 2)} against {fmt(ref.get('cpu_ms'), 2)} ms "
                "a request)",
                _verdict(by_rate, by_cpu, HEALTHZ_GAIN),
            )
        )
    for key, label, _ in CACHED:
        for visitor in ("anonymous", "signed in"):
            row = summary.get(f"tree:{key}:{visitor}")
            if row is None:
                continue
            by_rate, by_cpu = row.get("vs_healthz_rate"), row.get("vs_healthz_per_core")
            goals.append(
                (
                    f"{label}, {visitor}: >= {PAGE_SHARE:.0%} of `/healthz`",
                    f"{_pct(by_rate)} by rate, {_pct(by_cpu)} by CPU",
                    _verdict(by_rate, by_cpu, PAGE_SHARE),
                )
            )
            p99 = row.get("p99_ms")
            goals.append(
                (
                    f"{label}, {visitor}: p99 <= {PAGE_P99_MS:g} ms",
                    f"{fmt(p99, 1)} ms",
                    "met" if p99 is not None and p99 <= PAGE_P99_MS else "missed",
                )
            )
    return goals


def report(info: dict, args, arms: list[Arm], summary: dict, goals: list, results: list[dict], load) -> str:
    bare = summary.get("bare:healthz:anonymous", {})
    lines = [
        f"Machine: {info['summary']}; {info['date']}; load average {load[0]:.1f} at the start, {load[1]:.1f} at "
        f"the end (other work on the machine takes CPU from the servers: the rates vary with it, the CPU per "
        f"request much less). Method: `python -m bench.pages"
        f"{' --against ' + args.against if args.against else ''}`: uvicorn with {args.workers} worker processes "
        f"for each server, started afresh each pass; {args.clients} keep-alive clients (one client process, "
        f"uvloop) for {args.seconds:g} s after {args.warmup:g} s of warm-up per row; {args.passes} passes, "
        "medians; a share is the median of the per-pass ratios. *CPU ms* is the CPU time of the server's "
        "processes per request answered; *per core* the requests one fully busy core would answer at that cost. "
        f"The bare ASGI app (`bench/baseline_asgi.py`) answered {fmt(bare.get('rate'))} req/s with the client "
        f"process at {fmt((bare.get('client_cpu') or 0) * 100)}% of one core: the client was not the limit.",
        "",
    ]
    if args.against:
        lines[0] += f" `ref` is {arms[0].label}, `tree` {arms[1].label}."
    lines += [
        "| Page | Visitor | Version | Requests/s | p50 ms | p99 ms | CPU ms | Per core | Share of /healthz "
        "(rate, CPU) | Against ref (rate, CPU) |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
        f"| bare ASGI app | anonymous | - | {fmt(bare.get('rate'))} | {fmt(bare.get('p50_ms'), 2)} | "
        f"{fmt(bare.get('p99_ms'), 2)} | {fmt(bare.get('cpu_ms'), 3)} | {fmt(bare.get('per_core'))} | - | - |",
    ]
    names = {HEALTHZ[0]: HEALTHZ[1], **{k: label for k, label, _ in CACHED}, STATIC[0]: STATIC[1]}
    for key in [HEALTHZ[0], *(k for k, _, _ in CACHED), STATIC[0]]:
        for visitor in ("anonymous", "signed in"):
            for arm in arms:
                row = summary.get(f"{arm.key}:{key}:{visitor}")
                if not row:
                    continue
                if key == "healthz":
                    share = f"{_pct(row['vs_bare_rate'])}, {_pct(row['vs_bare_per_core'])} of bare"
                else:
                    share = f"{_pct(row['vs_healthz_rate'])}, {_pct(row['vs_healthz_per_core'])}"
                against = (
                    "-"
                    if row["vs_ref_rate"] is None
                    else f"x{row['vs_ref_rate']:.2f}, x{fmt(row['vs_ref_per_core'], 2)}"
                )
                lines.append(
                    f"| {names[key]} | {visitor} | {arm.key} | {fmt(row['rate'])} | {fmt(row['p50_ms'], 2)} | "
                    f"{fmt(row['p99_ms'], 2)} | {fmt(row['cpu_ms'], 2)} | {fmt(row['per_core'])} | {share} | "
                    f"{against} |"
                )
    lines += ["", "| Target | Measured | Verdict |", "|---|---|---|"]
    lines += [f"| {name} | {measured} | {verdict} |" for name, measured, verdict in goals]
    failed = sum(1 for r in results if r.get("failed") or r.get("errors"))
    met = sum(1 for *_, verdict in goals if verdict == "met")
    lines += ["", f"{met} of {len(goals)} targets met by both measures; {failed} rows with errors."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="measurement window of a row")
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--clients", type=int, default=16, help="keep-alive connections at once")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes of each server")
    parser.add_argument("--against", metavar="REF", help="also serve the portal of this git ref, interleaved")
    parser.add_argument("--db", default="portal_bench_pages", help="the database the run owns")
    parser.add_argument("--redis-db", type=int, default=3, help="the Redis database the run owns")
    parser.add_argument("--prefix", default="benchpages", help="the channel prefix of the servers")
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--finished", type=int, default=2000, help="finished rated matches")
    parser.add_argument("--no-write", action="store_true", help="leave docs/BENCHMARKS.md alone")
    parser.add_argument("--json", type=Path, default=RESULTS)
    every = [key for key, _, _ in CACHED] + [STATIC[0]]
    parser.add_argument(
        "--pages",
        default=",".join(every),
        help=f"comma-separated pages to measure besides /healthz (default all: {','.join(every)})",
    )
    args = parser.parse_args(argv)
    args.pages = set(args.pages.split(","))
    if args.pages - set(every):
        parser.error(f"--pages: no such page {', '.join(sorted(args.pages - set(every)))}")

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    env = Env(args.db, f"redis://127.0.0.1:6379/{args.redis_db}", args.prefix, "bench-" + os.urandom(24).hex())
    info = machine()
    print(info["summary"], flush=True)
    logs = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    folder = Path(tempfile.mkdtemp(prefix="bench-pages-ref-"))
    arms = []
    load = None
    try:
        if args.against:
            commit = git("rev-parse", "--verify", f"{args.against}^{{commit}}")
            from bench.live import export_ref, migration_differences

            export_ref(commit, folder)
            differences = migration_differences(folder, ROOT)
            if differences:
                raise SystemExit("the migrations differ: " + "; ".join(differences))
            arms.append(Arm("ref", f"{args.against} ({commit[:10]})", folder))
        arms.append(Arm("tree", f"the working tree (on {git('rev-parse', '--short', 'HEAD')})", ROOT))
        load_at_start = os.getloadavg()[0]
        started = time.monotonic()
        session, match = prepare_database(env, args.players, args.finished)
        print(f"{args.db} seeded in {time.monotonic() - started:.0f} s", flush=True)
        load = LoadGenerator()
        bench = Bench(args, env, session, match, arms, logs, load)
        for pass_no in range(1, args.passes + 1):
            bench.one_pass(pass_no)
        summary = summarise(bench.results)
        goals = targets(summary, bool(args.against))
        body = report(info, args, arms, summary, goals, bench.results, (load_at_start, os.getloadavg()[0]))
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "machine": info,
                    "args": {k: str(v) for k, v in vars(args).items()},
                    "runs": bench.results,
                    "medians": summary,
                    "targets": goals,
                },
                indent=1,
            )
            + "\n"
        )
        print()
        print(body)
        print(f"\nwrote {args.json}; server logs in {logs}")
        if not args.no_write:
            write_section(DOC, "pages", "Pages", body)
            print(f"wrote {DOC.relative_to(ROOT)}")
        return 0
    finally:
        if load is not None:
            load.close()
        drop_database(env)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted: servers stopped, the bench database dropped", file=sys.stderr)
        sys.exit(130)
