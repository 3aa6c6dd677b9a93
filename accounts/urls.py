from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.player, name="player"),
    path("settings/profile/", views.profile_edit, name="profile-edit"),
]
