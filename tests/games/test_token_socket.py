"""A program's socket: the match socket signed in by an API token in its handshake (no
cookie, no Origin), speaking for that token's account as the REST API does, until the token
ends (through the real ASGI application and channel layer)."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.authtoken.models import Token

from games import state_cache
from portal.asgi import application

from .helpers import acked, fresh, start_two_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(match_id: int, token: str):
    communicator = WebsocketCommunicator(
        application,
        f"/ws/matches/{match_id}/",
        headers=[(b"host", b"localhost"), (b"authorization", f"Token {token}".encode())],
    )
    connected, _ = await communicator.connect(timeout=10)
    return communicator, connected


async def token_of(user) -> str:
    return (await sync_to_async(Token.objects.get_or_create)(user=user))[0].key


async def test_a_token_signs_the_socket_in_as_its_account_and_its_moves_are_theirs(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    ws, connected = await connect(match.pk, await token_of(mover))
    assert connected
    snapshot = json.loads(await ws.receive_from(timeout=10))
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == match.to_move and snapshot["legal_actions"]
    action = snapshot["legal_actions"][0]["action"]
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    own = json.loads(await ws.receive_from(timeout=10))
    assert acked(own) == match.version + 1
    moves = await sync_to_async(lambda: list(fresh(match.pk).moves.values_list("seat", "action")))()
    assert (match.to_move, action) in moves
    await ws.disconnect()


async def test_a_token_that_is_no_accounts_is_refused_at_the_handshake(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, connected = await connect(match.pk, "not-a-token")
    assert not connected


async def test_a_token_issued_anew_ends_the_old_tokens_socket_at_its_next_move(alice, bob, settings):
    settings.SOCKET_RECHECK_SECONDS = 0  # every writing frame checks the sign-in
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    old = await token_of(mover)
    ws, connected = await connect(match.pk, old)
    assert connected
    await ws.receive_from(timeout=10)
    await sync_to_async(Token.objects.filter(key=old).delete)()  # what a new password or a new token does
    state = await sync_to_async(state_cache.load)(match)
    await ws.send_to(
        text_data=json.dumps({"type": "act", "action": state.legal_actions()[0], "version": match.version})
    )
    frame = json.loads(await ws.receive_from(timeout=10))
    assert frame["type"] == "error" and frame["code"] == "signed_out"
    assert (await sync_to_async(fresh)(match.pk)).version == match.version  # nothing played


# ---------------------------------------------------------------------------------------
# The token as the first frame, for a program that cannot set the handshake's headers


async def open_waiting(match_id: int, headers=None):
    """A socket opened with ?auth=frame: accepted, and waiting for its token."""
    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{match_id}/?auth=frame", headers=headers or [(b"host", b"localhost")]
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    return communicator


async def closed_with(communicator) -> tuple[int, str]:
    message = await communicator.receive_output(timeout=10)
    assert message["type"] == "websocket.close", message
    return message["code"], message.get("reason", "")


async def test_a_token_sent_as_the_first_frame_signs_the_socket_in_and_nothing_comes_before_it(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    ws = await open_waiting(match.pk)
    assert await ws.receive_nothing(timeout=0.3)  # not even the public snapshot before the token
    await ws.send_to(text_data=json.dumps({"type": "auth", "token": await token_of(mover)}))
    snapshot = json.loads(await ws.receive_from(timeout=10))
    assert snapshot["type"] == "snapshot" and snapshot["seat"] == match.to_move and snapshot["legal_actions"]
    action = snapshot["legal_actions"][0]["action"]
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    assert acked(json.loads(await ws.receive_from(timeout=10))) == match.version + 1
    # A second token later on is refused, and the socket stays as it was.
    await ws.send_to(text_data=json.dumps({"type": "auth", "token": await token_of(mover)}))
    frame = json.loads(await ws.receive_from(timeout=10))
    assert frame["type"] == "error" and "only as the first frame" in frame["message"]
    await ws.disconnect()


async def test_a_wrong_token_another_frame_first_or_silence_close_the_socket_saying_why(alice, bob, settings):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws = await open_waiting(match.pk)
    await ws.send_to(text_data=json.dumps({"type": "auth", "token": "not-a-token"}))
    assert await closed_with(ws) == (4401, "That token is no account's.")

    ws = await open_waiting(match.pk)
    await ws.send_to(text_data=json.dumps({"type": "act", "action": "pass", "version": match.version}))
    code, reason = await closed_with(ws)
    assert code == 4400 and '{"type": "auth", "token"' in reason

    settings.SOCKET_AUTH_SECONDS = 0.2
    ws = await open_waiting(match.pk)
    assert await closed_with(ws) == (4408, "No auth frame within 0.2 seconds.")
    assert (await sync_to_async(fresh)(match.pk)).version == match.version


async def test_a_page_of_another_site_gets_nothing_from_a_signed_in_browsers_cookie(alice, bob, settings):
    """The Origin check is skipped only for a socket that must show a token: the browser's
    cookie is dropped, so another site's page, which knows no token, can neither watch nor act."""
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    browser = Client()
    await sync_to_async(browser.force_login)(alice)
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}".encode()
    foreign = [(b"host", b"localhost"), (b"origin", b"https://elsewhere.example"), (b"cookie", cookie)]
    plain = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=foreign)
    assert not (await plain.connect(timeout=10))[0]  # as ever: the handshake is refused
    ws = await open_waiting(match.pk, headers=foreign)
    assert await ws.receive_nothing(timeout=0.3)
    state = await sync_to_async(state_cache.load)(match)
    await ws.send_to(
        text_data=json.dumps({"type": "act", "action": state.legal_actions()[0], "version": match.version})
    )
    assert (await closed_with(ws))[0] == 4400
    assert (await sync_to_async(fresh)(match.pk)).version == match.version  # nothing played


async def test_the_me_socket_takes_the_token_as_its_first_frame_too(alice):
    ws = WebsocketCommunicator(application, "/ws/me/?auth=frame", headers=[(b"host", b"localhost")])
    assert (await ws.connect(timeout=10))[0]
    assert await ws.receive_nothing(timeout=0.3)
    await ws.send_to(text_data=json.dumps({"type": "auth", "token": await token_of(alice)}))
    assert json.loads(await ws.receive_from(timeout=10))["type"] == "counts"
    await ws.disconnect()
