"""An invite-only match is its players' business: no list a stranger can see names it."""

import pytest
from django.test import Client

from games.models import Match
from rankings.services import match_rate

from .helpers import finished_match, quick_users

pytestmark = pytest.mark.django_db

GAME = "chit-territory"


@pytest.fixture
def two_matches():
    """alice beat bob twice in rated matches: once in public, once by invitation."""
    alice, bob = quick_users(2)
    public = finished_match([alice, bob], [1, 2], game=GAME)
    private = finished_match([alice, bob], [1, 2], game=GAME)
    Match.objects.filter(pk=private.pk).update(visibility=Match.Visibility.INVITE)
    for match in (public, private):
        match_rate(match_id=match.pk)
    return alice, public, private


def test_a_players_page_lists_their_public_matches_only(two_matches):
    alice, public, private = two_matches
    stranger, herself = Client(), Client()
    herself.force_login(alice)  # not even to the player: the page is the public one
    for client in (stranger, herself):
        body = client.get(f"/players/{alice.username}/").content.decode()
        assert f"/matches/{public.pk}/" in body
        assert f"/matches/{private.pk}/" not in body and f"#{private.pk}<" not in body
    # The player's own list of matches keeps both.
    assert f"/matches/{private.pk}/" in herself.get("/play/mine/").content.decode()


def test_the_rating_history_api_does_not_name_an_invite_only_match(client, two_matches):
    alice, public, private = two_matches
    history = client.get(f"/api/players/{alice.username}/ratings/{GAME}/history/").json()["results"]
    assert [entry["match"] for entry in history] == [public.pk, None]
    # The rating it moved still counts: the history is whole.
    assert history[1]["before"] == history[0]["after"] and history[1]["after"] > history[1]["before"]


def test_no_shared_list_of_finished_matches_names_an_invite_only_match(client, two_matches):
    alice, public, private = two_matches
    for url in (
        "/",
        f"/games/{GAME}/",
        "/hall-of-fame/",
        f"/games/{GAME}/ranking/",
        "/stats/",
        "/play/",
        "/api/matches/",
    ):
        body = client.get(url).content.decode()
        assert f"/matches/{private.pk}/" not in body, url
