"""Celery tasks: ids in, safe to retry (rating a match twice changes nothing)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=20,
    time_limit=30,
)
def rate_match(self, match_id: int) -> int:
    """Rate a finished match; returns how many players' ratings changed (0 if it was done)."""
    return len(services.match_rate(match_id=match_id))


@shared_task(acks_late=True)
def rate_unrated() -> int:
    """Rate the finished rated matches whose rating task was lost (the broker was down when
    they ended); returns how many. Run by Celery beat or ``manage.py run_clocks``."""
    return services.unrated_matches_rate()


@shared_task(acks_late=True, soft_time_limit=540, time_limit=600)
def recompute_ratings(game: str | None = None) -> int:
    """Replay every finished rated match (of one game, or all); returns the matches rated."""
    return services.ratings_recompute(game=game)
