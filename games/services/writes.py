"""The write layer under every change to a match: lock, record, bump, outbox.

One transaction per change: the match row is locked (``select_for_update``; on SQLite the
write transaction is taken at BEGIN and the version check in the UPDATE is the guard), the
engine applies the action, chance is resolved with ``secrets.SystemRandom``, Move rows are
appended, the version is bumped and, on a terminal state, the result is written. What the
sockets must be told, and what must follow (a bot's turn, the news that the match ended),
goes into the caller's ``live.Outbox`` once the transaction has committed.

The services of this package (seating, play, chat, clocks, outages, takebacks) write matches
only through the names here.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import live
from accounts.services import bot_timed_out
from live.events import MATCH_UPDATED, CatchUp, MatchUpdated
from live.groups import match_group
from portal.errors import ServiceError

from .. import signals, state_cache
from ..engines import CHANCE, TERMINAL
from ..engines.base import places_from_keys
from ..models import Match, Move, Seat
from ..selectors import audience_payloads, match_holding

_system_random = secrets.SystemRandom()

TAKEOVER_BOT = "random"
# The end of a match in which no person was left playing before it began (``record_unplayed``).
NO_PERSON_PLAYING = "no person playing"

# A move decided on a version the match has moved past (another move, a takeback) is refused so.
STALE = _("The position has changed; here is the current one.")


class MatchError(ServiceError):
    """A refused request. ``code`` is one of the protocol's error codes; the message is for people."""

    def __init__(self, message: str | Promise, code: str = "bad_request"):
        super().__init__(code, message)


@contextmanager
def outbox_for(outbox: live.Outbox | None) -> Iterator[live.Outbox]:
    """The outbox a service fills: the caller's, which the caller publishes (a socket), or a
    new one published once the caller's transaction commits (views, tasks, other services)."""
    if outbox is not None:
        yield outbox
        return
    own = live.Outbox()
    try:
        yield own
    finally:
        live.publish_on_commit(own)


def open_matches_changed(match_id: int) -> None:
    """Once committed, tell whoever lists open matches (the lobby, the page cache)."""
    transaction.on_commit(lambda: signals.open_matches_changed.send(sender=Match, match_id=match_id), robust=True)


def lock(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError(_("There is no such match."), "not_found") from None


def seats_of(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user").order_by("index"))


def _seats_joined(match_id: int, *, locked: bool) -> list[Seat]:
    """The match's seats with their users, joined to the match row, in one round trip; the
    match row locked (``FOR UPDATE OF`` it only) or, unlocked, with the index of its last move."""
    query = Seat.objects.select_related("match", "user").filter(match_id=match_id).order_by("index")
    if locked:
        query = query.select_for_update(of=("match",))
    else:
        last = Move.objects.filter(match_id=OuterRef("match_id")).order_by("-index").values("index")[:1]
        query = query.annotate(last_move=Subquery(last))
    try:
        seats = list(query)
    except (ValueError, TypeError):
        seats = []
    if not seats:
        raise MatchError(_("There is no such match."), "not_found")
    return seats


def lock_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match row, locked, and its seats with their users."""
    seats = _seats_joined(match_id, locked=True)
    return match_holding(seats), seats


def read_with_seats(match_id: int) -> tuple[Match, list[Seat], int]:
    """The match row, unlocked, its seats, and the number of moves it had when read: read
    without a lock, the moves may move on before the engine state is loaded, and this number
    tells which state the row is at."""
    seats = _seats_joined(match_id, locked=False)
    last_move = getattr(seats[0], "last_move")  # annotated by the query  # noqa: B009
    moves_read = 0 if last_move is None else last_move + 1
    return match_holding(seats), seats, moves_read


def read_position(match_id: int):
    """The match row, unlocked, its seats, and its engine state at the row's version (a private
    copy). Raises ``MatchError`` ("stale") when a move landed between reading the row and its
    moves: the state loaded would be past the row, perhaps at another seat's turn or over."""
    match, seats, moves_read = read_with_seats(match_id)
    state = state_cache.load(match, moves_read=moves_read)
    if len(state.history) != moves_read:
        raise MatchError(STALE, "stale")
    return match, seats, state


def acting_seat(match: Match, seats: list[Seat], user, seat_index: int | None) -> Seat:
    """The seat ``user`` acts for (or ``seat_index``, the bots' and clocks' way in), or the refusal."""
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise MatchError(_("This match is over."), "finished")
    if match.status == Match.Status.OPEN:
        raise MatchError(_("This match has not started yet."), "bad_request")
    if seat_index is not None:
        return seats[seat_index]
    mine = [s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk]
    if not mine:
        raise MatchError(_("You have no seat in this match."), "not_seated")
    if mine[0].quit:
        raise MatchError(_("You have left this match."), "not_seated")
    return mine[0]


def resolve_chance(state, applied: list[tuple[int | None, str]]) -> None:
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        outcome = _system_random.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        state.apply(outcome)
        applied.append((None, outcome))


def deadline(match: Match, seat: Seat, now):
    """When ``seat``, now to move, runs out of time: never for a bot or in untimed play."""
    if seat.bot_name() or not match.timed:
        return None
    return now + timedelta(seconds=match.seconds_per_move)


def record(
    match: Match,
    state,
    applied: list[tuple[int | None, str]],
    outbox: live.Outbox,
    seats: list[Seat] | None = None,
    plays_on: int | None = None,
) -> None:
    """Append the moves, move the clock on, finish the match if the game ended, bump the
    version (``plays_on``: see ``after_commit``)."""
    new_moves = _append_moves(match, state, applied)
    seats = seats if seats is not None else seats_of(match)
    current = state.current_player()
    finished = current == TERMINAL
    if finished:
        finish(match, state, seats, reason="game over")
    else:
        match.to_move = current
        match.deadline = deadline(match, seats[current], timezone.now())
    match.snapshot = state.view(None)
    bump(match, outbox, state=state, seats=seats, new_moves=new_moves, finished=finished, plays_on=plays_on)


def _append_moves(match: Match, state, applied: list[tuple[int | None, str]]) -> list[tuple[int, int | None, str]]:
    """Insert the moves just applied (the last of ``state.history``); returns them as
    (index, seat, action)."""
    start = len(state.history) - len(applied)
    new_moves = [(start + i, seat, action) for i, (seat, action) in enumerate(applied)]
    Move.objects.bulk_create(
        Move(match=match, index=index, seat=seat, action=action) for index, seat, action in new_moves
    )
    return new_moves


def people_playing(seats: list[Seat]) -> list[Seat]:
    """The seats a person holds and still plays: not a bot's, not given up (resigned or run
    out of time, and so played by a takeover bot). Bots play only while there is one."""
    return [seat for seat in seats if seat.user_id is not None and not seat.quit and not seat.bot_name()]


def record_unplayed(match: Match, state, applied: list[tuple[int | None, str]], outbox: live.Outbox, seats: list[Seat]):
    """End, in the transaction that would start it, a match in which no person plays (a
    tournament's table of bots alone): no bot's move is ever queued for it. It is recorded
    with its set-up's chance moves, every seat sharing first place, and unrated: a result
    nobody played for."""
    new_moves = _append_moves(match, state, applied)
    scores = state.scores()
    for seat in seats:
        seat.place = 1
        seat.score = scores[seat.index]
    Seat.objects.bulk_update(seats, ["place", "score"])
    match.rated = False
    match.save(update_fields=["rated"])
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.end_reason = NO_PERSON_PLAYING
    match.to_move = None
    match.deadline = None
    match.snapshot = state.view(None)
    bump(match, outbox, state=state, seats=seats, new_moves=new_moves, finished=True)


def bump(
    match: Match,
    outbox: live.Outbox,
    *,
    state=None,
    seats: list[Seat] | None = None,
    new_moves: list | None = None,
    finished: bool = False,
    rewound: bool = False,
    plays_on: int | None = None,
) -> None:
    """Save the match under the next version (guarded), and fill ``outbox`` once committed.

    With ``seats`` given, a bot whose turn it now is gets queued after the commit too (unless
    it is seat ``plays_on``, whose next action the caller plays itself); ``finished``: the
    match just ended; ``rewound``: moves were taken back."""
    old = match.version
    match.version = old + 1
    fields = {
        f: getattr(match, f)
        for f in ("version", "status", "to_move", "deadline", "snapshot", "finished_at", "started_at", "end_reason")
    }
    fields["updated_at"] = timezone.now()
    if Match.objects.filter(pk=match.pk, version=old).update(**fields) != 1:
        raise MatchError(_("The match changed meanwhile; try again."), "stale")
    after_commit(match, outbox, state, seats, new_moves, finished=finished, rewound=rewound, plays_on=plays_on)


def after_commit(
    match: Match,
    outbox: live.Outbox,
    state,
    seats: list[Seat] | None,
    new_moves: list | None,
    *,
    finished: bool = False,
    rewound: bool = False,
    plays_on: int | None = None,
) -> None:
    """What follows a new version once it is committed (at once outside a transaction): the
    state remembered, then in the outbox the update for every socket, the bot's turn (if a
    bot is to move, other than seat ``plays_on``: a bot's task playing a turn of several
    actions plays the next one itself) and the news that the match ended (which rates it).

    Each step is attempted on its own when the outbox is published, so a broadcast that fails
    (Redis down) skips neither the bot nor the rating, nor turns the committed change into an
    error for the person who made it. What is lost, the periodic check
    (``games.tasks.enforce_clocks``) queues again."""
    match_id, version = match.pk, match.version
    if state is not None:
        transaction.on_commit(lambda: state_cache.remember(match_id, version, state), robust=True)
    transaction.on_commit(lambda: _publish_update(match, outbox, seats, state, new_moves, rewound=rewound), robust=True)
    to_move = match.to_move if match.status == Match.Status.ACTIVE else None
    if to_move is not None and to_move != plays_on and seats and seats[to_move].bot_name():
        outbox.then_on_commit(partial(signals.bot_to_move.send, sender=Match, match_id=match_id, version=version))
    if finished:
        outbox.then_on_commit(
            partial(signals.match_finished.send_robust, sender=Match, match_id=match_id, game=match.game)
        )


def _publish_update(
    match: Match, outbox: live.Outbox, seats: list[Seat] | None, state, new_moves: list | None, *, rewound: bool
) -> None:
    """Build the new version's payloads once, here, for every socket of the match: sockets
    forward them and run no query."""
    if seats is None:
        seats = seats_of(match)
    if state is None:
        state = state_cache.load(match)
    send_update(outbox, update_event(match, seats, state, new_moves, rewound=rewound))


def update_event(
    match: Match,
    seats: list[Seat],
    state,
    new_moves: list | None,
    *,
    rewound: bool,
    seats_part: list | None = None,
    spectator_view: dict | None = None,
) -> MatchUpdated:
    """The ``match.updated`` event of the version ``match`` is at: every audience's text, and
    for the other processes' copies of the match how to catch up (``services.owner``)."""
    payloads = audience_payloads(match, seats, state, new_moves, seats_part, spectator_view)
    actions = [action for _, _, action in new_moves or ()]
    catch_up: CatchUp | None = None  # moves were taken back: no appending catches up
    if not rewound:
        catch_up = {
            "from_version": match.version - 1,
            "from_moves": len(state.history) - len(actions),
            "actions": actions,
            "deadline": match.deadline.isoformat() if match.deadline else None,
        }
    turn = match.to_move if match.status == Match.Status.ACTIVE else None
    return {
        "type": MATCH_UPDATED,
        "version": payloads["version"],
        "spectator": payloads["spectator"],
        "seats": payloads["seats"],
        "players": payloads["players"],
        "catch_up": catch_up,
        "match_id": match.pk,
        "to_move": turn,
        "status": match.status,
    }


def send_update(outbox: live.Outbox, event: MatchUpdated) -> None:
    """One message to every socket of the match, with every audience's text: each socket
    forwards its own (``live.layer`` serves the players' sockets first)."""
    outbox.send(match_group(event["match_id"]), event)


def final_places(state, seats: list[Seat]) -> list[int]:
    """The engine's ranking, with anyone who resigned or timed out placed last (shared)."""
    ranking = state.ranking() if state.is_terminal() else places_from_keys([(s,) for s in state.scores()])
    stayers = [seat.index for seat in seats if not seat.quit]
    places = [0] * len(seats)
    stayer_places = places_from_keys([(-ranking[i],) for i in stayers])
    for i, place in zip(stayers, stayer_places, strict=True):
        places[i] = place
    for seat in seats:
        if seat.quit:
            places[seat.index] = len(stayers) + 1
    return places


def finish(match: Match, state, seats: list[Seat], reason: str) -> None:
    """Write the result to the seats and the match (the caller bumps with ``finished=True``)."""
    places = final_places(state, seats)
    scores = state.scores()
    for seat in seats:
        seat.place = places[seat.index]
        seat.score = scores[seat.index]
    Seat.objects.bulk_update(seats, ["place", "score"])
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.end_reason = reason
    match.to_move = None
    match.deadline = None


def time_out(match: Match, seats: list[Seat], outbox: live.Outbox) -> None:
    seat = seats[match.to_move]
    seat.timed_out = True
    seat.save(update_fields=["timed_out"])
    drop_seat(match, seats, seat, outbox, reason="time out")
    if seat.user is not None and seat.user.is_bot_account:  # paused when it times out too often
        bot_id = seat.user.pk
        transaction.on_commit(lambda: bot_timed_out(bot_id=bot_id), robust=True)


def drop_seat(match: Match, seats: list[Seat], seat: Seat, outbox: live.Outbox, reason: str) -> None:
    """A player leaves a running match (``seat`` already marked resigned or timed out). The
    match ends at once, scored as it stands with whoever left ranked last, in a 2-player game
    and whenever no person is left playing: bots never play on alone. Otherwise a bot plays
    the seat to the end for the others and the player is ranked last."""
    state = state_cache.load(match)
    stayers = [s for s in seats if not s.quit]
    finished = match.num_players == 2 or len(stayers) <= 1 or not people_playing(seats)
    if finished:
        finish(match, state, seats, reason=reason)
    else:
        seat.bot_takeover = TAKEOVER_BOT
        seat.save(update_fields=["bot_takeover"])
        if match.to_move == seat.index:
            match.deadline = None
    bump(match, outbox, seats=seats, finished=finished)
