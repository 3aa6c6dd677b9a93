from __future__ import annotations

import random

from ..engines.base import State
from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"
    label = "Random"
    description = "Plays a uniformly random legal move. Good for learning the rules."

    def choose(self, state: State, seat: int, rng: random.Random | None = None) -> str:
        rng = rng or random.Random()
        return rng.choice(state.legal_actions())
