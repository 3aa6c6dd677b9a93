import logging

from django.apps import AppConfig

log = logging.getLogger(__name__)


def enqueue_rating(sender, match_id, **kwargs):
    """Queue the rating of a match that has just finished (the signal is sent after commit).

    A failure here must not spoil the move that ended the match: it is logged, and
    ``manage.py recompute_ratings`` repairs any match left unrated.
    """
    from .tasks import rate_match

    try:
        rate_match.delay(match_id)
    except Exception:
        log.exception("Could not rate match %s", match_id)


class RankingsConfig(AppConfig):
    name = "rankings"

    def ready(self):
        from games.signals import match_finished

        match_finished.connect(enqueue_rating, dispatch_uid="rankings.enqueue_rating")
