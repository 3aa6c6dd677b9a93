"""Live play under load: the portal's move path and pages against a bare Channels broadcast.

Run from the project folder, with PostgreSQL and Redis listening on 127.0.0.1::

    python -m bench.live                 # 3 passes, about 12 minutes; writes docs/BENCHMARKS.md
    python -m bench.live --quick         # one short pass, about 2 minutes, a sanity check
    python -m bench.live --passes 1 --seconds 8 --no-write
    python -m bench.live --against main  # this working tree's move path against main's, about 5 minutes
    python -m bench.live --pages-only    # the pages section alone (bench.pages compares pages --against)
    python -m bench.live --deflate ...   # the sockets ask for permessage-deflate, as browsers do

Everything stays on this machine: PostgreSQL at 127.0.0.1:5432 (user ``postgres``) and Redis
at 127.0.0.1:6379. The benchmark owns the database ``portal_bench`` (dropped, created and
migrated at the start, dropped at the end), Redis database 2 (emptied at the start and at
the end: the rating tasks queued when a match ends are never consumed) and the channel
prefixes ``bench`` and ``benchbase``; it leaves everything else alone. Two runs at once on one
machine each need their own: ``BENCH_LIVE_DB``, ``BENCH_LIVE_REDIS_URL`` and
``BENCH_LIVE_PREFIX`` in the environment choose them (the baseline's prefix is that one's
with ``base`` after it).

In each pass it starts, with uvicorn, the portal (``portal.asgi``) and a bare Channels app
(``bench/baseline_asgi.py``: one consumer that group-sends every frame it receives to the 4
sockets of its room, on the same pub/sub channel layer and Redis), with 1 and then 2 worker
processes, and alternates between them:

* the baseline: N rooms of 4 sockets; two of them take turns, each sending a frame as soon
  as the other's frame comes back; a broadcast's latency runs from the send until all four
  sockets have it.
* the portal: N matches of Game of God (2 players, about 500 moves a game) with 2 players and
  2 spectators each (one signed in, one anonymous); a player answers as soon as an update
  gives its seat legal actions (a random one, never a challenge, so no dice are rolled once
  the game is under way); a finished match is replaced by a fresh one. A move's latency runs
  from the player's send until all four sockets hold the new version. Also: N = 40 with
  players who wait 200 ms before answering, and one match watched by 250 spectators (their
  sockets in a second client process), whose players' latency is compared with the same
  match watched by 2.
* pages: 16 keep-alive HTTP clients request one page for a few seconds; requests/s, p50 and
  p99 of the trivial ``/healthz``, the Hall of Fame, a game page, the lobby and the page of
  an active match, anonymous and signed in, each as a share of ``/healthz`` in the same pass.

Rates count what completed inside a measurement window that opens after a warm-up (and grows
until at least 30 moves completed, for a slow server); latencies are those of the moves
(broadcasts, requests) completed in that window. Every figure is the median over the passes.
Results go to bench/results/live.json and to the text between ``<!-- live:start -->`` and
``<!-- live:end -->`` in docs/BENCHMARKS.md.

Against another version (``--against REF [--configs alone,n40] [--workers 1] [--passes 4]
[--seconds 5]``): is the move path of the working tree slower than REF's, measured in one run
on one machine under one load? REF (a branch, a tag, a commit, ``HEAD~3``) is unpacked with
``git archive`` into a temporary folder, removed at the end, on an error or on Ctrl-C alike;
the repository itself is not touched. Both portals share the one database, migrated by the
working tree, so the run refuses when the migrations of the two differ (compared as Python
syntax trees: reformatting one is no difference); the working tree's code seeds the data and
makes the matches, which REF's portal must read. Each pass starts the bare baseline and two
portals, REF's with its folder as working directory, both with this interpreter and the same
environment (one ``SECRET_KEY`` for both, so both accept the bench's sessions); for each chosen
configuration (``alone``, ``spectators``, ``n10``, ``n40``, ``n100``, ``n40-think``; default
``alone`` and ``n40``, on 1 worker process) it runs the baseline and then the two portals, REF
first in odd passes and the working tree first in even ones (4 passes by default, 2 with
``--quick``). The report gives, per configuration, the medians over the passes of moves/s, p50
and p99 for the baseline, REF and the working tree, and the medians of the per-pass ratios
working tree / REF and each portal / baseline, with their lowest and highest. It goes to
bench/results/live-compare.json and, unless ``--no-write``, between
``<!-- live-compare:start -->`` and ``<!-- live-compare:end -->`` in docs/BENCHMARKS.md.
Pages are not measured in a comparison.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import bisect
import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench import servers
from bench.report import machine, write_section
from bench.servers import PG_SERVER, UvicornServer, group_cpu_seconds, portal_env

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
RESULTS = ROOT / "bench" / "results" / "live.json"

DB_NAME = os.environ.get("BENCH_LIVE_DB", "portal_bench")
REDIS_URL = os.environ.get("BENCH_LIVE_REDIS_URL", "redis://127.0.0.1:6379/2")
CHANNEL_PREFIX = os.environ.get("BENCH_LIVE_PREFIX", "bench")
BASELINE_PREFIX = f"{CHANNEL_PREFIX}base"
GAME = "game-of-god"
SECONDS_PER_MOVE = 3600  # no clock runs out during a run
HTTP_CLIENTS = 16
CONNECT_AT_ONCE = 20  # sockets opening at the same time
# The match socket refuses more than 20 frames a second; a player stays under it.
PACE_FRAMES, PACE_WINDOW = 18, 1.05
PAGE_WARMUP = 0.5
# A measurement window grows (up to EXTEND times its length) until this many moves completed.
MIN_SAMPLES, EXTEND = 30, 3

# Targets of the live-play work, on a 2-core machine.
ALONE_P50_MS, ALONE_P99_MS = 10.0, 30.0
THROUGHPUT_SHARE = 0.5
SCALE_OUT_GAIN = 1.6  # 1 -> 2 processes, 40 matches
THINK_P50_MS, THINK_P99_MS = 15.0, 50.0
SPECTATORS_P99_ADD_MS = 20.0
PAGE_SHARE, PAGE_P99_MS = 0.5, 100.0


@dataclass(frozen=True)
class Live:
    """One live-play configuration."""

    name: str
    label: str
    matches: int
    think: float = 0.0
    spectators: int = 2
    baseline: bool = True


ALONE = Live("alone", "1 match alone", 1)
CROWD = Live("spectators", "1 match, 250 spectators", 1, spectators=250, baseline=False)
N10 = Live("n10", "10 matches", 10)
N40 = Live("n40", "40 matches", 40)
N100 = Live("n100", "100 matches", 100)
THINK = Live("n40-think", "40 matches, 200 ms think time", 40, think=0.2, baseline=False)

PAGES = [
    ("healthz", "/healthz (trivial view)", "/healthz"),
    ("hall-of-fame", "Hall of Fame", "/hall-of-fame/"),
    ("game", "Game page", f"/games/{GAME}/"),
    ("lobby", "Lobby", "/play/"),
    ("match", "Match page (active match)", "/matches/{match}/"),
]


def pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile, ``q`` in [0, 1]."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def median(values) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# ------------------------------------------------------------------------------------------
# Services and servers


# Set by a comparison (--against): what both portals and the bench's own process must share.
SHARED_ENV: dict[str, str] = {}


def server_env() -> dict[str, str]:
    return portal_env(DB_NAME, REDIS_URL, CHANNEL_PREFIX, BASELINE_CHANNEL_PREFIX=BASELINE_PREFIX, **SHARED_ENV)


def recreate_database() -> None:
    servers.recreate_database(DB_NAME)


def drop_database() -> None:
    servers.recreate_database(DB_NAME, drop_only=True)


def redis_client():
    import redis

    return redis.Redis.from_url(REDIS_URL, socket_timeout=10)


SERVER_GROUPS: dict[int, int] = {}  # port -> the process group of the server listening on it


class Server(UvicornServer):
    """The bench's environment, its log named after ``name`` in ``logs``; run from ``cwd``
    (the working tree unless told), so the app is the one in that folder."""

    def __init__(self, app: str, workers: int, logs: Path, name: str, cwd: Path = ROOT):
        super().__init__(app, workers, log_path=logs / f"{name}.log", env=server_env(), cwd=cwd, name=name)
        SERVER_GROUPS[self.port] = self.proc.pid


def log_problems(logs: Path) -> dict[str, int]:
    found = {}
    for path in sorted(logs.glob("*.log")):
        text = path.read_text(errors="replace")
        found[path.name] = text.count("Traceback") + text.count("ERROR")
    return {name: n for name, n in found.items() if n}


# ------------------------------------------------------------------------------------------
# The bench database: players, sessions, rated history, open matches, an active match


def setup_django() -> None:
    os.environ.update(server_env())
    import django

    django.setup()


def choose(legal: list, rng: random.Random) -> str:
    """A random legal action, never a challenge: Game of God then rolls no dice in play."""
    actions = [a["action"] if isinstance(a, dict) else a for a in legal]
    calm = [a for a in actions if not a.startswith("challenge:")]
    return rng.choice(calm or actions)


@dataclass
class Seeded:
    users: list  # (user id, session key)
    page_match: int
    page_user_session: str
    finished: int
    open_matches: int
    page_match_moves: int


def seed(players: int, finished: int, rng: random.Random) -> Seeded:
    import datetime
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games import services
    from games.engines import all_games, get_game
    from games.engines.base import places_from_keys
    from games.models import Match, Move, Seat
    from rankings.services import ratings_recompute

    User = get_user_model()
    with transaction.atomic():
        User.objects.bulk_create(
            User(username=f"bench{i:04d}", password="!", email=f"bench{i:04d}@example.com") for i in range(players)
        )
    users = list(User.objects.filter(username__startswith="bench").order_by("id"))

    # Rated history: matches of every game, 2 to 4 seats as each game allows, one a minute.
    games = all_games()
    first_time = timezone.now() - datetime.timedelta(minutes=finished + 60)
    matches, seatings = [], []
    for i in range(finished):
        game = games[i % len(games)]
        n = rng.randint(game.min_players, min(game.max_players, 4))
        seated = rng.sample(users, n)
        places = places_from_keys([(rng.randint(0, 9),) for _ in range(n)])
        matches.append(
            Match(
                game=game.slug,
                num_players=n,
                status=Match.Status.FINISHED,
                rated=True,
                creator=seated[0],
                started_at=first_time + datetime.timedelta(minutes=i - 1),
                finished_at=first_time + datetime.timedelta(minutes=i),
                end_reason="game over",
            )
        )
        seatings.append((seated, places))
    with transaction.atomic():
        made = Match.objects.bulk_create(matches, batch_size=2000)
        Seat.objects.bulk_create(
            (
                Seat(match_id=m.pk, index=k, user=u, place=p, score=10 - p)
                for m, (seated, places) in zip(made, seatings, strict=True)
                for k, (u, p) in enumerate(zip(seated, places, strict=True))
            ),
            batch_size=5000,
        )
    ratings_recompute()

    # Sessions, made by the configured session engine as a log-in would.
    engine = import_module(settings.SESSION_ENGINE)
    sessions = []
    for user in users:
        store = engine.SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)

    # Open matches for the lobby, a few in every game, some with a seat taken.
    open_count = 0
    for i, game in enumerate(games * 4):
        creator = users[-1 - i]
        match = services.match_create(user=creator, game=game.slug, num_players=game.max_players)
        if i % 2 and game.max_players > 2:
            services.match_join(match_id=match.pk, user=users[-60 - i])
        open_count += 1

    # The active match whose page is measured: 120 moves into a game.
    white, black = users[0], users[1]
    match = services.match_create(user=white, game=GAME, num_players=2, seconds_per_move=SECONDS_PER_MOVE)
    services.match_join(match_id=match.pk, user=black)
    seat_users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    engine = get_game(GAME)
    moves = 0
    while moves < 120:
        m = Match.objects.get(pk=match.pk)
        actions = list(Move.objects.filter(match=m).order_by("index").values_list("action", flat=True))
        state = engine.replay(m.num_players, m.options, actions)
        if m.status != Match.Status.ACTIVE or state.current_player() != m.to_move:
            break
        services.match_act(
            match_id=m.pk, user=seat_users[m.to_move], action=choose(state.legal_actions(), rng), version=m.version
        )
        moves += 1
    return Seeded(
        users=[(u.pk, s) for u, s in zip(users, sessions, strict=True)],
        page_match=match.pk,
        page_user_session=sessions[10],
        finished=finished,
        open_matches=open_count,
        page_match_moves=moves,
    )


@dataclass
class Prepared:
    match_id: int
    cookies: list  # two players, then the signed-in spectator


class Factory:
    """Fresh started matches between the live players, made through the services."""

    def __init__(self, users: list, rng: random.Random):
        self.users = users[20:]  # the first ones own the measured pages
        self.rng = rng
        self.next = 0

    def make(self, count: int) -> list[Prepared]:
        from django.db import close_old_connections

        from games import services

        close_old_connections()
        made = []
        for _ in range(count):
            picks = [self.users[(self.next + k) % len(self.users)] for k in range(3)]
            self.next += 3
            match = services.match_create(
                user=_user(picks[0][0]), game=GAME, num_players=2, seconds_per_move=SECONDS_PER_MOVE
            )
            services.match_join(match_id=match.pk, user=_user(picks[1][0]))
            made.append(Prepared(match.pk, [p[1] for p in picks]))
        return made


_USERS: dict = {}


def _user(pk: int):
    from django.contrib.auth import get_user_model

    if pk not in _USERS:
        _USERS[pk] = get_user_model().objects.get(pk=pk)
    return _USERS[pk]


def abort_matches(ids: list[int]) -> int:
    """Call off the matches a configuration leaves unfinished, so the next one starts clean."""
    from django.db import close_old_connections
    from django.utils import timezone

    from games.models import Match

    close_old_connections()
    return Match.objects.filter(pk__in=ids, status__in=[Match.Status.ACTIVE, Match.Status.OPEN]).update(
        status=Match.Status.ABORTED, end_reason="aborted", finished_at=timezone.now(), to_move=None, deadline=None
    )


def match_versions(ids: list[int]) -> dict[int, int]:
    from django.db import close_old_connections

    from games.models import Match

    close_old_connections()
    return dict(Match.objects.filter(pk__in=ids).values_list("pk", "version"))


# ------------------------------------------------------------------------------------------
# Sockets


async def open_socket(url: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    return await connect(
        url,
        origin=origin,
        additional_headers=headers,
        # Browsers ask for permessage-deflate and uvicorn grants it: the server then compresses
        # every frame for every socket. Off unless --deflate, as the figures so far were taken.
        compression="deflate" if os.environ.get("BENCH_LIVE_DEFLATE") else None,
        ping_interval=None,
        max_size=2**22,
        open_timeout=30,
        close_timeout=2,
    )


async def close_all(sockets: list, timeout: float = 5.0) -> None:
    sockets = [ws for ws in sockets if ws is not None]
    if not sockets:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True), timeout)
    for ws in sockets:
        with contextlib.suppress(Exception):
            ws.transport.abort()


@dataclass
class Pending:
    sent: float
    remaining: set
    players: set
    players_done: float | None = None


class Room:
    """Sockets that must all hold a version; ``pending`` maps a target version to its move."""

    def __init__(self, run, players: int = 2):
        self.run = run
        self.sockets: list = []
        self.pending: dict[int, Pending] = {}
        self.players = players
        self.last: list[int] = []  # the latest version each socket holds

    def expect(self, target: int, sent: float) -> None:
        self.pending[target] = Pending(sent, set(range(len(self.sockets))), set(range(self.players)))

    def stuck(self, now: float, after: float) -> dict | None:
        """The oldest move still incomplete ``after`` seconds after its send, if any."""
        old = [(p.sent, t) for t, p in self.pending.items() if now - p.sent > after]
        if not old:
            return None
        sent, target = min(old)
        return {"target": target, "waiting_s": round(now - sent, 1), "sockets_hold": list(self.last)}

    def holds(self, index: int, version: int, now: float) -> None:
        if index >= len(self.last):
            self.last += [-1] * (index + 1 - len(self.last))
        self.last[index] = max(self.last[index], version)
        if not self.pending:
            return
        for target in [t for t in self.pending if t <= version]:
            p = self.pending[target]
            p.remaining.discard(index)
            p.players.discard(index)
            if not p.players and p.players_done is None:
                p.players_done = now
            if not p.remaining:
                del self.pending[target]
                self.run.records.append((p.sent, p.players_done, now, target, self))


class Run:
    """What one configuration collects."""

    def __init__(self):
        self.records: list[tuple] = []
        self.errors: Counter = Counter()
        self.stopping = False
        self.playing = False
        self.tasks: set = set()
        self.port: int | None = None  # the server's, whose CPU time the window measures
        self.cpu_seconds: float | None = None

    def spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def window(self, t0: float, seconds: float) -> float:
        """Measure from ``t0`` for ``seconds``, or longer (up to EXTEND times) until MIN_SAMPLES
        moves are complete: a slow server still gets a median worth the name. Returns the end.
        The server's CPU time over the window goes to ``cpu_seconds``."""
        group = SERVER_GROUPS.get(self.port) if self.port is not None else None
        await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
        cpu0 = group_cpu_seconds(group) if group else None
        await asyncio.sleep(max(0.0, t0 + seconds - time.perf_counter()))
        while time.perf_counter() < t0 + seconds * EXTEND:
            if sum(1 for r in self.records if (r[1] or r[2]) >= t0) >= MIN_SAMPLES:
                break
            await asyncio.sleep(0.1)
        if group and cpu0 is not None:
            self.cpu_seconds = group_cpu_seconds(group) - cpu0
        return time.perf_counter()

    def summary(self, t0: float, t1: float) -> dict:
        done = [r for r in self.records if t0 <= r[2] < t1]
        latencies = [r[2] - r[0] for r in done]
        players = [r[1] - r[0] for r in done if r[1] is not None]
        return {
            "rate": round(len(done) / (t1 - t0), 2),
            "completed": len(done),
            "window_s": round(t1 - t0, 2),
            "p50_ms": ms(pct(latencies, 0.5)),
            "p99_ms": ms(pct(latencies, 0.99)),
            "players_p50_ms": ms(pct(players, 0.5)),
            "players_p99_ms": ms(pct(players, 0.99)),
            "errors": dict(self.errors),
            # The server's CPU time per completed move (or broadcast), all its processes.
            "cpu_ms_per_move": round(1000 * self.cpu_seconds / len(done), 3) if self.cpu_seconds and done else None,
        }


def stall_after(result: dict) -> float:
    """A move counts as stuck once it waits 5 s and twice the p99 of the moves that completed:
    a saturated server is slow, a lost update never arrives."""
    return max(5.0, 2 * (result.get("p99_ms") or 0) / 1000)


async def connect_many(jobs: list, limit: int = CONNECT_AT_ONCE) -> list:
    """Open ``(url, origin, cookie)`` sockets, ``limit`` at a time; a failure gives None."""
    gate = asyncio.Semaphore(limit)

    async def one(job):
        async with gate:
            try:
                return await open_socket(*job)
            except Exception:
                return None

    return await asyncio.gather(*(one(job) for job in jobs))


# -- baseline -----------------------------------------------------------------------------


async def baseline_run(port: int, rooms: int, warmup: float, seconds: float) -> dict:
    """Rooms of 4 sockets; sockets 0 and 1 take turns sending as soon as the last frame is back."""
    run = Run()
    run.port = port
    origin = f"http://127.0.0.1:{port}"
    all_rooms = [Room(run) for _ in range(rooms)]
    jobs = [(f"ws://127.0.0.1:{port}/ws/rooms/{r}/", origin, None) for r in range(rooms) for _ in range(4)]
    sockets = await connect_many(jobs)
    try:
        if any(ws is None for ws in sockets):
            raise RuntimeError(f"baseline: {sum(ws is None for ws in sockets)} sockets did not open")
        for r, room in enumerate(all_rooms):
            room.sockets = sockets[r * 4 : r * 4 + 4]

        async def send(room: Room, index: int, seq: int) -> None:
            room.expect(seq, time.perf_counter())
            await room.sockets[index].send(json.dumps({"seq": seq}))

        async def read(room: Room, index: int) -> None:
            ws = room.sockets[index]
            with contextlib.suppress(Exception):
                async for raw in ws:
                    now = time.perf_counter()
                    seq = json.loads(raw)["seq"]
                    room.holds(index, seq, now)
                    if index == (seq + 1) % 2 and not run.stopping:
                        await send(room, index, seq + 1)

        for room in all_rooms:
            for i in range(4):
                run.spawn(read(room, i))
        start = time.perf_counter()
        for room in all_rooms:
            await send(room, 0, 0)
        t0 = start + warmup
        t1 = await run.window(t0, seconds)
        run.stopping = True
        result = run.summary(t0, t1)
        result["stalled"] = sum(1 for room in all_rooms if room.stuck(t1, stall_after(result)))
        return result
    finally:
        run.stopping = True
        await close_all(sockets)
        for task in list(run.tasks):
            task.cancel()


# -- portal -------------------------------------------------------------------------------


class Player:
    def __init__(self, match: LiveMatch, index: int, ws, rng: random.Random):
        self.match, self.index, self.ws, self.rng = match, index, ws, rng
        self.latest: dict | None = None
        self.acted = -1
        self.sent: deque = deque()
        self.wake = asyncio.Event()

    def ready(self) -> bool:
        frame = self.latest
        return bool(frame and frame.get("legal_actions") and frame["version"] > self.acted)

    async def pace(self) -> None:
        while len(self.sent) >= PACE_FRAMES:
            wait = self.sent[0] + PACE_WINDOW - time.perf_counter()
            if wait <= 0:
                self.sent.popleft()
            else:
                await asyncio.sleep(wait)

    async def play(self, run: Run, think: float) -> None:
        with contextlib.suppress(Exception):
            while not run.stopping:
                await self.wake.wait()
                self.wake.clear()
                if run.stopping:
                    return
                if not run.playing or not self.ready():
                    continue
                version = self.latest["version"]
                if think:
                    await asyncio.sleep(think)
                    if run.stopping or self.latest["version"] != version:
                        continue
                await self.pace()
                action = choose(self.latest["legal_actions"], self.rng)
                self.acted = version
                now = time.perf_counter()
                self.sent.append(now)
                self.match.expect(version + 1, now)
                await self.ws.send(json.dumps({"type": "act", "action": action, "version": version}))


class LiveMatch(Room):
    def __init__(self, run: Run, prepared: Prepared):
        super().__init__(run)
        self.prepared = prepared
        self.players_: list[Player] = []
        self.over = False


class PortalRun(Run):
    def __init__(self, port: int, factory: Factory, executor: ThreadPoolExecutor, think: float, spectators: int):
        super().__init__()
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.factory = factory
        self.executor = executor
        self.think = think
        self.spectators = spectators  # in this process, per match: 0 or 2
        self.reserve: deque[Prepared] = deque()
        self.refilling = False
        self.matches: list[LiveMatch] = []
        self.sockets: list = []
        self.rng = random.Random(len(factory.users))
        self.replaced = 0

    def url(self, match_id: int) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}/"

    async def make(self, count: int) -> list[Prepared]:
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.factory.make, count)

    async def start_match(self, prepared: Prepared) -> LiveMatch | None:
        match = LiveMatch(self, prepared)
        cookies = prepared.cookies[:2] + ([prepared.cookies[2], None] if self.spectators else [])
        sockets = await connect_many([(self.url(prepared.match_id), self.origin, c) for c in cookies])
        self.sockets += sockets
        if any(ws is None for ws in sockets):
            self.errors["socket did not open"] += sum(ws is None for ws in sockets)
            await close_all(sockets)
            return None
        match.sockets = sockets
        match.players_ = [Player(match, i, sockets[i], self.rng) for i in range(2)]
        self.matches.append(match)
        for i, ws in enumerate(sockets):
            self.spawn(self.read(match, i, ws))
        for player in match.players_:
            self.spawn(player.play(self, self.think))
        return match

    async def read(self, match: LiveMatch, index: int, ws) -> None:
        player = match.players_[index] if index < 2 else None
        with contextlib.suppress(Exception):
            async for raw in ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind in ("snapshot", "update") and isinstance(frame.get("version"), int):
                    match.holds(index, frame["version"], now)
                    if frame.get("status") not in (None, "active"):
                        if frame.get("status") == "finished" and not match.over and not self.stopping:
                            match.over = True
                            self.spawn(self.replace(match))
                        continue
                    if player is not None:
                        player.latest = frame
                        if player.ready():
                            player.wake.set()
                elif kind == "error":
                    code = frame.get("code", "?")
                    self.errors[code] += 1
                    if player is not None and code not in ("stale", "finished") and not self.stopping:
                        # Refused without a snapshot (too many frames, say): resync, then go on.
                        await asyncio.sleep(1.0)
                        player.acted = -1
                        await ws.send(json.dumps({"type": "snapshot"}))

    async def replace(self, old: LiveMatch) -> None:
        self.replaced += 1
        if not self.reserve:
            self.reserve.extend(await self.make(1))
        prepared = self.reserve.popleft()
        if len(self.reserve) < 2 and not self.refilling:
            self.refilling = True
            self.spawn(self.refill())
        match = await self.start_match(prepared)
        if match is not None and self.playing:
            for player in match.players_:
                player.wake.set()
        await close_all(old.sockets, timeout=2.0)

    async def refill(self) -> None:
        try:
            self.reserve.extend(await self.make(4))
        finally:
            self.refilling = False


def _spectate(url: str, origin: str, cookies: list, pipe, stop) -> None:
    """A second client process holding a crowd of spectator sockets; sends back, per version,
    the time by which every one of its sockets held it (perf_counter is system-wide)."""
    _run_async(_spectate_async(url, origin, cookies, pipe, stop))


async def _spectate_async(url: str, origin: str, cookies: list, pipe, stop) -> None:
    sockets = await connect_many([(url, origin, c) for c in cookies])
    seen: list[dict[int, float]] = [{} for _ in sockets]

    async def read(i, ws):
        with contextlib.suppress(Exception):
            async for raw in ws:
                now = time.perf_counter()
                frame = json.loads(raw)
                if frame.get("type") in ("snapshot", "update") and isinstance(frame.get("version"), int):
                    seen[i].setdefault(frame["version"], now)

    tasks = [asyncio.ensure_future(read(i, ws)) for i, ws in enumerate(sockets) if ws is not None]
    pipe.send(("ready", sum(ws is not None for ws in sockets)))
    deadline = time.monotonic() + 600
    while not stop.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await close_all(list(sockets))
    for task in tasks:
        task.cancel()
    # Per socket: the versions it saw and, for each, when it first held that one or a later one.
    held = []
    for times in seen:
        versions = sorted(times)
        first, best = [], math.inf
        for v in reversed(versions):
            best = min(best, times[v])
            first.append(best)
        held.append((versions, first[::-1]))
    pipe.send(("done", held))


def everyone_held(held: list, target: int) -> float:
    """When the last of the crowd's sockets held ``target`` (inf if one never did)."""
    latest = 0.0
    for versions, first in held:
        i = bisect.bisect_left(versions, target)
        if i == len(versions):
            return math.inf
        latest = max(latest, first[i])
    return latest


async def portal_run(
    port: int,
    factory: Factory,
    executor: ThreadPoolExecutor,
    config: Live,
    warmup: float,
    seconds: float,
) -> dict:
    crowd = config.spectators > 2
    run = PortalRun(port, factory, executor, config.think, 0 if crowd else 2)
    loop = asyncio.get_running_loop()
    prepared = await run.make(config.matches + min(config.matches, 4))
    run.reserve.extend(prepared[config.matches :])
    child = pipe = stop = None
    try:
        started = await asyncio.gather(*(run.start_match(p) for p in prepared[: config.matches]))
        if any(m is None for m in started):
            raise RuntimeError(f"{config.name}: {sum(m is None for m in started)} matches could not connect")
        if crowd:
            match = started[0]
            context = multiprocessing.get_context("spawn")
            pipe, child_pipe = context.Pipe()
            stop = context.Event()
            cookies = [c for _, c in factory.users[: config.spectators // 2]]
            cookies += [None] * (config.spectators - len(cookies))
            child = context.Process(
                target=_spectate, args=(run.url(match.prepared.match_id), run.origin, cookies, child_pipe, stop)
            )
            child.start()
            ready = await loop.run_in_executor(None, _receive, pipe, 120.0)
            if ready is None or ready[1] < config.spectators:
                raise RuntimeError(f"spectators: {ready and ready[1]} of {config.spectators} sockets opened")
        start = time.perf_counter()
        run.playing = True
        for match in run.matches:
            for player in match.players_:
                player.wake.set()
        t0 = start + warmup
        t1 = await run.window(t0, seconds)
        run.stopping = True
        for match in run.matches:
            for player in match.players_:
                player.wake.set()
        if crowd:
            stop.set()
            done = await loop.run_in_executor(None, _receive, pipe, 60.0)
            held = done[1] if done else []
            # A move is complete when the players' sockets and every spectator hold it.
            run.records = [
                (sent, players, max(now, everyone_held(held, target)), target, room)
                for sent, players, now, target, room in run.records
            ]
        result = run.summary(t0, t1)
        after = stall_after(result)
        stuck = {m.prepared.match_id: m.stuck(t1, after) for m in run.matches if not m.over}
        stuck = {k: v for k, v in stuck.items() if v}
        if stuck:
            # Did the move commit (the update never arrived) or not (the act went unanswered)?
            versions = await loop.run_in_executor(executor, match_versions, list(stuck))
            for match_id, detail in stuck.items():
                detail["database_version"] = versions.get(match_id)
        result["stalled"] = len(stuck)
        result["stalled_matches"] = stuck
        result["replaced"] = run.replaced
        result["spectators"] = config.spectators
        return result
    finally:
        run.stopping = True
        ids = (
            [p.match_id for p in prepared]
            + [m.prepared.match_id for m in run.matches]
            + list(p.match_id for p in run.reserve)
        )
        with contextlib.suppress(Exception):
            await loop.run_in_executor(executor, abort_matches, sorted(set(ids)))
        await close_all(run.sockets)
        for task in list(run.tasks):
            task.cancel()
        if stop is not None:
            stop.set()
        if child is not None:
            await loop.run_in_executor(None, child.join, 15)
            if child.is_alive():
                child.kill()
                child.join(5)


def _receive(pipe, timeout: float):
    return pipe.recv() if pipe.poll(timeout) else None


# -- pages --------------------------------------------------------------------------------


async def http_client(port: int, path: str, cookies: dict, until: float, records: list, errors: Counter) -> None:
    reader = writer = None
    try:
        while time.perf_counter() < until:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
            request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            request += (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n"
            started = time.perf_counter()
            writer.write(request.encode())
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            headers: dict[str, str] = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    name = name.strip().lower()
                    if name == "set-cookie":
                        pair = value.strip().split(";", 1)[0]
                        if "=" in pair:
                            k, v = pair.split("=", 1)
                            cookies[k] = v
                    headers[name] = value.strip()
            closing = headers.get("connection", "").lower() == "close"
            if "content-length" in headers:
                await reader.readexactly(int(headers["content-length"]))
            elif headers.get("transfer-encoding", "").lower() == "chunked":
                while True:
                    size = int((await reader.readline()).split(b";")[0].strip(), 16)
                    await reader.readexactly(size + 2)
                    if size == 0:
                        break
            else:
                await reader.read()
                closing = True
            records.append((started, time.perf_counter()))
            if status != 200:
                errors[f"HTTP {status}"] += 1
            if closing:
                writer.close()
                writer = None
    except Exception as exc:
        errors[type(exc).__name__] += 1
    finally:
        if writer is not None:
            writer.close()


async def page_run(port: int, path: str, session: str | None, seconds: float) -> dict:
    records: list = []
    errors: Counter = Counter()
    start = time.perf_counter()
    until = start + PAGE_WARMUP + seconds
    clients = [
        http_client(port, path, {"sessionid": session} if session else {}, until, records, errors)
        for _ in range(HTTP_CLIENTS)
    ]
    await asyncio.wait_for(asyncio.gather(*clients), PAGE_WARMUP + seconds + 30)
    t0, t1 = start + PAGE_WARMUP, until
    done = [end - begin for begin, end in records if t0 <= end < t1]
    return {
        "rate": round(len(done) / (t1 - t0), 2),
        "completed": len(done),
        "p50_ms": ms(pct(done, 0.5)),
        "p99_ms": ms(pct(done, 0.99)),
        "errors": dict(errors),
    }


async def quiet(port: int, timeout: float = 15.0) -> None:
    """Wait until the server answers /healthz promptly again (left-over work drained)."""
    deadline = time.perf_counter() + timeout
    fast = 0
    while time.perf_counter() < deadline and fast < 3:
        started = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            await asyncio.wait_for(reader.read(), 5)
            writer.close()
        except Exception:
            await asyncio.sleep(0.2)
            continue
        fast = fast + 1 if time.perf_counter() - started < 0.05 else 0
        await asyncio.sleep(0.1)


def _run_async(coro):
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


# ------------------------------------------------------------------------------------------
# The passes


@dataclass
class Plan:
    passes: int
    seconds: float
    warmup: float
    page_seconds: float
    per_workers: dict[int, list[Live]]
    page_workers: list[int]
    spectators: int


def plan_for(args) -> Plan:
    crowd = Live(CROWD.name, f"1 match, {args.spectators} spectators", 1, spectators=args.spectators, baseline=False)
    if args.quick:
        return Plan(
            passes=args.passes or 1,
            seconds=args.seconds or 2.0,
            warmup=args.warmup or 1.0,
            page_seconds=args.page_seconds or 1.0,
            per_workers={1: [ALONE, crowd, N10, N40, THINK], 2: [N40]},
            page_workers=[2],
            spectators=args.spectators,
        )
    return Plan(
        passes=args.passes or 3,
        seconds=args.seconds or 5.0,
        warmup=args.warmup or 1.5,
        page_seconds=args.page_seconds or 1.5,
        per_workers={1: [ALONE, crowd, N10, N40, N100, THINK], 2: [N10, N40, N100]},
        page_workers=[1, 2],
        spectators=args.spectators,
    )


@dataclass
class Bench:
    plan: Plan
    seeded: Seeded
    factory: Factory
    executor: ThreadPoolExecutor
    logs: Path
    results: list[dict] = field(default_factory=list)
    began: float = field(default_factory=time.monotonic)

    def record(self, pass_no: int, kind: str, name: str, workers: int, result: dict, **extra) -> None:
        row = {"pass": pass_no, "kind": kind, "config": name, "workers": workers, **extra, **result}
        self.results.append(row)
        rate = row.get("rate")
        unit = {"baseline": "broadcasts/s", "portal": "moves/s", "page": "req/s"}[kind]
        shown = extra.get("arm", kind)  # a comparison names the portal it ran
        line = f"[{time.monotonic() - self.began:5.0f} s] pass {pass_no} w{workers} {shown:<8} {name:<22}"
        line += f" {rate:>8.1f} {unit:<13}"
        line += f" p50 {row.get('p50_ms')} ms  p99 {row.get('p99_ms')} ms"
        if kind == "portal" and row.get("players_p99_ms") is not None and name == CROWD.name:
            line += f"  (players p99 {row['players_p99_ms']} ms)"
        if row.get("errors"):
            line += f"  errors {row['errors']}"
        if row.get("stalled"):
            line += f"  stalled {row['stalled']}"
        print(line, flush=True)
        for match_id, detail in (row.get("stalled_matches") or {}).items():
            print(f"    match {match_id} waiting: {detail}", flush=True)

    def one_pass(self, pass_no: int) -> None:
        plan = self.plan
        for workers, configs in plan.per_workers.items():
            base = Server("bench.baseline_asgi:application", workers, self.logs, f"baseline-w{workers}-p{pass_no}")
            portal = Server("portal.asgi:application", workers, self.logs, f"portal-w{workers}-p{pass_no}")
            try:
                base.wait_ready()
                portal.wait_ready()
                for config in configs:
                    if config.baseline:
                        result = self._bounded(
                            baseline_run(base.port, config.matches, plan.warmup, plan.seconds),
                            plan.warmup + plan.seconds * EXTEND + 60,
                        )
                        self.record(pass_no, "baseline", config.name, workers, result, matches=config.matches)
                    result = self._bounded(
                        portal_run(portal.port, self.factory, self.executor, config, plan.warmup, plan.seconds),
                        plan.warmup + plan.seconds * EXTEND + 240,
                        port=portal.port,
                    )
                    self.record(pass_no, "portal", config.name, workers, result, matches=config.matches)
                if workers in plan.page_workers:
                    self.pages(pass_no, workers, portal.port)
            finally:
                base.stop()
                portal.stop()

    def pages(self, pass_no: int, workers: int, port: int) -> None:
        for key, _, path in PAGES:
            path = path.format(match=self.seeded.page_match)
            visitors = ["anonymous"] if key == "healthz" else ["anonymous", "signed in"]
            for visitor in visitors:
                session = self.seeded.page_user_session if visitor == "signed in" else None
                result = self._bounded(page_run(port, path, session, self.plan.page_seconds), 60)
                self.record(pass_no, "page", f"{key} {visitor}", workers, result, page=key, visitor=visitor)

    def _bounded(self, coro, timeout: float, port: int | None = None) -> dict:
        async def bounded():
            try:
                return await asyncio.wait_for(coro, timeout)
            finally:
                if port is not None:
                    await quiet(port)

        try:
            return _run_async(bounded())
        except Exception as exc:
            print(f"  failed: {type(exc).__name__}: {exc}", flush=True)
            return {"rate": 0.0, "completed": 0, "p50_ms": None, "p99_ms": None, "failed": str(exc) or "timeout"}


# ------------------------------------------------------------------------------------------
# Medians, targets, the report


def summarise(results: list[dict]) -> dict:
    """Median over passes of every figure, per (kind, config, workers)."""
    groups: dict[tuple, list[dict]] = {}
    for row in results:
        groups.setdefault((row["kind"], row["config"], row["workers"]), []).append(row)
    out = {}
    for (kind, config, workers), rows in groups.items():
        out[f"{kind}:{config}:w{workers}"] = {
            "kind": kind,
            "config": config,
            "workers": workers,
            "passes": len(rows),
            **{
                k: median(r.get(k) for r in rows)
                for k in ("rate", "p50_ms", "p99_ms", "players_p50_ms", "players_p99_ms", "cpu_ms_per_move")
            },
            "errors": sum(sum(r.get("errors", {}).values()) for r in rows),
            "stalled": sum(r.get("stalled", 0) for r in rows),
            "failed": sum(1 for r in rows if r.get("failed")),
        }
    # Per-pass ratios, then their median: portal / baseline and page / healthz.
    for row in out.values():
        kind, config, workers = row["kind"], row["config"], row["workers"]
        if kind == "portal":
            row["vs_baseline"] = _median_ratio(results, ("portal", config, workers), ("baseline", config, workers))
        if kind == "page":
            row["vs_healthz"] = _median_ratio(
                results, ("page", config, workers), ("page", "healthz anonymous", workers)
            )
    return out


def _rows(results, kind, config, workers) -> dict[int, dict]:
    return {r["pass"]: r for r in results if (r["kind"], r["config"], r["workers"]) == (kind, config, workers)}


def _median_ratio(results, top: tuple, bottom: tuple) -> float | None:
    a, b = _rows(results, *top), _rows(results, *bottom)
    ratios = [a[p]["rate"] / b[p]["rate"] for p in a if p in b and b[p].get("rate")]
    return median(ratios)


def _gain(results, kind, config) -> float | None:
    one, two = _rows(results, kind, config, 1), _rows(results, kind, config, 2)
    return median(two[p]["rate"] / one[p]["rate"] for p in two if p in one and one[p].get("rate"))


def fmt(value, digits: int = 1, unit: str = "") -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}{unit}"


def targets(results: list[dict], summary: dict, plan: Plan) -> list[dict]:
    def get(key, field_):
        return summary.get(key, {}).get(field_)

    out = []

    def add(name, measured, ok, miss):
        out.append({"target": name, "measured": measured, "met": ok, "verdict": "met" if ok else f"missed: {miss}"})

    p50, p99 = get("portal:alone:w1", "p50_ms"), get("portal:alone:w1", "p99_ms")
    if p50 is not None and p99 is not None:
        misses = []
        if p50 > ALONE_P50_MS:
            misses.append(f"p50 {p50 - ALONE_P50_MS:.1f} ms over")
        if p99 > ALONE_P99_MS:
            misses.append(f"p99 {p99 - ALONE_P99_MS:.1f} ms over")
        add(
            f"1 match alone: p50 <= {ALONE_P50_MS:.0f} ms and p99 <= {ALONE_P99_MS:.0f} ms",
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms (baseline {fmt(get('baseline:alone:w1', 'p50_ms'))} / "
            f"{fmt(get('baseline:alone:w1', 'p99_ms'))} ms)",
            not misses,
            ", ".join(misses),
        )
    share = get("portal:n40:w1", "vs_baseline")
    if share is not None:
        add(
            f"40 matches, 1 process: >= {THROUGHPUT_SHARE:.0%} of the baseline's rate",
            f"{share:.1%} ({fmt(get('portal:n40:w1', 'rate'))} moves/s vs "
            f"{fmt(get('baseline:n40:w1', 'rate'))} broadcasts/s)",
            share >= THROUGHPUT_SHARE,
            f"{(THROUGHPUT_SHARE - share) * 100:.1f} points short ({THROUGHPUT_SHARE / share:.1f}x needed)"
            if share
            else "no move completed",
        )
    cpu, base_cpu = get("portal:n40:w1", "cpu_ms_per_move"), get("baseline:n40:w1", "cpu_ms_per_move")
    if cpu and base_cpu:
        # The same goal in the server's CPU time, which the rest of the machine's load disturbs
        # far less than the rates: a move may cost at most 1 / THROUGHPUT_SHARE broadcasts.
        share = base_cpu / cpu
        add(
            f"40 matches, 1 process: a move's server CPU <= {1 / THROUGHPUT_SHARE:.0f}x a bare broadcast's",
            f"{cpu:.2f} ms a move vs {base_cpu:.2f} ms a broadcast ({share:.1%} of the baseline's rate per CPU)",
            share >= THROUGHPUT_SHARE,
            f"{cpu / base_cpu:.2f}x",
        )
    p50, p99 = get("portal:n40-think:w1", "p50_ms"), get("portal:n40-think:w1", "p99_ms")
    if p50 is not None and p99 is not None:
        misses = []
        if p50 > THINK_P50_MS:
            misses.append(f"p50 {p50 - THINK_P50_MS:.1f} ms over")
        if p99 > THINK_P99_MS:
            misses.append(f"p99 {p99 - THINK_P99_MS:.1f} ms over")
        add(
            f"40 matches, 200 ms think: p50 <= {THINK_P50_MS:.0f} ms and p99 <= {THINK_P99_MS:.0f} ms",
            f"p50 {p50:.1f} ms, p99 {p99:.1f} ms at {fmt(get('portal:n40-think:w1', 'rate'))} moves/s",
            not misses,
            ", ".join(misses),
        )
    crowd, alone = get("portal:spectators:w1", "players_p99_ms"), get("portal:alone:w1", "players_p99_ms")
    if crowd is not None and alone is not None:
        added = crowd - alone
        add(
            f"{plan.spectators} spectators add <= {SPECTATORS_P99_ADD_MS:.0f} ms to the players' p99",
            f"+{added:.1f} ms ({alone:.1f} -> {crowd:.1f} ms)",
            added <= SPECTATORS_P99_ADD_MS,
            f"{added - SPECTATORS_P99_ADD_MS:.1f} ms over",
        )
    portal_gain, base_gain = _gain(results, "portal", "n40"), _gain(results, "baseline", "n40")
    if portal_gain is not None and base_gain is not None:
        add(
            f"1 -> 2 processes (40 matches): the portal gains at least x{SCALE_OUT_GAIN}",
            f"portal x{portal_gain:.2f}, baseline x{base_gain:.2f} (on 2 cores that also run the clients, "
            "PostgreSQL and Redis)",
            portal_gain >= SCALE_OUT_GAIN,
            f"x{portal_gain:.2f}",
        )
    for key, label, _ in PAGES[1:]:
        for visitor in ("anonymous", "signed in"):
            row = summary.get(f"page:{key} {visitor}:w2")
            if not row or row.get("vs_healthz") is None:
                continue
            share, p99 = row["vs_healthz"], row["p99_ms"]
            misses = []
            if share < PAGE_SHARE:
                misses.append(f"{(PAGE_SHARE - share) * 100:.0f} points short of {PAGE_SHARE:.0%}")
            if p99 is None or p99 > PAGE_P99_MS:
                misses.append(f"p99 {fmt(p99 - PAGE_P99_MS if p99 else None)} ms over")
            add(
                f"{label}, {visitor}, 2 processes: >= {PAGE_SHARE:.0%} of /healthz, p99 <= {PAGE_P99_MS:.0f} ms",
                f"{share:.1%} of /healthz, p99 {fmt(p99)} ms",
                not misses,
                ", ".join(misses),
            )
    return out


def report(info: dict, versions: dict, plan: Plan, seeded: Seeded, summary: dict, goals: list[dict], extra) -> str:
    workers_list = sorted(plan.per_workers)
    lines = [
        f"Measured on {info['date']} by `python -m bench.live`: {info['summary']}, "
        f"PostgreSQL {versions['postgresql']}, Redis {versions['redis']}, uvicorn "
        f"{versions['uvicorn']} (uvloop, httptools), channels {versions['channels']}, channels-redis "
        f"{versions['channels_redis']} with `RedisPubSubChannelLayer`. The clients run in the same machine "
        "(one Python asyncio process, plus one for the crowd of spectators), sharing its cores with the servers; "
        f"load average (1 min) {extra['load'][0]:.1f} at the start, {extra['load'][1]:.1f} at the end.",
        "",
        "Method: each pass starts the portal (`portal.asgi`) and a bare Channels app (`bench/baseline_asgi.py`: "
        "one consumer that group-sends every frame it receives to its room of 4 sockets, on the same layer and "
        f"Redis) under uvicorn with {' and '.join(map(str, workers_list))} worker processes, and alternates "
        "baseline and portal configuration by configuration. Baseline: rooms of 4 sockets where two sockets "
        "take turns, each sending as soon as the other's frame comes back; a broadcast is complete when all "
        f"four sockets have it. Portal: matches of Game of God (`{GAME}`) with 2 players and 2 spectators (one "
        "signed in, one anonymous); a player sends `act` as soon as an update gives its seat legal actions (random, "
        "never a challenge, so no dice are rolled during play); a move is complete when all four sockets "
        "hold its version; a finished match is replaced by a fresh one. Every player stays under the "
        f"socket's 20 frames/s ({PACE_FRAMES} per {PACE_WINDOW} s), which caps one match near 35 moves/s: "
        "for one match alone the table compares latencies, not rates. "
        f"Rates count what completed in a {plan.seconds:g} s window after a {plan.warmup:g} s warm-up (the "
        f"window grows, up to {EXTEND}x, until {MIN_SAMPLES} moves completed); "
        "latencies are those of the moves completed in the window, from the send. Pages: "
        f"{HTTP_CLIENTS} keep-alive clients for {plan.page_seconds:g} s after {PAGE_WARMUP:g} s of warm-up, "
        "each page's rate as a share of `/healthz` (a view that touches neither database nor cache) in the "
        f"same pass. {plan.passes} {'passes' if plan.passes > 1 else 'pass'}; every figure is the median over "
        "the passes, ratios are the medians of the per-pass ratios.",
        "",
        f"Data: {len(seeded.users)} players with ratings in every game from {seeded.finished:,} finished "
        f"matches, {seeded.open_matches} open matches in the lobby, the measured match page "
        f"{seeded.page_match_moves} moves into a game; the live matches start from the first move.",
        "",
        "### Moves",
        "",
        "CPU ms: the server's CPU time (user and system, all its processes, from /proc) over the window "
        "per completed move or broadcast.",
        "",
        "| Configuration | Processes | Baseline broadcasts/s | Baseline p50 / p99 ms | Baseline CPU ms "
        "| Portal moves/s | Portal p50 / p99 ms | Portal CPU ms | Portal / baseline |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    labels = {c.name: c.label for configs in plan.per_workers.values() for c in configs}
    for workers in workers_list:
        for config in plan.per_workers[workers]:
            if config.spectators > 2:
                continue
            p = summary.get(f"portal:{config.name}:w{workers}", {})
            b = summary.get(f"baseline:{config.name}:w{workers}", {})
            ratio = p.get("vs_baseline")
            shown = "-" if ratio is None else f"{ratio:.1%}"
            if config.name == ALONE.name and p.get("p50_ms") and b.get("p50_ms"):
                # One match's rate is capped by the players' frame limit: compare latencies.
                shown = f"p50 {p['p50_ms'] / b['p50_ms']:.1f}x the baseline's"
            lines.append(
                f"| {labels[config.name]} | {workers} | {fmt(b.get('rate'), 0)} | "
                f"{fmt(b.get('p50_ms'))} / {fmt(b.get('p99_ms'))} | {fmt(b.get('cpu_ms_per_move'), 2)} | "
                f"{fmt(p.get('rate'), 1)} | {fmt(p.get('p50_ms'))} / {fmt(p.get('p99_ms'))} | "
                f"{fmt(p.get('cpu_ms_per_move'), 2)} | {shown} |"
            )
    gains = []
    for config in ("n10", "n40", "n100"):
        pg, bg = _gain(extra["results"], "portal", config), _gain(extra["results"], "baseline", config)
        if pg is not None and bg is not None:
            gains.append(f"{config[1:]} matches: portal x{pg:.2f}, baseline x{bg:.2f}")
    if gains:
        lines += ["", "From 1 to 2 processes (rate ratio): " + "; ".join(gains) + "."]
    crowd = summary.get("portal:spectators:w1")
    alone = summary.get("portal:alone:w1")
    if crowd and alone:
        lines += [
            "",
            "### Spectators",
            "",
            "One match, 1 process, players answering at once; the players' latency runs from the send until "
            f"both players' sockets hold the new version. The {plan.spectators} spectators (half signed in, half "
            "anonymous) are held by a second client process.",
            "",
            "| Spectators | Moves/s | Players' p50 ms | Players' p99 ms | All sockets p50 / p99 ms |",
            "|---:|---:|---:|---:|---:|",
            f"| 2 | {fmt(alone.get('rate'))} | {fmt(alone.get('players_p50_ms'))} | "
            f"{fmt(alone.get('players_p99_ms'))} | {fmt(alone.get('p50_ms'))} / {fmt(alone.get('p99_ms'))} |",
            f"| {plan.spectators} | {fmt(crowd.get('rate'))} | {fmt(crowd.get('players_p50_ms'))} | "
            f"{fmt(crowd.get('players_p99_ms'))} | {fmt(crowd.get('p50_ms'))} / {fmt(crowd.get('p99_ms'))} |",
        ]
    page_rows = [row for row in summary.values() if row["kind"] == "page"]
    if page_rows:
        lines += [
            "",
            "### Pages",
            "",
            "| Page | Visitor | Processes | Requests/s | p50 ms | p99 ms | Share of /healthz |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for workers in plan.page_workers:
            for key, label, _ in PAGES:
                for visitor in ("anonymous", "signed in"):
                    row = summary.get(f"page:{key} {visitor}:w{workers}")
                    if not row:
                        continue
                    share = row.get("vs_healthz")
                    lines.append(
                        f"| {label} | {visitor} | {workers} | {fmt(row.get('rate'), 0)} | {fmt(row.get('p50_ms'))} | "
                        f"{fmt(row.get('p99_ms'))} | {'-' if share is None or key == 'healthz' else f'{share:.0%}'} |"
                    )
    lines += ["", "### Targets", "", "| Target | Measured | Verdict |", "|---|---|---|"]
    for goal in goals:
        lines.append(f"| {goal['target']} | {goal['measured']} | {goal['verdict']} |")
    problems = []
    failed = [k for k, row in summary.items() if row.get("failed")]
    if failed:
        problems.append("configurations that failed in some pass: " + ", ".join(failed))
    errored = {k: row["errors"] for k, row in summary.items() if row.get("errors")}
    if errored:
        problems.append("error frames or failed requests: " + ", ".join(f"{k} {n}" for k, n in errored.items()))
    stalled = {k: row["stalled"] for k, row in summary.items() if row.get("stalled")}
    if stalled:
        problems.append(
            "moves left waiting at the end (over 5 s and twice the p99): "
            + ", ".join(f"{k} {n}" for k, n in stalled.items())
        )
    if extra["log_problems"]:
        problems.append("server logs with errors: " + ", ".join(f"{k} ({n})" for k, n in extra["log_problems"].items()))
    missed = [g for g in goals if not g["met"]]
    lines += ["", f"{len(goals) - len(missed)} of {len(goals)} targets met."]
    if problems:
        lines += ["", "Seen during the run: " + "; ".join(problems) + "."]
    return "\n".join(lines)


def versions_of() -> dict:
    from importlib.metadata import version

    import psycopg

    out = {}
    with psycopg.connect(f"{PG_SERVER}/postgres") as conn:
        out["postgresql"] = conn.execute("SHOW server_version").fetchone()[0].split()[0]
    out["redis"] = redis_client().info("server")["redis_version"]
    for name in ("uvicorn", "channels", "channels_redis", "websockets", "django"):
        out[name] = version(name.replace("_", "-"))
    return out


# ------------------------------------------------------------------------------------------
# Against another git ref: the portal of REF and the portal of the working tree, interleaved


COMPARE_RESULTS = ROOT / "bench" / "results" / "live-compare.json"
COMPARE_CONFIGS = [ALONE, CROWD, N10, N40, N100, THINK]


@dataclass(frozen=True)
class Arm:
    """One portal of a comparison: its files, and the commit they come from."""

    key: str  # "ref" or "tree"
    label: str
    commit: str
    root: Path


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return done.stdout.strip()


def export_ref(commit: str, dest: Path) -> None:
    """The files of ``commit`` into ``dest`` (``git archive | tar -x``): nothing in the
    repository changes, and removing ``dest`` undoes it."""
    archive = subprocess.Popen(["git", "archive", "--format=tar", commit], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout, check=True, timeout=300)
    finally:
        if archive.stdout is not None:
            archive.stdout.close()
        archive.wait(timeout=60)
    if archive.returncode:
        raise SystemExit(f"git archive {commit} failed with {archive.returncode}")


def migrations_of(root: Path) -> dict[str, str]:
    """Every migration file under ``root`` (``<app>/migrations/*.py``) with the digest of its
    syntax tree: formatting and comments do not count, an operation or a dependency does."""
    out = {}
    for path in sorted(root.glob("*/migrations/*.py")):
        tree = ast.dump(ast.parse(path.read_text(), filename=str(path)))
        out[str(path.relative_to(root))] = hashlib.sha256(tree.encode()).hexdigest()
    return out


def migration_differences(ref: Path, tree: Path) -> list[str]:
    a, b = migrations_of(ref), migrations_of(tree)
    out = [f"{name}: only in the ref" for name in sorted(set(a) - set(b))]
    out += [f"{name}: only in the working tree" for name in sorted(set(b) - set(a))]
    out += [f"{name}: differs" for name in sorted(set(a) & set(b)) if a[name] != b[name]]
    return out


def portal_folder(root: Path) -> Path:
    """Where a process started like the servers (this interpreter, the bench environment,
    ``cwd`` = ``root``) imports the ``portal`` package from."""
    done = subprocess.run(
        [sys.executable, "-c", "import pathlib, portal; print(pathlib.Path(portal.__file__).resolve().parent.parent)"],
        cwd=root,
        env=server_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode:
        raise SystemExit(f"cannot import portal from {root}: {done.stderr.strip()[-500:]}")
    return Path(done.stdout.strip())


def configs_for(names: str, spectators: int) -> list[Live]:
    crowd = Live(CROWD.name, f"1 match, {spectators} spectators", 1, spectators=spectators, baseline=False)
    known = {c.name: (crowd if c.name == CROWD.name else c) for c in COMPARE_CONFIGS}
    chosen = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in known]
    if unknown or not chosen:
        raise SystemExit(f"--configs: unknown {', '.join(unknown) or '(none given)'}; known: {', '.join(known)}")
    return [known[n] for n in dict.fromkeys(chosen)]


class Compare(Bench):
    """Each pass, for each number of processes: the bare baseline and both portals up at once;
    per configuration the baseline, then the two portals, the ref first in odd passes and the
    working tree first in even ones."""

    def __init__(self, arms: list[Arm], configs: list[Live], workers: list[int], **kwargs):
        super().__init__(**kwargs)
        self.arms, self.configs, self.workers = arms, configs, workers

    def one_pass(self, pass_no: int) -> None:
        plan = self.plan
        order = self.arms if pass_no % 2 else self.arms[::-1]
        for workers in self.workers:
            servers: dict[str, Server] = {}
            try:
                name = f"baseline-w{workers}-p{pass_no}"
                servers["baseline"] = Server("bench.baseline_asgi:application", workers, self.logs, name)
                for arm in self.arms:
                    name = f"portal-{arm.key}-w{workers}-p{pass_no}"
                    servers[arm.key] = Server("portal.asgi:application", workers, self.logs, name, cwd=arm.root)
                for server in servers.values():
                    server.wait_ready()
                for config in self.configs:
                    if config.baseline:
                        result = self._bounded(
                            baseline_run(servers["baseline"].port, config.matches, plan.warmup, plan.seconds),
                            plan.warmup + plan.seconds * EXTEND + 60,
                        )
                        self.record(pass_no, "baseline", config.name, workers, result, matches=config.matches)
                    for position, arm in enumerate(order, 1):
                        port = servers[arm.key].port
                        result = self._bounded(
                            portal_run(port, self.factory, self.executor, config, plan.warmup, plan.seconds),
                            plan.warmup + plan.seconds * EXTEND + 240,
                            port=port,
                        )
                        extra = {"matches": config.matches, "arm": arm.key, "position": position}
                        self.record(pass_no, "portal", config.name, workers, result, **extra)
            finally:
                for server in servers.values():
                    server.stop()


FIGURES = ("rate", "p50_ms", "p99_ms", "cpu_ms_per_move")


def _ratios(top: dict[int, dict], bottom: dict[int, dict], key: str) -> dict | None:
    """The per-pass ratios top/bottom of one figure: their median, lowest and highest."""
    ratios = [top[p][key] / bottom[p][key] for p in top if p in bottom and top[p].get(key) and bottom[p].get(key)]
    if not ratios:
        return None
    return {"median": round(statistics.median(ratios), 4), "low": round(min(ratios), 4), "high": round(max(ratios), 4)}


def compare_summary(results: list[dict], configs: list[Live], workers_list: list[int]) -> list[dict]:
    """Per configuration and number of processes: the medians over passes of each side, and the
    medians of the per-pass ratios working tree / ref and each portal / baseline."""

    def rows(kind: str, config: str, workers: int, arm: str | None = None) -> dict[int, dict]:
        return {
            r["pass"]: r
            for r in results
            if (r["kind"], r["config"], r["workers"], r.get("arm")) == (kind, config, workers, arm)
        }

    def side(by_pass: dict[int, dict]) -> dict | None:
        if not by_pass:
            return None
        runs = by_pass.values()
        return {
            "passes": len(by_pass),
            **{k: median(r.get(k) for r in runs) for k in FIGURES},
            "errors": sum(sum(r.get("errors", {}).values()) for r in runs),
            "stalled": sum(r.get("stalled", 0) for r in runs),
            "failed": sum(1 for r in runs if r.get("failed")),
            "empty": sum(1 for r in runs if not r.get("completed")),
        }

    out = []
    for workers in workers_list:
        for config in configs:
            base = rows("baseline", config.name, workers)
            ref = rows("portal", config.name, workers, "ref")
            tree = rows("portal", config.name, workers, "tree")
            out.append(
                {
                    "config": config.name,
                    "label": config.label,
                    "workers": workers,
                    "baseline": side(base),
                    "ref": side(ref),
                    "tree": side(tree),
                    "tree_vs_ref": {k: _ratios(tree, ref, k) for k in FIGURES},
                    "ref_vs_baseline": {k: _ratios(ref, base, k) for k in FIGURES},
                    "tree_vs_baseline": {k: _ratios(tree, base, k) for k in FIGURES},
                }
            )
    return out


def _ratio_text(ratio: dict | None, spread: bool) -> str:
    if not ratio:
        return "-"
    text = f"{ratio['median']:.2f}"
    if spread and ratio["low"] != ratio["high"]:
        text += f" ({ratio['low']:.2f}-{ratio['high']:.2f})"
    return text


def compare_report(info: dict, versions: dict, plan: Plan, arms: list[Arm], summary: list[dict], extra) -> str:
    ref, tree = arms
    workers_list = sorted({row["workers"] for row in summary})
    spread = plan.passes > 1
    lines = [
        f"Measured on {info['date']} by `python -m bench.live --against {extra['ref_name']}`: {info['summary']}, "
        f"PostgreSQL {versions['postgresql']}, Redis {versions['redis']}, uvicorn {versions['uvicorn']}, channels "
        f"{versions['channels']}, channels-redis {versions['channels_redis']} with `RedisPubSubChannelLayer`; "
        f"load average (1 min) {extra['load'][0]:.1f} at the start, {extra['load'][1]:.1f} at the end.",
        "",
        f"Compared: the ref `{extra['ref_name']}` = `{ref.commit}` and the working tree at `{tree.commit}`"
        + (" with uncommitted changes" if extra["dirty"] else "")
        + ". Each pass starts, under uvicorn with "
        f"{' and '.join(map(str, workers_list))} worker {'process' if workers_list == [1] else 'processes'}, the "
        "bare Channels app and two portals, one served from the ref's files (`git archive`, in a folder of its "
        "own) and one from the working tree's, on the same interpreter, database (migrated by the working tree; "
        "both have the same migrations) and Redis; for each configuration it runs the baseline, then both "
        "portals, the ref first in odd passes and the working tree first in even ones. Players, spectators and "
        f"windows as in Live play ({plan.seconds:g} s window after {plan.warmup:g} s of warm-up). CPU ms: the "
        "server's CPU time (user and system, all its processes, from /proc) over the window per completed move "
        "or broadcast, a figure the other load on the machine disturbs less than the rates. "
        f"{plan.passes} {'passes' if plan.passes > 1 else 'pass'}; every figure is the median over the passes, "
        "every ratio the median of the per-pass ratios"
        + (" (lowest-highest in brackets)" if spread else "")
        + ". Working tree / ref: above 1 is faster for moves/s, slower for latencies.",
        "",
        "| Configuration | Processes | Baseline broadcasts/s | Baseline p50 / p99 ms | Baseline CPU ms "
        "| Ref moves/s | Ref p50 / p99 ms | Ref CPU ms | Working tree moves/s | Working tree p50 / p99 ms "
        "| Working tree CPU ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summary:
        b, r, t = row["baseline"] or {}, row["ref"] or {}, row["tree"] or {}
        lines.append(
            f"| {row['label']} | {row['workers']} | {fmt(b.get('rate'), 0)} | {fmt(b.get('p50_ms'))} / "
            f"{fmt(b.get('p99_ms'))} | {fmt(b.get('cpu_ms_per_move'), 2)} | {fmt(r.get('rate'))} | "
            f"{fmt(r.get('p50_ms'))} / {fmt(r.get('p99_ms'))} | {fmt(r.get('cpu_ms_per_move'), 2)} | "
            f"{fmt(t.get('rate'))} | {fmt(t.get('p50_ms'))} / {fmt(t.get('p99_ms'))} | "
            f"{fmt(t.get('cpu_ms_per_move'), 2)} |"
        )
    lines += [
        "",
        "| Configuration | Processes | Working tree / ref: moves/s | p50 | p99 | server CPU per move "
        "| Ref / baseline: rate | p50 | Working tree / baseline: rate | p50 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summary:
        tr, rb, tb = row["tree_vs_ref"], row["ref_vs_baseline"], row["tree_vs_baseline"]
        lines.append(
            f"| {row['label']} | {row['workers']} | {_ratio_text(tr['rate'], spread)} | "
            f"{_ratio_text(tr['p50_ms'], spread)} | {_ratio_text(tr['p99_ms'], spread)} | "
            f"{_ratio_text(tr['cpu_ms_per_move'], spread)} | {_ratio_text(rb['rate'], spread)} | "
            f"{_ratio_text(rb['p50_ms'], spread)} | "
            f"{_ratio_text(tb['rate'], spread)} | {_ratio_text(tb['p50_ms'], spread)} |"
        )
    problems = []
    for row in summary:
        for key in ("baseline", "ref", "tree"):
            side = row[key] or {}
            seen = [f"{side[k]} {k}" for k in ("failed", "errors", "stalled") if side.get(k)]
            if side.get("empty"):
                seen.append(f"nothing completed in {side['empty']} of {side['passes']} passes")
            if seen:
                problems.append(f"{row['config']} w{row['workers']} {key}: {', '.join(seen)}")
    if extra["log_problems"]:
        problems.append("server logs with errors: " + ", ".join(f"{k} ({n})" for k, n in extra["log_problems"].items()))
    if problems:
        lines += ["", "Seen during the run: " + "; ".join(problems) + "."]
    return "\n".join(lines)


def compare_main(args, plan: Plan) -> int:
    """``--against REF``: prepare the ref's folder, refuse if the migrations differ, run the
    passes, report; the folder, the servers and the database go away at the end whatever happens."""
    configs = configs_for(args.configs or "alone,n40", args.spectators)
    try:
        workers_list = sorted({int(w) for w in (args.workers or "1").split(",")})
        if not workers_list or min(workers_list) < 1:
            raise ValueError
    except ValueError:
        raise SystemExit(f"--workers: a comma-separated list of numbers, not {args.workers!r}") from None
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{args.against}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if found.returncode:
        raise SystemExit(f"--against: {args.against!r} names no commit of this repository")
    commit = found.stdout.strip()
    tree_commit = git("rev-parse", "HEAD")
    # What the working tree serves beyond its commit (the bench's own outputs aside).
    dirty = bool(git("status", "--porcelain", "--", ".", ":!bench/results", ":!docs"))
    if not os.environ.get("SECRET_KEY"):
        # Without one, each portal generates its own into an ignored file of its folder, and the
        # ref's would refuse the sessions the bench signs with the working tree's.
        SHARED_ENV["SECRET_KEY"] = secrets.token_urlsafe(50)
    began = time.monotonic()
    load_at_start = os.getloadavg()[0]
    folder = Path(tempfile.mkdtemp(prefix="bench-live-ref-"))
    try:
        export_ref(commit, folder)
        differences = migration_differences(folder, ROOT)
        if differences:
            print(
                f"refusing: the migrations of {args.against} ({commit[:12]}) and of the working tree differ, and "
                f"both portals would share one database:\n  " + "\n  ".join(differences),
                file=sys.stderr,
            )
            return 2
        arms = [
            Arm("ref", f"{args.against} ({commit[:12]})", commit, folder),
            Arm("tree", f"working tree ({tree_commit[:12]}{', changed' if dirty else ''})", tree_commit, ROOT),
        ]
        for arm in arms:
            imported_from = portal_folder(arm.root)
            if imported_from != arm.root.resolve():
                raise SystemExit(f"the {arm.label} portal would be imported from {imported_from}, not {arm.root}")
        info = machine()
        versions = versions_of()
        print(f"{info['summary']}, PostgreSQL {versions['postgresql']}, Redis {versions['redis']}", flush=True)
        print(f"ref: {arms[0].label} in {folder}; {arms[1].label} in {ROOT}", flush=True)
        logs = Path(tempfile.mkdtemp(prefix="bench-live-"))
        with bench_database(args) as (seeded, executor):
            bench = Compare(
                arms,
                configs,
                workers_list,
                plan=plan,
                seeded=seeded,
                factory=Factory(seeded.users, random.Random(7)),
                executor=executor,
                logs=logs,
            )
            for pass_no in range(1, plan.passes + 1):
                bench.one_pass(pass_no)
        summary = compare_summary(bench.results, configs, workers_list)
        problems = log_problems(logs)
        load = (load_at_start, os.getloadavg()[0])
        extra = {"ref_name": args.against, "dirty": dirty, "log_problems": problems, "load": load}
        body = compare_report(info, versions, plan, arms, summary, extra)
        elapsed = time.monotonic() - began
        out = args.json or COMPARE_RESULTS
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(
            json.dumps(
                {
                    "machine": info,
                    "versions": versions,
                    "ref": {"name": args.against, "commit": commit},
                    "tree": {"commit": tree_commit, "uncommitted_changes": dirty},
                    "plan": {
                        "passes": plan.passes,
                        "seconds": plan.seconds,
                        "warmup": plan.warmup,
                        "configs": [c.name for c in configs],
                        "workers": workers_list,
                        "order": "ref then working tree in odd passes, working tree then ref in even ones",
                    },
                    "elapsed_s": round(elapsed, 1),
                    "load_average": load,
                    "runs": bench.results,
                    "medians": summary,
                    "server_log_problems": problems,
                },
                indent=1,
            )
            + "\n"
        )
        print()
        print(body)
        print(f"\nwrote {out}; server logs in {logs}; {elapsed:.0f} s in all")
        if not args.no_write:
            write_section(DOC, "live-compare", "Live play against another version", body)
            print(f"wrote {DOC.relative_to(ROOT)}")
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def bench_database(args):
    """Empty the bench's Redis database, create, migrate (with the working tree's migrations)
    and seed ``portal_bench``; yield the seeded data and the one thread the clients use for the
    database. At the end, even on an error or Ctrl-C: connections closed, Redis database emptied,
    ``portal_bench`` dropped (unless ``--keep-db``)."""
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-db")
    redis = redis_client()
    django_ready = False
    try:
        redis.flushdb()
        recreate_database()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=server_env(),
            check=True,
            timeout=600,
        )
        setup_django()
        django_ready = True
        started = time.monotonic()
        seeded = seed(args.players, args.finished, random.Random(2026))
        print(
            f"{DB_NAME}: {args.players} players, {args.finished:,} rated matches, {seeded.open_matches} open, "
            f"page match {seeded.page_match} ({seeded.page_match_moves} moves) in {time.monotonic() - started:.1f} s",
            flush=True,
        )
        from django.db import connections

        connections.close_all()
        yield seeded, executor
    finally:
        if django_ready:
            from django.db import connections

            with contextlib.suppress(Exception):
                executor.submit(connections.close_all).result(10)
            connections.close_all()
        executor.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception):
            redis.flushdb()
        if not args.keep_db:
            with contextlib.suppress(Exception):
                drop_database()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short pass over fewer configurations")
    parser.add_argument("--passes", type=int, help="passes (default 3, 1 with --quick)")
    parser.add_argument("--seconds", type=float, help="measurement window of a live configuration (default 5)")
    parser.add_argument("--warmup", type=float, help="warm-up before each window (default 1.5)")
    parser.add_argument("--page-seconds", type=float, help="measurement window of a page (default 1.5)")
    parser.add_argument("--spectators", type=int, default=250, help="the crowd watching one match")
    parser.add_argument("--players", type=int, default=400, help="accounts in the bench database")
    parser.add_argument("--finished", type=int, default=3000, help="finished rated matches in the bench database")
    parser.add_argument(
        "--only",
        help="comma-separated configurations to run (alone, spectators, n10, n40, n100, n40-think, pages)",
    )
    parser.add_argument(
        "--pages-only",
        action="store_true",
        help="the pages alone (as --only pages); bench.pages compares pages with another version",
    )
    parser.add_argument("--no-write", action="store_true", help="print and write the JSON only, leave the doc alone")
    parser.add_argument(
        "--json",
        type=Path,
        help=f"where the results go (default {RESULTS.relative_to(ROOT)}, with --against "
        f"{COMPARE_RESULTS.relative_to(ROOT)})",
    )
    parser.add_argument("--keep-db", action="store_true", help="leave portal_bench in place at the end")
    parser.add_argument(
        "--deflate",
        action="store_true",
        help="the sockets ask for permessage-deflate, as browsers do (the server compresses every frame)",
    )
    compare = parser.add_argument_group("comparing with another version of the portal")
    compare.add_argument(
        "--against",
        metavar="REF",
        help="serve the portal from this git ref and from the working tree, interleaved, on the move path",
    )
    compare.add_argument(
        "--configs",
        help="with --against: comma-separated configurations (alone, spectators, n10, n40, n100, n40-think; "
        "default alone,n40)",
    )
    compare.add_argument("--workers", help="with --against: worker processes, e.g. 1 or 1,2 (default 1)")
    args = parser.parse_args(argv)
    if args.deflate:
        os.environ["BENCH_LIVE_DEFLATE"] = "1"  # the client processes inherit it
    if args.pages_only:
        if args.only or args.against:
            parser.error("--pages-only goes alone; bench.pages compares pages --against another version")
        args.only = "pages"
    if args.against and args.only:
        parser.error("--only is for the full run; with --against choose with --configs")
    if not args.against and (args.configs or args.workers):
        parser.error("--configs and --workers go with --against")
    plan = plan_for(args)
    if args.against:
        # Passes in pairs, so each portal goes first as often as the other.
        plan.passes = args.passes or (2 if args.quick else 4)
    if args.only:
        keep = set(args.only.split(","))
        plan.per_workers = {w: [c for c in cs if c.name in keep] for w, cs in plan.per_workers.items()}
        if "pages" not in keep:
            plan.page_workers = []
        plan.per_workers = {w: cs for w, cs in plan.per_workers.items() if cs or w in plan.page_workers}

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    if args.against:
        return compare_main(args, plan)
    args.json = args.json or RESULTS
    began = time.monotonic()
    load_at_start = os.getloadavg()[0]
    info = machine()
    versions = versions_of()
    print(
        f"{info['summary']}, PostgreSQL {versions['postgresql']}, Redis {versions['redis']}",
        flush=True,
    )
    logs = Path(tempfile.mkdtemp(prefix="bench-live-"))
    with bench_database(args) as (seeded, executor):
        bench = Bench(plan, seeded, Factory(seeded.users, random.Random(7)), executor, logs)
        for pass_no in range(1, plan.passes + 1):
            bench.one_pass(pass_no)
        summary = summarise(bench.results)
        goals = targets(bench.results, summary, plan)
        problems = log_problems(logs)
        load = (load_at_start, os.getloadavg()[0])
        body = report(
            info,
            versions,
            plan,
            seeded,
            summary,
            goals,
            {"results": bench.results, "log_problems": problems, "load": load},
        )
        elapsed = time.monotonic() - began
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {
                    "machine": info,
                    "versions": versions,
                    "plan": {
                        "passes": plan.passes,
                        "seconds": plan.seconds,
                        "warmup": plan.warmup,
                        "page_seconds": plan.page_seconds,
                        "quick": args.quick,
                        "spectators": plan.spectators,
                    },
                    "elapsed_s": round(elapsed, 1),
                    "load_average": load,
                    "runs": bench.results,
                    "medians": summary,
                    "targets": goals,
                    "server_log_problems": problems,
                },
                indent=1,
            )
            + "\n"
        )
        print()
        print(body)
        print(f"\nwrote {args.json}; server logs in {logs}; {elapsed:.0f} s in all")
        if not args.no_write:
            write_section(DOC, "live", "Live play", body)
            print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted: servers stopped, portal_bench dropped", file=sys.stderr)
        sys.exit(130)
