"""What games does when something it listens for happens (connected in ``GamesConfig.ready``)."""

from __future__ import annotations

import live
from live.events import lobby_changed
from live.groups import LOBBY_GROUP

from . import tasks
from .services import outages


def queue_bot(sender, match_id: int, version: int, **kwargs) -> None:
    """A bot is to act at ``version``: queue its move (``tasks.schedule_bot``)."""
    tasks.schedule_bot(match_id, version)


def queue_analysis(sender, analysis_id: int, **kwargs) -> None:
    """An analysis was asked for: hand it to the workers of the ``analysis`` queue."""
    tasks.start_analysis(analysis_id)


def tell_lobby(sender, match_id: int, **kwargs) -> None:
    """The open matches changed (after commit): every open lobby page fetches its list again.
    The message carries no data: the page asks for its own page of the list, with its filters,
    which the page cache answers."""
    live.publish_on_commit(LOBBY_GROUP, lobby_changed())


def note_outage(sender, **kwargs) -> None:
    """A message could not go out and the live path is down: the clocks stop."""
    outages.outage_begin()
