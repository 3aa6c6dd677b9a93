"""Celery tasks: ids and the expected version in, a quiet return when the match moved on."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from portal import metrics

from . import services, state_cache
from .bot_runner import runner
from .bots import get_bot
from .models import Match, Seat

log = logging.getLogger(__name__)


def schedule_bot(match_id: int, version: int) -> None:
    """Queue the bot's move if a bot is to act at ``version``.

    With a broker, a worker runs it. In eager mode (the embedded default) a thread of this
    process runs it (``games.bot_runner``), so the move that made it the bot's turn is
    answered and broadcast without waiting for the bot to think.
    """
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        bot_act.delay(match_id, version)
        return
    runner.submit(match_id, version, _run_eagerly)


def _run_eagerly(match_id: int, version: int) -> None:
    bot_act.apply(args=(match_id, version), throw=True)


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
def bot_act(self, match_id: int, version: int) -> str | None:
    """Play the bot's action for the seat to move at ``version``; a no-op if that has passed."""
    match = Match.objects.filter(pk=match_id, version=version, status=Match.Status.ACTIVE).first()
    if match is None or match.to_move is None:
        return None
    seat = match.seats.select_related("user").get(index=match.to_move)
    bot_name = seat.bot_name()
    if not bot_name:
        return None
    state = state_cache.load(match)
    started = time.perf_counter()
    action = get_bot(bot_name).choose(state, seat.index)
    metrics.bot_thought(bot_name, time.perf_counter() - started)
    try:
        services.match_act(match_id=match_id, action=action, version=version, seat_index=seat.index)
    except services.MatchError as exc:
        if exc.code in ("stale", "finished"):
            return None  # somebody else acted first: nothing to do
        raise
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
        Q(user__is_bot=True) | ~Q(bot_takeover="")
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
