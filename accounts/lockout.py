"""The one lockout of every way to log in, on django-axes (settings: "Login lockout").

Axes sees every call of ``django.contrib.auth.authenticate``: the site's form (allauth), the
API token endpoint and the admin's log-in. What this module adds to it:

- ``lockout_username``: the account an attempt is aimed at, the same whether it names the
  account by username or by e-mail address, so switching between them counts as one account.
- ``TieredDatabaseHandler``: axes' database handler with one limit per thing counted
  (``LOGIN_FAILURE_LIMITS``: an account from one address, one address, one account).
- ``lockout_response`` and ``lockout_explanation``: what a locked-out person is told, with the
  time from which they can try again.
"""

from __future__ import annotations

from datetime import datetime

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.db.models import Max, Sum
from django.shortcuts import render
from django.utils import timezone

from .models import User

# Where each way in puts the account's name: allauth's form ("login", passed on to
# authenticate as "username" or "email"), the admin and the API ("username").
LOGIN_FIELDS = ("username", "email", "login")


def lockout_username(request, credentials: dict | None) -> str | None:
    """The account an attempt is aimed at: its username in lower case, also when the attempt
    gave its e-mail address; an unknown name counts under itself."""
    login = next((credentials[field] for field in LOGIN_FIELDS if (credentials or {}).get(field)), None)
    if login is None:
        data = getattr(request, "data", None)  # a DRF request's parsed body
        if not hasattr(data, "get"):
            data = request.POST
        login = next((data.get(field) for field in LOGIN_FIELDS if data.get(field)), None)
    if not login:
        return None
    login = str(login).strip().lower()[:150]
    if "@" in login:
        username = User.objects.filter(email__iexact=login).values_list("username", flat=True).first()
        if username:
            return username.lower()
    return login


class TieredDatabaseHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit for each entry of ``AXES_LOCKOUT_PARAMETERS``
    (``LOGIN_FAILURE_LIMITS``) instead of one limit for all.

    Axes compares ``get_failures`` with ``AXES_FAILURE_LIMIT``; this handler reports each
    count on that scale (a count at its own limit reads as ``AXES_FAILURE_LIMIT``) and
    returns the highest, so the client is locked as soon as any one count reaches its limit.
    """

    def counts(self, request, credentials: dict | None = None) -> list[tuple[int, int, datetime | None]]:
        """(failures, limit, latest failure) of each thing counted, within the cool-off."""
        counted = self.get_user_attempts(request, credentials)
        rows = []
        for attempts, (_parameters, limit) in zip(counted, settings.LOGIN_FAILURE_LIMITS, strict=True):
            totals = attempts.aggregate(failures=Sum("failures_since_start"), latest=Max("attempt_time"))
            rows.append((totals["failures"] or 0, limit, totals["latest"]))
        return rows

    def get_failures(self, request, credentials: dict | None = None) -> int:
        scale = settings.AXES_FAILURE_LIMIT
        return max(failures * scale // limit for failures, limit, _latest in self.counts(request, credentials))

    def locked_until(self, request, credentials: dict | None = None) -> datetime:
        """When the client may try again: the cool-off after the latest failure of every
        count that is at its limit."""
        latest = [when for failures, limit, when in self.counts(request, credentials) if failures >= limit and when]
        return max(latest, default=timezone.now()) + get_cool_off(request)


def lockout_explanation(request, credentials: dict | None = None) -> tuple[str, int]:
    """What a locked-out client is told, and in how many seconds it may try again."""
    handler = AxesProxyHandler.get_implementation()
    until = handler.locked_until(request, credentials)
    seconds = max(1, int((until - timezone.now()).total_seconds()) + 1)
    minutes = -(-seconds // 60)
    message = (
        "Too many failed sign-ins for this account or from your address. "
        f"Try again after {until:%H:%M} UTC (in {minutes} minute{'s' if minutes != 1 else ''}), "
        "or set a new password with \u201cForgot your password?\u201d to unlock your account now."
    )
    return message, seconds


def lockout_response(request, *_ignored):
    """The page a locked-out person sees instead of the log-in form (the site's or the
    admin's): status 429, the reason and when to try again. Axes calls it with the original
    response and the credentials (their order differs between its sync and async paths);
    the credentials the handler kept on the request are used instead."""
    message, seconds = lockout_explanation(request, getattr(request, "axes_credentials", None))
    response = render(request, "accounts/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response
