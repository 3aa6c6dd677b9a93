"""What the analysis of a finished match costs, and whether analyses slow a live bot's reply.

Run from the project folder; the analyses are called directly, and see the bot thinking
through Redis (part 2 below needs ``REDIS_URL``; no other service is needed)::

    REDIS_URL=redis://127.0.0.1:6379/0 python -m bench.analysis          # a few minutes
    REDIS_URL=... python -m bench.analysis --quick                       # a sanity check
    REDIS_URL=... python -m bench.analysis --bot-only --rounds 80        # the bot's reply only

1. Per game, ``--games`` games played to their end by MCTS Easy from fixed seeds are analysed
   at the budget (``--iterations``, default the site's ``ANALYSIS_ITERATIONS`` default, 200):
   the time per position and per judged decision, and per match.
2. A live bot's reply: MCTS Medium chooses in the same fixed positions (a 3-player GP02A and a
   dice game mid-game), marked as thinking as the bots' task marks it
   (``games.bot_activity.thinking``), in three arms: alone; while ``--analyses`` (default 4)
   analyses run in processes of their own at the lowest priority (``nice 19``) and pause as the
   analysis task pauses (``bot_activity.pauser``); and beside as many analyses that do not pause
   (as before the pauses). The analyses' processes are started once and idle in the first arm.
   The arms are interleaved round by round (``--rounds``), each first in turn; the figure is the
   ratio of the medians, beside pausing analyses to alone (the target: at most 1.10).
   The analyses see the bot's mark only through Redis: without ``REDIS_URL`` this part is
   left out (the bench uses the key ``<CHANNEL_PREFIX>:bots-thinking`` of that database).

Results go to bench/results/analysis.json. The figures depend on the cores: with fewer cores
than analyses plus one, a bot shares its core whatever the priority says (hence the pauses).
``--bot-only`` keeps the analysis times of the results file.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import time
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
django.setup()

from django.conf import settings  # noqa: E402

from games import bot_activity  # noqa: E402
from games.bots import get_bot  # noqa: E402
from games.bots.analysis import analyse  # noqa: E402
from games.bots.base import sample_outcome  # noqa: E402
from games.engines import get_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("territories", 2), ("game-of-god", 2), ("chit-territory", 2), ("dice-territory", 3), ("gp02a", 3)]
DEFAULT_ITERATIONS = 200
BOT_POSITIONS = [("gp02a", 3, 60), ("dice-territory", 3, 60)]  # (game, players, steps in)


def played(slug: str, players: int, seed: int, limit: int | None = None) -> list[str]:
    """A game (or its first ``limit`` steps) played by MCTS Easy, chance from ``seed``."""
    game = get_game(slug)
    state = game.new_state(players, {})
    rng = random.Random(seed)
    bot = get_bot("mcts-easy")
    while not state.is_terminal() and (limit is None or len(state.history) < limit):
        seat = state.current_player()
        action = sample_outcome(state.chance_outcomes(), rng) if seat < 0 else bot.choose(state, seat, rng)
        state.apply(action)
    return list(state.history)


def analysis_times(iterations: int, games: int) -> list[dict]:
    rows = []
    for slug, players in GAMES:
        for seed in range(games):
            record = played(slug, players, seed)
            started = time.perf_counter()
            result = analyse(get_game(slug), players, {}, record, iterations=iterations, seed=0)
            seconds = time.perf_counter() - started
            decisions = len(result["decisions"])
            rows.append(
                {
                    "game": slug,
                    "players": players,
                    "seed": seed,
                    "positions": len(record) + 1,
                    "decisions": decisions,
                    "seconds": round(seconds, 2),
                    "ms_per_position": round(1000 * seconds / (len(record) + 1), 1),
                    "ms_per_decision": round(1000 * seconds / max(1, decisions), 1),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


# What the analysis processes do: nothing (the bot alone), analyse pausing as the analysis task
# does, or analyse without pausing (as before the pauses).
IDLE, PAUSING, UNPAUSED = 0, 1, 2
ARMS = {IDLE: "alone", PAUSING: "beside", UNPAUSED: "beside_unpaused"}


def _analyse_forever(iterations: int, record: list[str], seed: int, mode, ready, cores: set[int] | None) -> None:
    os.nice(19)
    if cores:
        os.sched_setaffinity(0, cores)
    game = get_game("chit-territory")
    real = bot_activity.pauser()

    def pause() -> None:
        while mode.value == IDLE:
            time.sleep(0.05)
        if mode.value == PAUSING:
            real()

    ready.put(seed)
    while True:
        pause()
        # As the analysis task pauses (games.services.analysis).
        real = bot_activity.pauser(total=settings.ANALYSIS_SECONDS / 2)
        analyse(game, 2, {}, record, iterations=iterations, seed=seed, pause=pause)


def bot_replies(iterations: int, analyses: int, rounds: int, pin: bool = False) -> dict:
    every = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    analysis_cores = {every[-1]} if pin and len(every) > 1 else None
    if analysis_cores:
        os.sched_setaffinity(0, set(every) - analysis_cores)
    positions = []
    for slug, players, steps in BOT_POSITIONS:
        state = get_game(slug).replay(players, {}, played(slug, players, 1, steps))
        while state.current_player() < 0:
            state.apply(sample_outcome(state.chance_outcomes(), random.Random(0)))
        positions.append(state)
    bot = get_bot("mcts-medium")

    def reply_seconds() -> list[float]:
        times = []
        for state in positions:
            started = time.perf_counter()
            with bot_activity.thinking():  # as the bots' task marks its turn (games.tasks._choose)
                bot.choose(state, state.current_player(), random.Random(0))
            times.append(time.perf_counter() - started)
        return times

    record = played("chit-territory", 2, 0)  # the game every analysis judges, over and over
    # Processes of their own (spawned, not forked: no page of the bot's shared copy-on-write),
    # started once and kept for the whole run, idle while the bot is measured alone.
    context = multiprocessing.get_context("spawn")
    mode = context.Value("i", IDLE, lock=False)
    ready = context.Queue()
    workers = [
        context.Process(target=_analyse_forever, args=(iterations, record, k, mode, ready, analysis_cores), daemon=True)
        for k in range(analyses)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)
    load_before = os.getloadavg()
    samples: dict[int, list[float]] = {arm: [] for arm in ARMS}
    try:
        for r in range(rounds):
            order = list(ARMS)[r % 3 :] + list(ARMS)[: r % 3]  # each arm first in turn
            for arm in order:
                mode.value = arm
                time.sleep(0.5)  # the analyses under way (or stopped)
                samples[arm] += reply_seconds()
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join()
    median = {arm: statistics.median(times) for arm, times in samples.items()}
    return {
        "analyses": analyses,
        "rounds": rounds,
        "replies_each": len(samples[IDLE]),
        **{f"median_{name}_s": round(median[arm], 3) for arm, name in ARMS.items()},
        "ratio": round(median[PAUSING] / median[IDLE], 3),
        "ratio_unpaused": round(median[UNPAUSED] / median[IDLE], 3),
        # The same per position (a GP02A reply and a dice one take different times).
        "per_position": [
            {
                "game": slug,
                **{
                    f"median_{name}_s": round(statistics.median(samples[arm][i :: len(positions)]), 3)
                    for arm, name in ARMS.items()
                },
                "ratio": round(
                    statistics.median(samples[PAUSING][i :: len(positions)])
                    / statistics.median(samples[IDLE][i :: len(positions)]),
                    3,
                ),
                "ratio_unpaused": round(
                    statistics.median(samples[UNPAUSED][i :: len(positions)])
                    / statistics.median(samples[IDLE][i :: len(positions)]),
                    3,
                ),
            }
            for i, (slug, _players, _steps) in enumerate(BOT_POSITIONS)
        ],
        "signal": "redis" if settings.REDIS_URL else "memory",
        "cores": len(every) or os.cpu_count(),
        "analyses_pinned_to": sorted(analysis_cores) if analysis_cores else None,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "samples_s": {name: [round(t, 4) for t in samples[arm]] for arm, name in ARMS.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--analyses", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="one game each at 20 iterations, one round")
    parser.add_argument("--pin", action="store_true", help="the analyses on a core of their own")
    parser.add_argument("--bot-only", action="store_true", help="only the bot's reply beside analyses")
    args = parser.parse_args()
    if args.bot_only and not settings.REDIS_URL:
        parser.error("set REDIS_URL: the analyses run in processes of their own and see a bot thinking through Redis")
    if args.quick:
        args.iterations, args.games, args.rounds = 20, 1, 1
    out = ROOT / "bench" / "results" / "analysis.json"
    kept = json.loads(out.read_text()).get("analysis", []) if args.bot_only and out.exists() else []
    results = {
        "iterations": args.iterations,
        "analysis": kept if args.bot_only else analysis_times(args.iterations, args.games),
        # Without Redis the analyses' processes would not see the bot thinking: not measured.
        "bot_reply": bot_replies(args.iterations, args.analyses, args.rounds, args.pin) if settings.REDIS_URL else None,
    }
    print(
        json.dumps(results["bot_reply"]) if results["bot_reply"] else "No REDIS_URL: the bot's reply was not measured."
    )
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
