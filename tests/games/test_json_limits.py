"""JSON from clients is read under a size and a nesting limit, over REST and the socket alike:
too deep or too large gets a clear refusal and changes nothing."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from rest_framework.test import APIClient

from games import state_cache
from games.models import Match

from .helpers import fresh, start_two_player
from .test_api import api_for
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 (a fixture)

DEEP = "[" * 5000 + "]" * 5000  # a few kilobytes that make Python's parser recurse 5,000 deep
DEEP_FRAME = "[" * 2000 + "]" * 2000  # within a frame's 4 KB
JUST_TOO_DEEP = json.dumps({"type": "act", "action": "pass", "version": 1, "x": json.loads("[" * 20 + "]" * 20)})


def deep_object(depth: int) -> str:
    return '{"":' * depth + "1" + "}" * depth


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("body", [DEEP, deep_object(5000), JUST_TOO_DEEP], ids=["arrays", "objects", "one-too-deep"])
def test_a_deeply_nested_api_body_is_refused_with_a_400_and_changes_nothing(alice, bob, body):
    match = start_two_player("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    response = api_for(mover).post(f"/api/matches/{match.pk}/actions/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
    assert f"at most {settings.JSON_MAX_DEPTH} levels" in response.json()["message"]
    assert fresh(match.pk).version == match.version


@pytest.mark.django_db(transaction=True)
def test_a_body_nested_to_the_limit_is_still_read(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    action = state_cache.load(match).legal_actions()[0]
    padding = json.loads("[" * (settings.JSON_MAX_DEPTH - 1) + "]" * (settings.JSON_MAX_DEPTH - 1))
    body = json.dumps({"action": action, "version": match.version, "note": padding, "text": "[[[[[[[[[[[[[[[[[[[[[[["})
    response = api_for(mover).post(f"/api/matches/{match.pk}/actions/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert fresh(match.pk).version > match.version


@pytest.mark.django_db(transaction=True)
def test_an_oversized_api_body_is_refused_with_a_400(alice):
    body = json.dumps({"game": "game-of-god", "players": 2, "options": {"x": "y" * settings.JSON_MAX_BYTES}})
    response = api_for(alice).post("/api/matches/", body, content_type="application/json")
    assert response.status_code == 400
    assert f"at most {settings.JSON_MAX_BYTES} bytes" in response.json()["message"]
    assert not Match.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_token_endpoint_refuses_deep_json_with_a_400(alice):
    response = APIClient().post("/api/auth/token/", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "frame", [DEEP_FRAME, deep_object(800), JUST_TOO_DEEP], ids=["arrays", "objects", "one-too-deep"]
)
async def test_a_deeply_nested_frame_gets_an_error_and_the_socket_stays_open(alice, bob, patch_auth, frame):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    await receive(ws, "snapshot")
    await ws.send_to(text_data=frame)
    error = await receive(ws, "error")
    assert error["code"] == "bad_request"
    assert f"at most {settings.JSON_MAX_DEPTH} levels" in error["message"]
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(ws, "pong"))["type"] == "pong"
    assert (await sync_to_async(fresh)(match.pk)).version == match.version
    await ws.disconnect()
