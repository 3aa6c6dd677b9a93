from django.urls import path

from games import converters  # noqa: F401  (registers row_id)

from . import api

urlpatterns = [
    path("challenges/", api.challenges, name="api-challenges"),
    path("challenges/<row_id:challenge_id>/accept/", api.challenge_accept, name="api-challenge-accept"),
    path("challenges/<row_id:challenge_id>/decline/", api.challenge_decline, name="api-challenge-decline"),
    path("challenges/<row_id:challenge_id>/cancel/", api.challenge_cancel, name="api-challenge-cancel"),
    path("matches/<row_id:match_id>/rematch/", api.match_rematch, name="api-match-rematch"),
    path("rematches/<row_id:offer_id>/accept/", api.rematch_accept, name="api-rematch-accept"),
    path("rematches/<row_id:offer_id>/decline/", api.rematch_decline, name="api-rematch-decline"),
    path("rematches/<row_id:offer_id>/cancel/", api.rematch_cancel, name="api-rematch-cancel"),
]
