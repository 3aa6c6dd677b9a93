from django.urls import path

from . import converters, learn_views, views  # noqa: F401  (converters registers row_id)

urlpatterns = [
    path("games/", views.game_list, name="game-list"),
    path("games/<slug:slug>/rules/", views.game_rules, name="game-rules"),
    path("games/<slug:slug>/learn/", learn_views.learn_page, name="game-learn"),
    path("games/<slug:slug>/learn/move/", learn_views.learn_move, name="game-learn-move"),
    path("games/<slug:slug>/learn/restart/", learn_views.learn_restart, name="game-learn-restart"),
    path("games/<slug:slug>/learn/<slug:lesson>/", learn_views.learn_page, name="game-lesson"),
    path("games/<slug:slug>/learn/<slug:lesson>/move/", learn_views.learn_move, name="game-lesson-move"),
    path("games/<slug:slug>/learn/<slug:lesson>/restart/", learn_views.learn_restart, name="game-lesson-restart"),
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.match_new, name="match-new"),
    path("play/computer/", views.play_computer, name="play-computer"),
    path("play/mine/", views.my_matches, name="my-matches"),
    path("matches/<row_id:match_id>/", views.match_page, name="match"),
    path("matches/<row_id:match_id>/join/", views.match_join_view, name="match-join"),
    path("matches/<row_id:match_id>/leave/", views.match_leave_view, name="match-leave"),
    path("matches/<row_id:match_id>/bots/", views.match_fill_bots_view, name="match-fill-bots"),
    path("matches/<row_id:match_id>/resign/", views.match_resign_view, name="match-resign"),
    path("matches/<row_id:match_id>/abort/", views.match_abort_view, name="match-abort"),
    path("matches/<row_id:match_id>/analysis/", views.match_analysis_view, name="match-analysis"),
    path(
        "matches/<row_id:match_id>/analysis/request/", views.match_analysis_request_view, name="match-analysis-request"
    ),
    path("matches/<row_id:match_id>/replay.json", views.match_replay, name="match-replay"),
    path("matches/<row_id:match_id>/record.json", views.match_record, name="match-record"),
    path("matches/<row_id:match_id>/record.tgr", views.match_record_text, name="match-record-text"),
    path("i/<str:token>/", views.match_invite, name="match-invite"),
]
