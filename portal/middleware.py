"""The site's middleware, each able to serve an async view without leaving the event loop.

Under ASGI a middleware that is not async-capable makes Django run it, and everything below
it, through a thread; and Django's own middleware, though async-capable, runs its
``process_request`` and ``process_response`` through ``sync_to_async`` on every request (its
``MiddlewareMixin.__acall__``), as Django does for every ``process_view`` that is not a
coroutine: a thread hand-off each, a few tens of microseconds of two context switches and the
GIL passed back and forth, several times per request.

Most of these hooks only compute: they read the request's headers and cookies and write
response headers. The classes here are the same middleware, run in the event loop when they
are in async mode; the two hooks that can wait on the session store (the session's save, the
messages kept in the session) still go to a thread, but only when they would actually reach
the store: a session to save, or one not loaded yet. In sync mode (the test client, a sync
handler) they are the originals, but for the CSP header of the settings, built once.
"""

from __future__ import annotations

from collections.abc import Awaitable
from http import HTTPStatus
from typing import cast

from asgiref.sync import sync_to_async
from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as _CSPMiddleware
from csp.utils import build_policy as csp_build_policy
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware as _AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware as _MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware as _SessionMiddleware
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware as _XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware as _CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware as _CsrfViewMiddleware
from django.middleware.locale import LocaleMiddleware as _LocaleMiddleware
from django.middleware.security import SecurityMiddleware as _SecurityMiddleware
from django.utils.deprecation import MiddlewareMixin

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def session_in_memory(request) -> bool:
    """Whether reading or writing ``request.session`` can happen without the session store:
    there is none, it has no key yet (a new, empty one) or it is loaded already."""
    session = getattr(request, "session", None)
    return session is None or session.session_key is None or hasattr(session, "_session_cache")


class InLoop(MiddlewareMixin):
    """Async mode for a ``MiddlewareMixin`` whose hooks compute only: ``process_request``
    and ``process_response`` called in the event loop rather than through a thread each.
    ``response_in_loop`` says, per response, whether ``process_response`` may run here."""

    async def __acall__(self, request):
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        # In async mode (the only one that comes here) the next handler is a coroutine.
        response = response or await cast(Awaitable[HttpResponseBase], self.get_response(request))
        if hasattr(self, "process_response"):
            if self.response_in_loop(request, response):
                response = self.process_response(request, response)
            else:
                response = await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
        return response

    def response_in_loop(self, request, response) -> bool:
        return True


class SecurityMiddleware(InLoop, _SecurityMiddleware):
    pass


class CSPMiddleware(InLoop, _CSPMiddleware):
    """django-csp's, with the policy of the settings built once per process: a response that
    asks for nothing of its own (no nonce used, no policy of its view, no exemption) gets the
    header django-csp would build, without building it on every request (the costliest step of
    a trivial request). Any other response is django-csp's own affair."""

    _OWN_POLICY = (
        "_csp_config",
        "_csp_update",
        "_csp_replace",
        "_csp_config_ro",
        "_csp_update_ro",
        "_csp_replace_ro",
        "_csp_exempt",
        "_csp_exempt_ro",
    )
    _HEADERS = (
        (HEADER, False, "CONTENT_SECURITY_POLICY"),
        (HEADER_REPORT_ONLY, True, "CONTENT_SECURITY_POLICY_REPORT_ONLY"),
    )

    def _settings_policy(self, report_only: bool, setting: str) -> str:
        """The policy of the settings, built again only when the setting is another object."""
        config = getattr(settings, setting, None)
        built = self.__dict__.setdefault("_built", {})
        if report_only not in built or built[report_only][0] is not config:
            built[report_only] = (config, csp_build_policy(report_only=report_only))
        return built[report_only][1]

    def process_response(self, request, response):
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in self._OWN_POLICY)
            or (settings.DEBUG and response.status_code in (HTTPStatus.INTERNAL_SERVER_ERROR, HTTPStatus.NOT_FOUND))
        ):
            return super().process_response(request, response)
        for header, report_only, setting in self._HEADERS:
            policy = self._settings_policy(report_only, setting)
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES", None) or ()
            if policy and header not in response and not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


class SessionMiddleware(InLoop, _SessionMiddleware):
    def response_in_loop(self, request, response) -> bool:
        # The original saves the session only when it was modified (or on every request when
        # so configured) and is not empty: only then does it reach the store.
        session = getattr(request, "session", None)
        if session is None:
            return True
        return session.is_empty() or not (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)


class LocaleMiddleware(InLoop, _LocaleMiddleware):
    """The language from the cookie or Accept-Language, activated for the request (a context
    variable, which follows the request into the threads it uses)."""


class CommonMiddleware(InLoop, _CommonMiddleware):
    pass


class CsrfViewMiddleware(InLoop, _CsrfViewMiddleware):
    """CSRF checks in the event loop for the safe methods, which read no body; a form's POST
    (the body parsed, the token compared) goes to a thread as before. The token lives in its
    cookie (``CSRF_USE_SESSIONS`` off, Django's default), never in the session store."""

    def __init__(self, get_response):
        if settings.CSRF_USE_SESSIONS:
            raise ImproperlyConfigured(f"{__name__}.CsrfViewMiddleware reads the CSRF token from its cookie only.")
        super().__init__(get_response)
        if self.async_mode:
            # Django adapts a sync process_view with sync_to_async for every request.
            self.process_view = self.aprocess_view  # type: ignore[method-assign, assignment]

    async def aprocess_view(self, request, callback, callback_args, callback_kwargs):
        process_view = _CsrfViewMiddleware.process_view
        if request.method in SAFE_METHODS:
            return process_view(self, request, callback, callback_args, callback_kwargs)
        return await sync_to_async(process_view, thread_sensitive=True)(
            self, request, callback, callback_args, callback_kwargs
        )


class AuthenticationMiddleware(InLoop, _AuthenticationMiddleware):
    pass


class MessageMiddleware(InLoop, _MessageMiddleware):
    def response_in_loop(self, request, response) -> bool:
        # Messages that did not fit the cookie are kept in the session.
        return session_in_memory(request)


class XFrameOptionsMiddleware(InLoop, _XFrameOptionsMiddleware):
    pass
