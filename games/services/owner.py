"""The matches this server process plays live, held in memory: a move without a thread or an ORM.

While its sockets play a match, the process keeps a ``Room``: the match row, its seats with
their players, and the engine state at the room's version. A socket's move (``act``) is taken
in the room's order (one ``asyncio.Lock`` per match, on the event loop), decided in memory and
written by one statement on the event loop's own PostgreSQL connection (``live.pg``): the
match row moves to the next version only if it is still active at the version the room holds,
and the move rows are appended in the same statement. Only once that statement has committed
does the room move on and the mover get its ack, so an acked move is never lost.

Every process that shows the match keeps its copy current from the updates the match's
group receives: a move carries its raw actions, its new turn and deadline (``catch_up``), and a
room one version behind applies them (``advance``); anything else (a seat given up, moves
taken back, the end) drops the room, to be read again at the next move. So a move arriving at
any process, from a socket, the REST API or a bot, is decided on the current position, and
the version guard in the statement is the safety net: a room that is behind without knowing it
(an update lost on the way) writes nothing; the mover is told the position changed and the
room is read again. Two processes cannot both write a version, and nothing waits on a lease or
a hop to another process.

What is not a common move takes the locked path of ``play.match_act`` in a database thread,
still inside the room's order: a move that ends the game (the result goes to the seats), a
clock that ran out, a match not being played; the room is dropped and read afresh after it.

Only on PostgreSQL (``live.pg.available``); on SQLite sockets take ``match_act`` as it is.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import live
from live import pg
from live.events import MatchUpdated
from live.executor import db
from portal import metrics

from .. import signals
from ..engine_text import refusal
from ..engines import TERMINAL, IllegalAction
from ..engines.base import State
from ..models import Match, Seat
from ..selectors import seats_json
from .play import ActResult, check_request, match_act, version_and_moves_statement
from .writes import STALE, MatchError, acting_seat, deadline, read_position, resolve_chance, send_update, update_event

log = logging.getLogger(__name__)

MAX_ROOMS = 2048  # matches a process keeps in memory; the least recently played go first

NOT_SAVED = _("Your move could not be saved just now (the database did not answer): try again in a moment.")


@dataclass(eq=False)
class Room:
    match: Match
    seats: list[Seat]
    state: State
    seats_part: list[dict] = field(default_factory=list)  # what the pages show of the seats

    def __post_init__(self) -> None:
        # The seats of a match being played change only by a change that drops the room.
        self.seats_part = seats_json(self.match, self.seats)


class _Rooms:
    """One event loop's rooms and their locks."""

    def __init__(self) -> None:
        self.rooms: OrderedDict[int, Room] = OrderedDict()
        self.locks: dict[int, asyncio.Lock] = {}

    def lock(self, match_id: int) -> asyncio.Lock:
        lock = self.locks.get(match_id)
        if lock is None:
            if len(self.locks) > 2 * MAX_ROOMS:  # forget the locks nobody holds or waits on
                self.locks = {k: v for k, v in self.locks.items() if v.locked()}
            lock = self.locks[match_id] = asyncio.Lock()
        return lock

    def get(self, match_id: int) -> Room | None:
        room = self.rooms.get(match_id)
        if room is not None:
            self.rooms.move_to_end(match_id)
        return room

    def keep(self, room: Room) -> None:
        self.rooms[room.match.pk] = room
        self.rooms.move_to_end(room.match.pk)
        while len(self.rooms) > MAX_ROOMS:
            self.rooms.popitem(last=False)

    def drop(self, match_id: int) -> None:
        self.rooms.pop(match_id, None)


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Rooms] = weakref.WeakKeyDictionary()


def _rooms() -> _Rooms:
    loop = asyncio.get_running_loop()
    rooms = _by_loop.get(loop)
    if rooms is None:
        rooms = _by_loop[loop] = _Rooms()
    return rooms


def enabled() -> bool:
    return pg.available()


def _load(match_id: int) -> Room:
    """The match read afresh with its seats, and its engine state (a database thread)."""
    match, seats, state = read_position(match_id)
    return Room(match=match, seats=seats, state=state)


@metrics.timed_move
async def act(*, match_id: int, user, action, version, outbox: live.Outbox) -> ActResult:
    """``user``'s ``action`` at ``version`` in ``match_id``, in the match's order in this
    process; raises ``MatchError`` as ``play.match_act`` does. What the sockets must be told,
    and the bot's turn if a bot is to move, go into ``outbox`` (the caller publishes it)."""
    check_request(action, version)
    rooms = _rooms()
    async with rooms.lock(match_id):
        room = rooms.get(match_id)
        if room is None or room.match.version < version:
            room = await db(_load)(match_id)
            rooms.keep(room)
        try:
            decided = _decide(room, user, action, version)
        except MatchError:
            raise
        except BaseException:
            rooms.drop(match_id)
            raise
        if decided is None:
            # Not a common move: the locked path decides, in the match's order here.
            rooms.drop(match_id)
            return await db(partial(match_act, match_id=match_id, user=user, action=action, version=version))(
                outbox=outbox
            )
        try:
            applied, event = await _write(room, *decided)
        except pg.DatabaseUnavailable:
            rooms.drop(match_id)
            raise MatchError(NOT_SAVED, "unavailable") from None
        except BaseException:
            rooms.drop(match_id)
            raise
    send_update(outbox, event)
    match = room.match
    if match.to_move is not None and room.seats[match.to_move].bot_name():
        outbox.then(partial(signals.bot_to_move.send, sender=Match, match_id=match_id, version=match.version))
    return ActResult(match=match, applied=applied)


def _decide(room: Room, user, action: str, version: int) -> tuple | None:
    """The move decided in memory: (the seat, the new moves as (index, seat, action), the
    time), or None for the locked path. The room's state is left as it was on a refusal."""
    match, seats = room.match, room.seats
    seat = acting_seat(match, seats, user, None)
    now = timezone.now()
    if match.deadline is not None and now >= match.deadline:
        return None  # the clock ran out: the locked path forfeits the seat
    if version != match.version:
        raise MatchError(STALE, "stale")
    if match.to_move != seat.index:
        raise MatchError(_("It is not your turn."), "not_your_turn")
    state = room.state  # moved on in place: a refusal changes nothing, any other end drops the room
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise MatchError(refusal(exc), "illegal") from None
    applied: list[tuple[int | None, str]] = [(seat.index, action)]
    resolve_chance(state, applied)
    if state.current_player() == TERMINAL:
        return None  # the end: the result goes to the seats on the locked path
    start = len(state.history) - len(applied)
    return state, [(start + i, by, a) for i, (by, a) in enumerate(applied)], now


async def _write(room: Room, state: State, new_moves: list, now: datetime) -> tuple[list[str], MatchUpdated]:
    """Write the move decided at the room's version; once committed, the room moves on and
    the update is built. A room that was behind writes nothing: ``stale``, and it is dropped."""
    match = room.match
    current = state.current_player()
    due = deadline(match, room.seats[current], now)
    snapshot = state.view(None)
    sql, params = version_and_moves_statement(match.pk, match.version, current, due, snapshot, now, new_moves)
    if await pg.execute(sql, params) != len(new_moves):
        # The room was behind without knowing it (an update that did not reach this process,
        # or a change it does not follow): the mover gets the position, the room is read again.
        log.warning(
            "Match %s: a move at version %s was not written: the stored match had moved on "
            "without this process's room; the room is read again",
            match.pk,
            match.version,
        )
        raise MatchError(STALE, "stale")
    match.version += 1
    match.to_move, match.deadline, match.snapshot = current, due, snapshot
    match.updated_at = now
    room.state = state
    return [a for _, _, a in new_moves], update_event(
        match, room.seats, state, new_moves, rewound=False, seats_part=room.seats_part, spectator_view=match.snapshot
    )


def advance(event: MatchUpdated) -> None:
    """Keep this process's room of the match current with an update it receives (from any
    process): a move one version ahead of the room is applied to it; any other change this
    room does not hold (a seat given up, moves taken back, the end, an update missed) drops
    it. Called by the first of the match's sockets here to see the update; the others find
    the room at that version already."""
    rooms = _by_loop.get(asyncio.get_running_loop())
    if rooms is None:
        return
    match_id = event["match_id"]
    room = rooms.rooms.get(match_id)
    if room is None or room.match.version >= event["version"]:
        return
    lock = rooms.locks.get(match_id)
    if lock is not None and lock.locked():
        return  # a move of its own is on its way: its statement finds out whether it is behind
    catch_up = event["catch_up"]
    if (
        catch_up is None
        or not catch_up["actions"]
        or event["to_move"] is None
        or catch_up["from_version"] != room.match.version
        or catch_up["from_moves"] != len(room.state.history)
    ):
        rooms.drop(match_id)
        return
    try:
        for action in catch_up["actions"]:
            room.state.apply(action)
    except IllegalAction:
        rooms.drop(match_id)
        return
    match = room.match
    match.version = event["version"]
    match.to_move = event["to_move"]
    match.deadline = datetime.fromisoformat(catch_up["deadline"]) if catch_up["deadline"] else None
    # ``match.snapshot`` stays as it was: only this room's own next write reads it, after
    # setting it from the state it writes.
