"""On PostgreSQL a socket's move is played in its process's room of the match (``games.services.owner``).

The room holds the match, its seats and its engine state in memory; a move is decided there
and written by one version-guarded statement on the event loop, then acked and broadcast. Every
process keeps its room current from the match's updates; a room that fell behind without
knowing writes nothing, and whoever moved is told the position changed.
"""

import asyncio
import json
import logging
import threading

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games import services, state_cache
from games.consumers import MatchConsumer
from games.services import owner
from live import publishing

from .helpers import acked, fresh, start_two_player
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 (patch_auth is a fixture)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(not settings.USING_POSTGRES, reason="the rooms play on PostgreSQL only"),
]


def _players(match, alice, bob):
    """(the player to move, the other)."""
    return (alice, bob) if match.to_move == 0 else (bob, alice)


async def _legal(match):
    state = await sync_to_async(state_cache.load)(match)
    return state.legal_actions()


def _moves(match_id):
    return list(fresh(match_id).moves.order_by("index").values_list("action", flat=True))


async def _act(ws, action, version):
    await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": version}))


async def _answer(ws):
    """The ack of a move, or its error."""
    while True:
        frame = json.loads(await ws.receive_from(timeout=10))
        if acked(frame):
            return {"type": "ack", "version": acked(frame)}
        if frame["type"] == "error":
            return frame


async def _seated(auth, alice, bob):
    """A Game of God match of alice and bob, each with a socket on it that has its snapshot."""
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    sockets = {}
    for user in (alice, bob):
        sockets[user.pk], _, _ = await open_socket(auth, match.pk, user)
        await receive(sockets[user.pk], "snapshot")
    return match, sockets


async def _play_first_move(match, sockets, alice, bob):
    """The player to move plays over their socket, here: this process now holds the room."""
    mover, _ = _players(match, alice, bob)
    await _act(sockets[mover.pk], (await _legal(match))[0], match.version)
    assert (await _answer(sockets[mover.pk]))["type"] == "ack"


async def test_moves_over_the_sockets_are_stored_exactly_as_the_engine_plays_them(alice, bob, patch_auth):  # noqa: F811
    match, sockets = await _seated(patch_auth, alice, bob)
    for _ in range(12):
        match = await sync_to_async(fresh)(match.pk)
        mover, _ = _players(match, alice, bob)
        await _act(sockets[mover.pk], (await _legal(match))[-1], match.version)
        ack = await receive(sockets[mover.pk], "ack")
        assert ack["version"] == match.version + 1
    after = await sync_to_async(fresh)(match.pk)
    replayed = await sync_to_async(state_cache.replay)(after)
    assert after.version == match.version + 1
    assert after.snapshot == replayed.view(None)
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_move_made_elsewhere_reaches_the_room_by_its_update_and_no_read_is_needed(
    alice,
    bob,
    patch_auth,  # noqa: F811
    monkeypatch,
):
    match, sockets = await _seated(patch_auth, alice, bob)
    await _play_first_move(match, sockets, alice, bob)
    # The player now to move plays through another way in (the REST API, another process):
    # this process learns it from the update only.
    match = await sync_to_async(fresh)(match.pk)
    mover, _ = _players(match, alice, bob)
    await sync_to_async(services.match_act)(
        match_id=match.pk, user=mover, action=(await _legal(match))[0], version=match.version
    )
    for ws in sockets.values():
        while (await receive(ws, "snapshot"))["version"] < match.version + 1:
            pass  # the first move's update, on its way to the other player
    reads = []
    monkeypatch.setattr(owner, "_load", lambda match_id: reads.append(match_id))
    match = await sync_to_async(fresh)(match.pk)
    mover, _ = _players(match, alice, bob)
    await _act(sockets[mover.pk], (await _legal(match))[0], match.version)
    assert (await _answer(sockets[mover.pk]))["version"] == match.version + 1
    assert reads == []  # decided on the room's own copy, caught up by the update
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_room_that_missed_an_update_writes_nothing_and_the_player_gets_the_position(
    alice,
    bob,
    patch_auth,  # noqa: F811
    monkeypatch,
    caplog,
):
    match, sockets = await _seated(patch_auth, alice, bob)
    await _play_first_move(match, sockets, alice, bob)
    # The player now to move plays in another process, whose update never arrives here.
    match = await sync_to_async(fresh)(match.pk)
    mover, _ = _players(match, alice, bob)
    ws = sockets[mover.pk]
    legal = await _legal(match)
    with monkeypatch.context() as lossy:
        lossy.setattr(publishing, "publish_now", lambda outbox: True)
        await sync_to_async(services.match_act)(match_id=match.pk, user=mover, action=legal[0], version=match.version)
    stored = await sync_to_async(_moves)(match.pk)
    # The same player's page here still shows the position before it, and plays on it again.
    with caplog.at_level(logging.WARNING, logger="games.services.owner"):
        await _act(ws, legal[-1], match.version)
        error = await _answer(ws)
    assert error["code"] == "stale"
    # What the operators see: which match, at which version this process's room stood.
    assert f"Match {match.pk}: a move at version {match.version} was not written" in caplog.text
    current = await receive(ws, "snapshot")
    assert current["version"] == match.version + 1
    assert await sync_to_async(_moves)(match.pk) == stored  # nothing written twice, nothing lost
    # The room is read again: the next move from here is played.
    match = await sync_to_async(fresh)(match.pk)
    mover, _ = _players(match, alice, bob)
    await _act(sockets[mover.pk], (await _legal(match))[0], match.version)
    assert (await _answer(sockets[mover.pk]))["version"] == match.version + 1
    for ws in sockets.values():
        await ws.disconnect()


async def test_of_many_moves_at_once_from_sockets_and_threads_exactly_one_is_played(alice, bob, patch_auth):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover, _ = _players(match, alice, bob)
    legal = await _legal(match)
    sockets = []
    for _ in range(20):
        ws, _, _ = await open_socket(patch_auth, match.pk, mover)
        await receive(ws, "snapshot")
        sockets.append(ws)
    outcomes = []

    def by_thread(action):
        from django.db import connection

        try:
            services.match_act(match_id=match.pk, user=mover, action=action, version=match.version)
            outcomes.append("played")
        except services.MatchError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=by_thread, args=(legal[i % len(legal)],)) for i in range(6)]
    for thread in threads:
        thread.start()
    await asyncio.gather(*(_act(ws, legal[i % len(legal)], match.version) for i, ws in enumerate(sockets)))
    for ws in sockets:
        while True:
            frame = json.loads(await ws.receive_from(timeout=10))
            if acked(frame):
                outcomes.append("played")
                break
            if frame["type"] == "error":
                outcomes.append(frame["code"])
                break
    for thread in threads:
        await sync_to_async(thread.join)()
    assert outcomes.count("played") == 1
    assert set(outcomes) <= {"played", "stale", "not_your_turn"}
    after = await sync_to_async(fresh)(match.pk)
    assert after.version == match.version + 1
    replayed = await sync_to_async(state_cache.replay)(after)
    assert after.snapshot == replayed.view(None)
    for ws in sockets:
        await ws.disconnect()


async def test_the_move_that_ends_the_game_is_scored_on_the_locked_path_and_the_room_let_go(
    alice,
    bob,
    patch_auth,  # noqa: F811
    monkeypatch,
):
    monkeypatch.setattr(MatchConsumer, "max_frames_per_second", 10_000)  # a whole game, played fast
    match, sockets = await _seated(patch_auth, alice, bob)
    for _ in range(2000):
        match = await sync_to_async(fresh)(match.pk)
        if match.status != match.Status.ACTIVE:
            break
        mover, _ = _players(match, alice, bob)
        await _act(sockets[mover.pk], (await _legal(match))[0], match.version)
        answer = await _answer(sockets[mover.pk])
        assert answer["type"] == "ack", answer
    assert match.status == match.Status.FINISHED
    places = await sync_to_async(lambda: [seat.place or 0 for seat in match.seats.order_by("place")])()
    assert places in ([1, 2], [1, 1])  # the result went to the seats
    await _act(sockets[alice.pk], "roll", match.version)
    assert (await receive(sockets[alice.pk], "error"))["code"] == "finished"
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_database_that_does_not_answer_leaves_the_move_unmade_and_the_socket_open(
    alice,
    bob,
    patch_auth,  # noqa: F811
    monkeypatch,
):
    from psycopg_pool import PoolTimeout

    from live import pg

    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover, _ = _players(match, alice, bob)
    ws, _, _ = await open_socket(patch_auth, match.pk, mover)
    await receive(ws, "snapshot")
    legal = await _legal(match)

    async def no_connection():
        raise PoolTimeout("couldn't get a connection after 10.00 sec")

    with monkeypatch.context() as down:
        down.setattr(pg, "_pool", no_connection)
        await _act(ws, legal[0], match.version)
        error = await _answer(ws)
    assert error["code"] == "unavailable" and "could not be saved" in error["message"]
    assert (await sync_to_async(fresh)(match.pk)).version == match.version
    # The database answers again: the same move, from the same socket, is played.
    await _act(ws, legal[0], match.version)
    assert (await _answer(ws))["version"] == match.version + 1
    await ws.disconnect()


async def test_a_match_ended_elsewhere_refuses_the_next_move_here_as_finished(
    alice,
    bob,
    patch_auth,  # noqa: F811
):
    match, sockets = await _seated(patch_auth, alice, bob)
    mover, other = _players(match, alice, bob)
    await _play_first_move(match, sockets, alice, bob)
    # The other player resigns through another way in (the REST API, another process).
    await sync_to_async(services.match_resign)(match_id=match.pk, user=other)
    while (await receive(sockets[mover.pk], "snapshot"))["status"] != "finished":
        pass
    match = await sync_to_async(fresh)(match.pk)
    await _act(sockets[mover.pk], "anything", match.version)
    assert (await _answer(sockets[mover.pk]))["code"] == "finished"
    for ws in sockets.values():
        await ws.disconnect()
