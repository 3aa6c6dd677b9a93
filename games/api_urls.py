from django.urls import path
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.settings import api_settings

from . import api

urlpatterns = [
    # DRF's token view names its own parsers: given the site's, which bound JSON's size and depth.
    path("auth/token/", ObtainAuthToken.as_view(parser_classes=api_settings.DEFAULT_PARSER_CLASSES), name="api-token"),
    path("games/", api.games, name="api-games"),
    path("matches/", api.matches, name="api-matches"),
    path("matches/<int:match_id>/", api.match_detail, name="api-match"),
    path("matches/<int:match_id>/moves/", api.match_moves, name="api-match-moves"),
    path("matches/<int:match_id>/join/", api.match_join, name="api-match-join"),
    path("matches/<int:match_id>/actions/", api.match_actions, name="api-match-actions"),
    path("matches/<int:match_id>/seats/<int:index>/bot/", api.match_seat_bot, name="api-match-seat-bot"),
    path("matches/<int:match_id>/resign/", api.match_resign, name="api-match-resign"),
    path("matches/<int:match_id>/abort/", api.match_abort, name="api-match-abort"),
    path("matches/<int:match_id>/chat/", api.match_chat, name="api-match-chat"),
]
