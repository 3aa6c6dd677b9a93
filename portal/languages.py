"""Which of the site's languages a request or a socket is in, for what the middleware does not
decide itself: the API's (its client's Accept-Language only) and a socket's (the page's)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

SUPPORTED = frozenset(code for code, _name in settings.LANGUAGES)


def accepted_language(accept_language: str) -> str:
    """The first language of an Accept-Language header the site speaks; English when it
    names none (or is empty)."""
    for code, _quality in parse_accept_lang_header(accept_language):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return "en"


def socket_language(scope: dict[str, Any]) -> str:
    """The language of the page that opened a socket, as the middleware chose it for the page
    (``accounts.middleware``): the signed-in person's saved language (on the user the
    handshake loaded), else the language cookie, else the browser's Accept-Language, else
    English."""
    user = scope.get("user")
    saved = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    if saved in SUPPORTED:
        return saved
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie:
        try:
            return translation.get_supported_language_variant(cookie)
        except LookupError:
            pass
    headers = dict(scope.get("headers", ()))
    return accepted_language(headers.get(b"accept-language", b"").decode("latin-1"))


def user_language(user: Any, default: str | None = None) -> str:
    """The language to write to ``user`` in when no page asks (an e-mail, a notice from a
    task): the one saved on their account, else ``default``, else the site's
    (``LANGUAGE_CODE``)."""
    saved = getattr(user, "language", "") if user is not None else ""
    if saved in SUPPORTED:
        return saved
    return default or settings.LANGUAGE_CODE
