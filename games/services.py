"""Every write to matches goes through here: the single door for players, bots and clocks.

One transaction per change: the match row is locked (``select_for_update``; on SQLite the
write transaction is taken at BEGIN and the version check in the UPDATE is the guard), the
engine applies the action, chance is resolved with ``secrets.SystemRandom``, Move rows are
appended, the version is bumped and, on a terminal state, the result is written. Broadcast
and follow-up work (bots, rating) run only once the transaction has committed.
"""

from __future__ import annotations

import json
import logging
import secrets
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from portal.rate_limits import Rate, SlidingWindow

from . import live_path, selectors, state_cache
from .bots import get_bot
from .clock import Clock, ClockError
from .engines import CHANCE, TERMINAL, IllegalAction, get_game
from .engines.base import places_from_keys
from .groups import CHAT_MESSAGE, MATCH_UPDATED, match_group, match_players_group
from .models import ChatMessage, LiveOutage, Match, Move, Seat
from .signals import match_finished, open_matches_changed

User = get_user_model()
log = logging.getLogger(__name__)
_system_random = secrets.SystemRandom()

# Everyone's chat, players' and spectators', over the socket or the API: a flood limit per person.
CHAT_RATE = Rate(5, 10, "5 messages in 10 seconds")
CHAT_LIMIT = SlidingWindow("games.chat", CHAT_RATE)

TAKEOVER_BOT = "random"


class MatchError(Exception):
    """A refused request. ``code`` is one of the protocol's error codes; the message is for people."""

    def __init__(self, message: str, code: str = "bad_request"):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class ActResult:
    match: Match
    applied: list[str]


# --------------------------------------------------------------------------------------
# Creating and filling matches


def match_terms(
    *,
    game: str,
    num_players: int,
    options: dict | None = None,
    rated: bool = True,
    speed: str = Match.Speed.LIVE,
    seconds_per_move: int | None = None,
    days_per_move: int | None = None,
) -> dict:
    """The terms of a match checked and filled in as ``match_create`` takes them: the game's
    slug, the number of players, its options (defaults filled), the rated flag, the speed and
    the seconds per move. Raises ``MatchError`` with a message for people. Anything that
    keeps terms for a match made later (a challenge) checks them here, by the same rules."""
    try:
        engine = get_game(game)
    except (KeyError, TypeError):
        raise MatchError(f"There is no game called {game!r}.") from None
    try:
        num_players = int(num_players)
        engine.check_players(num_players)
        options = engine.normalise_options(options, num_players)
    except (TypeError, ValueError) as exc:
        raise MatchError(str(exc)) from None
    try:
        clock = Clock.chosen(speed, seconds_per_move, days_per_move, untimed_allowed=not rated)
    except ClockError as exc:
        raise MatchError(exc.message) from None
    return {
        "game": engine.slug,
        "num_players": num_players,
        "options": options,
        "rated": bool(rated),
        "speed": clock.speed,
        "seconds_per_move": clock.seconds_per_move,
    }


def clock_terms(speed: str, seconds_per_move: int) -> dict:
    """``match_create``'s clock arguments for a stored speed and seconds per move."""
    return Clock(speed, seconds_per_move).create_args()


def match_create(
    *,
    user,
    game: str,
    num_players: int,
    options: dict | None = None,
    rated: bool = True,
    visibility: str = Match.Visibility.PUBLIC,
    speed: str = Match.Speed.LIVE,
    seconds_per_move: int | None = None,
    days_per_move: int | None = None,
    seat: int = 0,
    waits_for_players: bool = True,
) -> Match:
    """Open a match with ``user`` in ``seat`` (the first, unless a rematch rotates them).
    ``waits_for_players=False`` is for a caller that fills every seat in the same transaction
    (a tournament's table): such a match never waits in the lobby, so it does not count
    against its creator's open matches."""
    if not user.is_authenticated:
        raise MatchError("Log in to create a match.", "forbidden")
    terms = match_terms(
        game=game,
        num_players=num_players,
        options=options,
        rated=rated,
        speed=speed,
        seconds_per_move=seconds_per_move,
        days_per_move=days_per_move,
    )
    if visibility not in Match.Visibility.values:
        raise MatchError("Visibility must be public or invite.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < terms["num_players"]:
        raise MatchError("There is no such seat.")
    with transaction.atomic():
        if waits_for_players:
            _check_open_matches_of(user)
        match = Match.objects.create(**terms, visibility=visibility, creator=user)
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                user=user if i == seat else None,
                joined_at=timezone.now() if i == seat else None,
            )
            for i in range(terms["num_players"])
        )
        _open_matches_changed(match.pk)
    return match


def _check_open_matches_of(user) -> None:
    """Refuse a new match to someone who already has the most open ones allowed. Their
    account row is locked first, so two requests at once cannot both slip under the cap."""
    limit = settings.MAX_OPEN_MATCHES_PER_PERSON
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    if Match.objects.filter(creator=user, status=Match.Status.OPEN).count() >= limit:
        raise MatchError(
            f"You already have {limit} matches waiting for players, the most one person may open: "
            "start, fill or cancel one of them first.",
            "too_many_open",
        )


def _open_matches_changed(match_id: int) -> None:
    transaction.on_commit(lambda: open_matches_changed.send(sender=Match, match_id=match_id), robust=True)


def _lock(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except (Match.DoesNotExist, ValueError, TypeError):
        raise MatchError("There is no such match.", "not_found") from None


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.select_related("user").order_by("index"))


def _lock_with_seats(match_id: int, lock: bool = True) -> tuple[Match, list[Seat]]:
    """The match row (locked unless ``lock`` is false) and its seats with their users, in
    one round trip: the seats joined to the match, ``FOR UPDATE OF`` the match row only."""
    seats_query = Seat.objects.select_related("match", "user").filter(match_id=match_id).order_by("index")
    if not lock:
        # Read without a lock, the moves may move on before the engine state is loaded: the
        # number of moves read with the match tells which state the row is at.
        last = Move.objects.filter(match_id=OuterRef("match_id")).order_by("-index").values("index")[:1]
        seats_query = seats_query.annotate(last_move=Subquery(last))
    try:
        seats = list(seats_query.select_for_update(of=("match",)) if lock else seats_query)
    except (ValueError, TypeError):
        seats = []
    if not seats:
        raise MatchError("There is no such match.", "not_found")
    from .selectors import match_holding

    match = match_holding(seats)
    if not lock:
        match.moves_read = 0 if seats[0].last_move is None else seats[0].last_move + 1
    return match, seats


def can_view(match: Match, user, token: str | None = None) -> bool:
    if match.visibility == Match.Visibility.PUBLIC:
        return True
    if token and secrets.compare_digest(str(token), match.invite_token):
        return True
    return user.is_authenticated and match.seats.filter(user=user).exists()


def match_join(*, match_id: int, user, token: str | None = None) -> Match:
    if not user.is_authenticated:
        raise MatchError("Log in to take a seat.", "forbidden")
    if user.is_bot:
        raise MatchError("Bots are seated by the creator of a match.", "forbidden")
    with transaction.atomic():
        match = _lock(match_id)
        if not can_view(match, user, token):
            raise MatchError("This match is by invitation only.", "forbidden")
        if match.status != Match.Status.OPEN:
            raise MatchError("This match has already started.", "finished")
        seats = _seats(match)
        if any(seat.user_id == user.pk for seat in seats):
            raise MatchError("You already have a seat in this match.")
        free = [seat for seat in seats if seat.user_id is None]
        if not free:
            raise MatchError("Every seat is taken.")
        free[0].user = user
        free[0].joined_at = timezone.now()
        free[0].save(update_fields=["user", "joined_at"])
        _open_matches_changed(match.pk)
        if len(free) == 1:
            match_start(match)
        else:
            _bump(match)
    return match


def match_leave(*, match_id: int, user) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.OPEN:
            raise MatchError("The match has started: resign instead.", "finished")
        seat = match.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise MatchError("You have no seat in this match.", "not_seated")
        _open_matches_changed(match.pk)
        if user.pk == match.creator_id:
            match.status = Match.Status.ABORTED
            match.end_reason = "cancelled"
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "end_reason", "finished_at", "updated_at"])
            _bump(match)
        else:
            seat.user = None
            seat.joined_at = None
            seat.save(update_fields=["user", "joined_at"])
            _bump(match)
    return match


def bot_account(name: str):
    """The account a bot plays under (made by a data migration; re-made if it went missing)."""
    try:
        bot = get_bot(name)
    except KeyError:
        raise MatchError(f"There is no bot called {name!r}.") from None
    user = User.objects.filter(is_bot=True, bot_name=name).first()
    if user is None:
        user = User(username=bot.label, is_bot=True, bot_name=name)
        user.set_unusable_password()
        user.save()
    return user


def match_seat_bot(*, match_id: int, user, index: int | None = None, bot: str = "random") -> Match:
    """The creator gives an empty seat (or, with ``index=None``, every empty seat) to a bot."""
    bot_user = bot_account(bot)
    with transaction.atomic():
        match = _lock(match_id)
        if not user.is_authenticated or user.pk != match.creator_id:
            raise MatchError("Only the creator of the match can seat bots.", "forbidden")
        if match.status != Match.Status.OPEN:
            raise MatchError("This match has already started.", "finished")
        seats = _seats(match)
        if index is None:
            targets = [seat for seat in seats if seat.user_id is None]
        else:
            targets = [seat for seat in seats if seat.index == index]
            if not targets:
                raise MatchError("There is no such seat.")
            if targets[0].user_id is not None:
                raise MatchError("That seat is taken.")
        if not targets:
            raise MatchError("There is no empty seat.")
        _open_matches_changed(match.pk)
        for seat in targets:
            seat.user = bot_user
            seat.joined_at = timezone.now()
            seat.save(update_fields=["user", "joined_at"])
        if all(seat.user_id is not None for seat in seats):
            match_start(match)
        else:
            _bump(match)
    return match


# --------------------------------------------------------------------------------------
# Playing


def _resolve_chance(state, applied: list[tuple[int | None, str]]) -> None:
    while state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        outcome = _system_random.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        state.apply(outcome)
        applied.append((None, outcome))


def _record(match: Match, state, applied: list[tuple[int | None, str]], seats: list[Seat] | None = None) -> None:
    """Append the moves, move the clock on, finish the match if the game ended, bump the version."""
    start = len(state.history) - len(applied)
    Move.objects.bulk_create(
        Move(match=match, index=start + i, seat=seat, action=action) for i, (seat, action) in enumerate(applied)
    )
    seats = seats if seats is not None else _seats(match)
    current = state.current_player()
    if current == TERMINAL:
        _finish(match, state, seats, reason="game over")
    else:
        match.to_move = current
        match.deadline = _deadline(match, seats[current], timezone.now())
    match.snapshot = state.view(None)
    _bump(match, state=state, seats=seats, new_moves=[(start + i, seat, a) for i, (seat, a) in enumerate(applied)])


def _deadline(match: Match, seat: Seat, now):
    """When ``seat``, now to move, runs out of time: never for a bot or in untimed play."""
    if seat.bot_name() or not match.timed:
        return None
    return now + timedelta(seconds=match.seconds_per_move)


def _bump(match: Match, state=None, seats: list[Seat] | None = None, new_moves: list | None = None) -> None:
    """Save the match under the next version (guarded), then broadcast once committed.

    With ``seats`` given, a bot whose turn it now is gets queued after the commit too."""
    old = match.version
    match.version = old + 1
    fields = {
        f: getattr(match, f)
        for f in ("version", "status", "to_move", "deadline", "snapshot", "finished_at", "started_at", "end_reason")
    }
    fields["updated_at"] = timezone.now()
    if Match.objects.filter(pk=match.pk, version=old).update(**fields) != 1:
        raise MatchError("The match changed meanwhile; try again.", "stale")
    _after_commit(match, state, seats, new_moves)


def _after_commit(match: Match, state, seats: list[Seat] | None, new_moves: list | None) -> None:
    """What follows a new version once it is committed (at once outside a transaction).

    Each step is attempted on its own (``robust``: an error is logged and the next step still
    runs), so a broadcast that fails (Redis down) skips neither the bot nor the rating, nor
    turns the committed change into an error for the person who made it. What is lost here,
    the periodic check (``games.tasks.enforce_clocks``) queues again."""
    match_id, version = match.pk, match.version
    if state is not None:
        transaction.on_commit(lambda: state_cache.remember(match_id, version, state), robust=True)
    # In this order once committed: every socket is told, then the bot (if one is to move)
    # starts thinking, then the result (if the game just ended) is rated.
    transaction.on_commit(lambda: _publish_update(match, seats, state, new_moves), robust=True)
    if match.status == Match.Status.ACTIVE and match.to_move is not None and seats and seats[match.to_move].bot_name():
        transaction.on_commit(lambda: _schedule_bot(match_id, version), robust=True)
    if getattr(match, "_finished_now", False):
        game = match.game
        transaction.on_commit(
            lambda: match_finished.send_robust(sender=Match, match_id=match_id, game=game), robust=True
        )


def match_start(match: Match) -> None:
    """Start a match whose seats are all taken: a new engine state, the set-up's chance
    outcomes drawn, the clock running. Called by ``match_join`` and ``match_seat_bot`` inside
    the transaction that fills the last seat, with the match row locked."""
    state = match.engine.new_state(match.num_players, match.options)
    applied: list[tuple[int | None, str]] = []
    _resolve_chance(state, applied)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    _record(match, state, applied)


def _final_places(state, seats: list[Seat]) -> list[int]:
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


def _finish(match: Match, state, seats: list[Seat], reason: str) -> None:
    places = _final_places(state, seats)
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
    match._finished_now = True  # _bump sends match_finished once the result is committed


def match_act(*, match_id: int, user=None, action, version, seat_index: int | None = None) -> ActResult:
    """Apply ``action`` for ``user``'s seat (or for ``seat_index``, the bots' and clocks' way in).

    Raises ``MatchError`` with one of the codes stale, illegal, not_your_turn, not_seated,
    finished, bad_request, not_found; nothing changes then.
    """
    if not isinstance(action, str) or not action or len(action) > 64:
        raise MatchError("An action is a short text such as 'roll'.", "bad_request")
    if isinstance(version, bool) or not isinstance(version, int):
        raise MatchError("Send the version of the position you are acting on.", "bad_request")
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        result = _act_in_one_statement(match_id, user, action, version, seat_index)
        if result is not None:
            return result
    timed_out = False
    with transaction.atomic():
        match, seats = _lock_with_seats(match_id)
        seat = _acting_seat(match, seats, user, seat_index)
        if match.deadline is not None and timezone.now() >= match.deadline and not _clocks_stopped():
            _time_out(match, seats)
            timed_out = True
        else:
            state, applied = _play(match, seat, action, version)
            _record(match, state, applied, seats)
    if timed_out:
        raise MatchError("The time for this move ran out.", "finished" if match.is_over else "stale")
    return ActResult(match=match, applied=[a for _, a in applied])


def _acting_seat(match: Match, seats: list[Seat], user, seat_index: int | None) -> Seat:
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        raise MatchError("This match is over.", "finished")
    if match.status == Match.Status.OPEN:
        raise MatchError("This match has not started yet.", "bad_request")
    if seat_index is not None:
        return seats[seat_index]
    mine = [s for s in seats if user is not None and user.is_authenticated and s.user_id == user.pk]
    if not mine:
        raise MatchError("You have no seat in this match.", "not_seated")
    if mine[0].quit:
        raise MatchError("You have left this match.", "not_seated")
    return mine[0]


def _play(match: Match, seat: Seat, action: str, version: int) -> tuple:
    """The engine state after ``seat``'s ``action`` at ``version`` and any chance it leads to,
    with the actions applied as (seat, action); nothing is written."""
    if version != match.version:
        raise MatchError("The position has changed; here is the current one.", "stale")
    if match.to_move != seat.index:
        raise MatchError("It is not your turn.", "not_your_turn")
    state = state_cache.load(match)
    if len(state.history) != getattr(match, "moves_read", len(state.history)):
        # Read without a lock: a move was made between reading the match and its moves.
        raise MatchError("The position has changed; here is the current one.", "stale")
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise MatchError(str(exc), "illegal") from None
    applied = [(seat.index, action)]
    _resolve_chance(state, applied)
    return state, applied


def _act_in_one_statement(match_id, user, action, version, seat_index) -> ActResult | None:
    """The common move on PostgreSQL, in two round trips and no explicit transaction: read the
    match with its seats, decide in Python, then write the new version and its moves in one
    statement whose UPDATE only matches the version the move was decided on (so of two moves
    at once, exactly one is written; the other is told the position changed). None when the
    locked path must decide instead: a clock that ran out, or a move that ends the game (the
    result is written to the seats too)."""
    match, seats = _lock_with_seats(match_id, lock=False)
    seat = _acting_seat(match, seats, user, seat_index)
    if match.deadline is not None and timezone.now() >= match.deadline:
        return None
    state, applied = _play(match, seat, action, version)
    current = state.current_player()
    if current == TERMINAL:
        return None
    now = timezone.now()
    match.to_move = current
    match.deadline = _deadline(match, seats[current], now)
    match.snapshot = state.view(None)
    start = len(state.history) - len(applied)
    new_moves = [(start + i, by, a) for i, (by, a) in enumerate(applied)]
    if _write_version_and_moves(match, now, new_moves) != len(new_moves):
        raise MatchError("The position has changed; here is the current one.", "stale")
    match.version += 1
    match.updated_at = now
    _after_commit(match, state, seats, new_moves)
    return ActResult(match=match, applied=[a for _, a in applied])


def _write_version_and_moves(match: Match, now, new_moves: list) -> int:
    """UPDATE the match to the next version (only if still at ``match.version``) and INSERT
    its moves, as one statement; returns the number of moves written (0: it had moved on)."""
    rows = ", ".join(["(%s::integer, %s::smallint, %s::varchar)"] * len(new_moves))
    sql = (
        f"WITH bumped AS (UPDATE {Match._meta.db_table}"
        " SET version = %s, to_move = %s, deadline = %s, snapshot = %s::jsonb, updated_at = %s"
        " WHERE id = %s AND version = %s AND status = %s RETURNING id)"
        f' INSERT INTO {Move._meta.db_table} (match_id, "index", seat, action, created_at)'
        f' SELECT bumped.id, m."index", m.seat, m.action, %s FROM bumped, (VALUES {rows}) AS m ("index", seat, action)'
    )
    params = [
        match.version + 1,
        match.to_move,
        match.deadline,
        json.dumps(match.snapshot),
        now,
        match.pk,
        match.version,
        Match.Status.ACTIVE,
        now,
    ]
    for index, seat, action in new_moves:
        params += [index, seat, action]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def _time_out(match: Match, seats: list[Seat]) -> None:
    seat = seats[match.to_move]
    seat.timed_out = True
    seat.save(update_fields=["timed_out"])
    _drop_seat(match, seats, seat, reason="time out")


def _drop_seat(match: Match, seats: list[Seat], seat: Seat, reason: str) -> None:
    """A player leaves a running match: in a 2-player game the other wins; otherwise a bot
    plays the seat to the end and the player is ranked last."""
    state = state_cache.load(match)
    stayers = [s for s in seats if not s.quit]
    if match.num_players == 2 or len(stayers) <= 1:
        _finish(match, state, seats, reason=reason)
    else:
        seat.bot_takeover = TAKEOVER_BOT
        seat.save(update_fields=["bot_takeover"])
        if match.to_move == seat.index:
            match.deadline = None
    _bump(match, seats=seats)


def match_timeout(*, match_id: int, version: int) -> bool:
    """Forfeit the seat to move if its time ran out at ``version``. Safe to call twice.

    Never while the live path is down (see ``clocks_may_run``)."""
    if not clocks_may_run():
        return False
    with transaction.atomic():
        match = _lock(match_id)
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.deadline is None
            or timezone.now() < match.deadline
        ):
            return False
        _time_out(match, _seats(match))
    return True


def match_resign(*, match_id: int, user) -> Match:
    with transaction.atomic():
        match = _lock(match_id)
        if match.status != Match.Status.ACTIVE:
            raise MatchError("Only a match being played can be resigned.", "finished")
        seats = _seats(match)
        mine = [s for s in seats if user.is_authenticated and s.user_id == user.pk and not s.quit]
        if not mine:
            raise MatchError("You have no seat in this match.", "not_seated")
        mine[0].resigned = True
        mine[0].save(update_fields=["resigned"])
        _drop_seat(match, seats, mine[0], reason="resignation")
    return match


def match_abort(*, match_id: int, user) -> Match:
    """The creator calls a match off before anybody has moved (chance set-up moves do not
    count). Anyone else leaves instead: an open match by giving the seat back, a started one
    by resigning."""
    with transaction.atomic():
        match = _lock(match_id)
        if match.is_over:
            raise MatchError("This match is over.", "finished")
        if not user.is_authenticated or user.pk != match.creator_id:
            if not (user.is_authenticated and match.seats.filter(user=user).exists()):
                raise MatchError("You have no seat in this match.", "not_seated")
            instead = "leave it instead" if match.status == Match.Status.OPEN else "resign instead"
            raise MatchError(f"Only the creator of the match can abort it: {instead}.", "forbidden")
        if match.moves.filter(seat__isnull=False).exists():
            raise MatchError("A move has been made: the match can no longer be aborted.")
        if selectors.in_tournament(match):
            raise MatchError("A tournament match cannot be aborted: resign instead.", "forbidden")
        _open_matches_changed(match.pk)  # an open match leaves the lobby, a live one the watch lists
        match.status = Match.Status.ABORTED
        match.end_reason = "aborted"
        match.finished_at = timezone.now()
        match.to_move = None
        match.deadline = None
        _bump(match)
    return match


def can_chat(match: Match, user) -> bool:
    """Who may write in a match's chat: any logged-in person in a public match, only the
    players in an invite-only one."""
    if not user.is_authenticated:
        return False
    if match.visibility == Match.Visibility.INVITE:
        return any(seat.user_id == user.pk for seat in match.seats.all())
    return True


def match_expire(*, match_id: int, version: int) -> bool:
    """Call off a match that has waited for players, untouched, since before
    ``OPEN_MATCH_EXPIRY_HOURS`` ago (nothing has changed since ``version``), and tell its
    seated players: on the match page, and by e-mail. Safe to call twice; False when the
    match has moved on meanwhile."""
    cutoff = timezone.now() - timedelta(hours=settings.OPEN_MATCH_EXPIRY_HOURS)
    with transaction.atomic():
        match = _lock(match_id)
        if match.version != version or match.status != Match.Status.OPEN or match.updated_at > cutoff:
            return False
        match.status = Match.Status.ABORTED
        match.end_reason = "expired"
        match.finished_at = timezone.now()
        _open_matches_changed(match.pk)
        _bump(match)
        people = [seat.user for seat in _seats(match) if seat.user is not None and not seat.user.is_bot]
        transaction.on_commit(lambda: _tell_expired(match, people))
    return True


def _tell_expired(match: Match, people: list) -> None:
    from django.core.mail import send_mass_mail

    hours = settings.OPEN_MATCH_EXPIRY_HOURS
    waited = "a day" if hours == 24 else f"{hours:g} hours"
    subject = f"{match.game_name} #{match.pk} was called off"
    body = (
        f"Nobody took the free seats of {match.game_name} #{match.pk} for {waited}, so the match was "
        f"closed. Open a new one whenever you like.\n\n{settings.SITE_NAME}"
    )
    messages = [(subject, body, None, [user.email]) for user in people if user.email]
    try:
        send_mass_mail(messages, fail_silently=False)
    except Exception:
        log.warning("Could not tell the players of match %s that it expired", match.pk, exc_info=True)


def chat_post(*, match_id: int, user, text) -> ChatMessage:
    if not user.is_authenticated:
        raise MatchError("Log in to chat.", "forbidden")
    if not isinstance(text, str) or not text.strip():
        raise MatchError("Write something first.", "bad_request")
    text = text.strip()
    if "\x00" in text:  # no database keeps it in text
        raise MatchError("A chat message cannot contain a NUL character.", "bad_request")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise MatchError(f"A chat message is at most {ChatMessage.MAX_LENGTH} characters.", "bad_request")
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError("There is no such match.", "not_found")
    if not can_chat(match, user):
        raise MatchError("Only the players chat in an invite-only match.", "forbidden")
    with CHAT_LIMIT.attempt(user.pk) as attempt:
        if attempt.refusal is not None:
            wait = attempt.refusal.wait
            raise MatchError(
                f"You are sending messages too quickly: the chat takes {CHAT_RATE.words}. "
                f"Try again in {wait} second{'s' if wait != 1 else ''}.",
                "rate_limited",
            )
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        attempt.count()
    _chat_broadcast(message)
    return message


def _chat_broadcast(message: ChatMessage) -> None:
    payload = {"type": CHAT_MESSAGE, "message": chat_json(message)}
    transaction.on_commit(lambda: _group_send(message.match_id, payload), robust=True)


def match_broadcast(match_id: int, payload: dict) -> None:
    """Send ``payload`` (a ``type`` and its data) to every socket of the match, players first,
    once the transaction commits: for news about the match other than a new version (a rematch
    offered). Each socket's consumer handles the type."""
    transaction.on_commit(lambda: _group_send(match_id, payload), robust=True)


def chat_json(message: ChatMessage) -> dict:
    """A chat line; the site's own notices (no user) are signed with the site's name."""
    return {
        "id": message.pk,
        "user": message.user.username if message.user_id else settings.SITE_NAME,
        "text": message.text,
        "at": message.created_at.isoformat(),
        "notice": message.user_id is None,
    }


# --------------------------------------------------------------------------------------
# After commit


@dataclass
class Deferred:
    """What a service run by ``deferred`` leaves to its async caller, in commit order."""

    result: Any = None
    error: MatchError | None = None
    events: list[tuple[str, dict]] = field(default_factory=list)
    bots: list[tuple[int, int]] = field(default_factory=list)


_deferred: ContextVar[Deferred | None] = ContextVar("games_deferred", default=None)


def deferred(service, /, **kwargs) -> Deferred:
    """Run ``service(**kwargs)`` for a caller on the event loop (the match socket): the group
    messages and bot moves it would send after commit are handed back instead, so the caller
    awaits the channel layer itself rather than holding a database thread while it does (see
    ``games.consumers``). A ``MatchError`` is returned too: a refused move may still have
    committed something (a clock that ran out) whose broadcast must go out."""
    outcome = Deferred()
    token = _deferred.set(outcome)
    try:
        outcome.result = service(**kwargs)
    except MatchError as exc:
        outcome.error = exc
    finally:
        _deferred.reset(token)
    return outcome


def _group_send(match_id: int, payload: dict, spectators_payload: dict | None = None) -> None:
    """Send to the match's players' group, then to its spectators' (``spectators_payload``
    if given, else the same message)."""
    messages = [
        (match_players_group(match_id), payload),
        (match_group(match_id), payload if spectators_payload is None else spectators_payload),
    ]
    outcome = _deferred.get()
    if outcome is not None:
        outcome.events.extend(messages)
        return
    layer = get_channel_layer()
    if layer is not None:
        from .bot_runner import send_on_server_loop

        try:
            for group, message in messages:
                if not send_on_server_loop(layer.group_send, group, message):
                    async_to_sync(layer.group_send)(group, message)
        except Exception:
            log.exception("Could not broadcast to match %s", match_id)
            broadcast_failed()


def _publish_update(match: Match, seats: list[Seat] | None, state, new_moves: list | None) -> None:
    """Build the new version's payloads once, here, and hand them to every socket of the
    match: sockets forward them and run no query. The players' group gets every audience's
    text (a player who left watches as a spectator); the spectators' only theirs."""
    if seats is None:
        seats = _seats(match)
    if state is None:
        state = state_cache.load(match)
    from .selectors import audience_payloads

    payloads = audience_payloads(match, seats, state, new_moves)
    # For the other processes' state caches, never for a page: the raw actions (chance
    # outcomes unmasked) that lead from the previous version to this one.
    actions = [action for _, _, action in new_moves or ()]
    catch_up = {"from_version": match.version - 1, "from_moves": len(state.history) - len(actions), "actions": actions}
    if getattr(match, "_rewound", False):
        catch_up = None  # moves were taken back (games.takebacks): no appending catches up
    # Who is to move, for the sockets that only count whose turn it is (notifications' /ws/me/).
    turn = match.to_move if match.status == Match.Status.ACTIVE else None
    everyone = {"type": MATCH_UPDATED, **payloads, "catch_up": catch_up, "match_id": match.pk, "to_move": turn}
    spectators = {**everyone, "seats": []}
    _group_send(match.pk, everyone, spectators)


def _schedule_bot(match_id: int, version: int) -> None:
    outcome = _deferred.get()
    if outcome is not None:
        outcome.bots.append((match_id, version))
        return
    from .tasks import schedule_bot

    schedule_bot(match_id, version)


def match_check_clock(*, match: Match) -> bool:
    """Called on every read: forfeit the seat to move if its time has run out."""
    if match.status == Match.Status.ACTIVE and match.deadline is not None and timezone.now() >= match.deadline:
        return match_timeout(match_id=match.pk, version=match.version)
    return False


# --------------------------------------------------------------------------------------
# Outages of the live path: the clocks stop while nobody can see the moves


def broadcast_failed() -> None:
    """A broadcast did not go out: if the live path is down, note the outage (the clocks stop)."""
    if not live_path.reachable():
        outage_begin()


def outage_begin() -> None:
    """Note that the live path is down, unless that is noted already (two processes noting at
    once leave two rows; ``outage_end`` closes them together from the earliest)."""
    if not LiveOutage.objects.filter(ended_at__isnull=True).exists():
        LiveOutage.objects.create()
        log.warning("The live path is down: clocks stopped until it is back")


def _clocks_stopped() -> bool:
    """Whether no clock may forfeit anyone now: the live path is down (noted here), or an
    outage noted is not yet ended (``outage_end`` moves the deadlines on first)."""
    if not live_path.reachable():
        outage_begin()
        return True
    return LiveOutage.objects.filter(ended_at__isnull=True).exists()


def clocks_may_run() -> bool:
    """Whether a clock may forfeit anyone now; ends a noted outage once the live path is back."""
    if not live_path.reachable():
        outage_begin()
        return False
    if LiveOutage.objects.filter(ended_at__isnull=True).exists():
        outage_end()
    return True


OUTAGE_NOTICE = (
    "The live connection was down for {length}: the clocks were stopped, and the player to move "
    "has at least a full move's time from now."
)


def outage_end() -> int:
    """End the noted outage: every running live match with a clock gets its deadline moved on
    by the outage's length, and at least a full move's time from now (the moves made meanwhile
    may not have been seen), under a new version, with a notice in its chat. Returns the number
    of matches whose clock moved; a second call finds nothing to end."""
    with transaction.atomic():
        open_outages = list(LiveOutage.objects.select_for_update().filter(ended_at__isnull=True))
        if not open_outages:
            return 0
        now = timezone.now()
        length = now - min(outage.started_at for outage in open_outages)
        LiveOutage.objects.filter(pk__in=[outage.pk for outage in open_outages]).update(ended_at=now)
        running = Match.objects.select_for_update().filter(
            status=Match.Status.ACTIVE, speed=Match.Speed.LIVE, deadline__isnull=False
        )
        notice = OUTAGE_NOTICE.format(length=_duration(length))
        matches = list(running.order_by("pk"))
        for match in matches:
            match.deadline = max(match.deadline + length, now + timedelta(seconds=match.seconds_per_move))
            _bump(match)
            _chat_broadcast(ChatMessage.objects.create(match=match, user=None, text=notice))
    log.warning("The live path is back after %s: clocks of %d match(es) moved on", length, len(matches))
    return len(matches)


def _duration(length: timedelta) -> str:
    seconds = max(1, round(length.total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
