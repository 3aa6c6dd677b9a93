"""The rankings API: a game's ranking, a player's ratings, a rating history; and its schema."""

import pytest

from rankings.models import Rating
from rankings.services import match_rate

from .helpers import finished_match, quick_users

pytestmark = pytest.mark.django_db

GAME = "chit-territory"


def test_the_ranking_api_pages_fifty_players_with_their_places(client):
    users = quick_users(60)
    Rating.objects.bulk_create(
        Rating(user=u, game=GAME, rating=1500.25 + i, rated_games=i, wins=1) for i, u in enumerate(users)
    )
    first = client.get(f"/api/games/{GAME}/ranking/").json()
    assert first["count"] == 60 and len(first["results"]) == 50
    assert first["results"][0] == {
        "place": 1,
        "username": "player60",
        "is_bot": False,
        "rating": 1559.25,
        "provisional": False,
        "rated_games": 59,
        "wins": 1,
        "url": "/players/player60/",
    }
    second = client.get(first["next"]).json()
    assert [r["place"] for r in second["results"]] == list(range(51, 61))
    assert second["results"][-1]["username"] == "player1" and second["results"][-1]["provisional"] is True


def test_the_ranking_api_of_an_unknown_game_is_a_404(client):
    assert client.get("/api/games/chess/ranking/").status_code == 404


def test_a_players_ratings_and_history_from_the_api(client):
    me, rival = quick_users(2)
    first = finished_match([me, rival], [1, 2])
    second = finished_match([me, rival], [1, 1])
    match_rate(match_id=first.pk)
    match_rate(match_id=second.pk)
    ratings = client.get(f"/api/players/{me.username.upper()}/ratings/").json()["results"]
    # A win (+20), then a draw at 1520 against 1480: 40 * (0.5 - E(+40)), E(+40) = 0.5573116.
    # A shared first place counts as a win.
    assert ratings == [
        {
            "game": GAME,
            "game_name": "Territory (chits)",
            "rating": pytest.approx(1517.707536, abs=1e-4),
            "provisional": True,
            "place": 1,
            "players": 2,
            "rated_games": 2,
            "wins": 2,
        }
    ]
    history = client.get(f"/api/players/{me.username}/ratings/{GAME}/history/").json()
    assert history["count"] == 2
    rows = [(h["match"], h["before"], h["place"]) for h in history["results"]]
    assert rows == [(first.pk, 1500.0, 1), (second.pk, 1520.0, 1)]
    assert history["results"][0]["change"] == 20.0


def test_unknown_players_and_games_are_404s_in_the_api(client):
    [me] = quick_users(1)
    assert client.get("/api/players/nobody/ratings/").status_code == 404
    assert client.get(f"/api/players/{me.username}/ratings/chess/history/").status_code == 404
    assert client.get(f"/api/players/{me.username}/ratings/").json()["results"] == []


def test_the_rankings_endpoints_are_in_the_api_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/games/{slug}/ranking/" in schema["paths"]
    assert "/api/players/{username}/ratings/" in schema["paths"]
    history = schema["paths"]["/api/players/{username}/ratings/{slug}/history/"]["get"]
    assert history["summary"] == "A player's rating history in one game"
    assert any(p["name"] == "page" for p in history["parameters"])
