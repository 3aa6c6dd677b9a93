"""How long MCTS Hard thinks on the heaviest positions, against the two seconds a move it promises.

Run from the project folder::

    python -m bench.hard_think             # every game at its largest table
    python -m bench.hard_think --repeat 3  # each position three times, the longest kept

For each game, at its largest player count, the position with the most legal actions met in a
few seeded random games is handed to ``mcts-hard``; the wall-clock time of its answer and the
CPU time of this process are printed next to the iterations it ran. The exit status is 1 when
a wall-clock time goes over the promise. This is a measurement of this machine: the test suite
checks the mechanism instead (``tests/bots/test_hard_time_limit.py``: the search stops when
its clock says the time is up), and never times anything.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import cast

from bench.report import machine
from games.bots import get_bot
from games.bots.base import resolve_chance
from games.bots.mcts import MCTSBot
from games.engines import CHANCE, all_games

PROMISE = 2.0  # seconds a move, what Hard's description says


def heaviest_position(game, players, seed, games=3):
    """The position with the most legal actions met in a few random games, and that number."""
    rng = random.Random(seed)
    best, most = None, 0
    for _ in range(games):
        state = game.new_state(players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                resolve_chance(state, rng)
                continue
            legal = state.legal_actions()
            if len(legal) > most:
                best, most = state.clone(), len(legal)
            state.apply(rng.choice(legal))
    return best, most


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="answers per position; the longest is kept")
    parser.add_argument("--seed", type=int, default=20, help="seed of the random games the positions come from")
    args = parser.parse_args(argv)
    hard = cast(MCTSBot, get_bot("mcts-hard"))
    print(f"MCTS Hard on the heaviest positions ({machine()['summary']}); promise {PROMISE:.1f} s a move")
    print(f"{'game':<16} {'players':>7} {'choices':>7} {'wall s':>7} {'cpu s':>7} {'iterations':>10}")
    over = []
    for game in all_games():
        players = max(game.allowed_player_counts())
        state, choices = heaviest_position(game, players, seed=args.seed)
        wall = cpu = 0.0
        iterations = 0
        for attempt in range(args.repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            hard.choose(state.clone(), state.current_player(), random.Random(attempt + 1))
            took, took_cpu = time.perf_counter() - started, time.process_time() - started_cpu
            if took >= wall:
                wall, cpu, iterations = took, took_cpu, hard.last_iterations
        print(f"{game.slug:<16} {players:>7} {choices:>7} {wall:>7.2f} {cpu:>7.2f} {iterations:>10}")
        if wall > PROMISE:
            over.append(game.slug)
    if over:
        print(f"Over {PROMISE:.1f} s: {', '.join(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
