"""Computer players over the engine contract. Pure Python: no Django import here.

A bot is an object with ``choose(state, seat, rng=None) -> action``. It sees only what the
seat may see: it searches from ``state.determinised(seat, rng)``, never from the real state.

The levels, weakest first: ``random``, ``greedy`` (one step ahead), and Monte Carlo tree
search with three thinking budgets, ``mcts-easy``, ``mcts-medium`` and ``mcts-hard``. Each
MCTS budget is an iteration cap per game (``levels.LEVEL_ITERATIONS``), so a level is as strong on a
busy machine as on an idle one; a wall-clock cap far above it (``levels.SAFETY_SECONDS``) is
Hard's safety net (its budgets take the longest).
"""

from __future__ import annotations

from .base import Bot, forced_action
from .greedy import GreedyBot
from .levels import HARD_LIMIT_SECONDS, LEVEL_ITERATIONS, LEVEL_SETTINGS, SAFETY_SECONDS
from .mcts import MCTSBot
from .random_bot import RandomBot


def _plays_out(name: str) -> str:
    """A level's budget in words: "Plays out 6,000 to 12,000 continuations of the game a move"."""
    budgets = LEVEL_ITERATIONS[name].values()
    low, high = min(budgets), max(budgets)
    count = f"{low:,}" if low == high else f"{low:,} to {high:,}"
    return (
        f"Plays out {count} continuations of the game a move, depending on the game (Monte Carlo "
        "tree search), and picks the move that wins most often."
    )


def _mcts(name: str, label: str, description: str, seconds: float | None = None, **settings) -> MCTSBot:
    per_game = LEVEL_SETTINGS[name]
    return MCTSBot(
        name=name,
        label=label,
        iterations=max(game["iterations"] for game in per_game.values()),
        seconds=seconds,
        per_game=per_game,
        description=description,
        **settings,
    )


_BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "greedy": GreedyBot(),
    "mcts-easy": _mcts("mcts-easy", "MCTS Easy", "Thinks briefly. " + _plays_out("mcts-easy")),
    "mcts-medium": _mcts("mcts-medium", "MCTS Medium", _plays_out("mcts-medium")),
    "mcts-hard": _mcts(
        "mcts-hard",
        "MCTS Hard",
        _plays_out("mcts-hard")
        + f" It searches as far on a busy server as on an idle one, where it takes up to {HARD_LIMIT_SECONDS} seconds.",
        seconds=SAFETY_SECONDS,
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


def bot_description(name: str) -> str:
    """How a bot plays, in words for its player page ("" for a name no level has)."""
    bot = _BOTS.get(name)
    return bot.description if bot is not None else ""


__all__ = [
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "bot_description",
    "bot_label",
    "bot_names",
    "forced_action",
    "get_bot",
]
