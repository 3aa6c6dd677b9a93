from django.urls import path

from . import views

urlpatterns = [
    path("settings/profile/", views.profile_edit, name="profile-edit"),
    path("settings/time-zone/", views.time_zone_edit, name="time-zone-edit"),
    path("settings/language/", views.language_set, name="set-language"),
    path("settings/time-zone/browser/", views.browser_time_zone, name="browser-time-zone"),
    path("settings/bots/", views.bot_accounts, name="bot-accounts"),
    path("settings/bots/<str:username>/token/", views.bot_token, name="bot-token"),
    path("settings/bots/<str:username>/unpause/", views.bot_unpause, name="bot-unpause"),
]
