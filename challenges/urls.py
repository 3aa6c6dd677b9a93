from django.urls import path

from games import converters  # noqa: F401  (registers row_id)

from . import views

urlpatterns = [
    path("challenges/", views.challenges_page, name="challenges"),
    path("players/<str:username>/challenge/", views.challenge_new, name="challenge-new"),
    path("challenges/<row_id:challenge_id>/accept/", views.challenge_accept, name="challenge-accept"),
    path("challenges/<row_id:challenge_id>/decline/", views.challenge_decline, name="challenge-decline"),
    path("challenges/<row_id:challenge_id>/cancel/", views.challenge_cancel, name="challenge-cancel"),
    path("matches/<row_id:match_id>/rematch/", views.rematch_offer, name="rematch-offer"),
    path("rematches/<row_id:offer_id>/accept/", views.rematch_accept, name="rematch-accept"),
    path("rematches/<row_id:offer_id>/decline/", views.rematch_decline, name="rematch-decline"),
    path("rematches/<row_id:offer_id>/cancel/", views.rematch_cancel, name="rematch-cancel"),
]
