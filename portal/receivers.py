"""What moves the page cache's generations (connected in ``PortalConfig.ready``): the
cached fragments of pages go stale exactly when what they show changes."""

from __future__ import annotations

from games.models import Match

from .page_cache import bump, bump_on_commit, viewer_area


def match_finished(sender, match_id, game: str | None = None, **kwargs) -> None:
    if game is None:  # one indexed read, once per match: the signal names the match only
        game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    bump("finished", *([f"finished:{game}"] if game else []))


def open_matches_changed(sender, match_id, **kwargs) -> None:
    bump("open")


SHOWN_USER_FIELDS = {"username", "is_bot"}


def user_saved(sender, instance, created, update_fields=None, raw=False, **kwargs) -> None:
    if created or raw:  # a new account shows nowhere yet
        return
    # Whatever changed (a password, a name, the rights, deactivation): the account's sessions
    # are checked afresh on their next page, and their pages show it.
    bump_on_commit(viewer_area(instance.pk))
    # The others see only the name and the bot flag; a log-in or a profile edit saves other fields.
    if update_fields is None or SHOWN_USER_FIELDS & set(update_fields):
        bump_on_commit("people")


def user_deleted(sender, instance, **kwargs) -> None:
    bump_on_commit("people", viewer_area(instance.pk))


def forum_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:
        bump_on_commit("forums")
