"""The REST API: the same door as the socket, with the same error codes as HTTP statuses."""

import threading

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from games import state_cache
from games.models import Move
from tests.conftest import DEMO_PASSWORD

from .helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def api_for(user):
    client = APIClient()
    response = client.post("/api/auth/token/", {"username": user.username, "password": DEMO_PASSWORD}, format="json")
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def test_token_is_refused_for_a_wrong_password(alice):
    response = APIClient().post("/api/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 400 and "token" not in response.json()


def test_games_are_listed(client):
    games = client.get("/api/games/").json()["results"]
    assert {g["slug"] for g in games} >= {"gp02a", "dice-territory", "chit-territory", "game-of-god"}
    god = next(g for g in games if g["slug"] == "game-of-god")
    pieces = next(o for o in god["options"] if o["name"] == "pieces")
    assert pieces["default"] is None  # the standard game
    assert pieces["values"] == {"2": list(range(2, 17, 2)), "4": list(range(2, 13, 2))}


def test_a_match_with_another_number_of_pieces_over_the_api(alice):
    a = api_for(alice)
    refused = a.post("/api/matches/", {"game": "game-of-god", "players": 4, "options": {"pieces": 16}}, format="json")
    assert refused.status_code == 400
    assert "Pieces per player with 4 players: an even number from 2 to 12, not 16." in refused.json()["message"]
    created = a.post("/api/matches/", {"game": "game-of-god", "players": 4, "options": {"pieces": 12}}, format="json")
    assert created.status_code == 201


def test_create_join_and_play_over_the_api(alice, bob):
    a, b = api_for(alice), api_for(bob)
    created = a.post("/api/matches/", {"game": "game-of-god", "players": 2}, format="json")
    assert created.status_code == 201
    match_id = created.json()["id"]
    assert a.get("/api/matches/").json()["results"][0]["id"] == match_id
    joined = b.post(f"/api/matches/{match_id}/join/")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    detail = {u: c.get(f"/api/matches/{match_id}/").json() for u, c in (("alice", a), ("bob", b))}
    mover = "alice" if detail["alice"]["legal_actions"] else "bob"
    snap = detail[mover]
    for key in ("id", "game", "status", "version", "seats", "view", "legal_actions"):
        assert key in snap
    action = snap["legal_actions"][0]["action"]
    client = a if mover == "alice" else b
    acted = client.post(
        f"/api/matches/{match_id}/actions/", {"action": action, "version": snap["version"]}, format="json"
    )
    assert acted.status_code == 200 and acted.json()["version"] > snap["version"]
    moves = client.get(f"/api/matches/{match_id}/moves/").json()["results"]
    assert action in [m["action"] for m in moves]


@pytest.mark.parametrize(
    "who, body, status, code",
    [
        ("mover", lambda s, a: {"action": a, "version": s["version"] - 1}, 409, "stale"),
        ("mover", lambda s, a: {"action": "move:a1-h8", "version": s["version"]}, 400, "illegal"),
        ("mover", lambda s, a: {"action": a}, 400, "bad_request"),
        ("mover", lambda s, a: {"action": 7, "version": s["version"]}, 400, "bad_request"),
        ("other", lambda s, a: {"action": a, "version": s["version"]}, 403, "not_your_turn"),
        ("stranger", lambda s, a: {"action": a, "version": s["version"]}, 403, "not_seated"),
    ],
)
def test_refused_actions_map_to_http_statuses_and_change_nothing(alice, bob, make_user, who, body, status, code):
    a, b = api_for(alice), api_for(bob)
    match_id = a.post("/api/matches/", {"game": "game-of-god", "players": 2}, format="json").json()["id"]
    b.post(f"/api/matches/{match_id}/join/")
    match = fresh(match_id)
    clients = {0: a, 1: b}
    snap = clients[match.to_move].get(f"/api/matches/{match_id}/").json()
    action = snap["legal_actions"][0]["action"]
    client = {
        "mover": clients[match.to_move],
        "other": clients[1 - match.to_move],
        "stranger": api_for(make_user("eve")),
    }[who]
    response = client.post(f"/api/matches/{match_id}/actions/", body(snap, action), format="json")
    assert response.status_code == status
    assert response.json()["code"] == code and response.json()["message"]
    if code == "stale":
        assert response.json()["snapshot"]["version"] == match.version
    assert fresh(match_id).version == match.version


def test_anonymous_users_can_watch_but_not_act(alice, bob):
    a = api_for(alice)
    match_id = a.post("/api/matches/", {"game": "game-of-god", "players": 2}, format="json").json()["id"]
    api_for(bob).post(f"/api/matches/{match_id}/join/")
    anon = APIClient()
    assert anon.get(f"/api/matches/{match_id}/").json()["legal_actions"] == []
    response = anon.post(f"/api/matches/{match_id}/actions/", {"action": "pass", "version": 1}, format="json")
    assert response.status_code in (401, 403)
    assert response.json()["code"] == "not_seated" and response.json()["message"] == "Sign in to do that."


def test_the_apis_own_errors_carry_a_code_and_a_message(alice):
    a = api_for(alice)
    missing = a.get("/api/matches/999999/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found" and missing.json()["message"]
    bad = a.post("/api/matches/", "{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


def test_a_number_sent_where_the_schema_says_text_is_refused_and_nothing_is_made(alice):
    a = api_for(alice)
    bot = a.post("/api/bots/", {"name": 0, "description": ""}, format="json")
    assert bot.status_code == 400 and bot.json()["code"] == "bad_request"
    assert "Not a valid string." in str(bot.json())
    assert a.get("/api/bots/").json()["results"] == []
    match = a.post("/api/matches/", {"game": 5, "players": 2}, format="json")
    assert match.status_code == 400 and match.json()["code"] == "bad_request"
    assert a.get("/api/matches/").json()["results"] == []


def test_invite_only_matches_are_hidden_without_the_token(alice, bob):
    a = api_for(alice)
    created = a.post(
        "/api/matches/", {"game": "game-of-god", "players": 2, "visibility": "invite"}, format="json"
    ).json()
    b = api_for(bob)
    assert b.get(f"/api/matches/{created['id']}/").status_code == 404
    assert b.post(f"/api/matches/{created['id']}/join/").status_code == 403
    assert b.get(f"/api/matches/{created['id']}/?token={created['invite_token']}").status_code == 200
    assert b.post(f"/api/matches/{created['id']}/join/?token={created['invite_token']}").status_code == 200


def test_the_creator_fills_a_seat_with_a_bot(alice, bob):
    a = api_for(alice)
    match_id = a.post("/api/matches/", {"game": "dice-territory", "players": 3}, format="json").json()["id"]
    assert (
        api_for(bob).post(f"/api/matches/{match_id}/seats/1/bot/", {"bot": "random"}, format="json").status_code == 403
    )
    assert a.post(f"/api/matches/{match_id}/seats/1/bot/", {"bot": "random"}, format="json").status_code == 200
    assert (
        a.post(f"/api/matches/{match_id}/seats/1/bot/", {"bot": "random"}, format="json").json()["code"]
        == "bad_request"
    )
    assert fresh(match_id).seats.get(index=1).user.is_bot


def test_chat_over_the_api(alice, bob):
    a = api_for(alice)
    match_id = a.post("/api/matches/", {"game": "game-of-god", "players": 2}, format="json").json()["id"]
    assert a.post(f"/api/matches/{match_id}/chat/", {"text": "hello"}, format="json").status_code == 201
    assert a.post(f"/api/matches/{match_id}/chat/", {"text": "x" * 600}, format="json").status_code == 400
    assert [m["text"] for m in APIClient().get(f"/api/matches/{match_id}/chat/").json()["results"]] == ["hello"]


def test_the_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/matches/{match_id}/actions/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200


def test_the_api_docs_page_loads_nothing_from_another_site(client):
    """The site works offline: Swagger UI comes from our own static files, not a CDN."""
    import re

    page = client.get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r'"(https?://[^"]+\.(?:js|css))"', page)
    assert any("swagger-ui" in source for source in sources)
    assert not [source for source in sources if source.startswith(("http://", "https://", "//"))]
    script = next(source for source in sources if source.endswith("swagger-ui-bundle.js"))
    assert client.get(script).status_code == 200


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), reason="row locks need PostgreSQL"
)
def test_fifty_threads_sending_the_same_action_apply_it_exactly_once(alice, bob):
    from games import services

    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob)
    match = fresh(match.pk)
    user = alice if match.to_move == 0 else bob
    action = state_cache.load(match).legal_actions()[0]
    moves_before = Move.objects.filter(match=match).count()
    outcomes = []
    barrier = threading.Barrier(50)

    def send():
        barrier.wait()
        try:
            services.match_act(match_id=match.pk, user=user, action=action, version=match.version)
            outcomes.append("ok")
        except services.MatchError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 1
    assert set(outcomes) - {"ok"} <= {"stale"}
    after = fresh(match.pk)
    assert after.version == match.version + 1
    assert Move.objects.filter(match=match, seat__isnull=False).count() == 1
    assert Move.objects.filter(match=match).count() > moves_before


def test_the_open_matches_of_a_game_the_site_does_not_have_are_none(alice):
    api_for(alice).post("/api/matches/", {"game": "territories", "players": 2, "speed": "untimed", "rated": False})
    client = APIClient()
    assert [m["game"] for m in client.get("/api/matches/", {"game": "territories"}).json()["results"]] == [
        "territories"
    ]
    for game in ["no-such-game", "terri\x00tories"]:  # PostgreSQL refuses a NUL byte in a text parameter
        response = client.get("/api/matches/", {"game": game})
        assert response.status_code == 200 and response.json()["results"] == []


def test_a_refused_move_is_explained_in_the_clients_language_with_the_same_code(alice, bob):
    a, b = api_for(alice), api_for(bob)
    match_id = a.post("/api/matches/", {"game": "game-of-god", "players": 2}, format="json").json()["id"]
    b.post(f"/api/matches/{match_id}/join/")
    to_move = fresh(match_id).to_move
    assert to_move is not None
    waiting = {0: b, 1: a}[to_move]
    snap = waiting.get(f"/api/matches/{match_id}/").json()
    body = {"action": "move:a1-h8", "version": snap["version"]}
    url = f"/api/matches/{match_id}/actions/"

    english = waiting.post(url, body, format="json")
    german = waiting.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    french = waiting.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="fr-CH, fr;q=0.9")
    assert english.status_code == german.status_code == french.status_code == 403
    assert english.json() == {"code": "not_your_turn", "message": "It is not your turn."}
    assert german.json() == {"code": "not_your_turn", "message": "Du bist nicht am Zug."}
    assert french.json() == {"code": "not_your_turn", "message": "Ce n’est pas à vous de jouer."}

    stale = {**body, "version": snap["version"] - 1}
    refused = {0: a, 1: b}[to_move].post(url, stale, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert refused.json()["code"] == "stale"
    assert refused.json()["message"] == "La posición ha cambiado; aquí tienes la actual."
