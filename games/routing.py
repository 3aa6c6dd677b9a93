from django.urls import path

from .consumers import MatchConsumer
from .lobby import LobbyConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
