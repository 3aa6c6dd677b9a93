"""Revoked means revoked: a new password, a reset, a sign-out or a deactivated account ends the
person's open sockets too (close code 4401, which the pages read as "you were signed out"),
and a socket whose session ended unseen is refused on its next frame that writes.

Through the real ASGI application with real session cookies (no patched authentication)."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.test import Client

from games import state_cache
from games.models import Match
from portal.asgi import application
from tests.conftest import DEMO_PASSWORD
from tests.games.helpers import acked, fresh, start_two_player
from tests.games.test_socket import HOST

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

SIGNED_OUT = 4401
NEW_PASSWORD = "Brand-New-Secret-7"


def signed_in_client(user) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"login": user.username, "password": DEMO_PASSWORD}).status_code == 302
    return client


async def browser(user) -> Client:
    """A browser signed in as ``user``: its own session cookie."""
    return await sync_to_async(signed_in_client)(user)


async def open_socket(client: Client, path: str) -> WebsocketCommunicator:
    """A socket opened by ``client``'s page, carrying its session cookie."""
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    ws = WebsocketCommunicator(application, path, headers=[*HOST, (b"cookie", cookie.encode())])
    connected, _ = await ws.connect(timeout=10)
    assert connected
    return ws


async def closed_with(ws: WebsocketCommunicator, timeout: float = 10) -> tuple[int, list[dict]]:
    """The close code the server ends ``ws`` with, and the frames it sent before."""
    frames: list[dict] = []
    while True:
        message = await ws.receive_output(timeout=timeout)
        if message["type"] == "websocket.close":
            return message.get("code"), frames
        frames.append(json.loads(message["text"]))


async def still_answers(ws: WebsocketCommunicator) -> bool:
    await ws.send_to(text_data='{"type": "ping"}')
    while True:
        message = await ws.receive_output(timeout=10)
        if message["type"] == "websocket.close":
            return False
        if json.loads(message["text"])["type"] == "pong":
            return True


async def change_password(client: Client) -> None:
    response = await sync_to_async(client.post)(
        "/accounts/password/change/",
        {"oldpassword": DEMO_PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302


def reset_password(user) -> None:
    client = Client()
    client.post("/accounts/password/reset/", {"email": user.email})
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", str(mail.outbox[-1].body))
    assert link is not None
    form_page = client.get(link.group(1), follow=True)
    response = client.post(form_page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302


@pytest.fixture
def lost_revocations(monkeypatch, settings):
    """The channel layer loses every revocation on the way (Redis pub/sub is at most once), and
    the sockets check their sign-in again on every writing frame (not only every so often)."""
    settings.SOCKET_RECHECK_SECONDS = 0
    layer = get_channel_layer()
    send = layer.group_send

    async def group_send(group, message):
        if message.get("type") != "sockets.revoked":
            await send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)


async def test_a_new_password_closes_every_socket_of_that_person_and_no_one_elses(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    laptop, phone, bobs = await browser(alice), await browser(alice), await browser(bob)
    alices = [
        await open_socket(phone, f"/ws/matches/{match.pk}/"),
        await open_socket(phone, "/ws/me/"),
        await open_socket(phone, "/ws/lobby/"),
        await open_socket(laptop, f"/ws/matches/{match.pk}/"),
    ]
    bobs_socket = await open_socket(bobs, f"/ws/matches/{match.pk}/")

    await change_password(laptop)

    for ws in alices:
        code, _ = await closed_with(ws)
        assert code == SIGNED_OUT
    assert await still_answers(bobs_socket)
    await bobs_socket.disconnect()


async def test_a_password_reset_closes_the_match_socket_and_the_header_socket(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    phone = await browser(alice)
    sockets = [await open_socket(phone, f"/ws/matches/{match.pk}/"), await open_socket(phone, "/ws/me/")]

    await sync_to_async(reset_password)(alice)

    for ws in sockets:
        code, _ = await closed_with(ws)
        assert code == SIGNED_OUT


async def test_signing_out_closes_the_sockets_of_that_session_only(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    laptop, phone = await browser(alice), await browser(alice)
    leaving = [await open_socket(laptop, f"/ws/matches/{match.pk}/"), await open_socket(laptop, "/ws/me/")]
    staying = [await open_socket(phone, f"/ws/matches/{match.pk}/"), await open_socket(phone, "/ws/me/")]

    assert (await sync_to_async(laptop.post)("/accounts/logout/")).status_code == 302

    for ws in leaving:
        code, _ = await closed_with(ws)
        assert code == SIGNED_OUT
    for ws in staying:
        assert await still_answers(ws)
        await ws.disconnect()


async def test_a_deactivated_account_loses_its_sockets(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    phone = await browser(alice)
    sockets = [await open_socket(phone, f"/ws/matches/{match.pk}/"), await open_socket(phone, "/ws/me/")]

    alice.is_active = False
    await sync_to_async(alice.save)()

    for ws in sockets:
        code, _ = await closed_with(ws)
        assert code == SIGNED_OUT


async def test_a_match_socket_that_missed_the_new_password_cannot_chat(alice, bob, lost_revocations):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    laptop, phone = await browser(alice), await browser(alice)
    ws = await open_socket(phone, f"/ws/matches/{match.pk}/")
    await ws.send_to(text_data=json.dumps({"type": "chat", "text": "before"}))  # works while signed in
    while json.loads(await ws.receive_from(timeout=10))["type"] != "chat":
        pass

    await change_password(laptop)
    await ws.send_to(text_data=json.dumps({"type": "chat", "text": "after"}))

    code, frames = await closed_with(ws)
    assert code == SIGNED_OUT
    assert {"type": "error", "code": "signed_out"}.items() <= frames[-1].items()
    texts = await sync_to_async(lambda: list(fresh(match.pk).chat_messages.values_list("text", flat=True)))()
    assert texts == ["before"]


async def test_a_match_socket_that_missed_the_new_password_cannot_move(alice, bob, lost_revocations):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    phone = await browser(mover)
    ws = await open_socket(phone, f"/ws/matches/{match.pk}/")
    action = (await sync_to_async(state_cache.load)(match)).legal_actions()[0]
    moves = await sync_to_async(lambda: match.moves.count())()

    await sync_to_async(mover.set_password)(NEW_PASSWORD)
    await sync_to_async(mover.save)()  # as an administrator or `manage.py changepassword` would
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))

    code, frames = await closed_with(ws)
    assert code == SIGNED_OUT
    assert not any(acked(frame) for frame in frames)
    assert (await sync_to_async(fresh)(match.pk)).version == match.version
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).moves.count())() == moves


async def test_a_match_socket_that_missed_its_sign_out_cannot_move(alice, bob, lost_revocations):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    laptop = await browser(mover)
    ws = await open_socket(laptop, f"/ws/matches/{match.pk}/")
    action = (await sync_to_async(state_cache.load)(match)).legal_actions()[0]

    await sync_to_async(laptop.post)("/accounts/logout/")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))

    code, frames = await closed_with(ws)
    assert code == SIGNED_OUT
    assert not any(acked(frame) for frame in frames)
    assert (await sync_to_async(fresh)(match.pk)).version == match.version


async def test_a_signed_in_socket_still_moves_and_chats(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    ws = await open_socket(await browser(mover), f"/ws/matches/{match.pk}/")
    action = (await sync_to_async(state_cache.load)(match)).legal_actions()[0]
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    await ws.send_to(text_data=json.dumps({"type": "chat", "text": "gl"}))
    seen: set[str] = set()
    while seen != {"ack", "chat"}:
        frame = json.loads(await ws.receive_from(timeout=10))
        assert frame["type"] != "error", frame
        seen |= {"ack" if acked(frame) else frame["type"]} & {"ack", "chat"}
    await ws.disconnect()
