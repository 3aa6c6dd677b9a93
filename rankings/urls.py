from django.urls import path

from . import views

urlpatterns = [
    path("hall-of-fame/", views.hall_of_fame, name="hall-of-fame"),
    path("games/<slug:slug>/ranking/", views.game_ranking, name="game-ranking"),
    path("stats/", views.stats, name="stats"),
]
