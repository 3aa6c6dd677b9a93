"""The Celery task that plays a bot's move: a no-op when the match has moved on, and exactly
one move however often it is delivered."""

import random

import pytest
from django.db import OperationalError

import live.publishing
from games import services, state_cache, tasks
from games.bots import MCTSBot, get_bot
from games.engines import CHANCE, get_game
from games.models import Match
from games.services import writes
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
    after_first = bot_moves(match)
    second = tasks.bot_act.apply(args=(match.pk, match.version)).get()
    assert first is not None and second is None
    assert after_first > before and bot_moves(match) == after_first
    assert fresh(match.pk).version > match.version


def test_the_task_is_a_no_op_on_a_stale_version(alice, bots_wait):
    match = match_with_greedy_to_move(alice)
    before = (bot_moves(match), match.moves.count())
    assert tasks.bot_act.apply(args=(match.pk, match.version - 1)).get() is None
    assert (bot_moves(match), fresh(match.pk).moves.count()) == before
    assert fresh(match.pk).version == match.version


def test_a_task_overtaken_between_reading_the_match_and_its_moves_plays_nothing(alice, bots_wait, monkeypatch):
    """A duplicate of the turn's task plays the whole turn after this one read the match row
    but before it read the moves: this one must not hand its bot the position past the row
    (the person's turn, or a finished game) but stop as stale."""
    match = match_with_greedy_to_move(alice)
    real_read = writes.read_with_seats

    duplicate = {}

    def overtaken(match_id):
        read = real_read(match_id)
        monkeypatch.setattr(writes, "read_with_seats", real_read)
        duplicate["played"] = tasks.bot_act.apply(args=(match_id, match.version)).get()
        duplicate["moves"] = list(fresh(match_id).moves.values_list("index", "seat", "action"))
        return read

    monkeypatch.setattr(writes, "read_with_seats", overtaken)
    assert tasks.bot_act.apply(args=(match.pk, match.version)).get() is None
    assert duplicate["played"] is not None, "the duplicate played the turn"
    after = fresh(match.pk)
    assert after.version > match.version and after.to_move != 1
    assert list(after.moves.values_list("index", "seat", "action")) == duplicate["moves"], "and nothing more was played"


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
    assert calls[:2] == [match.version, match.version]  # the failed action, then once more
    assert len(calls) == len(set(calls)) + 1  # every later action of the turn once
    assert bot_moves(match) == before + len(calls) - 1


def dice_match_with_a_bot_to_move(alice, bot: str) -> Match:
    """A 3-player dice game of alice and two ``bot``s, at the start of a bot's turn."""
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    services.match_seat_bot(match_id=match.pk, user=alice, bot=bot)  # every empty seat
    rng = random.Random(2)
    while fresh(match.pk).to_move == 0:
        play_turn(match.pk, {0: alice}, rng)
    match = fresh(match.pk)
    assert match.status == Match.Status.ACTIVE and match.to_move in (1, 2)
    return match


def test_a_forced_step_is_played_at_once_without_a_search(alice, bots_wait, monkeypatch):
    match = dice_match_with_a_bot_to_move(alice, "mcts-medium")
    assert state_cache.load(match).legal_actions() == ["roll"]  # a turn opens with its free roll

    def no_search(*args, **kwargs):
        raise AssertionError("the bot searched a step the rules force")

    monkeypatch.setattr(MCTSBot, "search", no_search)
    monkeypatch.setattr(tasks, "TURN_SECONDS", 0.0)  # this run plays the one step only
    assert tasks.bot_act.apply(args=(match.pk, match.version)).get() == "roll"
    assert match.moves.filter(seat=match.to_move).values_list("action", flat=True).last() == "roll"


def test_a_single_choice_is_chosen_without_a_search_by_every_level(monkeypatch):
    state = get_game("dice-territory").new_state(3)
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    assert state.legal_actions() == ["roll"]
    monkeypatch.setattr(MCTSBot, "search", lambda *a, **k: pytest.fail("searched a single choice"))
    for name in ("greedy", "mcts-easy", "mcts-medium", "mcts-hard"):
        assert get_bot(name).choose(state, state.current_player()) == "roll"


def test_a_bots_turn_of_several_actions_is_one_run_with_each_update_broadcast_as_played(alice, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: queued.append(version))
    match = dice_match_with_a_bot_to_move(alice, "greedy")
    bot_seat, start = match.to_move, match.version
    queued.clear()
    seen = []
    real_act, real_publish = services.match_act, live.publishing.publish_now

    def act(**kwargs):
        seen.append(("act", kwargs["version"]))
        return real_act(**kwargs)

    def publish(outbox):
        seen.extend(("update", event["version"]) for _, event in outbox.messages if event["type"] == "match.updated")
        return real_publish(outbox)

    monkeypatch.setattr(services, "match_act", act)
    monkeypatch.setattr(live.publishing, "publish_now", publish)
    tasks.bot_act.apply(args=(match.pk, start)).get()

    match = fresh(match.pk)
    actions = [v for kind, v in seen if kind == "act"]
    assert len(actions) > 1, "the turn was one action: the test shows nothing"
    assert match.to_move != bot_seat or match.status != Match.Status.ACTIVE  # the whole turn was played
    # Each action was broadcast before the next one was chosen, in order, one version each.
    expected = []
    for version in range(start, match.version):
        expected += [("act", version), ("update", version + 1)]
    assert seen == expected
    # The turn was never queued again between its actions: at most the next seat's turn is.
    assert all(version == match.version for version in queued)
