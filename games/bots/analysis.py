"""The analysis of a finished game: where it was won and lost. Pure Python: no Django import.

Every position of the record is judged by a Monte Carlo tree search at a fixed number of
iterations and a fixed seed, so the same record always gets the same analysis, on a busy
machine as on an idle one. A search starts, as the bots' do, from
``state.determinised(viewer, rng)``: whatever the viewer could not see is re-drawn on every
iteration, and chance positions are averaged over their outcomes by drawing them afresh on
every pass (the open-loop tree of ``games.bots.mcts``).

What a position is worth to each seat is the mean of the rewards of ``games.bots.base``, with
no extra weight on first place (the share of the other seats it finishes ahead of, a tie
counting half), over the search's iterations that began with the move it prefers (at a
chance position: over all of them). With two players that is the chance of
winning; with more it gives the expected place, ``1 + (n - 1) * (1 - value)``.

A seat's decision (a position where it had more than one legal action) is judged from what
that seat could see: the search from the position before it names the best move, and the
positions after the best and after the chosen move are each valued by a search from the
seat's own view. The difference, when the chosen move is worse, is what it cost; the
thresholds below grade it.

An analysis may be asked to step aside for more urgent work on the same machine (a live bot's
reply): ``analyse(..., pause=...)`` calls ``pause()`` between search iterations, at least every
``PAUSE_EVERY`` seconds of its work, and ``pause`` may block as long as it likes. It changes
nothing in the result: the searches count iterations, never time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..engines.base import TERMINAL, Game, State
from .base import rewards_from_ranking
from .levels import LEVEL_SETTINGS
from .mcts import MCTSBot

# What a move may cost, in chance of winning (or, with more than two players, in the share of
# the other seats finished ahead of), before it is graded: at least INACCURACY an inaccuracy,
# at least MISTAKE a mistake, at least BLUNDER a blunder. The match page states them.
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
GRADES = (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY))

# The format of a stored result; a new one is computed when it changes.
FORMAT = 1

# How much work, in seconds, an analysis does at most between two calls of its ``pause``.
PAUSE_EVERY = 0.02


def grade(loss: float) -> str:
    """ "blunder", "mistake", "inaccuracy" or "" for a move that cost ``loss``."""
    for name, threshold in GRADES:
        if loss >= threshold - 1e-9:
            return name
    return ""


class _Pacer:
    """Calls ``pause`` when ``PAUSE_EVERY`` seconds of work have gone by since the last call
    returned (a look at the clock otherwise, so cheap enough for every iteration): after a
    pause, however long, at least that much work is done before the next."""

    def __init__(self, pause: Callable[[], object] | None):
        self._pause = pause
        self._every = PAUSE_EVERY
        self._next = time.monotonic() + self._every

    def __call__(self) -> None:
        if self._pause is not None and time.monotonic() >= self._next:
            self._pause()
            self._next = time.monotonic() + self._every


class _Judge(MCTSBot):
    """Medium's search of each game at the analysis's budget, which also sums every seat's
    rewards over its iterations, per first move when a seat is to move (the value of the
    position under the move the search prefers) or in all at chance (the average over the
    outcomes)."""

    def __init__(self, iterations: int, pace: _Pacer | None = None):
        per_game = {
            slug: {**settings, "iterations": iterations, "relative": False, "first_weight": 0.0}
            for slug, settings in LEVEL_SETTINGS["mcts-medium"].items()
        }
        super().__init__(
            name="analysis",
            label="Analysis",
            iterations=iterations,
            first_weight=0.0,
            relative=False,
            per_game=per_game,
        )
        self.rewards: list[float] = []
        self.sums: dict[str | None, list[float]] = {}
        self.counts: dict[str | None, int] = {}
        self.pace = pace or _Pacer(None)

    def _playout(self, state, rng, plan, baseline):
        self.rewards = super()._playout(state, rng, plan, baseline)
        return self.rewards

    def _iterate(self, root, state, rng, plan, baseline) -> None:
        decides = state.current_player() >= 0
        before = len(state.history)
        super()._iterate(root, state, rng, plan, baseline)
        first = state.history[before] if decides and len(state.history) > before else None
        sums = self.sums.get(first)
        if sums is None:
            sums = self.sums[first] = [0.0] * len(self.rewards)
            self.counts[first] = 0
        for i, reward in enumerate(self.rewards):
            sums[i] += reward
        self.counts[first] += 1
        self.pace()

    def judge(self, state: State, viewer: int | None, rng: random.Random) -> tuple[list[float], str | None]:
        """Each seat's value of ``state`` as ``viewer`` sees it, and the move the search
        prefers when a seat is to decide there (None at chance)."""
        self.sums, self.counts = {}, {}
        # At chance the search's root draws the outcome afresh on each pass.
        root = self.search(state, viewer, rng)  # type: ignore[arg-type]
        best = self._best(root) if state.current_player() >= 0 and root.children else None
        key = best if best in self.sums else None
        if key not in self.sums:  # nothing searched (cannot happen with one iteration or more)
            return [0.5] * state.num_players, best
        return [total / self.counts[key] for total in self.sums[key]], best


@dataclass
class _Step:
    seat: int | None  # the seat that acted, None for chance
    decision: bool  # the seat had a choice (not forced, not an offer the search never lists)


def _has_secrets(state: State) -> bool:
    """Whether what a seat sees can differ from the truth (the game overrides ``determinised``)."""
    return type(state).determinised is not State.determinised


def analyse(
    game: Game,
    num_players: int,
    options: dict | None,
    actions: Iterable[str],
    *,
    iterations: int,
    seed: int = 0,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
    pause: Callable[[], object] | None = None,
) -> dict:
    """The analysis of the game ``actions`` record (the server's, secrets included: each
    search sees only what its viewer could). JSON-ready:

    - ``values``: per position (the start, then after each action), each seat's value;
    - ``decisions``: per judged decision, its step (0-based index of the action), the seat,
      the move chosen and the best move found (actions and labels), their values for the
      seat, what the choice cost (``loss``) and its ``grade``;
    - ``seats``: per seat, its decisions judged, accuracy (the share within ``INACCURACY`` of
      the best move, in percent), inaccuracies, mistakes and blunders;
    - ``swing``: the decision after which a seat's value moved the most, or None.

    ``start`` judges only the positions from that one on (``values[0]`` is then position
    ``start``'s, and the decisions before it are not judged): the end of a long game.
    ``progress(done, total)`` is called after each position. ``pause()`` is called at
    least every ``PAUSE_EVERY`` seconds of work (between search iterations) and may block:
    the result is the same with it as without.
    """
    # As the game replays a record: a public one's masked secret (the dice game's face-down
    # card, ``card:?`` in an imported record) becomes one the game accepts.
    actions = list(game.replay(num_players, options, actions).history)
    pace = _Pacer(pause)
    judge = _Judge(iterations, pace)
    state = game.new_state(num_players, options)
    secrets = _has_secrets(state)
    cache: dict[tuple, tuple[list[float], str | None]] = {}

    def judged(position: State, key: str, viewer: int | None) -> tuple[list[float], str | None]:
        """A position's values, searched once per viewer (once in all without secrets)."""
        if position.current_player() == TERMINAL:
            return rewards_from_ranking(position.ranking(), 0.0), None
        look = viewer if secrets else None
        found = cache.get((key, look))
        if found is None:
            rng = random.Random(f"{seed}:{key}:{look}")
            found = cache[(key, look)] = judge.judge(position, viewer, rng)
        return found

    states = [state.clone()]
    steps: list[_Step] = []
    for action in actions:
        player = state.current_player()
        legal = state.legal_actions() if player >= 0 else []
        steps.append(_Step(player if player >= 0 else None, len(legal) > 1 and action in legal))
        state.apply(action)
        states.append(state.clone())
    public = state.public_history()
    total = len(states) - start

    values: list[list[float]] = []
    decisions: list[dict] = []
    for k in range(start, len(states)):
        position = states[k]
        mover = position.current_player()
        values.append(_rounded(judged(position, str(k), mover if mover >= 0 else None)[0]))
        if k > start and steps[k - 1].decision:
            decisions.append(_decision(game, states, k - 1, actions, public, judged))
        if progress is not None:
            progress(k + 1 - start, total)
        pace()

    return {
        "format": FORMAT,
        "iterations": iterations,
        "seed": seed,
        "num_players": num_players,
        "start": start,
        "thresholds": {name: threshold for name, threshold in GRADES},
        "values": values,
        "decisions": decisions,
        "seats": _summaries(num_players, decisions),
        "swing": _swing(values, decisions, start),
    }


def _decision(game: Game, states: list[State], i: int, actions: list[str], public: list[str], judged) -> dict:
    """The judgement of the decision at step ``i``, all from the deciding seat's view."""
    before = states[i]
    seat = before.current_player()
    _values, best = judged(before, str(i), seat)
    chosen = actions[i]
    chosen_value = judged(states[i + 1], str(i + 1), seat)[0][seat]
    if best is None or best == chosen:
        best, best_value = chosen, chosen_value
    else:
        after_best = before.clone()
        after_best.apply(best)
        best_value = judged(after_best, f"{i}>{best}", seat)[0][seat]
    loss = max(0.0, best_value - chosen_value)
    return {
        "step": i,
        "seat": seat,
        "action": public[i],
        "label": game.action_label(public[i]),
        "best": best,
        "best_label": game.action_label(best),
        "value": round(chosen_value, 3),
        "best_value": round(best_value, 3),
        "loss": round(loss, 3),
        "grade": grade(loss),
    }


def _rounded(values: list[float]) -> list[float]:
    return [round(v, 3) for v in values]


def _summaries(num_players: int, decisions: list[dict]) -> list[dict]:
    seats = []
    for seat in range(num_players):
        own = [d for d in decisions if d["seat"] == seat]
        counts = {name: sum(1 for d in own if d["grade"] == name) for name, _ in GRADES}
        good = sum(1 for d in own if not d["grade"])
        seats.append(
            {
                "seat": seat,
                "decisions": len(own),
                "accuracy": round(100 * good / len(own)) if own else None,
                "inaccuracies": counts["inaccuracy"],
                "mistakes": counts["mistake"],
                "blunders": counts["blunder"],
            }
        )
    return seats


def _swing(values: list[list[float]], decisions: list[dict], start: int) -> dict | None:
    """The decision after which some seat's value moved the most: who moved, what, and the
    seat whose value it moved (from ``before`` to ``after``)."""
    best = None
    for decision in decisions:
        i = decision["step"] - start
        for seat, (old, new) in enumerate(zip(values[i], values[i + 1], strict=True)):
            change = abs(new - old)
            if change > 0 and (best is None or change > best[0]):
                best = (change, decision, seat, old, new)
    if best is None:
        return None
    _change, decision, seat, old, new = best
    return {
        "step": decision["step"],
        "seat": decision["seat"],
        "label": decision["label"],
        "affected": seat,
        "before": old,
        "after": new,
        "grade": decision["grade"],
    }


def expected_place(value: float, num_players: int) -> float:
    """The expected place (1 = first) of a seat whose value is ``value``."""
    return 1 + (num_players - 1) * (1 - value)
