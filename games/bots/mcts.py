"""Monte Carlo tree search (UCT) over the engine contract, for any game and 2-6 players.

Each iteration starts from a fresh ``state.determinised(seat, rng)``, so whatever the seat
cannot see is re-drawn every time and the search learns nothing secret.

The tree is open loop: a node stands for a sequence of decisions, and the chance outcomes
between them are drawn afresh (by their probabilities) on every pass, so a roll of two dice
does not split the tree 36 ways. What is legal at a node can then differ from pass to pass
(the dice decide where a marker may go); each pass chooses among the children legal this
time, and expands one that is legal but new. Children are keyed by (seat, action), and each
holds the rewards of the seat that chose it: every seat picks what is best for itself (UCB1),
so the same tree serves two players or six.

A new node is judged by a short random playout (``rollout_limit`` decisions, per game by
default, see ``base.ROLLOUT_LIMITS``; often none at all) and then by the scores, or by the
final ranking when the game is over (see ``base`` for how these become rewards). In the
games of ``base.RELATIVE_JUDGEMENT`` the scores are read relative to the position searched
from: what counts is how far each seat's margin has moved, so a seat far ahead or far behind
still tells a good move from a poor one.

The budget is an iteration cap and a time cap, whichever binds first. With a fixed random
generator and a binding iteration cap the choice is reproducible. The search also stops as
soon as no other action can overtake the most visited one in the iterations left, which
saves time without changing the answer (when the clock binds, "left" is what the time left
allows at the pace so far).
"""

from __future__ import annotations

import math
import random
import time

from ..engines.base import CHANCE, TERMINAL, State
from .base import (
    Bot,
    default_rollout_limit,
    margins,
    relative_judgement,
    rewards_from_gains,
    rewards_from_ranking,
    rewards_from_scores,
    sample_outcome,
    score_scale,
)
from .negotiation import negotiation_move

DEFAULT_EXPLORATION = 0.7
_CHECK_EVERY = 8  # iterations between looks at the clock and at an early decision


class _Node:
    __slots__ = ("children", "mover", "total", "visits")

    def __init__(self, mover: int):
        self.children: dict[tuple[int, str], _Node] = {}  # (seat, action) -> node
        self.visits = 0
        self.total = 0.0  # summed rewards of ``mover``, the seat whose choice led here
        self.mover = mover


class MCTSBot(Bot):
    def __init__(
        self,
        name: str = "mcts",
        label: str = "MCTS",
        iterations: int = 1000,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout_limit: int | None = None,
        relative: bool | None = None,
        first_weight: float = 0.5,
        description: str = "",
    ):
        if iterations < 1:
            raise ValueError("An MCTS bot needs at least one iteration.")
        self.name = name
        self.label = label
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.relative = relative
        self.first_weight = first_weight
        self.description = description
        self.last_iterations = 0  # how many iterations the last choice took (for the bench)

    def __repr__(self) -> str:
        return f"<MCTSBot {self.name} iterations={self.iterations} seconds={self.seconds}>"

    def choose(self, state: State, seat: int, rng: random.Random | None = None) -> str:
        rng = rng if rng is not None else random.Random()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        # An exchange offer (GP02A's Negotiation): scores cannot tell accepting from declining,
        # so the hands decide, and the search never sees offers.
        bargain = negotiation_move(state.determinised(seat, rng), seat)
        if bargain is not None:
            self.last_iterations = 0
            return bargain
        root = self.search(state, seat, rng)
        return self._best(root)

    # -- the search ----------------------------------------------------------------------

    def search(self, state: State, seat: int, rng: random.Random) -> _Node:
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else None
        scale = score_scale(state)
        limit = self.rollout_limit if self.rollout_limit is not None else default_rollout_limit(state)
        relative = self.relative if self.relative is not None else relative_judgement(state)
        baseline = margins(state.scores()) if relative else None
        root = _Node(-1)
        cap = self.iterations
        done = 0
        while done < cap:
            self._iterate(root, state.determinised(seat, rng), rng, scale, limit, baseline)
            done += 1
            if done % _CHECK_EVERY == 0:
                remaining = cap - done
                if deadline is not None:
                    now = time.perf_counter()
                    if now >= deadline:
                        break
                    # When the clock will bind before the cap, count only what the time left
                    # allows at the pace so far (the answer then depends on the clock anyway).
                    by_time = int(done * (deadline - now) / max(now - start, 1e-9)) + 1
                    remaining = min(remaining, by_time)
                if self._decided(root, remaining):
                    break
        self.last_iterations = done
        return root

    def _iterate(
        self, root: _Node, state: State, rng: random.Random, scale: float, limit: int, baseline: list[int] | None
    ) -> None:
        node = root
        path = [root]
        c = self.exploration
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:  # open loop: the outcome is drawn, the node stays the same
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            children = node.children
            legal = state.legal_actions()
            untried = [a for a in legal if (player, a) not in children]
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                state.apply(action)
                child = children[(player, action)] = _Node(player)
                path.append(child)
                break
            # Every action legal here has a child: UCB1 for the seat to move.
            log_n = math.log(node.visits)
            best_child = None
            best_action = ""
            best_value = -1.0
            for action in legal:
                child = children[(player, action)]
                n = child.visits
                value = child.total / n + c * math.sqrt(log_n / n)
                if value > best_value:
                    best_value, best_action, best_child = value, action, child
            state.apply(best_action)
            node = best_child
            path.append(node)
        rewards = self._playout(state, rng, scale, limit, baseline)
        for node in path:
            node.visits += 1
            if node.mover >= 0:
                node.total += rewards[node.mover]

    def _playout(
        self, state: State, rng: random.Random, scale: float, limit: int, baseline: list[int] | None
    ) -> list[float]:
        decisions = 0
        choice = rng.choice
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return rewards_from_ranking(state.ranking(), self.first_weight)
            if player == CHANCE:
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            if decisions >= limit:
                if baseline is not None:
                    return rewards_from_gains(state.scores(), baseline, scale)
                return rewards_from_scores(state.scores(), scale, self.first_weight)
            state.apply(choice(state.legal_actions()))
            decisions += 1

    # -- the answer ----------------------------------------------------------------------

    @staticmethod
    def _ranked(root: _Node) -> list[tuple[int, float, str]]:
        return sorted(
            ((child.visits, child.total / child.visits if child.visits else 0.0, action)
             for (_seat, action), child in root.children.items()),
            key=lambda item: (item[0], item[1]),
            reverse=True,
        )

    def _best(self, root: _Node) -> str:
        return self._ranked(root)[0][2]

    @staticmethod
    def _decided(root: _Node, remaining: int) -> bool:
        """True when no other action can catch up with the most visited one, whatever the
        remaining iterations do (so stopping now changes nothing but the time taken)."""
        first = second = 0
        for child in root.children.values():
            n = child.visits
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return first - second > remaining

    def statistics(self, root: _Node) -> list[tuple[str, int, float]]:
        """(action, visits, mean reward) per root action, most visited first."""
        return [(action, visits, mean) for visits, mean, action in self._ranked(root)]
