"""How much of a bot's searching one search a turn, reused for the turn's later steps, would save.

Run from the project folder::

    python -m bench.tree_reuse                    # GP02A and the dice game, 3 players, 3 games each
    python -m bench.tree_reuse --games 5 gp02a:4

A GP02A turn is several decisions (a chronology colour, a block, each chip's field) and a dice
turn one per marker and per "roll or stop": MCTS Medium searches each afresh, with its whole
budget. A search that kept its tree would start the next decision in the node the game has
reached since, with the visits that node already holds. This plays seeded games with MCTS
Medium at every seat (its first 40 searches a game) and counts, for each search, the visits
the previous search's tree holds in the position it is asked about, up to the search's own
iterations: what reuse could save at most, if carried visits counted toward the budget.
Nothing is timed; the figures are counts, the same on any machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import cast

from games.bots import get_bot
from games.bots.base import forced_action, sample_outcome
from games.bots.mcts import MCTSBot
from games.engines import CHANCE, TERMINAL, get_game

SEARCHES_A_GAME = 40


def carried(slug: str, players: int, games: int, bot_name: str = "mcts-medium") -> tuple[int, int, int]:
    """(searches, iterations they ran, visits a kept tree would have carried into them)."""
    bot = cast(MCTSBot, get_bot(bot_name))
    searches = iterations = reusable = 0
    for seed in range(games):
        state = get_game(slug).new_state(players)
        rng = random.Random(seed)
        node = None  # the last search's tree, followed along the actions played since
        done = 0
        while state.current_player() != TERMINAL and done < SEARCHES_A_GAME:
            seat = state.current_player()
            if seat == CHANCE:  # open loop: chance outcomes do not move through the tree
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            action = forced_action(state)
            if action is None:
                held = sum(child.visits for child in node.children.get(seat, {}).values()) if node else 0
                node = bot.search(state, seat, random.Random(rng.random()))
                ran = bot.last_search().iterations
                searches, iterations, reusable = searches + 1, iterations + ran, reusable + min(held, ran)
                done += 1
                action = bot.statistics(node)[0][0]  # the most visited, as the bot answers
            if node is not None:
                node = node.children.get(seat, {}).get(action)
            state.apply(action)
    return searches, iterations, reusable


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tables", nargs="*", default=["gp02a:3", "dice-territory:3"], help="GAME:PLAYERS")
    parser.add_argument("--games", type=int, default=3, help="seeded games a table")
    args = parser.parse_args(argv)
    for table in args.tables:
        slug, _, players = table.partition(":")
        searches, iterations, reusable = carried(slug, int(players or 3), args.games)
        print(
            f"{slug}, {players} players: {searches} searches ran {iterations} iterations; "
            f"a kept tree would have carried {reusable} of them ({100 * reusable / max(iterations, 1):.0f}%)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
