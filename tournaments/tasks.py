"""Celery tasks of tournaments: ids in, a quiet return when there is nothing to do."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import services


# A lost connection or a deadlock is worth another try: the advance is guarded, so a retry
# after it went through does nothing.
@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    max_retries=3,
    retry_backoff=1,
    retry_jitter=True,
)
def table_finished(tournament_id: int, round_number: int) -> bool:
    """A match of round ``round_number`` ended: the round advances if it was its last one,
    and the tournament's open pages show the new standings either way."""
    advanced = services.tournament_advance(tournament_id=tournament_id, round_number=round_number)
    if not advanced:
        services.tournament_notify(tournament_id=tournament_id)  # an advance tells the pages itself
    return advanced


@shared_task(acks_late=True)
def run_tournaments() -> tuple[int, int]:
    """Start the tournaments whose time has come, and advance any whose round is over but
    was not advanced (the safety net of ``table_finished``). Run by Celery beat or
    ``manage.py run_clocks``; returns (started, advanced)."""
    return services.start_due_tournaments(), services.advance_finished_rounds()
