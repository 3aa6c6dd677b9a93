"""What every bot shares: the ``Bot`` interface and the ways of turning a position into rewards.

Rewards are per seat, between 0 and 1, and compare each seat with every other one (as the
ratings do): 1 for beating everybody, 0 for losing to everybody, a shared place counting
half. They work the same for 2 to 6 players, so a search can let every seat maximise its own.
"""

from __future__ import annotations

import math
import random

from ..engines.base import CHANCE, State

# How many points of difference make one seat clearly ahead of another, per game. A leaf that
# is not the end of the game is judged by its scores through a logistic curve of this width.
SCORE_SCALES = {
    "gp02a": 3.0,
    "dice-territory": 6.0,
    "territories": 3.0,
    "chit-territory": 5.0,
    "game-of-god": 1.5,
}
DEFAULT_SCORE_SCALE = 4.0

# How many random decisions a playout makes before the position is judged by its scores. The
# scores are a good guide in most of these games, and a search that judges each new position
# at once goes deeper in the same time than one that plays random moves first. In the dice
# game a turn's markers count only once the turn ends, so a short playout finishes the turn.
ROLLOUT_LIMITS = {"dice-territory": 10}
DEFAULT_ROLLOUT_LIMIT = 0

# The games whose searches judge a position by how much each seat's margin has moved since the
# position searched from, rather than by the margin itself. In the chit game scores run to 150
# and gaps of 20 points are common long before the end, yet control of a territory can still
# flip; judged by the gap itself every move looks equally won or lost and the search cannot
# tell a good build from a poor one.
RELATIVE_JUDGEMENT = {"chit-territory"}


class Bot:
    """A computer player. ``choose`` returns one legal action for ``seat``, the seat to move.

    It looks at the position only through ``state.determinised(seat, rng)``, so it cannot
    learn what the seat is not allowed to see.
    """

    name = ""
    label = ""
    description = ""

    def choose(self, state: State, seat: int, rng: random.Random | None = None) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def forced_action(state: State) -> str | None:
    """The action the rules leave the seat to move, when it has exactly one (a pass, the only
    place left, the roll that must follow): played at once, nothing to search."""
    legal = state.legal_actions()
    return legal[0] if len(legal) == 1 else None


def score_scale(state: State) -> float:
    return SCORE_SCALES.get(state.game.slug, DEFAULT_SCORE_SCALE)


def default_rollout_limit(state: State) -> int:
    return ROLLOUT_LIMITS.get(state.game.slug, DEFAULT_ROLLOUT_LIMIT)


def relative_judgement(state: State) -> bool:
    return state.game.slug in RELATIVE_JUDGEMENT


def margins(scores: list[int]) -> list[int]:
    """Each seat's score minus the best score among the others."""
    return [margin(scores, seat) for seat in range(len(scores))]


def rewards_from_gains(scores: list[int], baseline: list[int], scale: float) -> list[float]:
    """Per seat: how likely its margin's move since ``baseline`` (the margins of the position
    searched from) is a gain, read off a logistic curve of width ``scale``."""
    return [_ahead((m - b) / scale) for m, b in zip(margins(scores), baseline, strict=True)]


def rewards_from_ranking(ranking: list[int], first_weight: float = 0.5) -> list[float]:
    """Per seat: the share of the other seats it finished ahead of (a tie counts half), mixed
    with ``first_weight`` of its share of first place (1 alone, 1/k when k seats share it)."""
    n = len(ranking)
    if n < 2:
        return [1.0] * n
    firsts = ranking.count(1)
    rewards = []
    for place in ranking:
        worse = 0.0
        for other in ranking:
            if other > place:
                worse += 1.0
            elif other == place:
                worse += 0.5
        pairwise = (worse - 0.5) / (n - 1)  # the seat itself counted as a tie: take it out
        first = 1.0 / firsts if place == 1 else 0.0
        rewards.append(first_weight * first + (1.0 - first_weight) * pairwise)
    return rewards


def _ahead(gap: float) -> float:
    """How likely a lead of ``gap`` (in score scales) is to hold: a logistic curve."""
    if gap < -50:
        return 0.0
    return 1.0 / (1.0 + math.exp(-gap))


def rewards_from_scores(scores: list[int], scale: float, first_weight: float = 0.5) -> list[float]:
    """The same mix judged from scores: the chance of being ahead of each other seat, and of
    being ahead of the best of them, each read off the score gap."""
    n = len(scores)
    if n == 2:
        first = _ahead((scores[0] - scores[1]) / scale)
        return [first, 1.0 - first]
    rewards = []
    for i, mine in enumerate(scores):
        total = 0.0
        best_other = None
        for j, theirs in enumerate(scores):
            if i != j:
                total += _ahead((mine - theirs) / scale)
                if best_other is None or theirs > best_other:
                    best_other = theirs
        lead = _ahead((mine - best_other) / scale)
        rewards.append(first_weight * lead + (1.0 - first_weight) * total / (n - 1))
    return rewards


def margin(scores: list[int], seat: int) -> int:
    """The seat's score minus the best score among the others."""
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


def sample_outcome(outcomes: list[tuple[str, float]], rng: random.Random) -> str:
    """One chance outcome drawn by its probability."""
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]  # rounding: the probabilities sum to 1 within a hair


def resolve_chance(state: State, rng: random.Random) -> None:
    """Play chance outcomes, each drawn by its probability, until somebody has to decide."""
    while state.current_player() == CHANCE:
        state.apply(sample_outcome(state.chance_outcomes(), rng))


# -- playouts guided by a cheap policy -----------------------------------------------------

# Dice game: after the free rolls a roll busts when its number was already rolled this turn.
# The guided playout rolls on while that risk is below ``BUST_RISK`` and stops otherwise,
# instead of tossing a coin; where a marker goes stays random.
BUST_RISK = 0.3
_DICE_WAYS = {n: 6 - abs(n - 7) for n in range(2, 13)}  # how many of the 36 rolls make n


def _dice_policy(state: State, legal: list[str], rng: random.Random) -> str:
    if "stop" in legal:
        rolled = state.rolled
        risk = sum(ways for n, ways in _DICE_WAYS.items() if rolled >> n & 1) / 36
        return "roll" if risk < BUST_RISK else "stop"
    return legal[0] if len(legal) == 1 else rng.choice(legal)


PLAYOUT_POLICIES = {"dice-territory": _dice_policy}


def playout_policy(state: State):
    """The game's cheap playout policy ``(state, legal, rng) -> action``, or None (uniform)."""
    return PLAYOUT_POLICIES.get(state.game.slug)
