"""Match chat has a flood limit for everyone, players and spectators, over the socket and
the API: five messages in any ten seconds, then a clear refusal."""

import json
import types

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from rest_framework.test import APIClient

from games import services
from games.models import ChatMessage
from games.services import MatchError
from portal import rate_limits

from .helpers import start_two_player
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 (patch_auth is a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clock(monkeypatch):
    state = types.SimpleNamespace(now=1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", types.SimpleNamespace(time=lambda: state.now))
    return state


@pytest.fixture
def match(alice, bob):
    return start_two_player("game-of-god", alice, bob)


def test_a_spectator_may_send_five_messages_in_ten_seconds_then_is_told_to_wait(match, make_user, clock):
    eve = make_user("eve")
    for n in range(5):
        services.chat_post(match_id=match.pk, user=eve, text=f"look at that {n}")
        clock.now += 1
    with pytest.raises(MatchError, match="You are sending messages too quickly") as refused:
        services.chat_post(match_id=match.pk, user=eve, text="and that")
    assert refused.value.code == "rate_limited" and "Try again in 5 seconds" in refused.value.message
    with translation.override("de"):
        assert str(refused.value) == (
            "Du schickst Nachrichten zu schnell: der Chat nimmt 5 Nachrichten in 10 Sekunden an. "
            "Versuch es in 5 Sekunden wieder."
        )
    assert ChatMessage.objects.filter(user=eve).count() == 5
    clock.now += 5
    services.chat_post(match_id=match.pk, user=eve, text="better now")


def test_players_have_the_same_limit_and_one_persons_flood_does_not_silence_another(match, alice, bob, clock):
    for n in range(5):
        services.chat_post(match_id=match.pk, user=alice, text=f"gg {n}")
    with pytest.raises(MatchError, match="5 messages in 10 seconds"):
        services.chat_post(match_id=match.pk, user=alice, text="gg again")
    services.chat_post(match_id=match.pk, user=bob, text="calm down")


def test_a_refused_message_does_not_count(match, alice, clock):
    with pytest.raises(MatchError):
        services.chat_post(match_id=match.pk, user=alice, text="x" * 501)
    for n in range(5):
        services.chat_post(match_id=match.pk, user=alice, text=f"fine {n}")


def test_over_the_api_a_flood_gets_429_with_a_reason(match, make_user, clock):
    api = APIClient()
    api.force_authenticate(make_user("eve"))
    answers = [api.post(f"/api/matches/{match.pk}/chat/", {"text": f"hi {n}"}, format="json") for n in range(6)]
    assert [a.status_code for a in answers] == [201] * 5 + [429]
    assert answers[-1].json()["code"] == "rate_limited"
    assert "too quickly" in answers[-1].json()["message"]


@pytest.mark.asyncio
async def test_over_the_socket_a_spectator_flooding_the_chat_gets_an_error_frame(
    match,
    make_user,
    patch_auth,  # noqa: F811
    clock,
):
    eve = await sync_to_async(make_user)("eve")
    ws, ok, _ = await open_socket(patch_auth, match.pk, eve)
    assert ok
    await receive(ws, "snapshot")
    for n in range(6):
        await ws.send_json_to({"type": "chat", "text": f"spam {n}"})
    chats, errors = [], []
    while len(chats) < 5 or not errors:  # the broadcasts and the refusal, in whatever order
        frame = json.loads(await ws.receive_from(timeout=10))
        (chats if frame["type"] == "chat" else errors if frame["type"] == "error" else []).append(frame)
    assert [c["message"]["text"] for c in chats] == [f"spam {n}" for n in range(5)]
    assert [e["code"] for e in errors] == ["rate_limited"] and "too quickly" in errors[0]["message"]
    assert await sync_to_async(ChatMessage.objects.filter(user=eve).count)() == 5
    # The socket stays open and the watcher can still ask for the position.
    await ws.send_json_to({"type": "snapshot"})
    assert (await receive(ws, "snapshot"))["id"] == match.pk
    await ws.disconnect()


def test_anonymous_visitors_still_cannot_chat(match):
    with pytest.raises(MatchError, match="Sign in to chat"):
        services.chat_post(match_id=match.pk, user=AnonymousUser(), text="hello")


def test_a_chat_message_with_a_nul_character_is_refused_and_nothing_is_kept(match, alice):
    with pytest.raises(MatchError, match="cannot contain a NUL character") as refused:
        services.chat_post(match_id=match.pk, user=alice, text="hello\x00there")
    assert refused.value.code == "bad_request"
    assert not ChatMessage.objects.filter(match=match).exists()
