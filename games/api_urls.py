from django.urls import path

from accounts.api import obtain_auth_token

from . import api, converters, streams  # noqa: F401  (registers row_id)

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("games/", api.games, name="api-games"),
    path("matches/", api.matches, name="api-matches"),
    path("matches/export/", api.matches_export, name="api-matches-export"),
    path("matches/import/", api.matches_import, name="api-matches-import"),
    path("players/<str:username>/matches/export/", api.player_matches_export, name="api-player-matches-export"),
    path("matches/<row_id:match_id>/", api.match_detail, name="api-match"),
    path("matches/<row_id:match_id>/moves/", api.match_moves, name="api-match-moves"),
    path("matches/<row_id:match_id>/export/", api.match_export, name="api-match-export"),
    path("matches/<row_id:match_id>/stream/", streams.match_stream, name="api-match-stream"),
    path("matches/<row_id:match_id>/analysis/", api.match_analysis, name="api-match-analysis"),
    path("matches/<row_id:match_id>/analysis/status/", api.match_analysis_status, name="api-match-analysis-status"),
    path("matches/<row_id:match_id>/join/", api.match_join, name="api-match-join"),
    path("matches/<row_id:match_id>/actions/", api.match_actions, name="api-match-actions"),
    path("matches/<row_id:match_id>/seats/<int:index>/bot/", api.match_seat_bot, name="api-match-seat-bot"),
    path("matches/<row_id:match_id>/resign/", api.match_resign, name="api-match-resign"),
    path("matches/<row_id:match_id>/abort/", api.match_abort, name="api-match-abort"),
    path("matches/<row_id:match_id>/chat/", api.match_chat, name="api-match-chat"),
    path("matches/<row_id:match_id>/takeback/", api.match_takeback, name="api-match-takeback"),
    path("matches/<row_id:match_id>/takeback/answer/", api.match_takeback_answer, name="api-match-takeback-answer"),
]
