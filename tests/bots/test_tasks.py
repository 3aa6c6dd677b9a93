"""The Celery task that plays a bot's move: a no-op when the match has moved on, and exactly
one move however often it is delivered."""

import random

import pytest
from django.db import OperationalError

from games import services, tasks
from games.bots import get_bot
from games.models import Match
from tests.games.helpers import fresh, play_turn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def bots_wait(monkeypatch):
    """Bots do not move by themselves: the test delivers the task by hand."""
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: None)


def match_with_greedy_to_move(alice):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="greedy")
    rng = random.Random(4)
    while fresh(match.pk).to_move == 0:  # alice moves first half the time
        play_turn(match.pk, {0: alice}, rng)
    match = fresh(match.pk)
    assert match.status == Match.Status.ACTIVE and match.to_move == 1
    return match


def bot_moves(match):
    return match.moves.filter(seat=1).count()


def test_the_task_plays_exactly_once_when_delivered_twice(alice, bots_wait):
    match = match_with_greedy_to_move(alice)
    before = bot_moves(match)
    first = tasks.bot_act.apply(args=(match.pk, match.version)).get()
    second = tasks.bot_act.apply(args=(match.pk, match.version)).get()
    assert first is not None and second is None
    assert bot_moves(match) == before + 1
    assert fresh(match.pk).version > match.version


def test_the_task_is_a_no_op_on_a_stale_version(alice, bots_wait):
    match = match_with_greedy_to_move(alice)
    before = (bot_moves(match), match.moves.count())
    assert tasks.bot_act.apply(args=(match.pk, match.version - 1)).get() is None
    assert (bot_moves(match), fresh(match.pk).moves.count()) == before
    assert fresh(match.pk).version == match.version


def test_the_task_does_nothing_when_a_person_is_to_move(alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    match = fresh(match.pk)
    assert tasks.bot_act.apply(args=(match.pk, match.version)).get() is None
    assert fresh(match.pk).version == match.version


def test_a_hard_bot_move_fits_the_task_limits_and_survives_a_lost_worker():
    hard = get_bot("mcts-hard")
    # The safety cap ends Hard's search before the task's own limits would end the task.
    assert hard.seconds is not None and hard.seconds < tasks.bot_act.soft_time_limit <= tasks.bot_act.time_limit
    assert tasks.bot_act.acks_late  # a worker that dies mid-move leaves the task to another


def test_a_lost_database_connection_is_retried_and_the_bot_moves_once(alice, bots_wait, monkeypatch):
    match = match_with_greedy_to_move(alice)
    before = bot_moves(match)
    real_act = services.match_act
    calls = []

    def flaky(**kwargs):
        calls.append(kwargs["version"])
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_act(**kwargs)

    monkeypatch.setattr(services, "match_act", flaky)
    # As a worker runs it: the failure is not raised to the caller but retried.
    assert tasks.bot_act.apply(args=(match.pk, match.version), throw=False).get() is not None
    assert calls == [match.version, match.version]
    assert bot_moves(match) == before + 1
