"""Tournament pairing at the sizes the site allows: how long one round's pairing takes.

Run from the project folder::

    python -m bench.pairing              # writes the Tournament pairing section of docs/BENCHMARKS.md
    python -m bench.pairing --no-write

Pure Python, no database: it plays Swiss tournaments of 200 entrants with random results
(each round paired from the standings so far, as the tournament services do) at tables of
2, 4 and 6, a Swiss of 200 at two a table with a crowded history that forces the exact
matching to work, and builds round-robin schedules for multiplayer tables up to 16 entrants.
Target: every pairing under 1 s (a round is paired in a Celery task when the previous one
ends; players wait for it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from bench.report import machine, write_section
from tournaments import pairing
from tournaments.pairing import Entrant, round_robin, swiss_round
from tournaments.standings import TableResult, pairing_entrants

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
TARGET_S = 1.0


def swiss(n: int, table_size: int, rounds: int, seed: int) -> list[float]:
    """Seconds per round's pairing over a whole tournament with random places."""
    rng = random.Random(seed)
    ratings = {i: float(rng.randrange(1000, 2400)) for i in range(1, n + 1)}
    played: list = []
    times = []
    for number in range(1, rounds + 1):
        active = pairing_entrants(ratings, played)
        start = time.perf_counter()
        rnd = swiss_round(active, table_size, number)
        times.append(time.perf_counter() - start)
        results = [TableResult(t, tuple(rng.sample(range(1, table_size + 1), table_size))) for t in rnd.tables]
        played.append((results, rnd.byes))
    return times


def crowded(n: int, met_share: float, seed: int) -> float:
    """One pairing where greedy fails: each has met ``met_share`` of the field, one clean pairing hidden."""
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    hidden = {frozenset(order[i : i + 2]) for i in range(0, n - 1, 2)}
    opponents: dict[int, set[int]] = {i: set() for i in range(n)}
    for a in range(n):
        for b in range(a + 1, n):
            if frozenset((a, b)) not in hidden and rng.random() < met_share:
                opponents[a].add(b)
                opponents[b].add(a)
    entrants = [Entrant(i, rng.uniform(1000, 2400), rng.randrange(10) / 2, frozenset(opponents[i])) for i in range(n)]
    start = time.perf_counter()
    swiss_round(entrants, 2, 9)
    return time.perf_counter() - start


def verdict(seconds: float) -> str:
    return "met" if seconds <= TARGET_S else f"missed ({TARGET_S:.0f} s)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)
    info = machine()
    load = os.getloadavg()[0]
    rows = []
    for n, k, rounds in [(200, 2, 9), (201, 2, 9), (200, 4, 6), (200, 6, 6)]:
        times = swiss(n, k, rounds, seed=n + k)
        rows.append((f"Swiss, {n} entrants, tables of {k}, {rounds} rounds", max(times), sum(times) / len(times)))
    for share in (0.8, 0.95):
        seconds = crowded(200, share, seed=7)
        rows.append((f"Swiss, 200 entrants, each has met {share:.0%} of the field", seconds, seconds))
    for n, k in [(10, 3), (10, 4), (16, 4), (15, 5), (16, 6)]:
        pairing._cover.cache_clear()
        start = time.perf_counter()
        schedule = round_robin(list(range(n)), k)
        seconds = time.perf_counter() - start
        rows.append((f"Round robin, {n} entrants, tables of {k} ({len(schedule)} rounds)", seconds, seconds))
    lines = [
        f"Measured on {info['date']} by `python -m bench.pairing`: {info['summary']}, "
        f"one process; load average {load:.1f} when it started "
        f"(other work shares the machine). Target: every pairing under {TARGET_S:.0f} s.",
        "",
        "| Pairing | Slowest round s | Mean round s | Target |",
        "|---|---:|---:|---|",
        *(f"| {name} | {worst:.3f} | {mean:.3f} | {verdict(worst)} |" for name, worst, mean in rows),
    ]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section(DOC, "pairing", "Tournament pairing", body)
        print(f"\nUpdated {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
