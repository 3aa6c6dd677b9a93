"""The replay of a long match: its size on the wire and the server's time to answer it.

Run from the project folder::

    python -m bench.replay              # writes its section of docs/BENCHMARKS.md
    python -m bench.replay --no-write

It needs PostgreSQL: DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432
when unset. It builds its own throwaway database, ``portal_bench_replay`` (dropped at the
end), with finished matches played to their end by random moves from fixed seeds (the test
suite's ``finished_by_random_play``): a 2-player chit game of about 473 moves (the seed whose
game is nearest) and a 3-player GP02A game. Then it asks for each match's replay through
Django's test Client, as the match page does (``Accept-Encoding: gzip``), ``--repeat`` times
after two warm-ups (each answer is computed afresh: nothing is cached), and reports the bytes
on the wire (compressed by the view itself, whoever serves it), the bytes once inflated, the
server's median and slowest time (the page shows its first position once the answer is in),
and, for comparison, the size of the former answer (every step's view whole). Targets for the
chit game: under 300 KB on the wire and under 300 ms.

It prints a table and replaces the text between ``<!-- replay:start -->`` and
``<!-- replay:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

from bench.databases import create_database, postgres_label, setup_django
from bench.report import machine, write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
TARGET_BYTES = 300_000
TARGET_MS = 300.0
CHIT_MOVES = 473
# (game, players, how the seed is chosen: the game nearest to this many moves, None for seed 0)
MATCHES = (("chit-territory", 2, CHIT_MOVES), ("gp02a", 3, None))


def seed_nearest(game: str, players: int, moves: int) -> int:
    """The seed among the first 40 whose random game is nearest to ``moves`` long."""
    from tests.games.helpers import random_playout

    return min(range(40), key=lambda seed: abs(len(random_playout(game, players, seed)[2]) - moves))


def former_size(match) -> tuple[int, int]:
    """The bytes of the former answer (every step's view whole), as is and compressed."""
    from games.engines import get_game

    state = get_game(match.game).new_state(match.num_players, match.options)
    frames = [{"view": state.view(None)}]
    for action in match.moves.order_by("index").values_list("action", flat=True):
        state.apply(action)
        frames.append({"view": state.view(None)})
    text = json.dumps({"frames": frames}).encode()
    return len(text), len(gzip.compress(text))


def measure(client, url: str, repeat: int) -> dict:
    for _ in range(2):
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        if response.status_code != 200 or response.get("Content-Encoding") != "gzip":
            raise RuntimeError(f"{url} answered {response.status_code} {response.get('Content-Encoding')}")
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        times.append((time.perf_counter() - started) * 1000)
    return {
        "wire": len(response.content),
        "raw": len(gzip.decompress(response.content)),
        "p50": statistics.median(times),
        "max": max(times),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15, help="requests per replay (median)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)
    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from tests.games.helpers import finished_by_random_play

    info = machine()
    load_start = os.getloadavg()[0]
    old_name, name = create_database("portal_bench_replay", "bench.replay")
    database = postgres_label()
    print(f"{info['summary']}, {database}; database {name}")
    rows = []
    try:
        people = [get_user_model().objects.create(username=f"player{i}", password="!") for i in range(3)]
        client = Client()
        for game, players, moves in MATCHES:
            seed = seed_nearest(game, players, moves) if moves else 0
            match = finished_by_random_play(game, people[:players], seed=seed)
            row: dict[str, Any] = {"game": game, "players": players, "moves": match.moves.count()}
            row.update(measure(client, f"/matches/{match.pk}/replay.json", args.repeat))
            row["former_raw"], row["former_wire"] = former_size(match)
            rows.append(row)
            print(
                f"{game} ({players} players, {row['moves']} moves): {row['wire'] / 1000:.1f} KB on the wire, "
                f"{row['raw'] / 1000:.1f} KB inflated; p50 {row['p50']:.0f} ms, max {row['max']:.0f} ms; "
                f"formerly {row['former_raw'] / 1e6:.2f} MB ({row['former_wire'] / 1000:.1f} KB compressed)"
            )
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    info["load"] = f"{load_start:.2f} and {os.getloadavg()[0]:.2f}"
    chit = rows[0]
    met = chit["wire"] < TARGET_BYTES and chit["p50"] < TARGET_MS
    if not args.no_write:
        write_section(DOC, "replay", "The replay of a long match", report(info, database, args.repeat, rows, met))
        print(f"wrote {DOC}")
    return 0 if met else 1


def report(info, database, repeat, rows, met) -> str:
    lines = [
        f"Measured on {info['date']} by `python -m bench.replay`: {info['summary']}, {database}; "
        f"load average {info['load']} at the start and end (the machine is shared).",
        "",
        "Finished matches played to their end by random moves from a fixed seed. Each replay asked for "
        f"through Django's test Client with `Accept-Encoding: gzip`, {repeat} times after two warm-ups, "
        "each computed afresh (the view compresses its answer itself, so these are the bytes on the wire "
        "with or without a proxy in front). The page shows its first position once the answer is in; the "
        "browser rebuilds the positions from the patches in tens of milliseconds (Node, chit game: 16 to "
        "47 ms). The former answer (every step's view whole) is given for comparison; it was served "
        "uncompressed under `make run`.",
        "",
        "| Match | Moves | On the wire KB | Inflated KB | Server p50 ms | max ms | Former MB (compressed KB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r['game']}, {r['players']} players | {r['moves']} | {r['wire'] / 1000:.1f} | {r['raw'] / 1000:.1f} | "
        f"{r['p50']:.0f} | {r['max']:.0f} | {r['former_raw'] / 1e6:.2f} ({r['former_wire'] / 1000:.1f}) |"
        for r in rows
    ]
    lines += [
        "",
        f"Target for the chit game: under {TARGET_BYTES // 1000} KB on the wire and under {TARGET_MS:.0f} ms: "
        + ("met." if met else "missed.")
        + f" Recorded {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
