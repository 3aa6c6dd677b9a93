"""Time controls: untimed practice (no clock, casual only), live seconds per move and
correspondence days per move, chosen when a match is created."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match
from games.services import MatchError
from tests.conftest import drain_worker, wait_for

from .helpers import fresh, play_turn, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_in_untimed_practice_no_clock_ever_runs_for_a_person(alice, bob):
    match = start_two_player("game-of-god", alice, bob, rated=False, speed="untimed")
    assert match.status == Match.Status.ACTIVE and match.speed == "untimed"
    rng = random.Random(3)
    for _ in range(4):
        match = fresh(match.pk)
        assert match.deadline is None, "nobody loses on time in untimed practice"
        assert not services.match_check_clock(match=match)
        play_turn(match.pk, {0: alice, 1: bob}, rng)


def test_untimed_practice_is_always_casual(alice):
    with pytest.raises(MatchError, match="Untimed practice is casual"):
        services.match_create(user=alice, game="game-of-god", num_players=2, speed="untimed", rated=True)
    assert not Match.objects.exists()


@pytest.mark.parametrize("seconds", [30, 90, 180])
def test_a_live_clock_gives_the_seconds_chosen_for_each_move(alice, bob, seconds):
    match = start_two_player("game-of-god", alice, bob, speed="live", seconds_per_move=seconds)
    left = (match.deadline - timezone.now()).total_seconds()
    assert seconds - 5 < left <= seconds


def test_the_clock_sweep_leaves_a_person_thinking_in_untimed_play_alone(alice, monkeypatch):
    from games import tasks

    queued = []
    match = services.match_create(user=alice, game="game-of-god", num_players=2, speed="untimed", rated=False)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    drain_worker()  # the bot may open
    match = wait_for(lambda: (m := fresh(match.pk)).to_move == 0 and m, message="the person to move")
    assert match.deadline is None
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(hours=2))
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: queued.append((match_id, version)))
    assert tasks.enforce_clocks() == 0
    assert queued == [], "a person thinking for long is no lost bot move"
    assert fresh(match.pk).status == Match.Status.ACTIVE
