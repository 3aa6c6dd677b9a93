"""Play: a seat's action (from a person, a bot or a clock) and resigning.

On PostgreSQL the common move takes two statements and no explicit transaction (read, then a
version-guarded write of the new version and its moves); a move that ends the game or meets
a run-out clock takes the locked transaction instead (``writes``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import live
from portal import metrics

from .. import state_cache
from ..engine_text import refusal
from ..engines import TERMINAL, IllegalAction
from ..models import Match, Move, Seat
from . import outages
from .writes import (
    STALE,
    MatchError,
    acting_seat,
    after_commit,
    deadline,
    drop_seat,
    lock,
    lock_with_seats,
    outbox_for,
    read_with_seats,
    record,
    resolve_chance,
    seats_of,
    time_out,
)


@dataclass
class ActResult:
    match: Match
    applied: list[str]


@metrics.timed_move
def match_act(
    *,
    match_id: int,
    user=None,
    action,
    version,
    seat_index: int | None = None,
    outbox: live.Outbox | None = None,
    plays_on: bool = False,
) -> ActResult:
    """Apply ``action`` for ``user``'s seat (or for ``seat_index``, the bots' and clocks' way in).

    Raises ``MatchError`` with one of the codes stale, illegal, not_your_turn, not_seated,
    finished, bad_request, not_found; nothing changes then, except that a clock found run out
    is forfeited first (then the error is finished or stale, and ``outbox`` holds that change).
    What the sockets must be told goes into ``outbox`` (the caller publishes it) or, without
    one, is published once committed. ``plays_on`` (a bot's task, with ``seat_index``): if the
    seat is still to move after this action, its next action is not queued, the caller plays it.
    """
    check_request(action, version)
    keep = seat_index if plays_on else None
    with outbox_for(outbox) as box:
        if connection.vendor == "postgresql" and not connection.in_atomic_block:
            result = _act_in_one_statement(match_id, user, action, version, seat_index, box, keep)
            if result is not None:
                return result
        timed_out = False
        with transaction.atomic():
            match, seats = lock_with_seats(match_id)
            seat = acting_seat(match, seats, user, seat_index)
            if match.deadline is not None and timezone.now() >= match.deadline and not outages.clocks_stopped():
                time_out(match, seats, box)
                timed_out = True
            else:
                state, applied = _play(match, seat, action, version)
                record(match, state, applied, box, seats, plays_on=keep)
        if timed_out:
            raise MatchError(_("The time for this move ran out."), "finished" if match.is_over else "stale")
        return ActResult(match=match, applied=[a for _, a in applied])


def check_request(action, version) -> None:
    """Refuse an action or a version that cannot be one, before anything is read."""
    if not isinstance(action, str) or not action or len(action) > 64:
        raise MatchError(_("An action is a short text such as 'roll'."), "bad_request")
    if isinstance(version, bool) or not isinstance(version, int):
        raise MatchError(_("Send the version of the position you are acting on."), "bad_request")


def _play(match: Match, seat: Seat, action: str, version: int, moves_read: int | None = None) -> tuple:
    """The engine state after ``seat``'s ``action`` at ``version`` and any chance it leads to,
    with the actions applied as (seat, action); nothing is written. ``moves_read``: the number
    of moves the match had when read without a lock."""
    if version != match.version:
        raise MatchError(STALE, "stale")
    if match.to_move != seat.index:
        raise MatchError(_("It is not your turn."), "not_your_turn")
    state = state_cache.load(match, moves_read=moves_read)
    if moves_read is not None and len(state.history) != moves_read:
        # Read without a lock: a move was made between reading the match and its moves.
        raise MatchError(STALE, "stale")
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise MatchError(refusal(exc), "illegal") from None
    applied: list[tuple[int | None, str]] = [(seat.index, action)]
    resolve_chance(state, applied)
    return state, applied


def _act_in_one_statement(
    match_id, user, action, version, seat_index, outbox: live.Outbox, plays_on: int | None
) -> ActResult | None:
    """The common move on PostgreSQL, in two round trips and no explicit transaction: read the
    match with its seats, decide in Python, then write the new version and its moves in one
    statement whose UPDATE only matches the version the move was decided on (so of two moves
    at once, exactly one is written; the other is told the position changed). None when the
    locked path must decide instead: a clock that ran out, or a move that ends the game (the
    result is written to the seats too)."""
    match, seats, moves_read = read_with_seats(match_id)
    seat = acting_seat(match, seats, user, seat_index)
    if match.deadline is not None and timezone.now() >= match.deadline:
        return None
    state, applied = _play(match, seat, action, version, moves_read)
    current = state.current_player()
    if current == TERMINAL:
        return None
    now = timezone.now()
    match.to_move = current
    match.deadline = deadline(match, seats[current], now)
    match.snapshot = state.view(None)
    start = len(state.history) - len(applied)
    new_moves = [(start + i, by, a) for i, (by, a) in enumerate(applied)]
    if _write_version_and_moves(match, now, new_moves) != len(new_moves):
        raise MatchError(STALE, "stale")
    match.version += 1
    match.updated_at = now
    after_commit(match, outbox, state, seats, new_moves, plays_on=plays_on)
    return ActResult(match=match, applied=[a for _, a in applied])


def _write_version_and_moves(match: Match, now, new_moves: list) -> int:
    """UPDATE the match to the next version (only if still at ``match.version``) and INSERT
    its moves, as one statement; returns the number of moves written (0: it had moved on)."""
    sql, params = version_and_moves_statement(
        match.pk, match.version, match.to_move, match.deadline, match.snapshot, now, new_moves
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def version_and_moves_statement(
    match_id: int, version: int, to_move, deadline, snapshot: dict, now, new_moves: list
) -> tuple[str, list]:
    """The one statement of a common move: the match row from ``version`` to the next, only if
    it is still active at ``version``, with its new ``to_move``, ``deadline`` and ``snapshot``,
    and its moves appended; it changes as many rows as moves it wrote, or none if the match had
    moved on."""
    rows = ", ".join(["(%s::integer, %s::smallint, %s::varchar)"] * len(new_moves))
    sql = (
        f"WITH bumped AS (UPDATE {Match._meta.db_table}"
        " SET version = %s, to_move = %s, deadline = %s, snapshot = %s::jsonb, updated_at = %s"
        " WHERE id = %s AND version = %s AND status = %s RETURNING id)"
        f' INSERT INTO {Move._meta.db_table} (match_id, "index", seat, action, created_at)'
        f' SELECT bumped.id, m."index", m.seat, m.action, %s FROM bumped, (VALUES {rows}) AS m ("index", seat, action)'
    )
    params = [
        version + 1,
        to_move,
        deadline,
        json.dumps(snapshot),
        now,
        match_id,
        version,
        Match.Status.ACTIVE.value,
        now,
    ]
    for index, seat, action in new_moves:
        params += [index, seat, action]
    return sql, params


def match_resign(*, match_id: int, user) -> Match:
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if match.status != Match.Status.ACTIVE:
            raise MatchError(_("Only a match being played can be resigned."), "finished")
        seats = seats_of(match)
        mine = [s for s in seats if user.is_authenticated and s.user_id == user.pk and not s.quit]
        if not mine:
            raise MatchError(_("You have no seat in this match."), "not_seated")
        mine[0].resigned = True
        mine[0].save(update_fields=["resigned"])
        drop_seat(match, seats, mine[0], outbox, reason="resignation")
    return match
