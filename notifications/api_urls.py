from django.urls import path

from . import api, streams

urlpatterns = [
    path("notifications/", api.NotificationList.as_view(), name="api-notifications"),
    path("stream/events/", streams.event_stream, name="api-stream-events"),
]
