"""How a finished match's result is said to people, in one sentence: who won and why
("bob (blue) wins with 40 points to 31 and 12: red could neither place nor move its chips").
Pure Python: the match page and the match's snapshot read it (``selectors``, ``outcome``).
The sentence is a ``Text``, which the site says in the reader's language (``engine_text``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .engines.base import Text, gettext_noop, listed


def _points(score: int) -> Text:
    if score == 1:
        return Text(gettext_noop("%(count)s point"), count=score)
    return Text(gettext_noop("%(count)s points"), count=score)


def outcome_words(names: Sequence[str], seats: Sequence[dict], end_reason: str, why: str = "") -> str:
    """The result of a finished match: ``names`` per seat, ``seats`` with each seat's ``place``,
    ``score``, ``resigned`` and ``timed_out`` (``selectors.seats_json``), the match's
    ``end_reason`` and the game's own ``why`` (``State.end_words``)."""
    ranked = sorted((s for s in seats if s.get("place")), key=lambda s: s["place"])
    if not ranked:
        return Text(gettext_noop("The match is over."))
    winners = [s for s in ranked if s["place"] == 1]
    who = listed([names[s["index"]] for s in winners])
    resigned = [names[s["index"]] for s in seats if s.get("resigned")]
    timed_out = [names[s["index"]] for s in seats if s.get("timed_out")]
    if resigned or timed_out:
        reasons = []
        if resigned:
            reasons.append(Text(gettext_noop("%(names)s resigned"), names=listed(resigned)))
        if timed_out:
            reasons.append(Text(gettext_noop("%(names)s ran out of time"), names=listed(timed_out)))
        if len(winners) == 1:
            return Text(gettext_noop("%(who)s wins: %(reasons)s."), who=who, reasons=listed(reasons))
        return Text(gettext_noop("%(who)s share first place: %(reasons)s."), who=who, reasons=listed(reasons))
    others = [s["score"] for s in ranked if s["place"] != 1]
    points = _points(winners[0]["score"])
    if len(winners) > 1:
        said = Text(gettext_noop("%(who)s share first place with %(points)s"), who=who, points=points)
    elif others:
        said = Text(
            gettext_noop("%(who)s wins with %(points)s to %(others)s"),
            who=who,
            points=points,
            others=listed([str(score) for score in others]),
        )
    else:
        said = Text(gettext_noop("%(who)s wins with %(points)s"), who=who, points=points)
    if why:
        return Text(gettext_noop("%(result)s: %(why)s."), result=said, why=why)
    return Text(gettext_noop("%(result)s."), result=said)
