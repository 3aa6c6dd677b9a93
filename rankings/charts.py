"""The rating-history chart, drawn on the server as SVG: readable without JavaScript.

This module only computes the geometry; the template ``rankings/_rating_chart.html`` writes
the SVG, so every text in it (names, titles) goes through Django's escaping.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

WIDTH, HEIGHT = 600, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass
class Tick:
    at: float
    label: str


@dataclass
class Chart:
    slug: str
    title: str
    desc: str
    points: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    y_ticks: list[Tick] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    last_x: float = 0.0
    last_y: float = 0.0
    first_number: int = 1
    matches: int = 0

    @property
    def x_title_y(self) -> int:
        return self.height - 6

    @property
    def y_title_y(self) -> float:
        return (self.top + self.bottom) / 2


def nice_step(span: float, ticks: int = 5) -> float:
    """The smallest round step that cuts ``span`` into at most ``ticks`` parts."""
    for step in NICE_STEPS:
        if span / step <= ticks:
            return step
    return 10 ** math.ceil(math.log10(span / ticks))


def rating_chart(
    *, slug: str, game_name: str, username: str, values: list[float], first_number: int, dates: tuple[str, str]
) -> Chart | None:
    """A line through ``values``: the rating before the first charted match, then after each.

    ``first_number`` is the number of the first charted rated match (the chart may show only
    the latest matches); ``dates`` the first and last match dates, for the description.
    """
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    step = nice_step(max(high - low, 20))
    y_min = math.floor(low / step) * step
    y_max = math.ceil(high / step) * step
    if y_max == y_min:
        y_max += step
    n = len(values) - 1  # matches charted
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(i: float) -> float:
        return LEFT + plot_w * i / n

    def y_of(v: float) -> float:
        return TOP + plot_h * (y_max - v) / (y_max - y_min)

    coords = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    y_ticks = []
    v = y_min
    while v <= y_max + 1e-9:
        y_ticks.append(Tick(round(y_of(v), 1), str(int(v))))
        v += step
    x_step = nice_step(n, 6)
    x_ticks = [Tick(round(x_of(0), 1), str(first_number - 1))]
    k = x_step
    while k <= n:
        x_ticks.append(Tick(round(x_of(k), 1), str(first_number - 1 + int(k))))
        k += x_step
    last = first_number - 1 + n
    title = f"Rating history of {username} in {game_name}"
    desc = (
        f"Rating after each rated match, matches {first_number} to {last} ({dates[0]} to {dates[1]}): "
        f"from {round(values[0])} to {round(values[-1])}, highest {round(high)}, lowest {round(low)}."
    )
    return Chart(
        slug=slug,
        title=title,
        desc=desc,
        points=points,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        last_x=round(coords[-1][0], 1),
        last_y=round(coords[-1][1], 1),
        first_number=first_number,
        matches=n,
    )
