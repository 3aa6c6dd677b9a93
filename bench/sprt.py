"""A sequential probability ratio test on a bot's mean score per game. Pure Python.

Each game gives the tested bot a score in [0, 1] (see ``place_score`` and ``first_share``).
The test weighs H0 "the mean score is at most ``s0 = target - margin``" against H1 "it is at
least ``s1 = target``" after every game and stops as soon as the evidence is strong enough
either way, with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (the reverse).

It is the generalised SPRT of engine-testing frameworks (fishtest's test on trinomial and
pentanomial results), written for any bounded score. A game's score takes one of a few
values (0, 1/2, 1 in two-player games; k/(2(n-1)) at n players), so the results are a
multinomial sample with empirical frequencies ``p``. Under each hypothesis the likeliest
distribution with mean ``s`` is ``q_i = p_i / (1 + lambda (x_i - s))``, ``lambda`` chosen so
that the mean is ``s``; the log-likelihood ratio of ``n`` games is

    LLR = n * sum_i p_i * log(q1_i / q0_i).

Near the hypotheses it equals the normal approximation ``n (s1 - s0)(2 m - s0 - s1) / (2 v)``
(``m`` the mean score, ``v`` its sample variance; ``llr_normal``), but unlike it it keeps
the error rates where they are promised when the two hypotheses imply different variances
(a 90% target against an 80% null, say). Wald's bounds ``log(beta / (1 - alpha))`` and
``log((1 - beta) / alpha)`` decide: at or below the lower one H0 is accepted, at or above the
upper one H1. One pseudo-game, split between the scores 0 and 1, regularises the
frequencies, so that a short run of identical results cannot claim certainty, and
``min_games`` keeps the test from deciding on a handful of games. The interval is the normal
one on the mean with the same regularised variance (after a sequential stop it leans a
little toward the side that stopped the test).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

ACCEPT_H1 = "H1"
ACCEPT_H0 = "H0"
CONTINUE = "continue"

PSEUDO_GAMES = 1.0  # split evenly between a score of 0 and a score of 1, for the variance only
MIN_GAMES = 8
Z95 = 1.959963984540054


def place_score(ranking: Sequence[int], seat: int) -> float:
    """The seat's share of the other seats it finished ahead of, a shared place counting half.

    1 for first, 0 for last, linear between; a place shared by k seats counts as the mean of
    the k places it spans. In a 2-player game: 1 for a win, 0.5 for a draw, 0 for a loss.
    ``ranking`` is the engine's: places from 1, equal places for seats that share one.
    """
    n = len(ranking)
    if n < 2:
        raise ValueError("A place score needs at least two seats.")
    place = ranking[seat]
    shared = sum(1 for p in ranking if p == place)
    mean_place = place + (shared - 1) / 2
    return (n - mean_place) / (n - 1)


def first_share(ranking: Sequence[int], seat: int) -> float:
    """The seat's share of first place: 1 alone, 1/k when k seats share it, else 0.

    The fair share at a table of n equal players is 1/n.
    """
    if ranking[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for p in ranking if p == 1)


@dataclass(frozen=True)
class Result:
    decision: str  # ACCEPT_H1, ACCEPT_H0 or CONTINUE
    llr: float
    lower: float  # accept H0 at or below
    upper: float  # accept H1 at or above
    games: int
    mean: float
    interval: tuple[float, float]  # 95% interval of the mean score
    s0: float
    s1: float


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's decision bounds on the LLR: (lower, upper)."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError("alpha and beta must lie strictly between 0 and 1.")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def likeliest(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``values`` closest to ``probs`` (in likelihood) whose mean is
    ``mean``: ``q_i = p_i / (1 + lam (x_i - mean))``. ``mean`` must lie strictly between the
    smallest and the largest value."""
    d = [x - mean for x in values]
    low, high = min(d), max(d)
    if not low < 0 < high:
        raise ValueError("The mean must lie strictly inside the range of the values.")
    if len(values) == 2:  # two values (wins and losses): the mean alone fixes the distribution
        up = low / (low - high)  # the weight of the larger value
        return [up if di == high else 1.0 - up for di in d]
    # f(lam) = sum p d / (1 + lam d) falls from +inf to -inf on (-1/high, -1/low): solve f = 0
    # by Newton's method kept inside the bracket, bisecting whenever a step would leave it or
    # would not halve the step before (Newton crawls near the poles at the bracket's ends).
    a, b = -1.0 / high, -1.0 / low
    lam, step_before = 0.0, b - a
    for _ in range(300):
        f = fp = 0.0
        for pi, di in zip(probs, d, strict=True):
            t = di / (1.0 + lam * di)
            f += pi * t
            fp -= pi * t * t
        if abs(f) < 1e-13:
            break
        if f > 0:
            a = lam
        else:
            b = lam
        newton = lam - f / fp
        if a < newton < b and abs(newton - lam) <= abs(step_before) / 2:
            step_before, lam = newton - lam, newton
        else:
            step_before, lam = (b - a) / 2, (a + b) / 2
    q = [pi / (1.0 + lam * di) for pi, di in zip(probs, d, strict=True)]
    total = sum(q)
    return [qi / total for qi in q]


def llr_normal(n: int, mean: float, variance: float, s0: float, s1: float) -> float:
    """The normal approximation of the LLR (for comparison and for reading the formula)."""
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


class SPRT:
    """The running test: ``add`` one score per game, ``result()`` at any time."""

    def __init__(
        self,
        target: float,
        margin: float,
        alpha: float = 0.05,
        beta: float = 0.05,
        min_games: int = MIN_GAMES,
    ):
        if not 0 < margin <= target < 1:
            raise ValueError("Need 0 < margin <= target < 1.")
        self.s0, self.s1 = target - margin, target
        self.lower, self.upper = bounds(alpha, beta)
        self.min_games = min_games
        self.n = 0
        self.counts: dict[float, float] = {0.0: PSEUDO_GAMES / 2, 1.0: PSEUDO_GAMES / 2}

    def add(self, score: float) -> None:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"A score lies in [0, 1], not {score!r}.")
        score = round(score, 9)  # 1/3 computed two ways is one value
        self.n += 1
        self.counts[score] = self.counts.get(score, 0.0) + 1.0

    def extend(self, scores: Iterable[float]) -> SPRT:
        for score in scores:
            self.add(score)
        return self

    def _frequencies(self) -> tuple[list[float], list[float]]:
        total = self.n + PSEUDO_GAMES
        values = list(self.counts)
        return values, [self.counts[v] / total for v in values]

    def mean(self) -> float:
        """The mean of the games played (no pseudo-game)."""
        if not self.n:
            return 0.0
        return (sum(v * c for v, c in self.counts.items()) - PSEUDO_GAMES / 2) / self.n

    def variance(self) -> float:
        """The per-game variance, with the pseudo-game mixed in (never zero)."""
        values, probs = self._frequencies()
        mean = sum(v * p for v, p in zip(values, probs, strict=True))
        return sum(p * (v - mean) ** 2 for v, p in zip(values, probs, strict=True))

    def llr(self) -> float:
        if self.n == 0:
            return 0.0
        values, probs = self._frequencies()
        q0 = likeliest(values, probs, self.s0)
        q1 = likeliest(values, probs, self.s1)
        return self.n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1, strict=True) if p > 0)

    def result(self) -> Result:
        llr = self.llr()
        decision = CONTINUE
        if self.n >= self.min_games:
            if llr >= self.upper:
                decision = ACCEPT_H1
            elif llr <= self.lower:
                decision = ACCEPT_H0
        mean = self.mean()
        if self.n:
            half = Z95 * math.sqrt(self.variance() / self.n)
            interval = (max(0.0, mean - half), min(1.0, mean + half))
        else:
            interval = (0.0, 1.0)
        return Result(decision, llr, self.lower, self.upper, self.n, mean, interval, self.s0, self.s1)


def sprt(
    scores: Iterable[float],
    target: float,
    margin: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    min_games: int = MIN_GAMES,
) -> Result:
    """The test over ``scores`` in the order played: stops at the first game that decides it,
    so that games played after the decision (already under way when it came) do not change it.
    """
    test = SPRT(target, margin, alpha, beta, min_games)
    for score in scores:
        test.add(score)
        result = test.result()
        if result.decision != CONTINUE:
            return result
    return test.result()
