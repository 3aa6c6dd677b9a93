"""When the live path (Redis: the channel layer, the broker) fails: a committed move is still
answered and acknowledged, the bot and the rating are still attempted, nobody loses on time
while nobody can see the moves, and the periodic check repairs whatever was lost.

Here the failure is simulated inside the process (a channel layer that raises, a probe that
says Redis is down); ``test_redis_outage.py`` kills a real Redis under live servers."""

import json
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import selectors, services, state_cache, tasks
from games.models import ChatMessage, LiveOutage, Match, Move
from live import reach
from portal import redis_pool
from portal.redis_pool import Breaker
from rankings.models import Rating, RatingChange
from tests.conftest import drain_worker, wait_for

from .helpers import fresh, play_turn, start_two_player
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 (fixture)


@pytest.fixture(autouse=True)
def _no_outage_remembered():
    """An outage simulated here (on the real path, the layer's breaker is the shared Redis's)
    ends with its test."""
    redis_pool.reset_breakers()
    yield
    redis_pool.reset_breakers()


@pytest.fixture
def redis_down(monkeypatch):
    """Redis unreachable: the channel layer raises on every send and the probe says so. The
    failure is the layer's alone (a breaker of its own): the broker stays up, so what follows a
    change (the bot's turn, the rating) is seen to be attempted on its own."""
    layer = get_channel_layer()
    monkeypatch.setattr(reach, "breaker", lambda: Breaker("the simulated layer"))

    async def group_send(group, message):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(layer, "group_send", group_send)
    monkeypatch.setattr(reach, "reachable", lambda: False)
    return monkeypatch


def redis_back(monkeypatch):
    monkeypatch.undo()


def api_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def bot_to_move_after_alice(alice, lose_the_bot_task=None):
    """A match of alice against the random bot, the bot to move; with ``lose_the_bot_task``
    (a monkeypatch), the task queued for it is lost on the way."""
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    if lose_the_bot_task is not None:
        lose_the_bot_task.setattr(tasks, "schedule_bot", lambda match_id, version: None)
    match = fresh(match.pk)
    while match.to_move == 0:
        play_turn(match.pk, {0: alice}, random.Random(1))
        match = fresh(match.pk)
    return match


def alice_to_move_against_the_bot(alice):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    wait_for(lambda: fresh(match.pk).to_move == 0, message="alice to move")
    drain_worker()
    return fresh(match.pk)


def bot_has_answered(match_id: int, moves_before: int) -> bool:
    """The bot has played (one turn may take it several actions) and alice is to move again."""
    match = fresh(match_id)
    played = Move.objects.filter(match_id=match_id, seat=1, index__gte=moves_before).exists()
    return played and (match.to_move == 0 or match.is_over)


# -- a committed change is answered, and what follows it is attempted step by step -------


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_broadcast_fails_is_answered_200_and_the_bot_still_answers(alice, redis_down):
    match = alice_to_move_against_the_bot(alice)
    moves_before = match.moves.count()
    api = api_for(alice)

    while match.to_move == 0:  # alice's turn may take several actions
        action = state_cache.load(match).legal_actions()[0]
        response = api.post(
            f"/api/matches/{match.pk}/actions/", {"action": action, "version": match.version}, format="json"
        )
        assert response.status_code == 200, response.content
        assert response.json()["version"] > match.version
        match = fresh(match.pk)

    wait_for(lambda: bot_has_answered(match.pk, moves_before), message="the bot's answer")
    assert LiveOutage.objects.filter(ended_at=None).count() == 1, "the outage is noted: the clocks stop"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_over_the_socket_whose_broadcast_fails_is_acked_and_the_player_told(alice, bob, patch_auth):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    ws, ok, _ = await open_socket(patch_auth, match.pk, mover)
    assert ok
    await receive(ws, "snapshot")
    layer = get_channel_layer()

    async def group_send(group, message):
        raise RedisConnectionError("Connection refused.")

    original, layer.group_send = layer.group_send, group_send
    try:
        state = await sync_to_async(state_cache.load)(match)
        frame = {"type": "act", "action": state.legal_actions()[0], "version": match.version}
        await ws.send_to(text_data=json.dumps(frame))
        ack = await receive(ws, "ack")
        told = await receive(ws, "error")
        snapshot = await receive(ws, "snapshot")
    finally:
        layer.group_send = original
    assert ack["version"] == match.version + 1 == (await sync_to_async(fresh)(match.pk)).version
    assert told["code"] == "unavailable" and "saved" in told["message"]
    assert snapshot["version"] == ack["version"], "the player sees the move they made"
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert (await receive(ws, "pong"))["type"] == "pong", "the socket stays open"
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_while_its_channel_cannot_be_subscribed_is_closed_with_the_live_down_code(
    alice,
    bob,
    patch_auth,  # noqa: F811
    caplog,
):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    layer = get_channel_layer()

    async def new_channel(prefix="specific."):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    original, layer.new_channel = layer.new_channel, new_channel
    try:
        ws, ok, code = await open_socket(patch_auth, match.pk, alice)
    finally:
        layer.new_channel = original
    assert ok, "the handshake succeeds: no server error"
    assert (await ws.receive_output(timeout=10)) == {"type": "websocket.close", "code": reach.LIVE_DOWN_CLOSE_CODE}
    assert not [r for r in caplog.records if r.exc_info], "no traceback"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_whose_groups_cannot_be_joined_is_closed_with_the_live_down_code(alice, bob, patch_auth, caplog):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    layer = get_channel_layer()

    async def group_add(group, channel):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    original, layer.group_add = layer.group_add, group_add
    try:
        ws, ok, code = await open_socket(patch_auth, match.pk, alice)
        assert ok, "the handshake succeeds: no server error"
        closed = await ws.receive_output(timeout=10)
    finally:
        layer.group_add = original
    assert closed == {"type": "websocket.close", "code": reach.LIVE_DOWN_CLOSE_CODE}
    assert not [r for r in caplog.records if r.exc_info], "no traceback"


@pytest.mark.django_db(transaction=True)
def test_broadcasts_that_fail_as_redis_does_not_answer_log_no_traceback(alice, bob, redis_down, caplog):
    match = start_two_player("game-of-god", alice, bob)
    client = api_for(alice if match.to_move == 0 else bob)
    state = state_cache.load(match)
    response = client.post(
        f"/api/matches/{match.pk}/actions/",
        {"action": state.legal_actions()[0], "version": match.version},
        format="json",
    )
    assert response.status_code == 200
    assert not [r for r in caplog.records if r.exc_info], "Redis not answering is an outage, not a bug"


@pytest.mark.django_db(transaction=True)
def test_a_match_that_ends_while_the_broadcast_fails_is_still_rated(alice, bob, redis_down):
    match = start_two_player("game-of-god", alice, bob)
    response = api_for(alice).post(f"/api/matches/{match.pk}/resign/")
    assert response.status_code == 200, response.content
    assert fresh(match.pk).status == Match.Status.FINISHED
    wait_for(lambda: RatingChange.objects.filter(match=match).count() == 2, message="the rating")


# -- clocks stop while nobody can see the moves --------------------------------------------


def _expire(match) -> Match:
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return fresh(match.pk)


def test_no_clock_forfeits_anyone_while_the_live_path_is_down(alice, bob, redis_down):
    match = _expire(start_two_player("game-of-god", alice, bob))

    assert tasks.enforce_clocks() == 0
    assert services.match_check_clock(match=match) is False
    assert fresh(match.pk).status == Match.Status.ACTIVE
    assert LiveOutage.objects.filter(ended_at=None).exists()

    # The player whose time ran out meanwhile may still move.
    late = alice if match.to_move == 0 else bob
    action = state_cache.load(match).legal_actions()[0]
    services.match_act(match_id=match.pk, user=late, action=action, version=match.version)
    assert not fresh(match.pk).seats.filter(timed_out=True).exists()


def test_once_the_live_path_is_back_the_deadlines_move_on_and_the_players_are_told(alice, bob, redis_down):
    match = start_two_player("game-of-god", alice, bob)
    correspondence = start_two_player("game-of-god", alice, bob, speed="correspondence")
    tasks.enforce_clocks()
    assert LiveOutage.objects.filter(ended_at=None).exists()
    LiveOutage.objects.update(started_at=timezone.now() - timedelta(minutes=5))
    match = _expire(match)  # it would have run out during the outage
    redis_back(redis_down)

    assert services.match_check_clock(match=match) is False, "a read after the outage forfeits nobody"
    after = fresh(match.pk)
    assert after.status == Match.Status.ACTIVE and after.version == match.version + 1
    assert after.deadline >= timezone.now() + timedelta(seconds=match.seconds_per_move - 5)
    notice = ChatMessage.objects.get(match=match)
    assert notice.user is None and "clocks were stopped" in notice.text and "5 min" in notice.text
    assert selectors.chat_json(notice)["notice"] is True
    assert not ChatMessage.objects.filter(match=correspondence).exists(), "correspondence clocks run in days"
    assert fresh(correspondence.pk).deadline == correspondence.deadline

    tasks.enforce_clocks()
    assert ChatMessage.objects.filter(match=match).count() == 1, "an outage ends once"
    assert LiveOutage.objects.get().ended_at is not None


def test_a_clock_that_runs_out_with_the_live_path_up_still_forfeits(alice, bob):
    match = _expire(start_two_player("game-of-god", alice, bob))
    assert tasks.enforce_clocks() == 1
    assert fresh(match.pk).status == Match.Status.FINISHED
    assert not LiveOutage.objects.exists()


# -- the periodic check repairs what was lost ----------------------------------------------


def test_a_rated_match_left_unrated_is_rated_by_the_periodic_check_once(alice, bob, monkeypatch):
    from rankings import tasks as rating_tasks

    def broker_down(*args, **kwargs):
        raise RedisConnectionError("Connection refused.")

    monkeypatch.setattr(rating_tasks.rate_match, "delay", broker_down)
    match = start_two_player("game-of-god", alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    monkeypatch.undo()
    assert fresh(match.pk).status == Match.Status.FINISHED
    assert not RatingChange.objects.filter(match=match).exists(), "the rating task was lost"

    rating_tasks.rate_unrated()
    assert not RatingChange.objects.filter(match=match).exists(), "a match that has only just ended is left alone"

    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    rating_tasks.rate_unrated()
    rating_tasks.rate_unrated()
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(Rating.objects.filter(game="game-of-god").values_list("rated_games", flat=True)) == [1, 1]
    assert Rating.objects.get(user=alice, game="game-of-god").wins == 1


@pytest.mark.django_db(transaction=True)
def test_a_lost_bot_move_queued_again_twice_is_played_once(alice, monkeypatch):
    match = bot_to_move_after_alice(alice, lose_the_bot_task=monkeypatch)
    stuck_version, moves_before = match.version, match.moves.count()
    monkeypatch.undo()
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=2))

    tasks.enforce_clocks()
    tasks.enforce_clocks()  # a second sweep before the first bot move landed: queued twice

    wait_for(lambda: bot_has_answered(match.pk, moves_before), message="the bot's answer")
    drain_worker()
    match = fresh(match.pk)
    # Chance outcomes (no seat) are drawn inside the bot's own actions.
    added = [
        seat for seat in match.moves.filter(index__gte=moves_before).values_list("seat", flat=True) if seat is not None
    ]
    assert added and set(added) == {1}, "only the bot moved"
    assert match.version - stuck_version == len(added), "one version per action: nothing applied twice"
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    assert match.engine.replay(2, match.options, actions).view(None) == match.snapshot
