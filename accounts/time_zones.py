"""Time zones: which names a person may choose, and the zone a request is shown in.

Times are stored in UTC; each page shows them in its viewer's zone. A person's zone is the
one saved on their account (``User.time_zone``), else the one their browser reported in the
``tz`` cookie (set by ``static/js/times.js`` on the first visit), else UTC. A signed-in
person with no zone saved gets their browser's saved once, by the same script.
"""

from __future__ import annotations

import asyncio
import functools
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError

ZONE_HINT = "choose one from the list, such as Europe/Paris or Asia/Tokyo."


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone name a person may choose (the IANA database's, as ``zoneinfo`` knows it)."""
    return frozenset(available_timezones())


@functools.cache
def choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zone_names())]


def is_zone(name: object) -> bool:
    return isinstance(name, str) and name in zone_names()


def validate_time_zone(name: str) -> None:
    if name and not is_zone(name):
        raise ValidationError(
            "%(name)s is not a time zone we know: " + ZONE_HINT,
            code="invalid_time_zone",
            params={"name": name[:64]},
        )


def zone(name: str | None) -> ZoneInfo:
    """The zone ``name`` names, UTC for none or an unknown one."""
    return ZoneInfo(name) if name and is_zone(name) else ZoneInfo("UTC")


def user_zone(user) -> ZoneInfo:
    """The zone a person's mails state times in: their saved zone, else UTC."""
    return zone(getattr(user, "time_zone", ""))


def cookie_zone_name(request) -> str | None:
    name = request.COOKIES.get(settings.TIME_ZONE_COOKIE_NAME)
    return name if is_zone(name) else None


def _loaded_user(request):
    """The request's account if it is loaded already (or can be loaded here without leaving an
    event loop); None otherwise."""
    for attribute in ("_cached_user", "_acached_user"):
        user = getattr(request, attribute, None)
        if user is not None:
            return user
    if not hasattr(request, "user"):
        return None
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return request.user  # a sync request: the account, loaded once for the whole page
    return None


def request_zone_name(request) -> str:
    """The zone ``request`` is shown in: its person's saved zone, else its cookie's, else UTC."""
    user = _loaded_user(request)
    if user is not None and user.is_authenticated and is_zone(user.time_zone):
        return user.time_zone
    return cookie_zone_name(request) or "UTC"


class ViewerZone(tzinfo):
    """The zone of one request, settled on first use: a page that prints no time never asks,
    and one that does has read its account by then (its header shows the name), so the zone
    costs no query of its own. Otherwise it behaves as the ``ZoneInfo`` it settles on."""

    def __init__(self, request):
        self._request = request
        self._zone: ZoneInfo | None = None

    @property
    def settled(self) -> ZoneInfo:
        if self._zone is None:
            self._zone = ZoneInfo(request_zone_name(self._request))
        return self._zone

    def utcoffset(self, dt):
        return self.settled.utcoffset(dt)

    def dst(self, dt):
        return self.settled.dst(dt)

    def tzname(self, dt):
        return self.settled.tzname(dt)

    def fromutc(self, dt: datetime) -> datetime:
        return dt.replace(tzinfo=UTC).astimezone(self.settled)

    def __reduce__(self):
        # A time a form read in this zone may be copied or pickled (a cached object): it
        # goes as the zone itself, never with the request.
        return (ZoneInfo, (self.settled.key,))

    def __str__(self) -> str:
        return self.settled.key

    def __repr__(self) -> str:
        return f"ViewerZone({self._zone!r})"
