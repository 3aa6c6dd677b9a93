"""Bot strength: tournaments between the levels, in every game and at every player count.

Run from the project folder::

    python -m bench.bots                       # the full tournament, writes docs/BOTS.md
    python -m bench.bots --quick               # a few games per pairing, a smoke test
    python -m bench.bots --games 20 --game chit-territory --players 2 --no-write
    python -m bench.bots --minutes 60 --results /tmp/bots.jsonl   # stop launching after 60 min,
                                               # keep every game in a file and resume from it

Pairings: MCTS Hard against Random and against Greedy, Greedy against Random, MCTS Medium
against MCTS Easy. The first bot of a pairing is the one tested: it sits in one seat and the
other bot fills every other seat; the seats rotate from game to game so each seat gets its
turn. A win is a first place, sole or shared. Win rates come with 95% Wilson intervals, and
the tested bot's thinking time is timed around each ``choose`` call that had a real choice
(a position with one legal action is answered at once and not counted).

Games run in parallel over ``--processes`` worker processes (default 2, one per core). With
``--minutes`` the cheap pairings are played in full first, then the costly ones (with an MCTS
Medium or Hard bot) round by round across every game, so each gets about the same number of
games when the time runs out; the table says how many were played.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import machine, write_section
from games.bots import get_bot
from games.engines import CHANCE, all_games, get_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "BOTS.md"
MAX_ACTIONS_PER_GAME = 20_000

PAIRINGS = (
    ("mcts-hard", "random"),
    ("mcts-hard", "greedy"),
    ("greedy", "random"),
    ("mcts-medium", "mcts-easy"),
)
COSTLY = ("mcts-medium", "mcts-hard")
TIME_LIMIT = {"mcts-hard": 2.0}  # seconds per action the level promises
QUICK_GAMES = 4


def target(tested: str, opponent: str, players: int) -> float | None:
    """The win rate the tested bot should reach, or None when the pairing has no target."""
    if tested != "mcts-hard":
        return None
    if players == 2:
        return {"random": 0.90, "greedy": 0.65}.get(opponent)
    return 2.0 / players  # at least twice its fair share


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# ---------------------------------------------------------------------------------------
# One game


def game_seed(slug: str, players: int, tested: str, opponent: str, index: int) -> int:
    return random.Random(f"{slug}/{players}/{tested}/{opponent}/{index}").getrandbits(63)


def play_game(task: tuple) -> dict:
    """One game; ``task`` = (slug, players, tested, opponent, index). Runs in a worker."""
    slug, players, tested, opponent, index = task
    seed = game_seed(slug, players, tested, opponent, index)
    chance = random.Random(seed)
    tested_seat = index % players
    names = [tested if seat == tested_seat else opponent for seat in range(players)]
    bots = [get_bot(name) for name in names]
    rngs = [random.Random(seed + 1 + seat) for seat in range(players)]
    state = get_game(slug).new_state(players)
    think: list[float] = []
    actions = 0
    started = time.perf_counter()
    while not state.is_terminal():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"{slug}: no end after {MAX_ACTIONS_PER_GAME} actions")
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            choice = len(state.legal_actions()) > 1
            t0 = time.perf_counter()
            action = bots[player].choose(state.clone(), player, rngs[player])
            if player == tested_seat and choice:
                think.append(time.perf_counter() - t0)
        state.apply(action)
        actions += 1
    ranking = state.ranking()
    return {
        "game": slug,
        "players": players,
        "tested": tested,
        "opponent": opponent,
        "index": index,
        "seat": tested_seat,
        "place": ranking[tested_seat],
        "scores": state.scores(),
        "actions": actions,
        "decisions": len(think),
        "think_total": sum(think),
        "think_max": max(think, default=0.0),
        "seconds": time.perf_counter() - started,
    }


# ---------------------------------------------------------------------------------------
# Tallies


@dataclass
class Tally:
    game: str
    name: str
    players: int
    tested: str
    opponent: str
    games: int = 0
    wins: int = 0
    decisions: int = 0
    think_total: float = 0.0
    think_max: float = 0.0
    seconds: float = 0.0
    places: list[int] = field(default_factory=list)

    def add(self, record: dict) -> None:
        self.games += 1
        self.wins += record["place"] == 1
        self.decisions += record["decisions"]
        self.think_total += record["think_total"]
        self.think_max = max(self.think_max, record["think_max"])
        self.seconds += record["seconds"]
        self.places.append(record["place"])

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_think(self) -> float:
        return self.think_total / self.decisions if self.decisions else 0.0

    @property
    def target(self) -> float | None:
        return target(self.tested, self.opponent, self.players)

    @property
    def verdict(self) -> str:
        if self.target is None or not self.games:
            return ""
        low, high = wilson(self.wins, self.games)
        if self.rate >= self.target:
            return "met" if low >= self.target else "met (interval reaches below)"
        return "**missed**" if high < self.target else "**missed** (interval reaches above)"


def label(name: str) -> str:
    return get_bot(name).label


def tallies_from(records: list[dict]) -> list[Tally]:
    names = {g.slug: g.name for g in all_games()}
    tallies: dict[tuple, Tally] = {}
    for record in records:
        key = (record["game"], record["players"], record["tested"], record["opponent"])
        if key not in tallies:
            tallies[key] = Tally(record["game"], names.get(record["game"], record["game"]), *key[1:])
        tallies[key].add(record)
    order = {g.slug: i for i, g in enumerate(all_games())}
    pairing_order = {p: i for i, p in enumerate(PAIRINGS)}
    return sorted(
        tallies.values(),
        key=lambda t: (order.get(t.game, 99), t.players, pairing_order.get((t.tested, t.opponent), 99)),
    )


def table(tallies: list[Tally]) -> str:
    lines = [
        "| Game | Players | Tested bot | Against | Games | Wins | Win rate | 95% interval | Target "
        "| Verdict | Think s/action (mean) | Think s (max) |",
        "|---|---:|---|---|---:|---:|---:|---|---:|---|---:|---:|",
    ]
    for t in tallies:
        low, high = wilson(t.wins, t.games)
        goal = f"{t.target:.0%}" if t.target is not None else "-"
        lines.append(
            f"| {t.name} | {t.players} | {label(t.tested)} | {label(t.opponent)} | {t.games} | {t.wins} "
            f"| {t.rate:.0%} | {low:.0%}-{high:.0%} | {goal} | {t.verdict} "
            f"| {t.mean_think:.3f} | {t.think_max:.2f} |"
        )
    return "\n".join(lines)


def shortfalls(tallies: list[Tally]) -> list[str]:
    notes = []
    for t in tallies:
        if t.target is not None and t.games and t.rate < t.target:
            notes.append(
                f"{t.name}, {t.players} players: {label(t.tested)} won {t.wins} of {t.games} against "
                f"{label(t.opponent)} ({t.rate:.0%}; target {t.target:.0%})."
            )
        limit = TIME_LIMIT.get(t.tested)
        if limit is not None and t.think_max > limit:
            notes.append(
                f"{t.name}, {t.players} players: {label(t.tested)} once thought {t.think_max:.2f} s "
                f"(limit {limit:g} s)."
            )
    return notes


def section(tallies: list[Tally], info: dict[str, str], processes: int, wall: float, planned: dict) -> str:
    played = sorted({t.games for t in tallies})
    counts = ", ".join(str(n) for n in played) if played else "0"
    parts = [
        f"Written on {info['date']} by `python -m bench.bots` on {info['cpu']}, {info['cores']} cores, "
        f"{info['python']}, {processes} worker processes (one game per core at a time)"
        + (f", after {wall / 60:.0f} minutes of play" if wall >= 60 else ", from the results file")
        + f"; the results file holds {sum(t.seconds for t in tallies) / 3600:.1f} core-hours of games in all "
        "(`make bench` goes on from it).",
        "",
        f"Games per pairing planned: {planned['cheap']} for Greedy against Random, {planned['costly']} for the "
        f"pairings with an MCTS bot; played: {counts} (see the Games column). The tested bot sits in one seat, "
        "rotating from game to game, and the other bot fills every other seat. A win is a first place, sole "
        "or shared. Thinking time is per call with more than one legal action, measured while the other "
        "core runs another game.",
        "",
        table(tallies),
    ]
    notes = shortfalls(tallies)
    if notes:
        parts += ["", "Targets missed in this run:", ""] + [f"- {note}" for note in notes]
    elif tallies:
        parts += ["", "Every target with a verdict above is met on its point estimate."]
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------
# The run


def plan(games: list, players: list[int] | None, pairings, cheap_games: int, costly_games: int) -> list[tuple]:
    """Every game to play: cheap pairings in full first, then costly ones round by round."""
    combos = [(game.slug, n) for game in games for n in game.allowed_player_counts() if not players or n in players]
    cheap = [p for p in pairings if not set(p) & set(COSTLY)]
    costly = [p for p in pairings if set(p) & set(COSTLY)]
    tasks = [(slug, n, *p, i) for slug, n in combos for p in cheap for i in range(cheap_games)]
    for i in range(costly_games):
        tasks += [(slug, n, *p, i) for slug, n in combos for p in costly]
    return tasks


def load_records(path: Path | None) -> list[dict]:
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--costly-games", type=int, help="games per pairing with MCTS (default: --games)")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games per pairing, no doc unless asked")
    parser.add_argument("--minutes", type=float, help="launch no new game after this much wall time")
    parser.add_argument("--game", action="append", help="only this slug (may repeat)")
    parser.add_argument("--players", type=int, action="append", help="only this player count (may repeat)")
    parser.add_argument("--pairing", action="append", help="only TESTED:OPPONENT, e.g. greedy:random")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--results", type=Path, help="append every game to this JSON-lines file; resume from it")
    parser.add_argument("--no-write", action="store_true", help="print only, leave docs/BOTS.md alone")
    parser.add_argument("--report", action="store_true", help="play nothing: write the table from --results")
    parser.add_argument("--write", action="store_true", help="with --quick: write the doc anyway")
    args = parser.parse_args(argv)

    games = [g for g in all_games() if not args.game or g.slug in args.game]
    if not games:
        parser.error("no such game registered")
    pairings = PAIRINGS
    if args.pairing:
        pairings = tuple(tuple(p.split(":", 1)) for p in args.pairing)
        for pair in pairings:
            for name in pair:
                get_bot(name)
    cheap_games = QUICK_GAMES if args.quick else args.games
    costly_games = QUICK_GAMES if args.quick else (args.costly_games or args.games)
    tasks = plan(games, args.players, pairings, cheap_games, costly_games)
    records = load_records(args.results)
    done = {(r["game"], r["players"], r["tested"], r["opponent"], r["index"]) for r in records}
    todo = [] if args.report else [t for t in tasks if t not in done]
    # The table covers the whole plan, also when this run plays only part of it (--game ...).
    wanted = set(tasks) | set(plan(all_games(), None, PAIRINGS, cheap_games, costly_games))
    records = [r for r in records if (r["game"], r["players"], r["tested"], r["opponent"], r["index"]) in wanted]

    info = machine()
    print(f"{info['cpu']}, {info['cores']} cores, {info['python']}, {info['date']}")
    print(f"{len(tasks)} games planned, {len(records)} already in the results file, {len(todo)} to play", flush=True)
    started = time.monotonic()
    deadline = started + args.minutes * 60 if args.minutes else None
    out = args.results.open("a") if args.results else None
    try:
        with multiprocessing.get_context("fork").Pool(args.processes, maxtasksperchild=50) as pool:
            pending = []
            queue = list(todo)
            while queue or pending:
                while queue and len(pending) < args.processes * 2 and (deadline is None or time.monotonic() < deadline):
                    task = queue.pop(0)
                    pending.append(pool.apply_async(play_game, (task,)))
                if deadline is not None and time.monotonic() >= deadline:
                    queue.clear()
                ready = [p for p in pending if p.ready()]
                if not ready:
                    time.sleep(0.05)
                    continue
                for p in ready:
                    pending.remove(p)
                    record = p.get()
                    records.append(record)
                    if out:
                        out.write(json.dumps(record) + "\n")
                        out.flush()
                    print(
                        f"[{(time.monotonic() - started) / 60:5.1f} min] {record['game']} {record['players']}p "
                        f"{record['tested']} vs {record['opponent']} #{record['index']}: place {record['place']} "
                        f"({record['seconds']:.0f} s, {record['decisions']} decisions)",
                        flush=True,
                    )
    finally:
        if out:
            out.close()
    wall = time.monotonic() - started
    tallies = tallies_from(records)
    print()
    print(table(tallies))
    for note in shortfalls(tallies):
        print("- " + note)
    if not args.no_write and (not args.quick or args.write):
        planned = {"cheap": cheap_games, "costly": costly_games}
        body = section(tallies, info, args.processes, wall, planned)
        write_section(DOC, "bots", "Tournament", body, intro="# Bots\n")
        print(f"\nUpdated {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
