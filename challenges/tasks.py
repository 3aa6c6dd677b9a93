from celery import shared_task

from . import services


@shared_task(acks_late=True)
def expire_challenges() -> int:
    """Expire the challenges and rematch offers left unanswered for a day. Run by Celery beat
    or ``manage.py run_clocks``."""
    return services.expire_due()
