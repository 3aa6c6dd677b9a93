"""Each request in its viewer's zone (``accounts.time_zones``) and language."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils import timezone, translation

from portal import page_cache
from portal.languages import SUPPORTED, accepted_language

from .time_zones import ViewerZone

API_PREFIX = "/api/"


class _SyncAndAsync:
    """A middleware that runs in the event loop under an async stack (``__acall__``) and in
    the request's thread under a sync one (``__call__``)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)  # type: ignore[type-var]  # an instance made awaitable, as Django does


class TimeZoneMiddleware(_SyncAndAsync):
    """Activates the viewer's zone for the request: their saved zone, else the browser's
    (the ``tz`` cookie), else UTC. It reads no account itself: the zone settles the first
    time a time is printed, from the account the page has loaded by then. Async-capable: in
    an async stack it runs in the event loop, and the zone (a context variable) follows the
    request into the threads it uses. The API speaks UTC whoever asks: its clients get the
    same ISO times from every session."""

    def __call__(self, request):
        if self.async_mode:
            return self.__acall__(request)
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        timezone.activate(ViewerZone(request))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    async def __acall__(self, request):
        if request.path_info.startswith(API_PREFIX):
            return await self.get_response(request)
        timezone.activate(ViewerZone(request))
        try:
            return await self.get_response(request)
        finally:
            timezone.deactivate()


# The session's copy of the signed-in person's saved language (empty: none saved), put there
# when they sign in and when they choose one, so that no page loads the account to know it.
LANGUAGE_SESSION_KEY = "_language"


class LanguageMiddleware(_SyncAndAsync):
    """After Django's ``LocaleMiddleware`` (which has chosen the language cookie, else the
    browser's Accept-Language, else English): a signed-in person's saved language over both,
    read from their session. The API's messages follow its client's Accept-Language only
    (English without one the site speaks): neither the site's cookie nor a saved choice,
    so that one client gets the same answers from every session. Its codes never change."""

    @staticmethod
    def _activate(request, saved: str | None) -> None:
        if request.path_info.startswith(API_PREFIX):
            saved = accepted_language(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))
        if saved in SUPPORTED:
            translation.activate(saved)
            request.LANGUAGE_CODE = saved

    @staticmethod
    def _session(request):
        """The session to read a saved language from: none for the API, which never uses it."""
        return None if request.path_info.startswith(API_PREFIX) else getattr(request, "session", None)

    def __call__(self, request):
        if self.async_mode:
            return self.__acall__(request)
        session = self._session(request)
        saved = session.get(LANGUAGE_SESSION_KEY) if session is not None else None
        self._activate(request, saved)
        return self.get_response(request)

    async def __acall__(self, request):
        session = self._session(request)
        saved = None
        if session is not None:
            # The session comes with the generations the page will ask for: one round trip.
            await page_cache.prefetch(request)
            saved = await session.aget(LANGUAGE_SESSION_KEY)
        self._activate(request, saved)
        return await self.get_response(request)
