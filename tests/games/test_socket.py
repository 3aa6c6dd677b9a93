"""The match socket, end to end through the real ASGI application and channel layer."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from games import services, state_cache
from games.engine_text import spoken
from games.models import Match
from portal.asgi import application

from .helpers import acked, fresh, start_two_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HOST = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


async def connect(match_id, user, query=""):
    path = f"/ws/matches/{match_id}/" + (f"?{query}" if query else "")
    communicator = WebsocketCommunicator(application, path, headers=HOST)
    communicator.scope["user"] = user  # what AuthMiddlewareStack would set from the session cookie
    connected, code = await communicator.connect(timeout=10)
    return communicator, connected, code


async def receive(communicator, kind, timeout=10):
    """The next frame of ``kind`` (others, such as interleaved snapshots, are skipped); for
    ``"ack"``, the frame that carries the ack of the mover's move (their update, as a rule)."""
    while True:
        # Read as the page reads it: the engine's words said (in English here).
        frame = spoken(json.loads(await communicator.receive_from(timeout=timeout)))
        if frame["type"] == kind or (kind == "ack" and acked(frame)):
            return frame


@pytest.fixture
def patch_auth(monkeypatch):
    """Let tests choose the socket's user: the auth middleware would take it from the cookie."""
    from channels import auth

    holder = {}

    async def resolve(self, scope):
        scope["user"]._wrapped = holder.get("user", AnonymousUser())

    monkeypatch.setattr(auth.AuthMiddleware, "resolve_scope", resolve)
    return holder


async def open_socket(patch_auth, match_id, user, query=""):
    patch_auth["user"] = user
    return await connect(match_id, user, query)


async def test_each_seat_gets_its_own_snapshot_on_connect(alice, bob, patch_auth):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    snap = await receive(ws, "snapshot")
    assert snap["seat"] == 0 and snap["version"] == match.version
    assert [s["username"] for s in snap["seats"]] == ["alice", "bob"]
    assert (snap["legal_actions"] != []) == (match.to_move == 0)
    assert "chat" in snap and "clocks" in snap
    await ws.disconnect()


async def test_an_action_over_the_socket_is_acked_and_broadcast_to_every_seat_and_spectator(
    alice, bob, make_user, patch_auth
):
    eve = await sync_to_async(make_user)("eve")
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover, other = (alice, bob) if match.to_move == 0 else (bob, alice)
    sockets = {}
    for user in (mover, other, eve, AnonymousUser()):
        ws, ok, _ = await open_socket(patch_auth, match.pk, user)
        assert ok
        await receive(ws, "snapshot")
        sockets[user.username or "anonymous"] = ws
    state = await sync_to_async(state_cache.load)(match)
    action = state.legal_actions()[0]
    await sockets[mover.username].send_to(
        text_data=json.dumps({"type": "act", "action": action, "version": match.version})
    )
    # The mover gets the update its move made straight away, and it carries the ack.
    own = spoken(json.loads(await sockets[mover.username].receive_from(timeout=10)))
    assert own["type"] == "snapshot" and own["ack"] == own["version"] > match.version
    after = await sync_to_async(state_cache.load)(await sync_to_async(fresh)(match.pk))
    for name, ws in sockets.items():
        snap = own if name == mover.username else await receive(ws, "snapshot")
        assert snap["version"] == own["version"]
        assert ("ack" in snap) == (name == mover.username), "only the mover's update is its ack"
        seat = {mover.username: mover_seat(match, mover), other.username: mover_seat(match, other)}.get(name)
        assert snap["seat"] == seat
        # Each socket gets the view of its own seat; spectators, signed in or not, the public one.
        assert snap["view"] == json.loads(json.dumps(after.view(seat)))
        assert (snap["legal_actions"] != []) == (seat is not None and after.current_player() == seat)
        await ws.disconnect()


async def test_the_mover_sees_its_move_at_once_even_if_the_group_update_is_slow(alice, bob, patch_auth, monkeypatch):
    from channels.layers import get_channel_layer

    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    ws, ok, _ = await open_socket(patch_auth, match.pk, mover)
    assert ok
    await receive(ws, "snapshot")
    layer = get_channel_layer()
    held = []

    async def held_back(group, message):  # the channel layer is slow today: nothing arrives
        held.append((group, message))

    monkeypatch.setattr(layer, "group_send", held_back)
    state = await sync_to_async(state_cache.load)(match)
    action = state.legal_actions()[0]
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    own = json.loads(await ws.receive_from(timeout=10))
    assert own["type"] == "snapshot" and own["version"] == match.version + 1
    assert own["new_moves"][0]["action"] == action and own["new_moves"][0]["seat"] == own["seat"]
    assert own["ack"] == own["version"]
    assert held, "the others still get the update through the layer"
    monkeypatch.undo()
    # The group's copy of the same version, when it comes, is not sent twice.
    for group, message in held:
        await layer.group_send(group, message)
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await ws.receive_from(timeout=10))["type"] == "pong"
    await ws.disconnect()


def mover_seat(match, user):
    return 0 if user.pk == match.creator_id else 1


@pytest.mark.parametrize(
    "frame, code",
    [
        ("not json", "bad_request"),
        ("[1, 2]", "bad_request"),
        (json.dumps({"type": "dance"}), "bad_request"),
        (json.dumps({"type": "act", "action": "move:a1-a2"}), "bad_request"),
        (json.dumps({"type": "act", "action": "x" * 5000, "version": 1}), "bad_request"),
        # 3,000 characters but over 6,000 bytes: the limit is on bytes.
        (json.dumps({"type": "act", "action": "é" * 3000, "version": 1}, ensure_ascii=False), "bad_request"),
    ],
)
async def test_malformed_frames_get_an_error_and_the_socket_stays_open(alice, bob, patch_auth, frame, code):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    await receive(ws, "snapshot")
    await ws.send_to(text_data=frame)
    error = await receive(ws, "error")
    assert error["code"] == code and error["message"]
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(ws, "pong"))["type"] == "pong"
    assert (await sync_to_async(fresh)(match.pk)).version == match.version
    await ws.disconnect()


async def test_errors_carry_their_codes_and_a_stale_version_gets_a_fresh_snapshot(alice, bob, make_user, patch_auth):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover, other = (alice, bob) if match.to_move == 0 else (bob, alice)
    state = await sync_to_async(state_cache.load)(match)
    action = state.legal_actions()[0]
    ws, _, _ = await open_socket(patch_auth, match.pk, other)
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    assert (await receive(ws, "error"))["code"] == "not_your_turn"
    await ws.disconnect()

    ws, _, _ = await open_socket(patch_auth, match.pk, mover)
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": "move:a1-h8", "version": match.version}))
    assert (await receive(ws, "error"))["code"] == "illegal"
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version - 1}))
    assert (await receive(ws, "error"))["code"] == "stale"
    assert (await receive(ws, "snapshot"))["version"] == match.version
    await ws.disconnect()

    eve = await sync_to_async(make_user)("eve")
    ws, _, _ = await open_socket(patch_auth, match.pk, eve)
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    assert (await receive(ws, "error"))["code"] == "not_seated"
    await ws.disconnect()
    assert (await sync_to_async(fresh)(match.pk)).version == match.version


async def test_a_sockets_errors_read_in_the_language_of_its_page(alice, bob, patch_auth):
    """The page's language: the language cookie, else the browser's; a signed-in person's
    saved language over both. The code stays the same."""
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover, other = (alice, bob) if match.to_move == 0 else (bob, alice)
    action = (await sync_to_async(state_cache.load)(match)).legal_actions()[0]
    frame = json.dumps({"type": "act", "action": action, "version": match.version})

    async def error_for(user, headers):
        patch_auth["user"] = user
        ws = WebsocketCommunicator(application, f"/ws/matches/{match.pk}/", headers=HOST + headers)
        assert (await ws.connect(timeout=10))[0]
        await receive(ws, "snapshot")
        await ws.send_to(text_data=frame)
        error = await receive(ws, "error")
        await ws.disconnect()
        return error

    german_page = [(b"cookie", b"django_language=de"), (b"accept-language", b"fr")]
    assert await error_for(other, german_page) == {
        "type": "error",
        "code": "not_your_turn",
        "message": "Du bist nicht am Zug.",
    }
    assert (await error_for(other, [(b"accept-language", b"es-ES,es;q=0.9")]))["message"] == "No te toca."
    assert (await error_for(other, []))["message"] == "It is not your turn."
    other.language = "fr"
    await sync_to_async(other.save)(update_fields=["language"])
    assert (await error_for(other, german_page))["message"] == "Ce n’est pas à vous de jouer."


async def test_a_flood_of_frames_is_refused_and_the_socket_stays_open(alice, bob, patch_auth):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, _, _ = await open_socket(patch_auth, match.pk, alice)
    await receive(ws, "snapshot")
    for _ in range(30):
        await ws.send_to(text_data=json.dumps({"type": "ping"}))
    frames = [json.loads(await ws.receive_from(timeout=10)) for _ in range(30)]
    assert sum(f["type"] == "pong" for f in frames) == 20
    assert any(f["type"] == "error" and "slow down" in f["message"] for f in frames)
    await ws.disconnect()


async def test_invite_only_matches_refuse_sockets_without_the_token(alice, bob, make_user, patch_auth):
    match = await sync_to_async(services.match_create)(
        user=alice, game="game-of-god", num_players=2, visibility="invite"
    )
    eve = await sync_to_async(make_user)("eve")
    ws, ok, code = await open_socket(patch_auth, match.pk, eve)
    assert not ok and code == 4403
    ws, ok, _ = await open_socket(patch_auth, match.pk, eve, f"token={match.invite_token}")
    assert ok
    await ws.disconnect()


async def test_the_face_down_card_never_travels_on_the_wire(alice, bob, make_user, patch_auth):
    carol = await sync_to_async(make_user)("carol")
    match = await sync_to_async(services.match_create)(user=alice, game="dice-territory", num_players=3)
    await sync_to_async(services.match_join)(match_id=match.pk, user=bob)
    await sync_to_async(services.match_join)(match_id=match.pk, user=carol)
    match = await sync_to_async(fresh)(match.pk)
    hidden = await sync_to_async(
        lambda: match.moves.filter(action__startswith="card:").order_by("index").first().action
    )()
    letter = hidden.split(":")[1]

    def assert_hidden(raw):
        payload = json.loads(raw)
        assert payload["type"] == "snapshot"
        assert hidden not in raw
        assert payload["view"]["card"] is None or payload["view"]["card"]["letter"] is None
        cards = [c for c in payload["view"].get("cards_played", []) if c.get("letter") == letter]
        assert cards == []

    sockets = []
    for user in (alice, bob, carol, AnonymousUser()):
        ws, ok, _ = await open_socket(patch_auth, match.pk, user)
        assert_hidden(await ws.receive_from(timeout=10))
        sockets.append(ws)
    # The snapshots broadcast after each move keep it hidden too.
    for _ in range(3):
        match = await sync_to_async(fresh)(match.pk)
        state = await sync_to_async(state_cache.load)(match)
        mover = [alice, bob, carol][state.current_player()]
        await sync_to_async(services.match_act)(
            match_id=match.pk, user=mover, action=state.legal_actions()[0], version=match.version
        )
        for ws in sockets:
            assert_hidden(await ws.receive_from(timeout=10))
    for ws in sockets:
        await ws.disconnect()
    # And so does the move list of the running match.
    moves = await sync_to_async(lambda: APIClient().get(f"/api/matches/{match.pk}/moves/").content.decode())()
    assert "card:?" in moves and hidden not in moves


async def test_a_finished_match_and_an_anonymous_visitor_get_their_error_codes(alice, bob, patch_auth):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    state = await sync_to_async(state_cache.load)(match)
    action = state.legal_actions()[0]
    ws, ok, _ = await open_socket(patch_auth, match.pk, AnonymousUser())
    assert ok
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    error = await receive(ws, "error")
    assert error["code"] == "not_seated" and error["message"]
    await ws.disconnect()

    await sync_to_async(services.match_resign)(match_id=match.pk, user=bob)
    match = await sync_to_async(fresh)(match.pk)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    await receive(ws, "snapshot")
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": match.version}))
    error = await receive(ws, "error")
    assert error["code"] == "finished" and error["message"]
    await ws.disconnect()
    assert (await sync_to_async(fresh)(match.pk)).version == match.version


async def test_chat_is_broadcast_escaped_by_the_page_and_stored(alice, bob, patch_auth):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws_a, _, _ = await open_socket(patch_auth, match.pk, alice)
    await receive(ws_a, "snapshot")
    ws_b, _, _ = await open_socket(patch_auth, match.pk, bob)
    await receive(ws_b, "snapshot")
    await ws_a.send_to(text_data=json.dumps({"type": "chat", "text": "<img src=x onerror=alert(1)> gl"}))
    for ws in (ws_a, ws_b):
        message = (await receive(ws, "chat"))["message"]
        assert message["user"] == "alice" and message["text"] == "<img src=x onerror=alert(1)> gl"
        await ws.disconnect()
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).chat_messages.count())() == 1
