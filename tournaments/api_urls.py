from django.urls import path

from games import converters  # noqa: F401  (registers row_id)

from . import api

urlpatterns = [
    path("tournaments/", api.TournamentList.as_view(), name="api-tournaments"),
    path("tournaments/<row_id:tournament_id>/", api.tournament_detail, name="api-tournament"),
    path("tournaments/<row_id:tournament_id>/join/", api.tournament_join, name="api-tournament-join"),
    path("tournaments/<row_id:tournament_id>/withdraw/", api.tournament_withdraw, name="api-tournament-withdraw"),
    path("tournaments/<row_id:tournament_id>/standings/", api.tournament_standings, name="api-tournament-standings"),
]
