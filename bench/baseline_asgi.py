"""The bare Channels broadcast that ``bench/live.py`` measures the portal against.

One consumer and nothing else: no session, no authentication, no database, no origin check.
A socket joins the room of its URL (``/ws/rooms/<n>/``) and every frame it sends is
group-sent, unchanged, to every socket of that room, the sender included. It runs on the
same channel layer as the portal (``channels_redis.pubsub.RedisPubSubChannelLayer`` on
``REDIS_URL``, under its own prefix ``BASELINE_CHANNEL_PREFIX``) and is served by the same
uvicorn::

    uvicorn bench.baseline_asgi:application --host 127.0.0.1 --port 8100 --workers 2

Any HTTP request gets ``ok``, so the benchmark can tell when the server is up.
"""

from __future__ import annotations

import os

import django
from django.conf import settings

if not settings.configured:
    settings.configure(
        DEBUG=False,
        INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {
                    "hosts": [os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/2")],
                    "prefix": os.environ.get("BASELINE_CHANNEL_PREFIX", "benchbase"),
                },
            }
        },
    )
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RoomConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"room-{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "room.message", "text": text_data or ""})

    async def room_message(self, event):
        await self.send(text_data=event["text"])


async def ok(scope, receive, send):
    if scope["type"] != "http":
        raise ValueError(f"no {scope['type']} here")
    headers = [(b"content-type", b"text/plain"), (b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": ok,
        "websocket": URLRouter([path("ws/rooms/<int:room>/", RoomConsumer.as_asgi())]),
    }
)
