"""Each request in its viewer's zone (``accounts.time_zones``)."""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils import timezone

from .time_zones import ViewerZone

API_PREFIX = "/api/"


class TimeZoneMiddleware:
    """Activates the viewer's zone for the request: their saved zone, else the browser's
    (the ``tz`` cookie), else UTC. It reads no account itself: the zone settles the first
    time a time is printed, from the account the page has loaded by then. Async-capable: in
    an async stack it runs in the event loop, and the zone (a context variable) follows the
    request into the threads it uses. The API speaks UTC whoever asks: its clients get the
    same ISO times from every session."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

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
