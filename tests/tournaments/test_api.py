"""The tournaments' REST API: list, detail, join, withdraw, standings, with the API's errors."""

import pytest
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Tournament

from .helpers import announce, fresh, play_round, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def api():
    return APIClient()


def test_the_list_gives_upcoming_tournaments_by_default_and_the_others_on_request(api, alice):
    upcoming = announce(alice, name="Soon")
    gone = announce(alice, name="Gone")
    services.tournament_cancel(tournament_id=gone.pk, user=alice)
    announce(alice, name="Secret", invite_only=True)
    body = api.get("/api/tournaments/").json()
    assert [row["name"] for row in body["results"]] == ["Soon"]
    row = body["results"][0]
    assert (row["id"], row["status"], row["format"], row["entrant_count"]) == (
        upcoming.pk,
        "registration",
        "round_robin",
        0,
    )
    assert [r["name"] for r in api.get("/api/tournaments/?status=finished").json()["results"]] == ["Gone"]
    assert api.get("/api/tournaments/?game=game-of-god").json()["results"] == []
    refused = api.get("/api/tournaments/?status=everything")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request"


def test_joining_and_withdrawing_need_an_account(api, alice):
    tournament = announce(alice)
    response = api.post(f"/api/tournaments/{tournament.pk}/join/")
    assert response.status_code in (401, 403)
    assert response.json()["message"] == "Sign in to do that."


def test_a_player_joins_sees_themselves_entered_and_withdraws(api, alice, bob):
    tournament = announce(alice)
    api.force_authenticate(bob)
    body = api.post(f"/api/tournaments/{tournament.pk}/join/").json()
    assert [e["username"] for e in body["entrants"]] == ["bob"]
    again = api.post(f"/api/tournaments/{tournament.pk}/join/")
    assert again.status_code == 400 and again.json()["message"] == "You have already entered this tournament."
    body = api.post(f"/api/tournaments/{tournament.pk}/withdraw/").json()
    assert body["entrants"] == []
    missing = api.post(f"/api/tournaments/{tournament.pk}/withdraw/")
    assert missing.status_code == 403 and missing.json()["code"] == "not_entered"


def test_joining_a_started_tournament_is_a_conflict(api, alice, bob, make_user):
    tournament = announce(alice)
    services.tournament_join(tournament_id=tournament.pk, user=alice)  # a person, with a bot to fill the table
    services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="greedy")
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    api.force_authenticate(bob)
    response = api.post(f"/api/tournaments/{tournament.pk}/join/")
    assert response.status_code == 409
    assert response.json() == {"code": "finished", "message": "This tournament has started."}


def test_an_invitation_only_tournament_is_found_only_with_its_token(api, alice, bob):
    tournament = announce(alice, invite_only=True)
    assert api.get(f"/api/tournaments/{tournament.pk}/").status_code == 404
    api.force_authenticate(bob)
    assert api.post(f"/api/tournaments/{tournament.pk}/join/").status_code == 403
    joined = api.post(f"/api/tournaments/{tournament.pk}/join/?token={tournament.invite_token}")
    assert joined.status_code == 200
    assert api.get(f"/api/tournaments/{tournament.pk}/").status_code == 200


def test_detail_and_standings_follow_the_rounds(api, alice, make_user):
    tournament = announce(alice)
    for name in ("ann", "ben", "cat", "dan"):
        services.tournament_join(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    tables = tables_of(tournament)
    play_round(tournament)
    detail = api.get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["status"] == "running" and detail["current_round"] == 2 and detail["rounds"] == 3
    first_round = next(r for r in detail["rounds_played"] if r["number"] == 1)
    assert first_round["finished"] is True
    assert [t["match"] for t in first_round["tables"]] == [t.match_id for t in tables]
    assert all(t["places"] == [1, 2] for t in first_round["tables"])
    standings = api.get(f"/api/tournaments/{tournament.pk}/standings/").json()["results"]
    assert [row["points"] for row in standings] == [1.0, 1.0, 0.0, 0.0]
    assert [tb["name"] for tb in standings[0]["tie_breaks"]] == ["Buchholz", "Sonneborn-Berger", "Wins"]
    winners = {t.seats.all()[0].entrant_id for t in tables}
    assert {row["entrant"]["id"] for row in standings[:2]} == winners


def test_withdrawing_from_a_running_tournament_keeps_the_player_in_the_standings(api, alice, make_user):
    tournament = announce(alice)
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    for user in players:
        services.tournament_join(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    api.force_authenticate(players[0])
    body = api.post(f"/api/tournaments/{tournament.pk}/withdraw/").json()
    assert next(e for e in body["entrants"] if e["username"] == "ann")["withdrawn"] is True
    standings = api.get(f"/api/tournaments/{tournament.pk}/standings/").json()["results"]
    assert "ann" in [row["entrant"]["username"] for row in standings]
    assert fresh(tournament).status == Tournament.Status.RUNNING


@pytest.mark.parametrize("path", ["/api/tournaments/99999/", "/api/tournaments/99999/standings/"])
def test_no_such_tournament_is_a_404_in_the_apis_shape(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
