"""Celery tasks of the notifications app: ids in, safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

from . import services

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=3, retry_backoff=True)
def notify_match_finished(match_id: int) -> int:
    return len(services.notify_match_finished(match_id=match_id))


@shared_task(acks_late=True, soft_time_limit=50, time_limit=60)
def notify_untold_finished_matches() -> int:
    """Tell the people of the finished matches whose notification task was lost (the broker
    was down when they ended); returns how many matches. Run by Celery beat or ``manage.py
    run_clocks``."""
    return services.untold_finished_matches_notify()


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=3, retry_backoff=True)
def notify_forum_reply(post_id: int) -> int:
    return len(services.notify_forum_reply(post_id=post_id))


@shared_task(acks_late=True, soft_time_limit=50, time_limit=60)
def sweep_your_turn() -> int:
    """Celery beat (or ``manage.py run_clocks``) every minute: notify the correspondence
    matches waiting for someone, and queue one your-turn e-mail per person who may be owed
    one (the mail task decides, under a lock, what the message lists, if anything)."""
    people = services.your_turn_sweep()
    for user_id in people:
        try:
            send_turn_mail.delay(user_id)
        except Exception:
            log.exception("Could not queue the your-turn e-mail of user %s", user_id)
    return len(people)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=3, retry_backoff=True)
def send_turn_mail(user_id: int) -> int:
    return services.turn_mail_send(user_id=user_id)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=3, retry_backoff=True)
def send_notice_mail(notification_id: int) -> bool:
    return services.notice_mail_send(notification_id=notification_id)
