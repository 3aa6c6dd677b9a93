"""What tournaments do when a match ends (connected in ``TournamentsConfig.ready``)."""

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
