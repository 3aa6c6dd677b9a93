"""What tournaments do when a match ends, and what they answer about their tables
(connected in ``TournamentsConfig.ready``)."""

from __future__ import annotations

import logging

from .models import Table
from .tasks import table_finished

log = logging.getLogger(__name__)


def match_finished(sender, match_id, **kwargs) -> None:
    """Sent after the match's result is committed. One indexed read; a tournament's match
    hands the work (standings, the round's advance) to a task."""
    row = Table.objects.filter(match_id=match_id).values_list("round__tournament_id", "round__number").first()
    if row is None:
        return
    table_finished.delay(*row)


def rematch_refused(sender, match_id, **kwargs) -> str | None:
    """A table is played again only as its tournament pairs it: no rematch outside it."""
    name = Table.objects.filter(match_id=match_id).values_list("round__tournament__name", flat=True).first()
    if name is None:
        return None
    return (
        f"This match was a table of the tournament “{name}”: its players meet again only as the tournament pairs them."
    )
