"""Bots' turns are queued fairly: one person's matches against bots never hold up another
person's bot, and no turn is lost on the way (games.bot_queue, games.tasks.schedule_bot).

On the embedded defaults the queues live in the process; with REDIS_URL set, in Redis, where
every process shares them."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import bot_queue, services, tasks
from games.models import Match
from tests.conftest import drain_worker, wait_for

from .helpers import fresh, play_turn

# -- the queues themselves -----------------------------------------------------------------


@pytest.fixture
def one_at_a_time(settings):
    """One turn per person at once; the turns a test leaves waiting, for matches that do not
    exist, are forgotten after it."""
    settings.BOT_TURNS_AT_ONCE_PER_PERSON = 1
    yield
    bot_queue.clear()


def started(turns):
    return [(turn.match_id, turn.version) for turn in turns]


def test_a_persons_turns_beyond_their_share_wait_in_their_queue(one_at_a_time):
    assert started(bot_queue.add("7", 101, 4)) == [(101, 4)]
    assert bot_queue.add("7", 102, 9) == []
    assert bot_queue.add("7", 103, 2) == []
    assert bot_queue.waiting() == 2


def test_each_turn_given_back_hands_on_the_persons_next_in_order(one_at_a_time):
    (turn,) = bot_queue.add("7", 101, 4)
    for match_id in (102, 103, 104):
        bot_queue.add("7", match_id, 1)
    order = []
    while True:
        handed = bot_queue.done("7", turn.lease)
        if not handed:
            break
        (turn,) = handed
        order.append(turn.match_id)
    assert order == [102, 103, 104]
    assert bot_queue.waiting() == 0


def test_another_persons_turn_goes_on_at_once_however_many_turns_the_first_person_has_waiting(one_at_a_time):
    bot_queue.add("7", 101, 4)
    for match_id in range(102, 110):
        bot_queue.add("7", match_id, 1)
    assert started(bot_queue.add("8", 200, 3)) == [(200, 3)]
    assert bot_queue.waiting() == 8  # all the first person's


def test_a_turn_queued_twice_waits_once(one_at_a_time):
    (turn,) = bot_queue.add("7", 101, 4)
    bot_queue.add("7", 102, 1)
    bot_queue.add("7", 102, 1)  # the periodic check finds it waiting and queues it again
    assert bot_queue.waiting() == 1
    assert started(bot_queue.done("7", turn.lease)) == [(102, 1)]
    assert bot_queue.waiting() == 0


def test_a_larger_share_hands_on_that_many_turns_at_once(one_at_a_time, settings):
    settings.BOT_TURNS_AT_ONCE_PER_PERSON = 2
    assert started(bot_queue.add("7", 101, 1)) == [(101, 1)]
    assert started(bot_queue.add("7", 102, 1)) == [(102, 1)]
    assert bot_queue.add("7", 103, 1) == []


def later(monkeypatch, seconds):
    """The leases' clock moved on by ``seconds``."""
    now = bot_queue.now
    monkeypatch.setattr(bot_queue, "now", lambda: now() + seconds)


def test_a_lease_never_given_back_runs_out_and_the_next_turn_goes_on(one_at_a_time, monkeypatch):
    # The worker playing the turn was killed: it never gives its lease back.
    assert started(bot_queue.add("7", 101, 4)) == [(101, 4)]
    assert bot_queue.add("7", 102, 1) == []
    later(monkeypatch, bot_queue.LEASE_SECONDS + 1)
    assert started(bot_queue.add("7", 103, 1)) == [(102, 1)], "the oldest waiting turn goes on"


def test_a_lease_given_back_twice_frees_one_place_only(one_at_a_time):
    (turn,) = bot_queue.add("7", 101, 4)
    bot_queue.add("7", 102, 1)
    bot_queue.add("7", 103, 1)
    (second,) = bot_queue.done("7", turn.lease)
    assert bot_queue.done("7", turn.lease) == [], "the person's one place is taken by the second turn"
    assert second.match_id == 102 and bot_queue.waiting() == 1


# -- through the bots' task ------------------------------------------------------------------


def bot_to_move(user, monkeypatch) -> Match:
    """A match of ``user`` against the random bot, the bot to move, its turn not yet queued."""
    match = services.match_create(user=user, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=user, bot="random")
    wait_for(lambda: fresh(match.pk).to_move is not None, message="somebody to move")
    drain_worker()
    with monkeypatch.context() as patch:
        patch.setattr(tasks, "schedule_bot", lambda match_id, version: None)
        match = fresh(match.pk)
        while match.to_move == 0:
            play_turn(match.pk, {0: user}, random.Random(3))
            match = fresh(match.pk)
    assert match.to_move == 1
    return match


def answered(match: Match) -> bool:
    """The bot of ``match`` (as it was when its turn came) has played, and it is the person's turn."""
    now = fresh(match.pk)
    return now.version > match.version and (now.to_move == 0 or now.is_over)


class Handed:
    """Turns handed to the workers, held back here instead, to be let go by the test."""

    def __init__(self, monkeypatch):
        self.turns: list[bot_queue.Turn] = []
        self._start = tasks._start
        monkeypatch.setattr(tasks, "_start", self.turns.append)

    def let_go(self, monkeypatch):
        monkeypatch.setattr(tasks, "_start", self._start)
        for turn in self.turns:
            self._start(turn)


@pytest.mark.django_db(transaction=True)
def test_one_persons_bot_matches_do_not_hold_up_another_persons_bot(alice, bob, one_at_a_time, monkeypatch):
    alices = [bot_to_move(alice, monkeypatch) for _ in range(3)]
    bobs = bot_to_move(bob, monkeypatch)
    handed = Handed(monkeypatch)

    for match in alices:
        tasks.schedule_bot(match.pk, match.version)
    tasks.schedule_bot(bobs.pk, bobs.version)

    # Alice's first turn and bob's go to the workers; alice's other two wait for hers.
    assert [turn.match_id for turn in handed.turns] == [alices[0].pk, bobs.pk]
    # Alice's first bot plays: as it ends, her next turn goes on, and only it.
    first = handed.turns[0]
    tasks.bot_act.apply(args=(first.match_id, first.version), kwargs={"lease": [first.person, first.lease]})
    assert answered(alices[0])
    assert [turn.match_id for turn in handed.turns] == [alices[0].pk, bobs.pk, alices[1].pk]

    # Let the rest go: every bot plays, none is lost.
    handed.turns = handed.turns[1:]
    handed.let_go(monkeypatch)
    for match in [*alices[1:], bobs]:
        wait_for(lambda m=match: answered(m), message=f"the bot of match {match.pk}")
    drain_worker()
    assert bot_queue.waiting() == 0


@pytest.mark.django_db(transaction=True)
def test_a_turn_whose_worker_never_gave_its_lease_back_is_played_after_the_periodic_check(
    alice, one_at_a_time, monkeypatch
):
    match = bot_to_move(alice, monkeypatch)
    other = bot_to_move(alice, monkeypatch)
    # The first turn is handed to a worker that dies with it: its lease is never given back,
    # and alice's second turn waits behind it.
    handed = Handed(monkeypatch)
    tasks.schedule_bot(match.pk, match.version)
    tasks.schedule_bot(other.pk, other.version)
    assert [turn.match_id for turn in handed.turns] == [match.pk]
    monkeypatch.setattr(tasks, "_start", handed._start)

    # Later the lease has run out and the periodic check finds both bots stalled.
    later(monkeypatch, bot_queue.LEASE_SECONDS + 1)
    Match.objects.filter(pk__in=[match.pk, other.pk]).update(updated_at=timezone.now() - timedelta(minutes=2))
    tasks.enforce_clocks()

    for stalled in (match, other):
        wait_for(lambda m=stalled: answered(m), message=f"the bot of match {stalled.pk}")
    drain_worker()


@pytest.mark.django_db(transaction=True)
def test_turns_forgotten_with_the_queues_are_queued_again_by_the_periodic_check(alice, one_at_a_time, monkeypatch):
    matches = [bot_to_move(alice, monkeypatch) for _ in range(2)]
    handed = Handed(monkeypatch)
    for match in matches:
        tasks.schedule_bot(match.pk, match.version)
    assert len(handed.turns) == 1 and bot_queue.waiting() == 1
    # Redis restarts empty: the turn handed on is lost, and so is the one waiting.
    bot_queue.clear()
    monkeypatch.setattr(tasks, "_start", handed._start)

    Match.objects.filter(pk__in=[m.pk for m in matches]).update(updated_at=timezone.now() - timedelta(minutes=2))
    tasks.enforce_clocks()

    for match in matches:
        wait_for(lambda m=match: answered(m), message=f"the bot of match {match.pk}")
    drain_worker()


@pytest.mark.django_db(transaction=True)
def test_without_a_share_every_turn_goes_straight_to_the_workers(alice, settings, monkeypatch):
    settings.BOT_TURNS_AT_ONCE_PER_PERSON = 0
    matches = [bot_to_move(alice, monkeypatch) for _ in range(3)]
    handed = Handed(monkeypatch)
    for match in matches:
        tasks.schedule_bot(match.pk, match.version)
    assert [turn.match_id for turn in handed.turns] == [m.pk for m in matches]
    assert bot_queue.waiting() == 0
    handed.let_go(monkeypatch)
    for match in matches:
        wait_for(lambda m=match: answered(m), message=f"the bot of match {match.pk}")
    drain_worker()
