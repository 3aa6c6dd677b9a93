"""The accounts app's reactions to other apps' signals: signing out and a deactivated account
close the person's sockets (a new password does so through ``passwords``); signing in
brings the person's language into the session."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from . import services
from .middleware import LANGUAGE_SESSION_KEY
from .models import User


def close_session_sockets(sender: Any, *, request: HttpRequest, user: User | None, **kwargs: Any) -> None:
    """Signed out (Django's ``user_logged_out``, sent before the session is flushed): the
    sockets of that session close, the person's other sessions keep theirs."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session_key:
        services.user_close_sockets(user=user, session_key=session_key)


def close_sockets_of_deactivated(
    sender: Any, *, instance: User, created: bool, update_fields: frozenset[str] | None, **kwargs: Any
) -> None:
    """An account saved as inactive (the admin's "active" box, a script): its sockets close.
    Saves that leave ``is_active`` out of their ``update_fields`` are not about it."""
    if created or instance.is_active or (update_fields is not None and "is_active" not in update_fields):
        return
    services.user_close_sockets(user=instance)


def remember_language(sender: Any, *, request: HttpRequest, user: User, **kwargs: Any) -> None:
    """Signed in (Django's ``user_logged_in``): the session keeps the person's saved language,
    which then comes before the browser's on every page (``LanguageMiddleware``)."""
    session = getattr(request, "session", None)
    if session is not None:
        session[LANGUAGE_SESSION_KEY] = user.language
