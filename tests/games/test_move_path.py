"""The live move path: what a move costs the database, and what the sockets do with it.

A move is one locked write; its payloads (one per seat, one for spectators) are built once by
the process that committed it and handed to every socket of the match, which forwards its own
audience's and runs no query, however many people watch.
"""

import json
import random
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.backends import utils as db_utils
from django.utils import timezone

from games import services, state_cache
from games.models import Match
from live import publishing

from .helpers import acked, fresh, start_two_player
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 (patch_auth is a fixture)

SOCKET_DB_THREAD = "socket-db"


def _mover(match, alice, bob):
    return alice if match.to_move == 0 else bob


@pytest.mark.django_db(transaction=True)
def test_a_persons_move_costs_at_most_five_queries_begin_and_commit_included(alice, bob, django_assert_max_num_queries):
    match = start_two_player("game-of-god", alice, bob)
    rng = random.Random(3)
    for _ in range(6):
        match = fresh(match.pk)
        action = rng.choice(state_cache.load(match).legal_actions())
        with django_assert_max_num_queries(5):
            services.match_act(match_id=match.pk, user=_mover(match, alice, bob), action=action, version=match.version)
    assert fresh(match.pk).version == match.version + 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="SQLite takes the locked path: no one-statement move there")
def test_on_postgresql_a_persons_move_is_two_statements_a_read_and_one_write(alice, bob, django_assert_max_num_queries):
    match = start_two_player("game-of-god", alice, bob)
    rng = random.Random(4)
    for _ in range(6):
        match = fresh(match.pk)
        action = rng.choice(state_cache.load(match).legal_actions())
        with django_assert_max_num_queries(2):
            services.match_act(match_id=match.pk, user=_mover(match, alice, bob), action=action, version=match.version)
        after = fresh(match.pk)
        assert after.version == match.version + 1
        assert after.moves.filter(seat__isnull=False).order_by("-index").first().action == action
        assert after.snapshot == state_cache.replay(after).view(None)


# The locked path on PostgreSQL, statement by statement: the unlocked read that finds the move
# must be decided under the lock, BEGIN, the match read again FOR UPDATE with its seats, the
# writes, COMMIT, and the follow-up that asks whether the match was a tournament's.
# A move that ends the game writes its move, the places and the match.
LOCKED_FINAL_MOVE_STATEMENTS = 8
# A move that meets a run-out clock asks whether an outage stopped the clocks, writes the time
# out, the places and the match, and reads the moves for the finished match's record.
LOCKED_TIME_OUT_STATEMENTS = 10


def _locked(statements):
    return [sql for sql in statements if "FOR UPDATE" in sql]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="the locked path is the only one on SQLite: budget above")
def test_on_postgresql_the_move_that_ends_the_game_takes_the_locked_path_within_its_budget(
    alice, bob, django_assert_max_num_queries
):
    match = start_two_player("territories", alice, bob)  # about 40 actions from start to end
    rng = random.Random(6)
    moves = 0
    while match.status == Match.Status.ACTIVE:
        action = rng.choice(state_cache.load(match).legal_actions())
        mover = _mover(match, alice, bob)
        with django_assert_max_num_queries(LOCKED_FINAL_MOVE_STATEMENTS) as ran:
            services.match_act(match_id=match.pk, user=mover, action=action, version=match.version)
        statements = [q["sql"] for q in ran.captured_queries]
        match = fresh(match.pk)
        moves += 1
        if match.status == Match.Status.ACTIVE:  # the moves before it: the one-statement path
            assert len(statements) <= 2 and _locked(statements) == [], statements
    assert moves > 1 and match.status == Match.Status.FINISHED and match.end_reason == "game over"
    assert len(_locked(statements)) == 1, statements
    assert all(seat.place is not None for seat in match.seats.all())


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.USING_POSTGRES, reason="the locked path is the only one on SQLite: budget above")
def test_on_postgresql_a_move_on_a_run_out_clock_takes_the_locked_path_within_its_budget(
    alice, bob, django_assert_max_num_queries
):
    match = start_two_player("game-of-god", alice, bob, speed="live", seconds_per_move=30)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    match = fresh(match.pk)
    late = match.to_move
    assert late is not None
    action = state_cache.load(match).legal_actions()[0]
    with (
        django_assert_max_num_queries(LOCKED_TIME_OUT_STATEMENTS) as ran,
        pytest.raises(services.MatchError) as refused,
    ):
        services.match_act(match_id=match.pk, user=_mover(match, alice, bob), action=action, version=match.version)
    statements = [q["sql"] for q in ran.captured_queries]
    assert refused.value.code == "finished"
    assert len(_locked(statements)) == 1, statements
    after = fresh(match.pk)
    assert after.status == Match.Status.FINISHED and after.end_reason == "time out"
    assert after.version == match.version + 1 and after.seats.get(index=late).timed_out


@pytest.mark.django_db(transaction=True)
def test_a_refused_move_costs_no_write(alice, bob, django_assert_max_num_queries):
    match = start_two_player("game-of-god", alice, bob)
    waiting = bob if match.to_move == 0 else alice
    action = state_cache.load(match).legal_actions()[0]
    with django_assert_max_num_queries(4), pytest.raises(services.MatchError) as refused:
        services.match_act(match_id=match.pk, user=waiting, action=action, version=match.version)
    assert refused.value.code == "not_your_turn"
    assert fresh(match.pk).version == match.version


@pytest.fixture
def socket_queries(monkeypatch):
    """Every SQL statement run by the sockets' database threads, whichever connection."""
    ran: list[str] = []
    real = db_utils.CursorWrapper._execute

    def spy(self, sql, params, *ignored):
        if threading.current_thread().name.startswith(SOCKET_DB_THREAD):
            ran.append(sql)
        return real(self, sql, params, *ignored)

    monkeypatch.setattr(db_utils.CursorWrapper, "_execute", spy)
    return ran


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_sockets_forward_each_update_without_a_database_query(alice, bob, make_user, patch_auth, socket_queries):  # noqa: F811
    eve = await sync_to_async(make_user)("eve")
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    audience = {"alice": alice, "bob": bob, "eve": eve, "anonymous": AnonymousUser()}
    sockets = {}
    for name, user in audience.items():
        ws, ok, _ = await open_socket(patch_auth, match.pk, user)
        assert ok
        await receive(ws, "snapshot")
        sockets[name] = ws
    assert socket_queries, "connecting reads the match (the snapshot): the spy sees the sockets' queries"
    socket_queries.clear()

    rng = random.Random(5)
    for _ in range(5):
        match = await sync_to_async(fresh)(match.pk)
        state = await sync_to_async(state_cache.load)(match)
        mover = _mover(match, alice, bob)
        action = rng.choice(state.legal_actions())
        await sync_to_async(services.match_act)(match_id=match.pk, user=mover, action=action, version=match.version)
        after = await sync_to_async(state_cache.load)(await sync_to_async(fresh)(match.pk))
        for name, ws in sockets.items():
            update = await receive(ws, "snapshot")
            assert update["version"] == match.version + 1
            seat = {"alice": 0, "bob": 1}.get(name)
            assert update["seat"] == seat
            assert update["view"] == json.loads(json.dumps(after.view(seat)))
            assert (update["legal_actions"] != []) == (seat is not None and after.current_player() == seat)
            # The move list grows from the update itself: no request for the whole list.
            added, *chance = update["new_moves"]
            assert (added["index"], added["seat"], added["action"]) == (len(state.history), match.to_move, action)
            assert added["label"] and all(row["seat"] is None for row in chance)
            assert update["moves"] == len(after.history) == added["index"] + 1 + len(chance)
    assert socket_queries == []
    for ws in sockets.values():
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_who_resigned_gets_the_spectators_view_from_then_on(alice, bob, make_user, patch_auth):  # noqa: F811
    carol = await sync_to_async(make_user)("carol")
    match = await sync_to_async(services.match_create)(user=alice, game="chit-territory", num_players=3)
    await sync_to_async(services.match_join)(match_id=match.pk, user=bob)
    await sync_to_async(services.match_join)(match_id=match.pk, user=carol)
    match = await sync_to_async(fresh)(match.pk)
    # Someone who is not to move resigns, so nothing moves after the resignation.
    seat = next(i for i in range(3) if i != match.to_move)
    quitter = [alice, bob, carol][seat]
    ws, ok, _ = await open_socket(patch_auth, match.pk, quitter)
    assert (await receive(ws, "snapshot"))["seat"] == seat
    await sync_to_async(services.match_resign)(match_id=match.pk, user=quitter)
    update = await receive(ws, "snapshot")
    match = await sync_to_async(fresh)(match.pk)
    spectator = json.loads(json.dumps((await sync_to_async(state_cache.load)(match)).view(None)))
    assert update["version"] == match.version
    assert update["seat"] is None and update["legal_actions"] == [] and update["view"] == spectator
    assert update["seats"][seat]["resigned"]
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_against_a_bot_is_broadcast_before_the_bot_answers(alice, patch_auth):  # noqa: F811
    match = await sync_to_async(services.match_create)(user=alice, game="game-of-god", num_players=2, rated=False)
    await sync_to_async(services.match_seat_bot)(match_id=match.pk, user=alice, bot="greedy")
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    latest = await receive(ws, "snapshot")
    rng = random.Random(8)
    handed_over = 0
    while handed_over < 3 and latest["status"] == Match.Status.ACTIVE:
        if not latest["legal_actions"]:  # the bot is thinking: its move comes as an update
            latest = await receive(ws, "snapshot")
            continue
        version = latest["version"]
        action = rng.choice(latest["legal_actions"])["action"]
        await ws.send_to(text_data=json.dumps({"type": "act", "action": action, "version": version}))
        # The very next frame is our own move's update, carrying its ack, whoever is to
        # answer it (the bot has not moved before we were told).
        latest = json.loads(await ws.receive_from(timeout=20))
        assert latest["type"] == "snapshot" and latest["version"] == version + 1, latest
        assert acked(latest) == version + 1, latest
        if latest["status"] == Match.Status.ACTIVE and latest["clocks"]["to_move"] == 1:
            assert latest["seats"][1]["is_bot"] and latest["legal_actions"] == []
            handed_over += 1
    assert handed_over == 3
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_that_lost_an_update_gets_the_latest_when_it_syncs(alice, bob, patch_auth, monkeypatch):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    shown = await receive(ws, "snapshot")
    # Up to date: nothing comes back.
    await ws.send_to(text_data=json.dumps({"type": "sync", "version": shown["version"]}))
    assert await ws.receive_nothing(timeout=0.5)
    # A move is made and its update is lost on the way (the layer delivers at most once).
    state = await sync_to_async(state_cache.load)(match)
    with monkeypatch.context() as lossy:
        lossy.setattr(publishing, "publish_now", lambda outbox: True)
        await sync_to_async(services.match_act)(
            match_id=match.pk, user=_mover(match, alice, bob), action=state.legal_actions()[0], version=match.version
        )
    assert await ws.receive_nothing(timeout=0.5)
    await ws.send_to(text_data=json.dumps({"type": "sync", "version": shown["version"]}))
    latest = await receive(ws, "snapshot")
    assert latest["version"] == match.version + 1
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.skipif(settings.USING_POSTGRES, reason="on PostgreSQL the process's room catches up instead (test_owner)")
async def test_a_process_that_did_not_make_the_move_keeps_its_state_current_from_the_update(
    alice,
    bob,
    patch_auth,  # noqa: F811
    monkeypatch,
):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    ws, ok, _ = await open_socket(patch_auth, match.pk, AnonymousUser())
    await receive(ws, "snapshot")
    state = await sync_to_async(state_cache.load)(match)  # this process knows the match at its version
    # The move is made elsewhere: this process's cache does not see the commit.
    with monkeypatch.context() as elsewhere:
        elsewhere.setattr(state_cache, "remember", lambda *args: None)
        await sync_to_async(services.match_act)(
            match_id=match.pk, user=_mover(match, alice, bob), action=state.legal_actions()[0], version=match.version
        )
    update = await receive(ws, "snapshot")
    assert "catch_up" not in update and "actions" not in update  # only the server reads the raw actions
    after = await sync_to_async(fresh)(match.pk)
    replayed = await sync_to_async(state_cache.replay)(after)

    def cached_without_a_query():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            cached = state_cache.load(after)
        return cached, len(queries)

    cached, queries = await sync_to_async(cached_without_a_query)()
    assert queries == 0 and cached.history == replayed.history and cached.view(None) == replayed.view(None)
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watcher_who_takes_a_seat_elsewhere_gets_the_players_updates(alice, bob, make_user, patch_auth):  # noqa: F811
    carol = await sync_to_async(make_user)("carol")
    match = await sync_to_async(services.match_create)(user=alice, game="chit-territory", num_players=3)
    ws, ok, _ = await open_socket(patch_auth, match.pk, bob)  # bob watches the open match
    assert (await receive(ws, "snapshot"))["seat"] is None
    await sync_to_async(services.match_join)(match_id=match.pk, user=bob)  # from another tab
    assert (await receive(ws, "snapshot"))["seat"] == 1
    await sync_to_async(services.match_join)(match_id=match.pk, user=carol)
    started = await receive(ws, "snapshot")
    while started["status"] != Match.Status.ACTIVE:
        started = await receive(ws, "snapshot")
    state = await sync_to_async(state_cache.load)(await sync_to_async(fresh)(match.pk))
    assert started["seat"] == 1 and started["view"] == json.loads(json.dumps(state.view(1)))
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
def test_an_update_that_does_not_follow_the_remembered_state_makes_the_process_read_the_moves_afresh(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    state = state_cache.load(match)
    action = state.legal_actions()[0]
    # The update says the match had one move more at that version than this process holds.
    assert not state_cache.advance(match.pk, match.version, len(state.history) + 1, match.version + 1, [action])
    services.match_act(match_id=match.pk, user=_mover(match, alice, bob), action=action, version=match.version)
    after = fresh(match.pk)
    history = state_cache.load(after).history
    assert history == state_cache.replay(after).history
    assert history[: len(state.history) + 1] == state.history + [action]
