"""Computer players over the engine contract. Pure Python: no Django import here.

A bot is an object with ``choose(state, seat, rng=None) -> action``. It sees only what the
seat may see: it searches from ``state.determinised(seat, rng)``, never from the real state.

The levels, weakest first: ``random``, ``greedy`` (one step ahead), and Monte Carlo tree
search with three thinking budgets, ``mcts-easy``, ``mcts-medium`` and ``mcts-hard``. Each
MCTS budget is an iteration cap per game (``LEVEL_ITERATIONS``), so a level is as strong on a
busy machine as on an idle one; Hard also has a time cap as a safety net.
"""

from __future__ import annotations

from .base import Bot
from .greedy import GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot

_MCTS_DESCRIPTION = (
    "Plays out thousands of random continuations of the game from each position "
    "(Monte Carlo tree search) and picks the move that wins most often."
)

# Each level's iteration budget per game. A search is capped by iterations, not by the clock,
# so a level plays the same on a busy machine as on an idle one; the budgets are sized from
# each game's slowest positions (``python -m bench.bot_probe x 0 CONFIG x --speed``) so that
# Hard stays well under two seconds of one core a move. Hard's time cap is only a safety net.
LEVEL_ITERATIONS = {
    "mcts-easy": {
        "gp02a": 30,
        "dice-territory": 150,
        "territories": 60,
        "chit-territory": 150,
        "game-of-god": 15,
    },
    "mcts-medium": {
        "gp02a": 1500,
        "dice-territory": 1500,
        "territories": 600,
        "chit-territory": 1200,
        "game-of-god": 2500,
    },
    "mcts-hard": {
        "gp02a": 12000,
        "dice-territory": 10000,
        "territories": 6000,
        "chit-territory": 6000,
        "game-of-god": 10000,
    },
}
HARD_SECONDS = 1.8  # the safety net under the two seconds a move Hard promises

# Where Medium and Hard let Greedy's one-step judgement order the root (progressive widening
# and bias, see ``MCTSBot``): the games with many actions a turn, where it measured better
# against Greedy on the same seeds (1,500 iterations; chit game 3 players 0.42 share of 12
# games against 0.33 without, GP02A 3 players 0.50 against 0.42, 4 players 0.38 of 8 against
# 0.25). Easy searches without it.
PRIOR = {"prior": True, "widen": 1.0, "prior_weight": 1.0}
PRIOR_GAMES = ("gp02a", "chit-territory")


def _mcts(name: str, label: str, description: str, seconds: float | None = None, **settings) -> MCTSBot:
    budgets = LEVEL_ITERATIONS[name]
    return MCTSBot(
        name=name,
        label=label,
        iterations=max(budgets.values()),
        seconds=seconds,
        per_game={
            slug: {"iterations": n, **(PRIOR if name != "mcts-easy" and slug in PRIOR_GAMES else {})}
            for slug, n in budgets.items()
        },
        description=description,
        **settings,
    )


_BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "greedy": GreedyBot(),
    "mcts-easy": _mcts(
        "mcts-easy",
        "MCTS Easy",
        "Thinks briefly: " + _MCTS_DESCRIPTION[0].lower() + _MCTS_DESCRIPTION[1:],
    ),
    "mcts-medium": _mcts("mcts-medium", "MCTS Medium", _MCTS_DESCRIPTION),
    "mcts-hard": _mcts(
        "mcts-hard",
        "MCTS Hard",
        "Thinks up to two seconds a move. " + _MCTS_DESCRIPTION,
        seconds=HARD_SECONDS,
    ),
}


def get_bot(name: str) -> Bot:
    try:
        return _BOTS[name]
    except KeyError:
        raise KeyError(f"Unknown bot {name!r}; known bots: {', '.join(_BOTS)}") from None


def bot_names() -> list[str]:
    return list(_BOTS)


def bot_label(name: str) -> str:
    """The name people see for a bot, e.g. "MCTS Easy"."""
    return get_bot(name).label


__all__ = ["Bot", "GreedyBot", "MCTSBot", "RandomBot", "bot_label", "bot_names", "get_bot"]
