"""Elo ratings of the bots from tournament games: a Bradley-Terry fit. Pure Python.

Every finished game gives one pairwise result per pair of seats held by different bots,
read off their places: 1 to the better placed, 0 to the other, 1/2 each for a shared place.
(Seats of the same bot tell nothing about its rating and are left out.) The Bradley-Terry
model says bot i scores against bot j with probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))``;
the ratings ``r`` are the maximum-likelihood ones, found by Hunter's MM iteration, with a
draw counted as half a win each way, and shifted so that the anchor (Random) is 0.

A prior of ``prior_draws`` virtual draws per pair of bots that met keeps a pairing won
every time finite (as BayesElo does); with hundreds of games it moves a rating by a few
points. The intervals come from a bootstrap over games (not over pairs: the pairs of one
multiplayer game are not independent): the fit is repeated on games drawn with replacement,
with a seeded generator, and the 2.5th and 97.5th percentiles of each rating are reported.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

ANCHOR = "random"
PRIOR_DRAWS = 1.0
BOOTSTRAP = 200
Pair = tuple[str, str, float]  # (bot a, bot b, a's score against b)


def pairs_of_game(bots: Sequence[str], ranking: Sequence[int]) -> list[Pair]:
    """The pairwise results of one finished game: seat by seat, bots and places."""
    pairs = []
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            if bots[i] == bots[j]:
                continue
            a, b = ranking[i], ranking[j]
            pairs.append((bots[i], bots[j], 1.0 if a < b else 0.5 if a == b else 0.0))
    return pairs


def expected_score(difference: float) -> float:
    """What a bot ``difference`` Elo above another scores against it on average."""
    return 1.0 / (1.0 + 10 ** (-difference / 400))


def fit(games: Sequence[Sequence[Pair]], anchor: str = ANCHOR, prior_draws: float = PRIOR_DRAWS) -> dict[str, float]:
    """Ratings in Elo, ``anchor`` at 0, of every bot connected to it by games."""
    wins: dict[str, float] = {}
    meetings: dict[tuple[str, str], float] = {}
    for game in games:
        for a, b, score in game:
            wins[a] = wins.get(a, 0.0) + score
            wins[b] = wins.get(b, 0.0) + 1.0 - score
            key = (a, b) if a < b else (b, a)
            meetings[key] = meetings.get(key, 0.0) + 1.0
    if prior_draws:
        for a, b in meetings:
            meetings[(a, b)] += prior_draws
            wins[a] += prior_draws / 2
            wins[b] += prior_draws / 2
    connected = _component(meetings, anchor)
    if not connected:
        return {}
    bots = sorted(connected)
    opponents: dict[str, list[tuple[str, float]]] = {bot: [] for bot in bots}
    for (a, b), n in meetings.items():
        if a in connected:
            opponents[a].append((b, n))
            opponents[b].append((a, n))
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(20_000):
        largest_change = 0.0
        new = {}
        for bot in bots:
            w = wins[bot]
            if w <= 0:  # lost every game and no prior: as weak as a rating can be
                new[bot] = 1e-12
                continue
            new[bot] = w / sum(n / (strength[bot] + strength[other]) for other, n in opponents[bot])
        scale = new[anchor]
        for bot in bots:
            value = new[bot] / scale
            largest_change = max(largest_change, abs(math.log(value / strength[bot])))
            strength[bot] = value
        if largest_change < 1e-10:
            break
    return {bot: 400 * math.log10(strength[bot]) for bot in bots}


def _component(meetings: dict[tuple[str, str], float], start: str) -> set[str]:
    linked: dict[str, set[str]] = {}
    for a, b in meetings:
        linked.setdefault(a, set()).add(b)
        linked.setdefault(b, set()).add(a)
    if start not in linked:
        return set()
    seen, todo = {start}, [start]
    while todo:
        for other in linked[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


@dataclass(frozen=True)
class Rating:
    bot: str
    elo: float
    low: float  # 95% bootstrap interval
    high: float
    games: int  # games the bot played in

    @property
    def plus_minus(self) -> float:
        """Half the width of the interval, for "1234 ± 56"."""
        return (self.high - self.low) / 2


def ratings(
    games: Sequence[Sequence[Pair]],
    anchor: str = ANCHOR,
    resamples: int = BOOTSTRAP,
    seed: int = 20,
    prior_draws: float = PRIOR_DRAWS,
) -> list[Rating]:
    """The fit with its bootstrap intervals, strongest first."""
    point = fit(games, anchor, prior_draws)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {bot: [] for bot in point}
    for _ in range(resamples):
        drawn = [games[rng.randrange(len(games))] for _ in games]
        for bot, elo in fit(drawn, anchor, prior_draws).items():
            if bot in samples:
                samples[bot].append(elo)
    played = {bot: sum(1 for game in games if any(bot in (a, b) for a, b, _ in game)) for bot in point}
    out = []
    for bot, elo in point.items():
        values = sorted(samples[bot])
        if values:
            low, high = _percentile(values, 0.025), _percentile(values, 0.975)
        else:
            low = high = elo
        out.append(Rating(bot, elo, min(low, elo), max(high, elo), played[bot]))
    return sorted(out, key=lambda r: -r.elo)


def _percentile(values: list[float], q: float) -> float:
    position = q * (len(values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(values) - 1)
    return values[below] + (values[above] - values[below]) * (position - below)
