"""The challenges' and rematches' REST API: the same rules as the pages, refusals as clear
400/403/404/409 answers with a code and a message."""

import pytest
from rest_framework.test import APIClient

from challenges.models import Challenge, RematchOffer
from games.models import Match

from .helpers import finished_two_player

pytestmark = pytest.mark.django_db


def api(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def send(client, **body):
    return client.post(
        "/api/challenges/", {"username": "bob", "game": "territories", "players": 2, **body}, format="json"
    )


def test_a_challenge_through_the_api_from_sending_to_the_match(alice, bob):
    response = send(api(alice), speed="live", seconds_per_move=30)
    assert response.status_code == 201
    sent = response.json()
    assert (sent["challenger"], sent["challenged"], sent["state"], sent["match"]) == ("alice", "bob", "pending", None)
    assert sent["seconds_per_move"] == 30 and sent["game_name"] == "Territories"

    listed = api(bob).get("/api/challenges/?state=pending").json()["results"]
    assert [c["id"] for c in listed] == [sent["id"]]

    response = api(bob).post(f"/api/challenges/{sent['id']}/accept/")
    assert response.status_code == 200
    accepted = response.json()
    assert accepted["state"] == "accepted"
    assert accepted["match_url"] == f"/matches/{accepted['match']}/"
    assert Match.objects.get(pk=accepted["match"]).status == "active"
    # The challenger, asking how it stands, learns where the match is.
    assert api(alice).get("/api/challenges/").json()["results"][0]["match"] == accepted["match"]


def test_refusals_answer_with_their_status_and_code(alice, bob, make_user):
    assert send(api()).status_code == 403
    response = send(api(alice), speed="untimed", rated=True)
    assert response.status_code == 400 and "Untimed practice is casual" in response.json()["message"]
    response = send(api(alice), players="two")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"
    response = api(alice).post("/api/challenges/", {"username": "nobody", "game": "territories", "players": 2})
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    response = api(alice).post("/api/challenges/", {"username": "alice", "game": "territories", "players": 2})
    assert response.status_code == 400 and "yourself" in response.json()["message"]

    sent = send(api(alice)).json()
    response = send(api(alice))
    assert response.status_code == 409 and response.json()["code"] == "already_pending"
    response = api(alice).post(f"/api/challenges/{sent['id']}/accept/")
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    response = api(make_user()).post(f"/api/challenges/{sent['id']}/decline/")
    assert response.status_code == 404
    assert api(alice).post(f"/api/challenges/{sent['id']}/cancel/").json()["state"] == "cancelled"
    response = api(bob).post(f"/api/challenges/{sent['id']}/accept/")
    assert response.status_code == 409 and response.json()["code"] == "closed"
    assert api(bob).post("/api/challenges/999999/accept/").status_code == 404
    assert Challenge.objects.filter(state="pending").count() == 0


def test_a_rematch_through_the_api(alice, bob, make_user):
    original = finished_two_player(alice, bob)
    assert api(alice).get(f"/api/matches/{original.pk}/rematch/").json() == {"offer": None}

    response = api(bob).post(f"/api/matches/{original.pk}/rematch/")
    assert response.status_code == 201
    offer = response.json()
    assert offer["offered_by"] == "bob" and offer["state"] == "pending"
    assert {a["username"]: a["answer"] for a in offer["answers"]} == {"alice": "pending", "bob": "accepted"}
    assert api(alice).get(f"/api/matches/{original.pk}/rematch/").json()["offer"]["id"] == offer["id"]

    response = api(alice).post(f"/api/matches/{original.pk}/rematch/")
    assert response.status_code == 409 and response.json()["code"] == "already_pending"
    watcher = make_user("watcher")
    assert api(watcher).post(f"/api/rematches/{offer['id']}/accept/").status_code == 403
    assert api(watcher).get(f"/api/matches/{original.pk}/rematch/").status_code == 404
    assert api(watcher).post(f"/api/matches/{original.pk}/rematch/").status_code == 403
    assert api(alice).post(f"/api/rematches/{offer['id']}/cancel/").status_code == 403

    response = api(alice).post(f"/api/rematches/{offer['id']}/accept/")
    assert response.status_code == 200
    accepted = response.json()
    assert accepted["state"] == "accepted" and accepted["new_match_url"] == f"/matches/{accepted['new_match']}/"
    response = api(alice).post(f"/api/rematches/{offer['id']}/decline/")
    assert response.status_code == 409 and response.json()["code"] == "closed"
    assert RematchOffer.objects.get().new_match_id == accepted["new_match"]


def test_a_rematch_of_a_match_not_finished_is_a_conflict(alice, bob):
    from tests.games.helpers import start_two_player

    playing = start_two_player("territories", alice, bob)
    response = api(alice).post(f"/api/matches/{playing.pk}/rematch/")
    assert response.status_code == 409 and response.json()["code"] == "not_finished"
    assert api(alice).post("/api/matches/999999/rematch/").status_code == 404


def test_listing_by_a_state_there_is_not_is_a_bad_request(alice):
    response = api(alice).get("/api/challenges/?state=won")
    assert response.status_code == 400 and "pending" in response.json()["message"]
