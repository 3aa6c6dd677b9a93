"""Greedy: the action that most improves the bot's own score margin after one step."""

from __future__ import annotations

import random

from ..engines.base import CHANCE, State
from .base import Bot, forced_action, margin, sample_outcome
from .negotiation import negotiation_move

# How many positions one decision may score in all when it averages over chance outcomes: the
# expectation is exact while an action's outcomes fit in its share, and sampled beyond.
LEAF_BUDGET = 600
MAX_LEAVES_PER_ACTION = 36


class GreedyBot(Bot):
    """Looks one step ahead: for each legal action, the seat's score minus the best other
    score once the action is applied, averaged over the chance outcomes that follow it
    (exactly when they are few, by sampling when many). The best action wins; ties are
    broken at random."""

    name = "greedy"
    label = "Greedy"
    description = (
        "Looks one move ahead and takes the move that most improves its lead on points, "
        "averaging over the dice and draws that follow. It never plans further."
    )

    def __init__(self, leaf_budget: int = LEAF_BUDGET):
        self.leaf_budget = leaf_budget

    def choose(self, state: State, seat: int, rng: random.Random | None = None) -> str:
        rng = rng if rng is not None else random.Random()
        forced = forced_action(state)
        if forced is not None:
            return forced
        world = state.determinised(seat, rng)
        bargain = negotiation_move(world, seat)  # an exchange offer, judged by the hands
        if bargain is not None:
            return bargain
        best_value = None
        best: list[str] = []
        for action, value in one_step_values(world, seat, rng, self.leaf_budget).items():
            if best_value is None or value > best_value + 1e-9:
                best_value, best = value, [action]
            elif value > best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)


def one_step_values(state: State, seat: int, rng: random.Random, leaf_budget: int = LEAF_BUDGET) -> dict[str, float]:
    """Greedy's judgement of every legal action of ``seat`` in ``state`` (a position the seat
    may see, e.g. a determinisation): the expected margin once the action is applied."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError(f"seat {seat} has no legal action here: the position is over or not the seat's to play")
    per_action = max(1, min(MAX_LEAVES_PER_ACTION, leaf_budget // len(legal)))
    values = {}
    for action in legal:
        after = state.clone()
        after.apply(action)
        values[action] = expected_margin(after, seat, per_action, rng)
    return values


def expected_margin(state: State, seat: int, leaves: int, rng: random.Random) -> float:
    """The seat's margin after ``state``, averaged over the chance outcomes that follow (exactly
    while they fit in ``leaves`` positions, by sampling beyond)."""
    if state.current_player() != CHANCE:
        return margin(state.scores(), seat)
    outcomes = state.chance_outcomes()
    if len(outcomes) <= leaves:
        share = leaves // len(outcomes)
        total = 0.0
        for outcome, p in outcomes:
            child = state.clone()
            child.apply(outcome)
            total += p * expected_margin(child, seat, share, rng)
        return total
    total = 0.0
    for _ in range(leaves):
        child = state.clone()
        child.apply(sample_outcome(outcomes, rng))
        total += expected_margin(child, seat, 1, rng)
    return total / leaves
