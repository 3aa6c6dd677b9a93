"""How a finished match's result is said to people, in one sentence: who won and why
("bob (blue) wins with 40 points to 31 and 12: red could neither place nor move its chips").
Pure Python: the match page and the match's snapshot read it (``selectors``, ``outcome``).
"""

from __future__ import annotations

from collections.abc import Sequence


def _points(score: int) -> str:
    return f"{score} point{'' if score == 1 else 's'}"


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def outcome_words(names: Sequence[str], seats: Sequence[dict], end_reason: str, why: str = "") -> str:
    """The result of a finished match: ``names`` per seat, ``seats`` with each seat's ``place``,
    ``score``, ``resigned`` and ``timed_out`` (``selectors.seats_json``), the match's
    ``end_reason`` and the game's own ``why`` (``State.end_words``)."""
    ranked = sorted((s for s in seats if s.get("place")), key=lambda s: s["place"])
    if not ranked:
        return "The match is over."
    winners = [s for s in ranked if s["place"] == 1]
    who = _listed([names[s["index"]] for s in winners])
    resigned = [names[s["index"]] for s in seats if s.get("resigned")]
    timed_out = [names[s["index"]] for s in seats if s.get("timed_out")]
    if resigned or timed_out:
        reasons = []
        if resigned:
            reasons.append(f"{_listed(resigned)} resigned")
        if timed_out:
            reasons.append(f"{_listed(timed_out)} ran out of time")
        verb = "wins" if len(winners) == 1 else "share first place"
        return f"{who} {verb}: {' and '.join(reasons)}."
    others = [s["score"] for s in ranked if s["place"] != 1]
    if len(winners) == 1:
        said = f"{who} wins with {_points(winners[0]['score'])}"
        if others:
            said += " to " + _listed([str(score) for score in others])
    else:
        said = f"{who} share first place with {_points(winners[0]['score'])}"
    return f"{said}: {why}." if why else f"{said}."
