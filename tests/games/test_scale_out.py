"""Two ASGI processes on one Redis and one database: a move made through either reaches the
sockets the other holds, players' and spectators', each with its own seat's view, and the
seats' sockets on both processes play on, each move decided where it arrives."""

import asyncio
import json

import pytest
import websockets
from django.conf import settings
from rest_framework.authtoken.models import Token

from games import services
from games.engine_text import wired
from games.engines import get_game
from games.models import Match

from .helpers import acked, fresh
from .live_servers import http, session_cookie, uvicorn_servers

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="needs REDIS_URL: without it the channel layer is in-memory and cannot reach another process",
    ),
    pytest.mark.skipif(
        not settings.USING_POSTGRES,
        reason="needs DATABASE_URL on PostgreSQL: the servers share the test database over the network",
    ),
]

WAIT = 20.0  # seconds any one frame may take, loaded CI machines included
STATE_FRAMES = ("snapshot", "update")


@pytest.fixture
def two_servers(transactional_db):
    with uvicorn_servers(["portal-scale-a", "portal-scale-b"]) as servers:
        yield servers


class Socket:
    """One browser tab's socket on one server, keeping every state frame it was sent."""

    def __init__(self, name, server, seat):
        self.name, self.server, self.seat = name, server, seat
        self.frames = []

    async def open(self, match_id, cookie):
        headers = {"Cookie": cookie} if cookie else {}
        self.ws = await websockets.connect(
            self.server.ws_url(f"/ws/matches/{match_id}/"),
            origin=self.server.url,
            additional_headers=headers,
            open_timeout=WAIT,
            close_timeout=5,
        )
        return await self.state(0)

    async def state(self, version):
        """The first state frame at ``version`` or later (acks and chat skipped, errors fail)."""
        if self.frames and self.frames[-1]["version"] >= version:
            return self.frames[-1]  # it came before the ack
        while True:
            frame = await self.next_frame(f"version {version}")
            if frame["type"] in STATE_FRAMES:
                self.frames.append(frame)
                if frame["version"] >= version:
                    return frame

    async def ack(self):
        while True:
            frame = await self.next_frame("an ack")
            if frame["type"] in STATE_FRAMES:
                self.frames.append(frame)
            if acked(frame):
                return {"type": "ack", "version": acked(frame)}

    async def next_frame(self, waiting_for):
        where = f"{self.name}'s socket on port {self.server.port}"
        try:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), WAIT))
        except TimeoutError:
            raise AssertionError(f"{where} waited {WAIT:.0f} s for {waiting_for} in vain") from None
        assert frame["type"] != "error", f"{where} got {frame}"
        return frame


def test_moves_made_through_one_process_reach_every_socket_on_the_other(two_servers, make_user):
    a, b = two_servers
    alice, bob, carol, eve = (make_user(name) for name in ("alice", "bob", "carol", "eve"))
    # Dice Territory for three: every seat's view is its own, so a view sent to the wrong
    # socket shows; chance (the dice) is resolved inside each move.
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    match = fresh(match.pk)
    assert match.status == Match.Status.ACTIVE
    seat_of = {seat.user_id: seat.index for seat in match.seats.all()}
    audience = [(user.username, seat_of.get(user.pk), session_cookie(user)) for user in (alice, bob, carol, eve)]
    audience.append(("anonymous", None, ""))
    tokens = {seat_of[user.pk]: Token.objects.create(user=user).key for user in (alice, bob, carol)}
    start = match.version

    async def play():
        # Every person, signed in or not, holds one socket on each server.
        sockets = [Socket(name, server, seat) for server in (a, b) for name, seat, _ in audience]
        cookies = {name: cookie for name, _, cookie in audience}
        try:
            first = await asyncio.gather(*(s.open(match.pk, cookies[s.name]) for s in sockets))
            assert {f["version"] for f in first} == {start}
            assert [f["seat"] for f in first] == [s.seat for s in sockets]

            # 1. Over server A's socket: the seat to move acts; every socket on B hears of it.
            mover = next(s for s, f in zip(sockets, first, strict=True) if f["legal_actions"] and s.server is a)
            action = first[sockets.index(mover)]["legal_actions"][0]["action"]
            await mover.ws.send(json.dumps({"type": "act", "action": action, "version": start}))
            ack = await mover.ack()
            assert ack["version"] > start
            second = await asyncio.gather(*(s.state(ack["version"]) for s in sockets))
            assert {f["version"] for f in second} == {ack["version"]}

            # 2. Over server B's REST API: the seat now to move acts; every socket on A hears of it.
            seat = next(f["seat"] for f in second if f["legal_actions"])
            action = next(f for f in second if f["seat"] == seat)["legal_actions"][0]["action"]
            status, body = await asyncio.to_thread(
                http,
                "POST",
                f"{b.url}/api/matches/{match.pk}/actions/",
                body={"action": action, "version": ack["version"]},
                headers={"Authorization": f"Token {tokens[seat]}"},
            )
            assert status == 200, body
            third = await asyncio.gather(*(s.state(body["version"]) for s in sockets))
            assert {f["version"] for f in third} == {body["version"]} and body["version"] > ack["version"]

            # 3. Then over the sockets, taking turns between the servers: each move is decided by
            # the server its socket is on, whose copy of the match the other's moves kept current
            # (an error frame, such as "stale", fails the test).
            latest = third
            for server in (b, a, b, a):
                seat = next(f["seat"] for f in latest if f["legal_actions"])
                mover = next(s for s in sockets if s.seat == seat and s.server is server)
                frame = next(f for f, s in zip(latest, sockets, strict=True) if s is mover)
                version = frame["version"]
                await mover.ws.send(
                    json.dumps({"type": "act", "action": frame["legal_actions"][0]["action"], "version": version})
                )
                ack = await mover.ack()
                latest = await asyncio.gather(*(s.state(ack["version"]) for s in sockets))
                assert {f["version"] for f in latest} == {ack["version"]} and ack["version"] > version
            return sockets
        finally:
            await asyncio.gather(*(s.ws.close() for s in sockets if hasattr(s, "ws")), return_exceptions=True)

    sockets = asyncio.run(asyncio.wait_for(play(), 3 * WAIT))

    # Each frame holds exactly its own seat's view of the state it names (spectators, signed
    # in or not, the public one) and legal actions only for the seat to move; no player ever
    # gets another seat's view.
    match = fresh(match.pk)
    assert match.version > start and match.status == Match.Status.ACTIVE
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    game = get_game(match.game)
    seats = range(match.num_players)
    for socket in sockets:
        assert len(socket.frames) >= 3, f"{socket.name} on port {socket.server.port} missed an update"
        for frame in socket.frames:
            state = game.replay(match.num_players, match.options, actions[: frame["view"]["move_number"]])
            assert frame["seat"] == socket.seat
            assert frame["view"] == jsonable(state.view(socket.seat)), f"{socket.name} got another view"
            if socket.seat is not None:
                assert all(frame["view"] != jsonable(state.view(other)) for other in seats if other != socket.seat)
            to_move = socket.seat is not None and state.current_player() == socket.seat
            assert bool(frame["legal_actions"]) == to_move
            if to_move:
                assert [a["action"] for a in frame["legal_actions"]] == state.legal_actions()


def jsonable(view):
    """A view as a frame carries it: the engine's words in their compact form (the page says
    them in its language), the rest as JSON."""
    return json.loads(json.dumps(wired(view)))
