"""Computer players over the engine contract. Pure Python: no Django import here.

A bot is an object with ``choose(state, seat, rng=None) -> action``. It sees only what the
seat may see: it searches from ``state.determinised(seat, rng)``, never from the real state.

The levels, weakest first: ``random``, ``greedy`` (one step ahead), and Monte Carlo tree
search with three thinking budgets, ``mcts-easy``, ``mcts-medium`` and ``mcts-hard``. Each
MCTS budget is an iteration cap and a time cap; on a slow machine the time cap binds first.
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

_BOTS: dict[str, Bot] = {
    "random": RandomBot(),
    "greedy": GreedyBot(),
    "mcts-easy": MCTSBot(
        name="mcts-easy",
        label="MCTS Easy",
        iterations=150,
        seconds=0.2,
        description="Thinks briefly: " + _MCTS_DESCRIPTION[0].lower() + _MCTS_DESCRIPTION[1:],
    ),
    "mcts-medium": MCTSBot(
        name="mcts-medium",
        label="MCTS Medium",
        iterations=1500,
        seconds=0.5,
        description=_MCTS_DESCRIPTION,
    ),
    "mcts-hard": MCTSBot(
        name="mcts-hard",
        label="MCTS Hard",
        iterations=20000,
        seconds=1.8,
        description="Thinks up to two seconds a move. " + _MCTS_DESCRIPTION,
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
