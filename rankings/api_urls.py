from django.urls import path

from . import api

urlpatterns = [
    path("games/<slug:slug>/ranking/", api.GameRanking.as_view(), name="api-game-ranking"),
    path("players/<str:username>/ratings/", api.PlayerRatings.as_view(), name="api-player-ratings"),
    path(
        "players/<str:username>/ratings/<slug:slug>/history/",
        api.PlayerRatingHistory.as_view(),
        name="api-player-rating-history",
    ),
]
