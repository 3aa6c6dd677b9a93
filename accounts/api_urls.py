from django.urls import path

from . import api

urlpatterns = [
    path("bots/", api.bot_accounts, name="api-bots"),
    path("bots/<str:username>/token/", api.bot_token, name="api-bot-token"),
    path("bots/<str:username>/unpause/", api.bot_unpause, name="api-bot-unpause"),
]
