"""Revoked means revoked: what a socket knows of its person's sign-in, and how the end of that
sign-in reaches the sockets.

A socket is signed in by the session cookie of its handshake (Channels' auth middleware) and
has no later request to check it again. Django ends a sign-in two ways: a new password (or a
deactivated account) fails every session of the person on its next request, and signing out
deletes one session. So the writes that end a sign-in (``accounts``) also call
``close_user_sockets``: once committed, ``events.sockets_revoked`` goes to the person's group
(``groups.user_sockets_group``, which every signed-in ``JsonSocket`` joins) and each socket
concerned closes with ``SIGNED_OUT``. Should that message be lost on the way (the layer is
at most once), each socket checks its sign-in again before every frame that writes
(``Credentials.still_valid``, in the database thread of that write).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db.models import Exists
from django.utils import timezone
from rest_framework.authtoken.models import Token

from .events import sockets_revoked
from .groups import user_sockets_group
from .publishing import publish_on_commit

# The close code of a socket whose sign-in ended: the pages say "you were signed out" and
# stop reconnecting (4000-4999 are the application's own; 4401 as HTTP's 401).
SIGNED_OUT = 4401


def session_digest(session_key: str) -> str:
    """How a message names one session: never by its key, which signs a browser in."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def close_user_sockets(user_id: int, *, session_key: str | None = None) -> None:
    """Close every socket of the person ``user_id`` (a new password, a deactivated account) or,
    with ``session_key``, those of that one session (signing out), once the current
    transaction commits; at once outside one."""
    session = session_digest(session_key) if session_key else None
    publish_on_commit(user_sockets_group(user_id), sockets_revoked(session=session))


@cache
def _session_store() -> type[SessionBase]:
    return import_module(settings.SESSION_ENGINE).SessionStore


@dataclass(frozen=True, slots=True)
class Credentials:
    """The sign-in a socket was opened with: the person, the password hash they had then and
    the session of the handshake (None when the socket was signed in otherwise), or the API
    token it sent (``scope["api_token"]``: a bot's socket)."""

    user_id: int
    password: str
    session_key: str | None
    token: str | None = None

    @classmethod
    def of(cls, scope: dict[str, Any]) -> Credentials | None:
        """The sign-in of a socket's ``scope``; None for an anonymous socket."""
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        token = scope.get("api_token")
        if token is not None:
            return cls(user.pk, user.password, None, token)
        session = scope.get("session")
        return cls(user.pk, user.password, getattr(session, "session_key", None) if session is not None else None)

    @property
    def session(self) -> str | None:
        return session_digest(self.session_key) if self.session_key else None

    def still_valid(self) -> bool:
        """Whether the sign-in still stands: the account is active, its password the same, and
        the session not ended. One query on a database-backed session store (``db``,
        ``cached_db``): the user row by its primary key with the session row's existence by
        its key, both indexed; with another store, the store's own check as well. Sync: call
        it in a database thread."""
        users = get_user_model().objects.filter(pk=self.user_id)
        if self.token is not None:  # a new password or a token issued anew deletes it
            tokens = Token.objects.filter(key=self.token, user_id=self.user_id)
            row = users.annotate(alive=Exists(tokens)).values_list("password", "is_active", "alive").first()
            return row is not None and row[0] == self.password and bool(row[1]) and bool(row[2])
        store = _session_store()
        if self.session_key is not None and issubclass(store, DatabaseSessionStore):
            sessions = store.get_model_class().objects.filter(
                session_key=self.session_key, expire_date__gt=timezone.now()
            )
            row = users.annotate(alive=Exists(sessions)).values_list("password", "is_active", "alive").first()
            return row is not None and row[0] == self.password and bool(row[1]) and bool(row[2])
        account = users.values_list("password", "is_active").first()
        if account is None or account[0] != self.password or not account[1]:
            return False
        return self.session_key is None or bool(store().exists(self.session_key))
