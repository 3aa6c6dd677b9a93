"""A server killed in the middle of a move: a move that was acked is stored; one that was not
either was stored, and every page sees it once it reconnects, or was never made. No move is
ever stored twice, and the match replays to its snapshot after every kill."""

import asyncio
import json

import pytest
import websockets
from django.conf import settings

from games import state_cache

from .helpers import acked, fresh, start_two_player
from .live_servers import session_cookie, uvicorn_server

pytestmark = pytest.mark.skipif(
    not (settings.USING_POSTGRES and settings.REDIS_URL),
    reason="a server process of its own, on PostgreSQL and Redis shared with the test",
)

WAIT = 20.0
# How long after sending the move the server is killed: before it can have read the frame,
# around its statement, after its ack.
KILL_AFTER = (0.0, 0.003, 0.3)


async def _move_then_kill(server, match, cookie, delay: float) -> tuple[bool, int]:
    """Send the seat's first legal action, kill the server ``delay`` s later, and say whether
    the ack came before the socket died, with the version the move was made at."""
    ws = await websockets.connect(
        server.ws_url(f"/ws/matches/{match.pk}/"),
        origin=server.url,
        additional_headers={"Cookie": cookie},
        open_timeout=WAIT,
    )
    snapshot = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
    action = snapshot["legal_actions"][0]["action"]
    await ws.send(json.dumps({"type": "act", "action": action, "version": snapshot["version"]}))
    await asyncio.sleep(delay)
    server.process.kill()
    was_acked = False
    try:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
            was_acked = was_acked or bool(acked(frame))
    except (websockets.ConnectionClosed, TimeoutError):
        pass
    return was_acked, snapshot["version"]


async def _reconnected_version(server, match, cookie) -> int:
    async with websockets.connect(
        server.ws_url(f"/ws/matches/{match.pk}/"),
        origin=server.url,
        additional_headers={"Cookie": cookie},
        open_timeout=WAIT,
    ) as ws:
        return json.loads(await asyncio.wait_for(ws.recv(), WAIT))["version"]


def test_an_acked_move_survives_the_server_being_killed_and_nothing_is_doubled(transactional_db, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_two_player("game-of-god", alice, bob)
    cookies = {alice.pk: session_cookie(alice), bob.pk: session_cookie(bob)}
    outcomes = []
    for delay in (*KILL_AFTER, None):
        match = fresh(match.pk)
        seat_to_move = match.seats.get(index=match.to_move or 0)
        mover = alice if seat_to_move.user_id == alice.pk else bob
        with uvicorn_server("portal-killed") as server:
            # A page that reconnects, to a server started afresh, sees what was stored.
            assert asyncio.run(_reconnected_version(server, match, cookies[mover.pk])) == match.version
            if delay is None:
                break
            acked, version = asyncio.run(_move_then_kill(server, match, cookies[mover.pk], delay))
        after = fresh(match.pk)
        stored = after.version == version + 1
        assert after.version in (version, version + 1)  # made once or not at all
        if acked:
            assert stored, f"killed {delay} s after the move: acked but not stored"
        outcomes.append((delay, acked, stored))
        # The match replays from its moves to exactly the snapshot stored with it.
        assert state_cache.replay(after).view(None) == after.snapshot
    assert outcomes[-1][1:] == (True, True), outcomes  # the last kill comes well after the ack
