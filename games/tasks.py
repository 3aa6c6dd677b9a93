"""Celery tasks: ids and the expected version in, a quiet return when the match moved on."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from functools import partial

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from portal import metrics

from . import bot_activity, bot_queue, services
from .bot_runner import analysis_runner, runner
from .bots import MCTSBot, forced_action, get_bot
from .models import Match, Seat

log = logging.getLogger(__name__)


def schedule_bot(match_id: int, version: int) -> None:
    """Queue the bot's move if a bot is to act at ``version``, fairly: behind the other bot
    turns of the match's creator (``games.bot_queue``), so one person's matches against bots
    never hold up another's.

    With a broker, a worker runs it. In eager mode (the embedded default) a thread of this
    process runs it (``games.bot_runner``), so the move that made it the bot's turn is
    answered and broadcast without waiting for the bot to think.
    """
    if not bot_queue.fair():
        _start(bot_queue.Turn(match_id, version, "", ""))
        return
    person = Match.objects.filter(pk=match_id).values_list("creator_id", flat=True).first()
    if person is None:
        return
    _start_all(bot_queue.add(str(person), match_id, version))


def _start_all(turns: list[bot_queue.Turn]) -> None:
    """Hand each turn to the workers, each on its own; the first failure is raised after."""
    failure = None
    for turn in turns:
        try:
            _start(turn)
        except Exception as exc:
            failure = failure or exc
    if failure is not None:
        raise failure


def _start(turn: bot_queue.Turn) -> None:
    """Hand a turn to the workers (or, eager, to the bot threads)."""
    lease = [turn.person, turn.lease] if turn.lease else None
    if settings.CELERY_TASK_ALWAYS_EAGER:
        runner.submit(turn.match_id, turn.version, partial(_run_eagerly, lease=lease))
        return
    try:
        bot_act.delay(turn.match_id, turn.version, lease=lease)
    except Exception:
        if lease is not None:
            _give_back(turn)
        raise


def _give_back(turn: bot_queue.Turn) -> None:
    try:
        bot_queue.give_back(turn.person, turn.lease)
    except Exception:
        log.warning("Could not give back the lease of the bot's turn in match %s", turn.match_id, exc_info=True)


def _run_eagerly(match_id: int, version: int, lease: list[str] | None = None) -> None:
    bot_act.apply(args=(match_id, version), kwargs={"lease": lease}, throw=True)


def _next_turns(lease: list[str]) -> None:
    """A turn under ``lease`` is over: its lease is given back and the person's next turns go
    to the workers. A failure here loses nothing: the lease runs out by itself and the
    periodic check queues the waiting turns again."""
    try:
        _start_all(bot_queue.done(*lease))
    except Exception:
        log.warning("Could not hand on the next bot turn of person %s", lease[0], exc_info=True)


# A lost connection or a deadlock is worth another try; the retry re-reads the match, so it
# is a no-op if the move went through after all.
@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=1,
    retry_jitter=True,
    soft_time_limit=20,
    time_limit=30,
)
def bot_act(self, match_id: int, version: int, lease: list[str] | None = None) -> str | None:
    """Play the bot's action for the seat to move at ``version``; a no-op if that has passed.
    ``lease`` ([person, lease]) is the turn's place in ``games.bot_queue``, given back once the
    turn is over (not while it is to be tried again)."""
    retrying = False
    try:
        return _play_bot(match_id, version)
    except (OperationalError, InterfaceError):
        retrying = self.request.retries < self.max_retries
        raise
    finally:
        if lease and not retrying:
            _next_turns(lease)


# A bot's turn of several actions in a row (the dice game's rolls and markers, a chit game's
# builds) is played in one run: each action is committed and broadcast as it is made, and the
# next one is chosen at once, without queueing the turn again. Past this many seconds the next
# action goes back to the queue as a new turn, so one run stays well inside the task's limits.
TURN_SECONDS = 8.0


def _play_bot(match_id: int, version: int) -> str | None:
    """Play the bot's turn from ``version``: every action in a row of the seat to move; the
    last action played, or None if there was nothing to do."""
    played: str | None = None
    bot_seat: int | None = None
    started = time.perf_counter()
    while True:
        try:
            # The row, its seats and the engine state at the row's version, read together: a
            # move landing in between (the person's, another task's) is "stale", never a
            # position past the row's handed to the bot.
            match, seats, state = services.read_position(match_id)
        except services.MatchError as exc:
            if exc.code in ("stale", "not_found"):
                return played
            raise
        if played is None and match.version != version:
            return None  # the turn queued is over: somebody else acted first
        if match.status != Match.Status.ACTIVE or match.to_move is None:
            return played
        seat = next(seat for seat in seats if seat.index == match.to_move)
        bot_name = seat.bot_name()
        if not bot_name or bot_seat not in (None, seat.index):
            return played
        if bot_seat is None:
            bot_seat = seat.index
            metrics.bot_waited(bot_name, (timezone.now() - match.updated_at).total_seconds())
        action = _choose(get_bot(bot_name), bot_name, state, seat.index, match)
        plays_on = time.perf_counter() - started < TURN_SECONDS
        try:
            match = services.match_act(
                match_id=match_id, action=action, version=match.version, seat_index=seat.index, plays_on=plays_on
            ).match
        except services.MatchError as exc:
            if exc.code in ("stale", "finished"):
                return played  # somebody else acted first: nothing more to do
            raise
        played = action
        if not plays_on or match.status != Match.Status.ACTIVE or match.to_move != seat.index:
            return played


def _choose(bot, bot_name: str, state, seat: int, match: Match) -> str:
    """The bot's action for ``seat``: a forced one at once, else what the bot's search finds,
    marked as a live bot thinking meanwhile (the analyses step aside, ``games.bot_activity``)."""
    forced = forced_action(state)
    if forced is not None:
        return forced
    started = time.perf_counter()
    with bot_activity.thinking():
        action = bot.choose(state, seat)
    metrics.bot_thought(bot_name, time.perf_counter() - started)
    if isinstance(bot, MCTSBot) and bot.last_search().capped:
        metrics.bot_safety_stop(bot_name, match.game)
        log.warning(
            "%s hit its safety cap in match %s (%s): the move is weaker than its level", bot_name, match.pk, match.game
        )
    return action


# A bot to move whose match has not changed for this long lost its task (a worker died, a
# queue was purged, the broker was down when it was queued): queue the move again. As long as
# bot_act's hard time limit, so a task still thinking is not doubled; bot_act is a no-op on a
# stale version, so a duplicate is harmless anyway.
BOT_STALL = timedelta(seconds=30)


@shared_task(acks_late=True)
def enforce_clocks() -> int:
    """The owner of the match work that must follow a commit, should it have been lost on the
    way: forfeit every seat whose time ran out (not while the live path is down, see
    ``services.clocks_may_run``) and queue again the moves of stalled bots (a match left
    unrated is ``rankings.tasks.rate_unrated``'s). Each part on its own: one failing does not
    stop the others. Run by Celery beat or ``manage.py run_clocks``; returns the number of
    seats forfeited."""
    now = timezone.now()
    active = Match.objects.filter(status=Match.Status.ACTIVE)
    count = 0
    if services.clocks_may_run():
        for match_id, version in active.filter(deadline__lte=now).values_list("pk", "version"):
            count += services.match_timeout(match_id=match_id, version=version)
    # No clock runs while a bot is to move, nor for anyone in untimed play: ask the seat.
    bot_to_move = Seat.objects.filter(match=OuterRef("pk"), index=OuterRef("to_move")).filter(
        Q(user__bot_name__gt="") | ~Q(bot_takeover="")  # the site's bots: a person's bot account plays by itself
    )
    stalled = active.filter(
        Exists(bot_to_move), to_move__isnull=False, deadline__isnull=True, updated_at__lte=now - BOT_STALL
    )
    for match_id, version in stalled.values_list("pk", "version"):
        try:
            schedule_bot(match_id, version)
        except Exception:
            log.exception("Could not queue the bot's move in match %s", match_id)
    return count


@shared_task(acks_late=True)
def expire_open_matches() -> int:
    """Call off every match that has waited for players, untouched, for longer than
    ``OPEN_MATCH_EXPIRY_HOURS``, telling its players. Run by Celery beat or
    ``manage.py run_clocks``."""
    cutoff = timezone.now() - timedelta(hours=settings.OPEN_MATCH_EXPIRY_HOURS)
    waiting = Match.objects.filter(status=Match.Status.OPEN, updated_at__lte=cutoff).values_list("pk", "version")
    return sum(services.match_expire(match_id=match_id, version=version) for match_id, version in waiting)


def start_analysis(analysis_id: int) -> None:
    """Hand a queued analysis to the workers of the ``analysis`` queue (or, eager, to the
    server's analysis thread, so the request that asked for it is answered at once)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        analysis_runner.submit(analysis_id, 0, _analyse_eagerly)
        return
    analyse_match.delay(analysis_id)


def _analyse_eagerly(analysis_id: int, _version: int) -> None:
    analyse_match.apply(args=(analysis_id,), throw=True)


# An analysis runs on its own queue, ``analysis`` (settings.CELERY_TASK_ROUTES), served by
# workers of its own, so it never holds up a live bot's reply; its time limit is its own. It
# pauses while a live bot thinks (``services.analysis``, ``games.bot_activity``).
@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=2,
    retry_backoff=5,
    soft_time_limit=settings.ANALYSIS_SECONDS,
    time_limit=settings.ANALYSIS_SECONDS + 30,
)
def analyse_match(analysis_id: int) -> bool:
    """Compute a queued analysis of a finished match (``services.analysis_run``); a no-op when
    it is done already."""
    return services.analysis_run(analysis_id=analysis_id)
