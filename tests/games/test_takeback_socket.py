"""Takebacks over the match socket: the request and the answers reach every socket, and an
accepted takeback resyncs every player and spectator with a whole snapshot of their own view
(the dice game's face-down card still hidden from all), including a page that reconnects."""

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser

from games import state_cache
from games.engine_text import spoken
from games.models import Match

from . import test_socket
from .helpers import fresh, start_two_player
from .test_socket import open_socket, receive
from .test_takebacks import casual_for_three, just_moved, last_is_a_persons, play_until, stored

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

patch_auth = test_socket.patch_auth  # the fixture that lets a test choose the socket's user


async def frame_where(ws, test, timeout=10):
    """The next frame for which ``test(frame, raw_text)`` holds; the raw text comes along."""
    while True:
        raw = await ws.receive_from(timeout=timeout)
        frame = spoken(json.loads(raw))  # the engine's words said, as the page says them
        if test(frame, raw):
            return frame, raw


def snapshot_at(version):
    return lambda frame, raw: frame["type"] == "snapshot" and frame["version"] == version


def dice_match(alice, bob, carol):
    match, users = casual_for_three("dice-territory", alice, bob, carol)
    return play_until(match.pk, users, random.Random(12), last_is_a_persons), users


async def test_a_takeback_resyncs_every_player_and_spectator_with_their_own_view(alice, bob, make_user, patch_auth):
    carol = await sync_to_async(make_user)("carol")
    match, users = await sync_to_async(dice_match)(alice, bob, carol)
    hidden = await sync_to_async(lambda: match.moves.get(index=1).action)()  # the face-down card
    before = await sync_to_async(stored)(match)
    seat = before[-1][0]
    sockets = {}
    for key, user in [*users.items(), (None, AnonymousUser())]:
        ws, ok, _ = await open_socket(patch_auth, match.pk, user)
        assert ok
        await receive(ws, "snapshot")
        sockets[key] = ws

    await sockets[seat].send_to(text_data=json.dumps({"type": "takeback_request", "version": match.version}))
    others = [i for i in range(3) if i != seat]
    for ws in sockets.values():
        asked = await receive(ws, "takeback")
        assert asked["version"] == match.version
        assert asked["takeback"] == {"seat": seat, "accepted": [], "waiting": others, "declined_by": None}
    for i in others:
        await sockets[i].send_to(
            text_data=json.dumps({"type": "takeback_answer", "accept": True, "version": match.version})
        )

    received = {seat: await frame_where(sockets[seat], snapshot_at(match.version + 1))}
    after = await sync_to_async(fresh)(match.pk)
    assert after.version == match.version + 1
    rebuilt = await sync_to_async(state_cache.replay)(after)
    assert len(rebuilt.history) < len(before)
    for key, ws in sockets.items():
        snap, raw = received.get(key) or await frame_where(ws, snapshot_at(after.version))
        assert snap["seat"] == key
        assert snap["view"] == json.loads(json.dumps(rebuilt.view(key)))
        assert snap["moves"] == len(rebuilt.history) and snap["takeback"] is None
        assert (snap["legal_actions"] != []) == (key == seat)
        assert hidden not in raw, "the face-down card stays hidden from everyone"
        await ws.disconnect()


async def test_a_page_that_reconnects_or_syncs_across_a_takeback_gets_the_new_position(alice, bob, patch_auth):
    match, users, seat = await sync_to_async(just_moved)(alice, bob, 4)
    asker, other = users[seat], users[1 - seat]
    gone, ok, _ = await open_socket(patch_auth, match.pk, asker)
    assert ok and (await receive(gone, "snapshot"))["version"] == match.version
    await gone.disconnect()  # the asker's page loses its connection ...
    staying, ok, _ = await open_socket(patch_auth, match.pk, other)
    assert ok
    await receive(staying, "snapshot")

    def take_back():
        from games.services.takebacks import takeback_answer, takeback_request

        takeback_request(match_id=match.pk, user=asker, version=match.version)
        takeback_answer(match_id=match.pk, user=other, accept=True, version=match.version)
        return fresh(match.pk)

    after = await sync_to_async(take_back)()
    # ... and gets the new position when it is back.
    back, ok, _ = await open_socket(patch_auth, match.pk, asker)
    assert ok
    snap = await receive(back, "snapshot")
    assert snap["version"] == after.version and snap["moves"] == await sync_to_async(after.moves.count)()
    assert snap["legal_actions"], "the move is the asker's to play again"
    # A page that says it still shows the old version is sent the new one too.
    await frame_where(staying, snapshot_at(after.version))  # the broadcast
    await staying.send_to(text_data=json.dumps({"type": "sync", "version": match.version}))
    resynced, _ = await frame_where(staying, lambda f, r: f["type"] == "snapshot")
    assert resynced["version"] == after.version
    await back.disconnect()
    await staying.disconnect()


@pytest.mark.parametrize(
    "frame, code",
    [
        ({"type": "takeback_request"}, "bad_request"),
        ({"type": "takeback_request", "version": "latest"}, "bad_request"),
        ({"type": "takeback_answer", "accept": "yes", "version": 0}, "bad_request"),
        ({"type": "takeback_answer", "accept": True, "version": 0}, "no_request"),
    ],
)
async def test_bad_takeback_frames_get_an_error_and_change_nothing(alice, bob, patch_auth, frame, code):
    match = await sync_to_async(start_two_player)("territories", alice, bob, rated=False)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps(frame))
    error = await receive(ws, "error")
    assert error["code"] == code and error["message"]
    assert (await sync_to_async(fresh)(match.pk)).version == match.version
    await ws.disconnect()


async def test_a_rated_match_refuses_a_takeback_over_the_socket(alice, bob, patch_auth):
    match = await sync_to_async(start_two_player)("territories", alice, bob)
    users = {0: alice, 1: bob}
    match = await sync_to_async(play_until)(match.pk, users, random.Random(1), last_is_a_persons)
    seat = (await sync_to_async(stored)(match))[-1][0]
    ws, ok, _ = await open_socket(patch_auth, match.pk, users[seat])
    assert ok
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "takeback_request", "version": match.version}))
    error = await receive(ws, "error")
    assert error["code"] == "rated" and "rated match" in error["message"]
    assert (await sync_to_async(fresh)(match.pk)).status == Match.Status.ACTIVE
    await ws.disconnect()


async def test_a_page_that_missed_a_takeback_request_gets_it_with_its_next_sync(alice, bob, patch_auth):
    match, users, seat = await sync_to_async(just_moved)(alice, bob, 4)
    ws, ok, _ = await open_socket(patch_auth, match.pk, users[1 - seat])
    assert ok
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "sync", "version": match.version, "takeback": None}))
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await ws.receive_from(timeout=10))["type"] == "pong", "in step: no snapshot is sent"

    from games.services.takebacks import takeback_request

    await sync_to_async(takeback_request)(match_id=match.pk, user=users[seat], version=match.version)
    await receive(ws, "takeback")  # suppose the page never got it: its next sync says so
    await ws.send_to(text_data=json.dumps({"type": "sync", "version": match.version, "takeback": None}))
    snap = await receive(ws, "snapshot")
    assert snap["version"] == match.version and snap["takeback"]["waiting"] == [1 - seat]
    await ws.disconnect()
