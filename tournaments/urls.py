from django.urls import path

from games import converters  # noqa: F401  (registers row_id)

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/<row_id:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<row_id:tournament_id>/edit/", views.tournament_edit, name="tournament-edit"),
    path("tournaments/<row_id:tournament_id>/join/", views.tournament_join, name="tournament-join"),
    path("tournaments/<row_id:tournament_id>/withdraw/", views.tournament_withdraw, name="tournament-withdraw"),
    path("tournaments/<row_id:tournament_id>/bots/", views.tournament_add_bot, name="tournament-add-bot"),
    path("tournaments/<row_id:tournament_id>/start/", views.tournament_start, name="tournament-start"),
    path("tournaments/<row_id:tournament_id>/cancel/", views.tournament_cancel, name="tournament-cancel"),
]
