"""Bots' turns shared between people: how long one person waits for a Greedy bot's reply while
another keeps the most matches against strong bots going, with the bot queue's fairness and
without it.

Run from the project folder, with PostgreSQL and Redis on 127.0.0.1::

    python -m bench.bot_fairness                    # 2 passes of 60 s each way, about 6 minutes
    python -m bench.bot_fairness --seconds 20 --passes 1 --no-write

The bench owns the database ``portal_bench_bots`` (created and migrated at the start, dropped
at the end) and one Redis database (``--redis-db``, 4 by default; emptied before each phase
and at the end); it leaves everything else alone.

Each phase starts a real Celery worker as production runs it (``make worker``: the prefork
pool, ``--concurrency 2``) with ``BOT_TURNS_AT_ONCE_PER_PERSON`` set to 0 (every bot turn
straight to the workers' queue, first come first served: without fairness) or 1 (the default:
one turn of each person with the workers at once, the rest in the person's own queue). Then,
from threads of this process, through the services as the pages call them:

* person A keeps ``MAX_BOT_MATCHES_PER_PERSON`` (5) matches of Game of God going, each against
  three MCTS Hard bots (about 2 s of thinking a move), and moves at once whenever it is their
  turn in any of them (a finished match is replaced by a new one);
* person B plays one match of Game of God against Greedy, moving 0.3 s after the bot's reply.

B's reply latency runs from B's move being saved until B is to move again (the bot's whole
turn, chance included), polled every 20 ms. After a warm-up of ``--warm-up`` seconds, each
phase measures for ``--seconds``; the phases alternate (without, with, without, with...) and
each has fresh people, so nothing queued in one reaches the next. Also counted: A's bot moves
in the window (what fairness costs the person holding the workers). Results go to
bench/results/bot_fairness.json and between ``<!-- bot-fairness:start -->`` and
``<!-- bot-fairness:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.report import machine, write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
RESULTS = ROOT / "bench" / "results" / "bot_fairness.json"
DB_NAME = "portal_bench_bots"
PREFIX = "benchbots"
POLL = 0.02
B_THINKS = 0.3
A_GAME, A_PLAYERS, A_BOT = "game-of-god", 4, "mcts-hard"
B_GAME, B_BOT = "game-of-god", "greedy"
CONCURRENCY = 2  # the Makefile's `make worker` default


def setup_django(redis_db: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    os.environ["REDIS_URL"] = f"redis://127.0.0.1:6379/{redis_db}"
    os.environ["CHANNEL_PREFIX"] = PREFIX
    os.environ["DEBUG"] = "false"
    import django

    django.setup()


def create_database() -> tuple[str, str]:
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("bench.bot_fairness needs PostgreSQL: set DATABASE_URL to a postgres:// address")
    connection.settings_dict["TEST"]["NAME"] = DB_NAME
    old = connection.settings_dict["NAME"]
    return old, connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)


def flush_redis() -> None:
    import redis
    from django.conf import settings

    redis.Redis.from_url(settings.REDIS_URL).flushdb()


class Worker:
    """``celery -A portal worker`` as ``make worker`` starts it, on the bench's database and Redis."""

    def __init__(self, share: int, database: str):
        from django.conf import settings

        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
            "REDIS_URL": settings.REDIS_URL,
            "CHANNEL_PREFIX": PREFIX,
            "BOT_TURNS_AT_ONCE_PER_PERSON": str(share),
        }
        command = [sys.executable, "-m", "celery", "-A", "portal", "worker", "--loglevel", "info"]
        command += ["--concurrency", str(CONCURRENCY), "--without-gossip", "--without-mingle", "--without-heartbeat"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while "ready." not in self.output():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the worker did not start:\n{self.output()[-3000:]}")
            time.sleep(0.2)

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self) -> None:
        # A cold stop: the tasks under way are abandoned (the next phase has people of its own).
        self.process.send_signal(signal.SIGQUIT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        self.log.close()


def _act(match, user, rng: random.Random) -> bool:
    """``user`` moves at random in ``match`` if it is their turn; whether they did."""
    from games import services, state_cache

    seat = next((s.index for s in match.seats.all() if s.user_id == user.pk), None)
    if match.status != match.Status.ACTIVE or match.to_move != seat:
        return False
    action = rng.choice(state_cache.load(match).legal_actions())
    try:
        services.match_act(match_id=match.pk, user=user, action=action, version=match.version)
    except services.MatchError:
        return False  # moved on meanwhile
    return True


class PersonA(threading.Thread):
    """Keeps MAX_BOT_MATCHES_PER_PERSON matches against MCTS Hard going and moves at once."""

    def __init__(self, user, stop: threading.Event):
        super().__init__(daemon=True)
        self.user, self.stop = user, stop
        self.rng = random.Random(1)

    def run(self) -> None:
        from django.conf import settings
        from django.db import close_old_connections

        from games import services
        from games.models import Match

        matches: list[int] = []
        try:
            while not self.stop.is_set():
                going = Match.objects.filter(pk__in=matches, status__in=(Match.Status.OPEN, Match.Status.ACTIVE))
                matches = list(going.values_list("pk", flat=True))
                while len(matches) < settings.MAX_BOT_MATCHES_PER_PERSON:
                    made = services.match_create_against_bots(
                        user=self.user, bot=A_BOT, game=A_GAME, num_players=A_PLAYERS, speed="untimed", rated=False
                    )
                    matches.append(made.pk)
                for match in Match.objects.filter(pk__in=matches).prefetch_related("seats"):
                    _act(match, self.user, self.rng)
                time.sleep(POLL)
        finally:
            close_old_connections()


class PersonB(threading.Thread):
    """Plays against Greedy and times each of its replies."""

    def __init__(self, user, stop: threading.Event):
        super().__init__(daemon=True)
        self.user, self.stop = user, stop
        self.rng = random.Random(2)
        self.replies: list[tuple[float, float]] = []  # (when the move was saved, seconds to the reply)

    def run(self) -> None:
        from django.db import close_old_connections

        from games import services
        from games.models import Match

        try:
            match_id = None
            while not self.stop.is_set():
                match = Match.objects.filter(pk=match_id).prefetch_related("seats").first() if match_id else None
                if match is None or match.is_over:
                    match_id = services.match_create_against_bots(
                        user=self.user, bot=B_BOT, game=B_GAME, num_players=2, speed="untimed", rated=False
                    ).pk
                    continue
                if not _act(match, self.user, self.rng):
                    time.sleep(POLL)
                    continue
                saved = time.monotonic()
                while not self.stop.is_set():
                    now = Match.objects.only("to_move", "status").get(pk=match_id)
                    if now.status != Match.Status.ACTIVE or now.to_move == 0:
                        self.replies.append((saved, time.monotonic() - saved))
                        break
                    time.sleep(POLL)
                time.sleep(B_THINKS)
        finally:
            close_old_connections()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def phase(share: int, database: str, number: int, warm_up: float, seconds: float) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from accounts.services import user_confirm_email
    from games.models import Move

    settings.BOT_TURNS_AT_ONCE_PER_PERSON = share  # this process queues A's and B's moves too
    flush_redis()
    User = get_user_model()
    a = User.objects.create_user(username=f"a{number}", email=f"a{number}@example.com", password=None)
    b = User.objects.create_user(username=f"b{number}", email=f"b{number}@example.com", password=None)
    for user in (a, b):
        user_confirm_email(user=user)
    worker = Worker(share, database)
    stop = threading.Event()
    b_plays = PersonB(b, stop)
    people: list[threading.Thread] = [PersonA(a, stop), b_plays]
    try:
        for person in people:
            person.start()
        time.sleep(warm_up)
        opened = time.monotonic()
        a_moves_before = Move.objects.filter(match__creator=a, seat__gt=0).count()
        time.sleep(seconds)
        closed = time.monotonic()
        a_moves = Move.objects.filter(match__creator=a, seat__gt=0).count() - a_moves_before
    finally:
        stop.set()
        for person in people:
            person.join(timeout=30)
        worker.stop()
    times = [took for saved, took in b_plays.replies if opened <= saved and saved + took <= closed]
    label = "with fairness" if share else "without fairness"
    if not times:
        raise SystemExit(f"{label}: B got no reply in {seconds:.0f} s")
    result = {
        "share": share,
        "n": len(times),
        "p50_ms": pct(times, 0.5) * 1000,
        "p99_ms": pct(times, 0.99) * 1000,
        "max_ms": max(times) * 1000,
        "a_bot_moves_per_min": a_moves * 60 / (closed - opened),
    }
    print(
        f"{label:<17} B's replies: n {result['n']:3d}, p50 {result['p50_ms']:6.0f} ms, p99 {result['p99_ms']:6.0f} ms;"
        f" A's bot moves {result['a_bot_moves_per_min']:.0f}/min"
    )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per phase")
    parser.add_argument("--warm-up", type=float, default=10.0)
    parser.add_argument("--passes", type=int, default=2, help="pairs of phases (without, with)")
    parser.add_argument("--redis-db", type=int, default=4)
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)

    setup_django(args.redis_db)
    from django.conf import settings
    from django.db import connection

    info = machine()
    load_start = os.getloadavg()[0]
    old_name, database = create_database()
    results: list[dict] = []
    try:
        number = 0
        for _ in range(args.passes):
            for share in (0, settings.BOT_TURNS_AT_ONCE_PER_PERSON or 1):
                number += 1
                results.append(phase(share, database, number, args.warm_up, args.seconds))
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
        flush_redis()
    info["load"] = f"{load_start:.2f} and {os.getloadavg()[0]:.2f}"
    summary = {
        key: {
            "p50_ms": statistics.median(r["p50_ms"] for r in rows),
            "p99_ms": statistics.median(r["p99_ms"] for r in rows),
            "n": sum(r["n"] for r in rows),
            "a_bot_moves_per_min": statistics.median(r["a_bot_moves_per_min"] for r in rows),
        }
        for key, rows in (
            ("without", [r for r in results if not r["share"]]),
            ("with", [r for r in results if r["share"]]),
        )
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": info, "phases": results, "summary": summary}, indent=2) + "\n")
    body = report(info, args, results, summary)
    print(body)
    if not args.no_write:
        write_section(DOC, "bot-fairness", "Bots' turns shared between people", body)
        print(f"wrote {DOC}")
    return 0


def report(info: dict, args, results: list[dict], summary: dict) -> str:
    without, with_ = summary["without"], summary["with"]
    lines = [
        f"Measured on {info['date']} by `python -m bench.bot_fairness`: {info['summary']}, PostgreSQL and Redis "
        f"on the same machine, one Celery worker as `make worker` runs it (prefork, concurrency {CONCURRENCY}).",
        "",
        f"Person A keeps 5 matches (MAX_BOT_MATCHES_PER_PERSON) of Game of God against three MCTS Hard bots each "
        "going and moves at once whenever it is their turn; person B plays Game of God against Greedy, moving "
        f"{B_THINKS:g} s after each reply. B's reply latency runs from B's move saved until B is to move again. "
        f"{args.passes} pass(es) of {args.seconds:.0f} s measured (after {args.warm_up:.0f} s of warm-up) each way, "
        "alternating; figures are the medians over the passes.",
        "",
        "| Bot queue | B's replies | p50 | p99 | A's bot moves a minute |",
        "|---|---:|---:|---:|---:|",
        f"| without fairness (`BOT_TURNS_AT_ONCE_PER_PERSON=0`: first come, first served) | {without['n']} | "
        f"{without['p50_ms']:.0f} ms | {without['p99_ms']:.0f} ms | {without['a_bot_moves_per_min']:.0f} |",
        f"| with fairness (one turn of each person with the workers at once) | {with_['n']} | "
        f"{with_['p50_ms']:.0f} ms | {with_['p99_ms']:.0f} ms | {with_['a_bot_moves_per_min']:.0f} |",
        "",
        "The price is A's: with one turn at once, A's bots use one worker process at a time, even while the other "
        "is idle, so on this two-process worker they play about half as many moves a minute.",
        "",
        "Each phase: "
        + "; ".join(
            f"{'with' if r['share'] else 'without'} p50 {r['p50_ms']:.0f} ms, p99 {r['p99_ms']:.0f} ms (n {r['n']})"
            for r in results
        )
        + ".",
        "",
        f"Load average (1 minute) at the start and the end of the run: {info['load']}.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
