"""Engine speed: random playouts and clone() cost for every registered game.

Run from the project folder::

    python -m bench.engines              # about 4 s per game, writes docs/BENCHMARKS.md
    python -m bench.engines --seconds 2 --game dice-territory --no-write

For each game in ``games.engines.all_games()`` and each allowed player count it measures
full random games per second, actions per second (each step: ``legal_actions()`` and a
uniform pick, or at a chance node ``chance_outcomes()`` and a pick by probability, then
``apply()``), and the mean cost of ``clone()`` on mid-game states. It prints a table and
replaces the text between ``<!-- engines:start -->`` and ``<!-- engines:end -->`` in
docs/BENCHMARKS.md, leaving every other section of that file alone. A game that misses a
target gets a sentence saying where its time goes, from a cProfile run.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import re
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import machine, write_section
from games.engines import CHANCE, all_games

TARGET_ACTIONS_PER_SECOND = 50_000
TARGET_CLONE_US = 20.0
MAX_ACTIONS_PER_GAME = 20_000  # the conformance suite's bound: a game longer than this is a bug
DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"


@dataclass
class Result:
    slug: str
    name: str
    players: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    clones: int = 0
    clone_us: float = 0.0
    error: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0

    @property
    def fast_enough(self) -> bool:
        return self.actions_per_second >= TARGET_ACTIONS_PER_SECOND

    @property
    def cheap_clone(self) -> bool:
        return 0 < self.clone_us < TARGET_CLONE_US

    @property
    def meets_targets(self) -> bool:
        return not self.error and self.fast_enough and self.cheap_clone


def pick(state, rng: random.Random) -> str:
    """A chance outcome by its probability, or a uniformly random legal action."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def play_one(game, num_players: int, rng: random.Random) -> int:
    """One full random game; the number of actions applied."""
    state = game.new_state(num_players)
    actions = 0
    while not state.is_terminal():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"no end after {MAX_ACTIONS_PER_GAME} actions")
        state.apply(pick(state, rng))
        actions += 1
    return actions


def measure_playouts(game, num_players: int, budget: float, result: Result) -> None:
    """Whole random games until ``budget`` seconds have passed (at least one game)."""
    rng = random.Random(1)
    start = time.perf_counter()
    while True:
        result.actions += play_one(game, num_players, rng)
        result.games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            break
    result.seconds = elapsed


def mid_game_states(game, num_players: int, count: int = 60, seed: int = 2) -> list:
    """Clones of states from the middle half of a few random games (never terminal)."""
    rng = random.Random(seed)
    states: list = []
    for _ in range(max(3, count // 20)):
        state = game.new_state(num_players)
        path = []
        while not state.is_terminal() and len(path) < MAX_ACTIONS_PER_GAME:
            path.append(state.clone())
            state.apply(pick(state, rng))
        middle = path[len(path) // 4 : max(len(path) // 4 + 1, 3 * len(path) // 4)]
        states.extend(rng.sample(middle, min(len(middle), count // 3 or 1)))
        if len(states) >= count:
            break
    return states[:count]


def measure_clone(states: list, budget: float, result: Result) -> None:
    """Mean microseconds per clone() over repeated passes on ``states``."""
    clones = 0
    elapsed = 0.0
    batch = 50
    while elapsed < budget:
        start = time.perf_counter()
        for state in states:
            for _ in range(batch):
                state.clone()
        elapsed += time.perf_counter() - start
        clones += batch * len(states)
    result.clones = clones
    result.clone_us = elapsed / clones * 1e6 if clones else 0.0


def _function_label(filename: str, name: str) -> str:
    """``games/engines/gp02a.py`` + ``apply`` -> ``gp02a.apply``; this script's own functions
    read ``bench.pick``; built-ins keep their name without the object address."""
    if filename in ("~", ""):
        return re.sub(r" at 0x[0-9a-f]+", "", name.strip("<>"))
    path = Path(filename)
    if path.resolve() == Path(__file__).resolve():
        return f"bench.{name}"
    return f"{path.stem}.{name}"


def where_time_goes(run, seconds: float, top: int = 4) -> str:
    """Run ``run()`` under cProfile for about ``seconds``; the top functions by own time."""
    profile = cProfile.Profile()
    deadline = time.perf_counter() + seconds
    profile.enable()
    while time.perf_counter() < deadline:
        run()
    profile.disable()
    stats = pstats.Stats(profile).stats  # {(file, line, name): (cc, nc, own, cumulative, callers)}
    total = sum(entry[2] for entry in stats.values()) or 1.0
    by_function: dict[str, float] = {}
    for (filename, _line, name), entry in stats.items():
        label = _function_label(filename, name)
        by_function[label] = by_function.get(label, 0.0) + entry[2]
    ranked = sorted(by_function.items(), key=lambda item: -item[1])[:top]
    return ", ".join(f"`{label}` {share / total:.0%}" for label, share in ranked)


def explain_shortfall(game, results: list[Result], seconds: float) -> str:
    """One sentence for a game that misses a target: which, and where cProfile sees the time."""
    live = [r for r in results if not r.error]
    if not live:
        return ""
    parts = []
    slow = [r for r in live if not r.fast_enough]
    if slow:
        worst = min(slow, key=lambda r: r.actions_per_second)
        rng = random.Random(3)
        profile = where_time_goes(lambda: play_one(game, worst.players, rng), seconds)
        parts.append(
            f"reaches {worst.actions_per_second:,.0f} actions/s at {worst.players} players "
            f"(target {TARGET_ACTIONS_PER_SECOND:,}); in random playouts cProfile puts its own "
            f"time in {profile}"
        )
    costly = [r for r in live if not r.cheap_clone]
    if costly:
        worst = max(costly, key=lambda r: r.clone_us)
        states = mid_game_states(game, worst.players, count=20)

        def clone_all():
            for state in states:
                state.clone()

        profile = where_time_goes(clone_all, seconds)
        parts.append(
            f"clone() costs {worst.clone_us:.1f} µs at {worst.players} players "
            f"(target under {TARGET_CLONE_US:g} µs), spent in {profile}"
        )
    if not parts:
        return ""
    return f"**{game.name}** (`{game.slug}`) " + "; ".join(parts) + "."


def bench_game(game, seconds: float) -> tuple[list[Result], str]:
    counts = game.allowed_player_counts()
    share = seconds / len(counts)
    results = []
    for num_players in counts:
        result = Result(game.slug, game.name, num_players)
        try:
            measure_playouts(game, num_players, share * 0.65, result)
            states = mid_game_states(game, num_players)
            measure_clone(states, share * 0.25, result)
        except Exception as exc:  # a broken engine must not stop the others' numbers
            result.error = f"{type(exc).__name__}: {exc}"
            traceback.print_exc(file=sys.stderr)
        results.append(result)
    note = ""
    if not all(r.meets_targets for r in results):
        try:
            note = explain_shortfall(game, results, max(0.3, seconds * 0.1))
        except Exception as exc:
            note = f"**{game.name}** (`{game.slug}`) could not be profiled: {type(exc).__name__}: {exc}."
    errors = [r for r in results if r.error]
    if errors:
        failed = "; ".join(f"{r.players} players: {r.error}" for r in errors)
        note = (note + " " if note else "") + f"**{game.name}** failed to run ({failed})."
    return results, note


def table(results: list[Result]) -> str:
    lines = [
        "| Game | Players | Games/s | Actions/s | Actions/game | clone() µs | Targets |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        if r.error:
            lines.append(f"| {r.name} | {r.players} | - | - | - | - | error |")
            continue
        verdict = (
            "met"
            if r.meets_targets
            else "missed: "
            + ", ".join(word for word, ok in (("actions/s", r.fast_enough), ("clone", r.cheap_clone)) if not ok)
        )
        lines.append(
            f"| {r.name} | {r.players} | {r.games_per_second:,.1f} | {r.actions_per_second:,.0f} "
            f"| {r.actions_per_game:,.0f} | {r.clone_us:.2f} | {verdict} |"
        )
    return "\n".join(lines)


def section(results: list[Result], notes: list[str], info: dict[str, str], seconds: float) -> str:
    parts = [
        f"Measured on {info['date']} by `python -m bench.engines` (about {seconds:g} s per game): "
        f"{info['summary']}, one process on one core.",
        "",
        "Random playouts, default options: each step calls `legal_actions()` and picks one "
        "action uniformly (at a chance node `chance_outcomes()` and a pick by probability), "
        "then `apply()`; the times include the picking. clone() is the mean over many clones "
        "of states from the middle half of random games. Targets: "
        f"{TARGET_ACTIONS_PER_SECOND:,} actions/s and clone() under {TARGET_CLONE_US:g} µs.",
        "",
        table(results),
    ]
    if notes:
        parts += [
            "",
            "Where the time goes in the games that miss a target (cProfile, share of "
            "profiled own time; the profiler inflates call-heavy code):",
            "",
        ]
        parts += [f"- {note}" for note in notes]
    else:
        parts += ["", "Every game meets both targets."]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="time per game (default 4)")
    parser.add_argument("--game", action="append", help="only this slug (may repeat)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)

    games = [g for g in all_games() if not args.game or g.slug in args.game]
    if not games:
        parser.error("no such game registered")
    info = machine()
    print(f"{info['summary']}, {info['date']}")
    results: list[Result] = []
    notes: list[str] = []
    for game in games:
        print(f"{game.slug} ...", end=" ", flush=True)
        game_results, note = bench_game(game, args.seconds)
        results += game_results
        if note:
            notes.append(note)
        print("done")
    print()
    print(table(results))
    for note in notes:
        print("\n" + note)
    if not args.no_write:
        write_section(DOC, "engines", "Engines", section(results, notes, info, args.seconds))
        print(f"\nUpdated {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
