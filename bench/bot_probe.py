"""A quick, seeded comparison of two bot configurations in one game and player count.

For tuning the bots, not for the published tables (``bench.bots`` writes those)::

    python -m bench.bot_probe chit-territory 3 "mcts:iterations=2000" greedy --games 20
    python -m bench.bot_probe territories 2 mcts-easy random --games 40 --processes 2

A configuration is a bot name (``greedy``, ``mcts-hard``...) or ``mcts:key=value,...`` with
the keyword arguments of ``MCTSBot`` (``iterations``, ``seconds``, ``exploration``,
``rollout_limit``, ``prior``...); without ``seconds`` only the iteration cap binds, so the
result does not depend on the machine's load. The tested bot sits in one seat, rotating from
game to game, and the other configuration fills every other seat. Its score in a game is its
share of first place (1 alone, 1/k when k seats share it); the mean over the games is printed
with a 95% interval (normal approximation), next to the fair share 1/players, as is the mean
share of the other seats it finished ahead of. Thinking is timed in CPU seconds of the worker
(``time.process_time``), so a busy machine does not inflate it. Workers run under ``nice``.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import os
import random
import time

from games.bots import MCTSBot, get_bot
from games.engines import CHANCE, get_game


def make_bot(spec: str):
    if not spec.startswith("mcts:"):
        return get_bot(spec)
    kwargs = {}
    for item in spec[5:].split(","):
        if not item:
            continue
        key, value = item.split("=")
        kwargs[key] = float(value) if "." in value else int(value)
    kwargs.setdefault("seconds", None)
    return MCTSBot(name=spec, **kwargs)


def play(task: tuple) -> dict:
    slug, players, tested, other, index, salt = task
    seed = random.Random(f"probe/{slug}/{players}/{index}/{salt}").getrandbits(63)
    chance = random.Random(seed)
    seat = index % players
    bots = [make_bot(tested if s == seat else other) for s in range(players)]
    rngs = [random.Random(seed + 1 + s) for s in range(players)]
    state = get_game(slug).new_state(players)
    think_max = think = 0.0
    decisions = 0
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            t0 = time.process_time()
            action = bots[player].choose(state.clone(), player, rngs[player])
            if player == seat:
                spent = time.process_time() - t0
                think += spent
                think_max = max(think_max, spent)
                decisions += 1
        state.apply(action)
    ranking = state.ranking()
    place = ranking[seat]
    firsts = ranking.count(1)
    beaten = sum(1.0 if r > place else 0.5 if r == place else 0.0 for r in ranking) - 0.5
    return {
        "share": (1.0 / firsts) if place == 1 else 0.0,
        "pairwise": beaten / (players - 1),
        "think": think / max(decisions, 1),
        "think_max": think_max,
    }


def unclocked(bot):
    """``bot`` without a time cap: a level's clock (Hard's safety net) is wall time, so on a
    busy machine it would cut the search short and the timing would measure the load, not
    the iteration budget it is meant to size."""
    if isinstance(bot, MCTSBot) and bot.seconds is not None:
        bot = copy.copy(bot)
        bot.seconds = None
    return bot


def speed(spec: str, positions: int = 5) -> None:
    """CPU seconds per action of a configuration in every game and player count, over
    ``positions`` positions spread through random games (the worst one is its worst case).
    A level is timed without its clock (``unclocked``): its iteration budget alone binds."""
    from games.engines import all_games

    for game in all_games():
        for players in game.allowed_player_counts():
            rng = random.Random(f"speed/{game.slug}/{players}")
            worst = total = 0.0
            for i in range(positions):
                state = game.new_state(players)
                steps = 0
                stop = rng.randrange(0, 120)
                while not state.is_terminal():
                    if state.current_player() == CHANCE:
                        outcomes = state.chance_outcomes()
                        state.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
                        continue
                    if steps >= stop and len(state.legal_actions()) > 1:
                        break
                    state.apply(rng.choice(state.legal_actions()))
                    steps += 1
                if state.is_terminal():
                    continue
                bot = unclocked(make_bot(spec))
                t0 = time.process_time()
                bot.choose(state, state.current_player(), random.Random(i))
                spent = time.process_time() - t0
                worst = max(worst, spent)
                total += spent
            print(f"{game.slug} {players}p: mean {total / positions:.2f} s, worst {worst:.2f} s", flush=True)


def _init() -> None:
    os.nice(10)


def interval(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("tested")
    parser.add_argument("other")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--salt", default="")
    parser.add_argument("--verbose", action="store_true", help="print each game as it ends")
    parser.add_argument("--speed", action="store_true", help="time ``tested`` per action instead")
    args = parser.parse_args(argv)
    if args.speed:
        speed(args.tested)
        return
    tasks = [(args.game, args.players, args.tested, args.other, i, args.salt) for i in range(args.games)]
    started = time.perf_counter()
    with multiprocessing.Pool(args.processes, initializer=_init) as pool:
        results = []
        for result in pool.imap_unordered(play, tasks):
            results.append(result)
            if args.verbose:
                print(f"  game {len(results)}: share {result['share']:.2f}", flush=True)
    share = interval([r["share"] for r in results])
    pairwise = interval([r["pairwise"] for r in results])
    print(
        f"{args.game} {args.players}p  {args.tested}  vs  {args.other}: {args.games} games, "
        f"share {share[0]:.2f} [{share[1]:.2f}, {share[2]:.2f}] (fair {1 / args.players:.2f}), "
        f"pairwise {pairwise[0]:.2f} [{pairwise[1]:.2f}, {pairwise[2]:.2f}], "
        f"think cpu mean {sum(r['think'] for r in results) / len(results):.3f} s "
        f"max {max(r['think_max'] for r in results):.2f} s, wall {time.perf_counter() - started:.0f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
