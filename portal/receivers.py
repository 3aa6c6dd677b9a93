"""What moves the page cache's generations (connected in ``PortalConfig.ready``): the
cached fragments of pages go stale exactly when what they show changes."""

from __future__ import annotations

from games.models import Match

from .page_cache import bump, bump_on_commit


def match_finished(sender, match_id, game: str | None = None, **kwargs) -> None:
    if game is None:  # one indexed read, once per match: the signal names the match only
        game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    bump("finished", *([f"finished:{game}"] if game else []))


def open_matches_changed(sender, match_id, **kwargs) -> None:
    bump("open")


SHOWN_USER_FIELDS = {"username", "is_bot"}


def user_saved(sender, instance, created, update_fields=None, raw=False, **kwargs) -> None:
    # A new account shows nowhere yet; a log-in or a profile edit saves other fields only.
    if created or raw or (update_fields is not None and not SHOWN_USER_FIELDS & set(update_fields)):
        return
    bump_on_commit("people")


def user_deleted(sender, instance, **kwargs) -> None:
    bump_on_commit("people")


def forum_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:
        bump_on_commit("forums")
