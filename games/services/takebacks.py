"""Takebacks in casual matches: a player asks to take back their last move, the others answer.

What is taken back: the asking player's own actions since anyone else last acted or chance
last fell, that is their whole last turn, or, when a chance outcome fell inside that turn (a
roll, a drawn card), only the part after it. So nothing random is ever drawn again: if chance
followed the move, it cannot be taken back at all. Only while nobody else has acted since,
never in a rated match, never once the match is over.

Who answers: every other person still playing must accept (one decline ends the request).
Bots, and the bots playing for people who left, accept at once in untimed practice; in a
timed match they decline at once, since their clock and the other players' keep running
(the request is then refused, and nothing is recorded).

A request changes no position, so it keeps the match's version: it is stored on the match
(``Match.takeback``) with the version it was asked at and holds only while the match is at
that version, so any move lapses it without a write on the move path. It travels to the
sockets as ``match.takeback`` and rides in every snapshot (``selectors.takeback_json``).
One request per move: a declined one cannot be asked again until somebody moves.

Once everyone accepted, the moves are deleted (the move list, replay and downloaded record
then never show them; a notice in the chat says what was taken back), the engine state is
rebuilt by replaying the remaining moves, the clock of the player to move starts afresh, and
the match moves on to a NEW version (``Match.rewound_version`` notes it for the state caches),
so every socket gets a whole snapshot of its own seat's view and a bot's move queued for an
older version does nothing.

Every change goes through the write layer of the move path (``writes``): the same lock, the
same version bump, the same outbox.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import live
from live.events import MATCH_TAKEBACK, TakebackChanged
from live.groups import match_group
from portal.rate_limits import Rate, SlidingWindow

from .. import state_cache
from ..models import Match, Move, Seat
from ..selectors import match_seat_names, takeback_json
from .chat import chat_notice
from .writes import STALE, MatchError, acting_seat, bump, deadline, lock_with_seats, outbox_for

# A request is news for the other players, and a takeback a notice in the match's public chat:
# a few a minute per person in a match, which nobody playing meets, bounds both (asked of a bot
# that accepts at once, they would otherwise follow each other as fast as a script can ask).
TAKEBACK_RATE = Rate(3, 60, _("3 takeback requests a minute in a match"))
TAKEBACK_LIMIT = SlidingWindow("games.takeback", TAKEBACK_RATE)


@dataclass
class TakebackResult:
    match: Match
    # "asked" (waiting for answers), "declined", "accepted" (waiting for others still) or
    # "taken_back" (the moves are gone).
    outcome: str


def _version(version) -> int:
    if isinstance(version, bool) or not isinstance(version, int):
        raise MatchError(_("Send the version of the position you are answering."), "bad_request")
    return version


def _pending(match: Match) -> dict | None:
    """The request stored on the match if it still holds (asked at this version)."""
    return match.takeback if takeback_json(match) is not None else None


def _first_taken_back(match: Match, seat: int) -> int:
    """The index of the first move ``seat`` would take back, or a refusal saying why not."""
    moves = match.moves.order_by("-index")
    last = moves.values_list("index", "seat").first()
    last_person = moves.filter(seat__isnull=False).values_list("seat", flat=True).first()
    if last_person is None:
        raise MatchError(_("Nobody has moved yet: there is nothing to take back."), "nothing_to_take_back")
    if last[1] == seat:
        before = moves.exclude(seat=seat).values_list("index", flat=True).first()
        return 0 if before is None else before + 1
    mine = moves.filter(seat=seat).exists()
    if not mine:
        raise MatchError(
            _("You have not moved yet: only the player who made a move may ask to take it back."), "not_yours"
        )
    if last_person == seat:
        raise MatchError(
            _(
                "Chance has fallen since your move (a roll or a drawn card): it cannot be taken back, "
                "so that nothing random is drawn again."
            ),
            "chance",
        )
    raise MatchError(_("Another player has moved since your move: it can no longer be taken back."), "moved_since")


def _announce(match: Match, outbox: live.Outbox) -> None:
    """Tell every socket of the match what the request stands at (public to all)."""
    event: TakebackChanged = {"type": MATCH_TAKEBACK, "version": match.version, "takeback": takeback_json(match)}
    outbox.send_on_commit(match_group(match.pk), event)


def _store(match: Match, request: dict | None) -> None:
    match.takeback = request
    Match.objects.filter(pk=match.pk).update(takeback=request)


def takeback_request(*, match_id: int, user, version, outbox: live.Outbox | None = None) -> TakebackResult:
    """``user`` asks to take back their last move in the match at ``version``.

    Raises ``MatchError`` with one of the codes rated, finished, not_seated, nothing_to_take_back,
    not_yours, chance, moved_since, pending, declined, bots_decline, stale, bad_request,
    not_found, rate_limited (``TAKEBACK_RATE``); nothing changes then."""
    version = _version(version)
    with TAKEBACK_LIMIT.attempt(f"{match_id}:{user.pk}") as attempt:
        if attempt.refusal is not None:
            raise MatchError(
                attempt.refusal.words(
                    _(
                        "You are asking for takebacks too quickly: the site takes at most %(rate)s from one person. "
                        "Try again in %(wait)s."
                    )
                ),
                "rate_limited",
            )
        result = _request(match_id, user, version, outbox)
        attempt.count()
    return result


def _request(match_id: int, user, version: int, outbox: live.Outbox | None) -> TakebackResult:
    with transaction.atomic(), outbox_for(outbox) as box:
        match, seats = lock_with_seats(match_id)
        seat = acting_seat(match, seats, user, None)
        if match.rated:
            raise MatchError(_("Moves are never taken back in a rated match."), "rated")
        if version != match.version:
            raise MatchError(STALE, "stale")
        request = _pending(match)
        if request is not None and request.get("declined_by") is not None:
            raise MatchError(_("Your request was declined: it may be asked again after the next move."), "declined")
        if request is not None:
            raise MatchError(_("A takeback has been asked already: wait for the answer."), "pending")
        first = _first_taken_back(match, seat.index)
        others = [s for s in seats if s.index != seat.index and not (s.quit and not s.bot_name())]
        bots = [s.index for s in others if s.bot_name()]
        if bots and match.timed:
            raise MatchError(
                _("Bots accept a takeback only in untimed practice: in a timed match they decline."), "bots_decline"
            )
        request = {
            "seat": seat.index,
            "version": match.version,
            "first": first,
            "accepted": bots,
            "waiting": [s.index for s in others if not s.bot_name()],
            "declined_by": None,
        }
        if not request["waiting"]:
            _take_back(match, seats, request, box)
            return TakebackResult(match=match, outcome="taken_back")
        _store(match, request)
        _announce(match, box)
    return TakebackResult(match=match, outcome="asked")


def takeback_answer(*, match_id: int, user, accept, version, outbox: live.Outbox | None = None) -> TakebackResult:
    """``user`` accepts (``accept`` true) or declines the pending request at ``version``."""
    version = _version(version)
    if not isinstance(accept, bool):
        raise MatchError(_("Answer with accept: true or false."), "bad_request")
    with transaction.atomic(), outbox_for(outbox) as box:
        match, seats = lock_with_seats(match_id)
        seat = acting_seat(match, seats, user, None)
        request = _pending(match)
        if request is not None and request.get("declined_by") is not None:
            raise MatchError(_("This request was declined already: the move stands."), "no_request")
        if request is None:
            if match.takeback:
                raise MatchError(_("Somebody has moved since: the request has lapsed."), "no_request")
            raise MatchError(_("Nobody is asking to take a move back."), "no_request")
        if version != match.version:
            raise MatchError(STALE, "stale")
        if seat.index == request["seat"]:
            raise MatchError(_("You asked for this takeback: the others answer it."), "not_yours")
        if seat.index not in request["waiting"]:
            raise MatchError(_("You have answered this request already."), "pending")
        request = {**request, "waiting": [i for i in request["waiting"] if i != seat.index]}
        if not accept:
            request = {**request, "waiting": [], "declined_by": seat.index}
            _store(match, request)
            _announce(match, box)
            return TakebackResult(match=match, outcome="declined")
        request["accepted"] = sorted([*request["accepted"], seat.index])
        if request["waiting"]:
            _store(match, request)
            _announce(match, box)
            return TakebackResult(match=match, outcome="accepted")
        _take_back(match, seats, request, box)
    return TakebackResult(match=match, outcome="taken_back")


def _take_back(match: Match, seats: list[Seat], request: dict, outbox: live.Outbox) -> None:
    """Delete the moves from ``request["first"]`` on, rebuild the state from the rest, start
    the clock of the player to move afresh and move the match on to a new version."""
    first = request["first"]
    before = state_cache.load(match)
    shown = before.public_history()[first:]
    Move.objects.filter(match=match, index__gte=first).delete()
    state = state_cache.replay(match)
    current = state.current_player()
    match.to_move = current
    match.deadline = deadline(match, seats[current], timezone.now())
    match.snapshot = state.view(None)
    match.takeback = None
    match.rewound_version = match.version + 1
    Match.objects.filter(pk=match.pk).update(takeback=None, rewound_version=match.rewound_version)
    # rewound: the update carries no actions for the other processes' caches
    bump(match, outbox, state=state, seats=seats, rewound=True)
    names = match_seat_names(match, seats, state)
    label = match.engine.action_label
    what = "; ".join(label(action) for action in shown)
    agreed = ", ".join(names[i] for i in request["accepted"])
    moves = "move" if len(shown) == 1 else f"{len(shown)} moves"
    notice = f"{names[request['seat']]} took back their {moves} ({what}), agreed by {agreed}."
    chat_notice(match.pk, notice, outbox)
