"""Clocks: a seat whose time ran out is forfeited, on a read or by the periodic check."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

import live

from ..models import Match
from . import outages
from .writes import lock, outbox_for, seats_of, time_out


def match_timeout(*, match_id: int, version: int, outbox: live.Outbox | None = None) -> bool:
    """Forfeit the seat to move if its time ran out at ``version``. Safe to call twice.

    Never while the live path is down (see ``outages.clocks_may_run``)."""
    if not outages.clocks_may_run():
        return False
    with transaction.atomic(), outbox_for(outbox) as box:
        match = lock(match_id)
        if (
            match.version != version
            or match.status != Match.Status.ACTIVE
            or match.deadline is None
            or timezone.now() < match.deadline
        ):
            return False
        time_out(match, seats_of(match), box)
    return True


def match_check_clock(*, match: Match, outbox: live.Outbox | None = None) -> bool:
    """Called on every read: forfeit the seat to move if its time has run out."""
    if match.status == Match.Status.ACTIVE and match.deadline is not None and timezone.now() >= match.deadline:
        return match_timeout(match_id=match.pk, version=match.version, outbox=outbox)
    return False
