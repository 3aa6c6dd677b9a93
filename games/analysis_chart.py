"""The analysis of a match as the match page draws it (``games/_analysis.html``): the chart's
lines in SVG coordinates, the marked decisions and the summaries with the seats' names.
Pure: no Django, no database."""

from __future__ import annotations

from .bots.analysis import expected_place

WIDTH = 600
HEIGHT = 160
PAD = 4  # above and below the lines, so a line at 0 or 1 is not cut


def _y(value: float) -> float:
    return round(PAD + (1 - value) * (HEIGHT - 2 * PAD), 1)


def chart(result: dict, seat_names: list[str]) -> dict:
    """Everything the template needs of ``result`` (``games.bots.analysis.analyse``)."""
    values = result["values"]
    steps = max(1, len(values) - 1)
    dx = WIDTH / steps
    n = result["num_players"]
    lines = [
        {
            "seat": seat,
            "name": seat_names[seat] if seat < len(seat_names) else str(seat + 1),
            "points": " ".join(f"{round(k * dx, 1)},{_y(row[seat])}" for k, row in enumerate(values)),
        }
        for seat in range(n)
    ]
    # One band per position, clicked to step the replay there.
    bands = []
    for k in range(len(values)):
        left, right = max(0.0, (k - 0.5) * dx), min(float(WIDTH), (k + 0.5) * dx)
        bands.append({"frame": k, "x": round(left, 1), "width": round(right - left, 2)})
    marked = [
        {
            **d,
            "frame": d["step"] + 1,
            "move": d["step"] + 1,
            "name": seat_names[d["seat"]] if d["seat"] < len(seat_names) else str(d["seat"] + 1),
            "x": round((d["step"] + 1) * dx, 1),
            "y": _y(values[d["step"] + 1][d["seat"]]),
            "loss_percent": round(d["loss"] * 100),
        }
        for d in result["decisions"]
        if d["grade"] in ("mistake", "blunder")
    ]
    # Every judged decision, by the position after it (where the replay stands when its move is
    # chosen): the board there marks the move the analysis preferred, and the one played.
    hints = {
        str(d["step"] + 1): {
            "move": d["step"] + 1,
            "name": seat_names[d["seat"]] if d["seat"] < len(seat_names) else str(d["seat"] + 1),
            "grade": d["grade"],
            "action": d["action"],
            "label": d["label"],
            "best": d["best"],
            "best_label": d["best_label"],
        }
        for d in result["decisions"]
    }
    summaries = [
        {**s, "name": seat_names[s["seat"]] if s["seat"] < len(seat_names) else str(s["seat"] + 1)}
        for s in result["seats"]
    ]
    swing = result.get("swing")
    if swing is not None:
        swing = {
            **swing,
            "move": swing["step"] + 1,
            "frame": swing["step"] + 1,
            "name": seat_names[swing["seat"]],
            "affected_name": seat_names[swing["affected"]],
            "before_percent": round(swing["before"] * 100),
            "after_percent": round(swing["after"] * 100),
            "before_place": round(expected_place(swing["before"], n), 1),
            "after_place": round(expected_place(swing["after"], n), 1),
        }
    thresholds = {name: round(value * 100) for name, value in result["thresholds"].items()}
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "middle": _y(0.5),
        "steps": steps,
        "two_players": n == 2,
        "num_players": n,
        "lines": lines,
        "bands": bands,
        "marked": marked,
        "marks": {str(d["step"]): d["grade"] for d in marked},
        "hints": hints,
        "seats": summaries,
        "swing": swing,
        "thresholds": thresholds,
        "iterations": result["iterations"],
    }
