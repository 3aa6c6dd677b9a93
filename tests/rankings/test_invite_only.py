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


def body_of(client, url):
    """The page's text, once it is sure the page was served: a refusal or an error page would
    name no match either, and the checks below would pass for the wrong reason."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_the_invite_only_match_opens_to_its_players_and_its_link_and_to_nobody_else(two_matches, make_user):
    """The control for the lists below: the match is there, and those it belongs to reach it."""
    alice, public, private = two_matches
    bob = private.seats.get(index=1).user
    player, outsider, stranger = Client(), Client(), Client()
    player.force_login(bob)
    outsider.force_login(make_user("eve"))
    url = f"/matches/{private.pk}/"
    assert stranger.get(url).status_code == 404
    assert outsider.get(url).status_code == 404
    assert f"#{private.pk}" in body_of(player, url)
    token = Match.objects.get(pk=private.pk).invite_token
    through_the_link = outsider.get(f"/i/{token}/", follow=True)
    assert through_the_link.status_code == 200 and through_the_link.redirect_chain[-1][0].startswith(url)
    assert stranger.get(f"/matches/{public.pk}/").status_code == 200


def test_a_players_page_lists_their_public_matches_only(two_matches):
    alice, public, private = two_matches
    stranger, herself = Client(), Client()
    herself.force_login(alice)  # not even to the player: the page is the public one
    for client in (stranger, herself):
        body = body_of(client, f"/players/{alice.username}/")
        assert f"/matches/{public.pk}/" in body
        assert f"/matches/{private.pk}/" not in body and f"#{private.pk}<" not in body
    # The player's own list of matches keeps both.
    assert f"/matches/{private.pk}/" in body_of(herself, "/play/mine/")


def test_the_rating_history_api_does_not_name_an_invite_only_match(client, two_matches):
    alice, public, private = two_matches
    response = client.get(f"/api/players/{alice.username}/ratings/{GAME}/history/")
    assert response.status_code == 200
    history = response.json()["results"]
    assert [entry["match"] for entry in history] == [public.pk, None]
    # The rating it moved still counts: the history is whole.
    assert history[1]["before"] == history[0]["after"] and history[1]["after"] > history[1]["before"]


def test_no_shared_list_of_finished_matches_names_an_invite_only_match(client, two_matches):
    alice, public, private = two_matches
    # Each address, and what it shows of the two matches when served: the latest finished
    # matches (so the public one), or the players and their ratings (so alice), or the open
    # matches (neither).
    for url, shows in (
        ("/", "matches"),
        (f"/games/{GAME}/", "matches"),
        ("/hall-of-fame/", "players"),
        (f"/games/{GAME}/ranking/", "players"),
        ("/stats/", None),
        ("/play/", None),
        ("/api/matches/", None),
    ):
        body = body_of(client, url)
        assert f"/matches/{private.pk}/" not in body, url
        if shows == "matches":
            assert f"/matches/{public.pk}/" in body, url
        elif shows == "players":
            assert f"/players/{alice.username}/" in body, url
