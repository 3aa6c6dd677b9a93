"""Times on pages: ``{% local_time when %}`` and the page's zone for static/js/times.js."""

from datetime import UTC

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import gettext

from accounts import time_zones

register = template.Library()

FORMATS = {"datetime": "j M Y, H:i T", "date": "j M Y"}


@register.simple_tag
def local_time(when, how: str = "datetime"):
    """``<time datetime="ISO in UTC">`` around the time in the zone being rendered for (UTC in
    the shared, cached parts of pages), which the page's script shows in the viewer's zone.
    ``how``: "datetime" (27 Nov 2026, 18:00 JST), "date" (27 Nov 2026) or "relative" (in 3
    hours; the date in its title)."""
    if when is None:
        return ""
    iso = when.astimezone(UTC).isoformat().replace("+00:00", "Z")
    shown = timezone.localtime(when)
    full = date_format(shown, FORMATS["datetime"])
    if how == "relative":
        now = timezone.now()
        if when > now:
            words = gettext("in %(time)s") % {"time": timeuntil(when, now, depth=1)}
        else:
            words = gettext("%(time)s ago") % {"time": timesince(when, now, depth=1)}
        return format_html('<time datetime="{}" data-local="relative" title="{}">{}</time>', iso, full, words)
    return format_html('<time datetime="{}" data-local="{}">{}</time>', iso, how, date_format(shown, FORMATS[how]))


@register.simple_tag(takes_context=True)
def time_zone_attributes(context):
    """The page's zone for its script: the viewer's saved or kept zone (data-time-zone), or,
    when none is known yet, where to save the browser's (data-time-zone-save: the address for
    a signed-in person, empty for a visitor, whose browser keeps it in a cookie)."""
    request = context.get("request")
    user = context.get("user")
    if user is not None and user.is_authenticated:
        if time_zones.is_zone(user.time_zone):
            return format_html('data-time-zone="{}"', user.time_zone)
        return format_html('data-time-zone-save="{}"', reverse("browser-time-zone"))
    kept = time_zones.cookie_zone_name(request) if request is not None else None
    if kept:
        return format_html('data-time-zone="{}"', kept)
    return format_html('data-time-zone-save="" data-time-zone-cookie="{}"', settings.TIME_ZONE_COOKIE_NAME)
