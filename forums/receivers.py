"""What the forums do when something happens elsewhere (connected in ``ForumsConfig.ready``)."""

from __future__ import annotations

from .services import forum_ensure_for_games


def ensure_forums(sender, using="default", apps=None, **kwargs) -> None:
    """After every migrate: a game added to the registry gets its forum."""
    try:
        if apps is not None:
            apps.get_model("forums", "Forum")  # absent when migrating the forums app backwards
    except LookupError:
        return
    forum_ensure_for_games(using=using)
