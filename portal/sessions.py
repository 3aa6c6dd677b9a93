"""The session store: Django's ``cached_db`` (written to the database, read through the cache),
reading through the one cache object of the process.

Django looks the cache up per request context, and under ASGI every request is a context of its
own: each request would make a new cache object, with its client, only to read one key. The
page cache's object (``portal.page_cache``) serves every request of the process instead; its
reads in async code stay in the event loop (``portal.cache``)."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DBStore

from .page_cache import shared_cache


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key=None):
        DBStore.__init__(self, session_key)  # cached_db's own only looks the cache up
        self._cache = shared_cache()
