"""Outages of the live path: the clocks stop while nobody can see the moves.

``live.reach`` tells whether the channel layer can be reached, and sends ``live_down`` when a
message could not go out and it cannot (``outage_begin`` listens, in ``games.receivers``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from live import reach

from ..models import LiveOutage, Match
from .chat import chat_notice
from .writes import bump, outbox_for

log = logging.getLogger(__name__)

OUTAGE_NOTICE = (
    "The live connection was down for {length}: the clocks were stopped, and the player to move "
    "has at least a full move's time from now."
)


def outage_begin() -> None:
    """Note that the live path is down, unless that is noted already (two processes noting at
    once leave two rows; ``outage_end`` closes them together from the earliest)."""
    if not LiveOutage.objects.filter(ended_at__isnull=True).exists():
        LiveOutage.objects.create()
        log.warning("The live path is down: clocks stopped until it is back")


def clocks_stopped() -> bool:
    """Whether no clock may forfeit anyone now: the live path is down (noted here), or an
    outage noted is not yet ended (``outage_end`` moves the deadlines on first)."""
    if not reach.reachable():
        outage_begin()
        return True
    return LiveOutage.objects.filter(ended_at__isnull=True).exists()


def clocks_may_run() -> bool:
    """Whether a clock may forfeit anyone now; ends a noted outage once the live path is back."""
    if not reach.reachable():
        outage_begin()
        return False
    if LiveOutage.objects.filter(ended_at__isnull=True).exists():
        outage_end()
    return True


def outage_end() -> int:
    """End the noted outage: every running live match with a clock gets its deadline moved on
    by the outage's length, and at least a full move's time from now (the moves made meanwhile
    may not have been seen), under a new version, with a notice in its chat. Returns the number
    of matches whose clock moved; a second call finds nothing to end."""
    with transaction.atomic(), outbox_for(None) as outbox:
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
            bump(match, outbox)
            chat_notice(match.pk, notice, outbox)
    log.warning("The live path is back after %s: clocks of %d match(es) moved on", length, len(matches))
    return len(matches)


def _duration(length: timedelta) -> str:
    seconds = max(1, round(length.total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"
