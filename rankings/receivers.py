"""What rankings do when a match ends (connected in ``RankingsConfig.ready``)."""

from __future__ import annotations

import logging

from .tasks import rate_match

log = logging.getLogger(__name__)


def match_finished(sender, match_id, **kwargs) -> None:
    """Queue the rating of a match that has just finished (the signal is sent after commit).

    A failure here must not spoil the move that ended the match: it is logged, and the
    periodic ``tasks.rate_unrated`` (or ``manage.py recompute_ratings``) rates any match left
    unrated.
    """
    try:
        rate_match.delay(match_id)
    except Exception:
        log.exception("Could not rate match %s", match_id)
