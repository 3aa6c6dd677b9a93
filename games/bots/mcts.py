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
still tells a good move from a poor one. With ``potential`` set, tables of up to that many
players judge the scores as ``potential.expected_scores_of`` counts them (what is still to
come), where the game has such a model.

The budget is an iteration cap: a level's strength, the same on a busy machine as on an idle
one, and with a fixed random generator the choice is reproducible. The search also stops as
soon as no other action can overtake the most visited one in the iterations left, which
saves time without changing the answer. ``seconds`` is only a safety cap on the wall clock,
far above the time the budget takes, for a pathological position or a starved machine: a
search it stops is told apart (``last_search``) so that it can be counted.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

from ..engines.base import CHANCE, TERMINAL, State
from .base import (
    Bot,
    default_rollout_limit,
    forced_action,
    margins,
    playout_policy,
    relative_judgement,
    rewards_from_gains,
    rewards_from_ranking,
    rewards_from_scores,
    sample_outcome,
    score_scale,
)
from .greedy import LEAF_BUDGET, one_step_values
from .negotiation import negotiation_move
from .potential import expected_scores_of

DEFAULT_EXPLORATION = 0.7
_CHECK_EVERY = 8  # iterations between looks at the clock and at an early decision


class Search(NamedTuple):
    """How a search ended: the iterations it ran, and whether the safety cap stopped it."""

    iterations: int
    capped: bool


class _Plan(NamedTuple):
    """What one search runs with (see ``MCTSBot`` for each setting)."""

    iterations: int
    seconds: float | None
    exploration: float
    rollout_limit: int
    relative: bool
    first_weight: float
    prior: bool
    prior_weight: float
    tree_prior: int | None
    widen: float | None
    guided: bool
    scale: float = 1.0
    policy: Callable | None = None
    judge: Callable | None = None  # state -> the scores a leaf is judged by


class _Node:
    __slots__ = ("children", "legal", "mover", "order", "prior", "total", "visits")

    def __init__(self, mover: int):
        # seat -> action -> node: the seat to move here (open loop: a chance outcome on the
        # way can hand the move to another seat), then its choice.
        self.children: dict[int, dict[str, _Node]] = {}
        self.visits = 0
        self.total = 0.0  # summed rewards of ``mover``, the seat whose choice led here
        self.mover = mover
        self.order: list[str] | None = None  # actions by the one-step judgement, best first
        self.prior: dict[str, float] = {}  # action -> the one-step judgement, 0..1 (best 1)
        self.legal: list[str] | None = None  # the legal actions ``order`` was made from

    def every_child(self):
        """(action, node) of every child, whichever seat chose it."""
        for by_action in self.children.values():
            yield from by_action.items()

    def ordered(self, legal: list[str]) -> list[str]:
        """This pass's legal actions, best judged first (open loop: they can differ)."""
        if legal == self.legal:
            return self.order
        known = set(legal)
        prior = self.prior
        return [a for a in self.order if a in known] + [a for a in legal if a not in prior]


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
        prior: bool = False,
        prior_weight: float = 0.0,
        tree_prior: int | None = None,
        widen: float | None = None,
        guided: bool = False,
        potential: int = 0,
        per_game: dict[str, dict] | None = None,
        description: str = "",
    ):
        if iterations < 1 or any(o.get("iterations", 1) < 1 for o in (per_game or {}).values()):
            raise ValueError("An MCTS bot needs at least one iteration.")
        self.name = name
        self.label = label
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.relative = relative
        self.first_weight = first_weight
        self.use_prior = bool(prior)
        self.prior_weight = prior_weight
        self.tree_prior = tree_prior
        self.widen = widen
        self.guided = guided
        self.potential = potential
        self.per_game = per_game or {}  # game slug -> settings that differ there
        self.description = description
        self._last = threading.local()  # each thread's last search (bots think in several)

    def __repr__(self) -> str:
        return f"<MCTSBot {self.name} iterations={self.iterations} seconds={self.seconds}>"

    def last_search(self) -> Search:
        """How this thread's last choice was searched (no search: 0 iterations)."""
        return getattr(self._last, "search", Search(0, False))

    @property
    def last_iterations(self) -> int:
        return self.last_search().iterations

    def choose(self, state: State, seat: int, rng: random.Random | None = None) -> str:
        rng = rng if rng is not None else random.Random()
        forced = forced_action(state)
        if forced is not None:
            self._last.search = Search(0, False)
            return forced
        # An exchange offer (GP02A's Negotiation): scores cannot tell accepting from declining,
        # so the hands decide, and the search never sees offers.
        bargain = negotiation_move(state.determinised(seat, rng), seat)
        if bargain is not None:
            self._last.search = Search(0, False)
            return bargain
        root = self.search(state, seat, rng)
        return self._best(root)

    # -- the search ----------------------------------------------------------------------

    SETTINGS = (
        "iterations",
        "seconds",
        "exploration",
        "rollout_limit",
        "relative",
        "first_weight",
        "prior",
        "prior_weight",
        "tree_prior",
        "widen",
        "guided",
        "potential",
    )

    def settings(self, slug: str, players: int | None = None) -> dict:
        """What the bot searches with in game ``slug`` at a table of ``players`` (at any table
        when None): its own settings with the game's overrides. ``potential`` is the largest
        table it applies to, so at a larger one it reads as off (0), and at a smaller one as
        the table's size (any larger limit searches that table alike)."""
        values = {name: getattr(self, "use_prior" if name == "prior" else name) for name in self.SETTINGS}
        values.update(self.per_game.get(slug, {}))
        if players is not None:
            values["potential"] = players if players <= values["potential"] else 0
        return values

    def plan(self, state: State) -> _Plan:
        """The settings of a search in this position's game and table, ready to run."""
        values = self.settings(state.game.slug, state.num_players)
        judge = expected_scores_of(state) if values.pop("potential") else None
        values["judge"] = judge or type(state).scores
        if values["rollout_limit"] is None:
            values["rollout_limit"] = default_rollout_limit(state)
        if values["relative"] is None:
            values["relative"] = relative_judgement(state)
        values["scale"] = score_scale(state)
        values["policy"] = playout_policy(state) if values["guided"] else None
        return _Plan(**values)

    def search(self, state: State, seat: int, rng: random.Random) -> _Node:
        start = time.perf_counter()
        plan = self.plan(state)
        deadline = start + plan.seconds if plan.seconds is not None else None
        baseline = margins(plan.judge(state)) if plan.relative else None
        root = _Node(-1)
        cap = plan.iterations
        done = 0
        capped = False
        while done < cap:
            self._iterate(root, state.determinised(seat, rng), rng, plan, baseline)
            done += 1
            if done % _CHECK_EVERY == 0:
                if deadline is not None and time.perf_counter() >= deadline:
                    capped = True  # the safety cap: this answer is not the level's
                    break
                if self._decided(root, cap - done):
                    break
        self._last.search = Search(done, capped)
        return root

    def _iterate(self, root: _Node, state: State, rng: random.Random, plan: _Plan, baseline: list[int] | None) -> None:
        node = root
        path = [root]
        c = plan.exploration
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:  # open loop: the outcome is drawn, the node stays the same
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            children = node.children.get(player)
            if children is None:
                children = node.children[player] = {}
            legal = state.legal_actions()
            if (
                node.order is None
                and plan.prior
                and len(legal) > 1
                and (node is root or (plan.tree_prior is not None and node.visits >= plan.tree_prior))
            ):
                self._judge(node, state, player, legal, rng, plan.scale, node is root)
            if node.order is not None:
                candidates = node.ordered(legal)
                if plan.widen is not None:
                    candidates = candidates[: 1 + int(plan.widen * math.sqrt(node.visits))]
                untried = None
                for action in candidates:
                    if action not in children:
                        untried = action
                        break
            else:
                candidates = legal
                untried = [a for a in legal if a not in children]
                untried = (untried[0] if len(untried) == 1 else rng.choice(untried)) if untried else None
            if untried is not None:
                state.apply(untried)
                child = children[untried] = _Node(player)
                path.append(child)
                break
            # Every candidate has a child: UCB1 for the seat to move, plus the one-step
            # judgement's bias, which fades as the child gathers visits.
            log_n = math.log(node.visits)
            bias = plan.prior_weight if node.order is not None else 0.0
            prior = node.prior
            best_child = None
            best_action = ""
            best_value = -1.0
            for action in candidates:
                child = children[action]
                n = child.visits
                value = child.total / n + c * math.sqrt(log_n / n)
                if bias:
                    value += bias * prior.get(action, 0.0) / (n + 1)
                if value > best_value:
                    best_value, best_action, best_child = value, action, child
            state.apply(best_action)
            node = best_child
            path.append(node)
        rewards = self._playout(state, rng, plan, baseline)
        for node in path:
            node.visits += 1
            if node.mover >= 0:
                node.total += rewards[node.mover]

    @staticmethod
    def _judge(
        node: _Node, state: State, player: int, legal: list[str], rng: random.Random, scale: float, thorough: bool
    ) -> None:
        """Order the node's actions by Greedy's one-step judgement of them for ``player``."""
        values = one_step_values(state, player, rng, LEAF_BUDGET if thorough else len(legal))
        best = max(values.values())
        node.prior = {a: 2.0 / (1.0 + math.exp(min(50.0, (best - v) / scale))) for a, v in values.items()}
        order = legal[:]
        rng.shuffle(order)  # equal judgements in a random order
        order.sort(key=node.prior.__getitem__, reverse=True)
        node.order = order
        node.legal = legal

    def _playout(self, state: State, rng: random.Random, plan: _Plan, baseline: list[int] | None) -> list[float]:
        decisions = 0
        limit = plan.rollout_limit
        policy = plan.policy
        choice = rng.choice
        while True:
            player = state.current_player()
            if player == TERMINAL:
                return rewards_from_ranking(state.ranking(), plan.first_weight)
            if player == CHANCE:
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            if decisions >= limit:
                scores = plan.judge(state)
                if baseline is not None:
                    return rewards_from_gains(scores, baseline, plan.scale)
                return rewards_from_scores(scores, plan.scale, plan.first_weight)
            legal = state.legal_actions()
            state.apply(policy(state, legal, rng) if policy is not None else choice(legal))
            decisions += 1

    # -- the answer ----------------------------------------------------------------------

    @staticmethod
    def _ranked(root: _Node) -> list[tuple[int, float, str]]:
        return sorted(
            (
                (child.visits, child.total / child.visits if child.visits else 0.0, action)
                for action, child in root.every_child()
            ),
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
        for _action, child in root.every_child():
            n = child.visits
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return first - second > remaining

    def statistics(self, root: _Node) -> list[tuple[str, int, float]]:
        """(action, visits, mean reward) per root action, most visited first."""
        return [(action, visits, mean) for visits, mean, action in self._ranked(root)]
