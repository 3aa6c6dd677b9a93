"""The analyses of finished matches step aside while a live bot thinks (games.bot_activity): in
the process's memory on the embedded defaults, in Redis (shared by every process) with Redis."""

import random
import threading
import time

import pytest
from django.conf import settings

from games import bot_activity, tasks
from games.bots import analysis as analysis_module
from games.bots.analysis import analyse
from games.bots.base import sample_outcome
from games.engines import get_game
from games.models import Match, MatchAnalysis
from games.services.analysis import analysis_budget, analysis_run
from tests.conftest import wait_for

from .helpers import finished_by_random_play


def played(slug: str, players: int, seed: int) -> list[str]:
    state = get_game(slug).new_state(players, {})
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        outcomes = state.chance_outcomes() if seat < 0 else None
        state.apply(sample_outcome(outcomes, rng) if outcomes else rng.choice(state.legal_actions()))
    return list(state.history)


@pytest.fixture
def every_iteration(monkeypatch):
    """The analysis asks its pause after every search iteration."""
    monkeypatch.setattr(analysis_module, "PAUSE_EVERY", 0.0)


def test_an_analysis_waits_while_a_bot_thinks_and_goes_on_once_it_is_done(every_iteration):
    game, record = get_game("territories"), played("territories", 2, 4)
    unpaused = analyse(game, 2, {}, record, iterations=8, seed=2)
    pause = bot_activity.pauser(max_wait=30)
    pauses: list[int] = []  # how many bots thought as each pause began
    results = []

    def watched_pause():
        pauses.append(bot_activity.bots_thinking())
        pause()

    analysis = threading.Thread(
        target=lambda: results.append(analyse(game, 2, {}, record, iterations=8, seed=2, pause=watched_pause))
    )
    with bot_activity.thinking():
        analysis.start()
        deadline = time.monotonic() + 10
        while not (pauses and pauses[-1]) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pauses and pauses[-1] >= 1, "the analysis reached a pause while the bot thought"
        reached = len(pauses)
        time.sleep(0.3)
        # Held at that pause: no further step of its search while the bot thinks.
        assert len(pauses) == reached and not results
    analysis.join(30)
    assert len(pauses) > reached, "it went on once the bot was done"
    assert results == [unpaused]


def test_without_a_bot_thinking_a_pause_waits_for_nothing():
    assert bot_activity.bots_thinking() == 0
    assert bot_activity.wait_while_bots_think(30) == 0.0
    assert bot_activity.pauser(max_wait=30)() == 0.0


def test_a_bot_whose_search_fails_stops_counting_as_thinking():
    with pytest.raises(RuntimeError), bot_activity.thinking():
        assert bot_activity.bots_thinking() == 1
        raise RuntimeError("the search failed")
    assert bot_activity.bots_thinking() == 0


@pytest.mark.skipif(not settings.REDIS_URL, reason="a crashed worker leaves its mark only in Redis")
def test_a_thinker_whose_worker_died_blocks_the_analyses_no_longer_than_its_time_to_live():
    bot_activity.thinkers().add(ttl=0.2)  # marked, never unmarked: its worker was killed
    assert bot_activity.bots_thinking() == 1
    wait_for(lambda: bot_activity.bots_thinking() == 0, timeout=10, message="the mark run out")
    assert bot_activity.wait_while_bots_think(30) == 0.0


def test_an_analysis_waits_no_more_once_its_waits_add_up_to_its_total():
    pause = bot_activity.pauser(max_wait=0.05, total=0.12)
    with bot_activity.thinking():
        assert pause() > 0
        waits = [pause() for _ in range(5)]
    assert waits[-1] == 0.0 and waits[-2] == 0.0


def test_a_live_bots_search_counts_as_thinking():
    state = get_game("territories").new_state(2, {})
    seen = []

    class Bot:
        def choose(self, state, seat):
            seen.append(bot_activity.bots_thinking())
            return state.legal_actions()[0]

    action = tasks._choose(Bot(), "test-bot", state, state.current_player(), Match(game="territories"))
    assert action == state.legal_actions()[0]
    assert seen == [1] and bot_activity.bots_thinking() == 0


def _analysed_with_pauses_recorded(alice, bob, monkeypatch) -> list[float]:
    """Run the analysis task on a finished match; the pauses it asked for (none waits)."""
    pauses: list[float] = []

    def no_bot_thinking(max_wait):
        pauses.append(max_wait)
        return 0.0

    monkeypatch.setattr(analysis_module, "PAUSE_EVERY", 0.0)
    monkeypatch.setattr(bot_activity, "wait_while_bots_think", no_bot_thinking)
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    analysis = MatchAnalysis.objects.create(match=match, budget=analysis_budget(), requested_by=alice)
    assert analysis_run(analysis_id=analysis.pk)
    assert MatchAnalysis.objects.get(pk=analysis.pk).status == "done"
    return pauses


@pytest.mark.django_db(transaction=True)
def test_the_analysis_task_pauses_for_the_bots(alice, bob, monkeypatch):
    pauses = _analysed_with_pauses_recorded(alice, bob, monkeypatch)
    assert pauses and max(pauses) <= bot_activity.MAX_WAIT


@pytest.mark.django_db(transaction=True)
def test_an_analysis_worker_with_cores_of_its_own_is_told_not_to_pause(alice, bob, settings, monkeypatch):
    settings.ANALYSIS_PAUSES_FOR_BOTS = False
    assert _analysed_with_pauses_recorded(alice, bob, monkeypatch) == []


def test_a_redis_that_does_not_answer_holds_up_neither_the_bots_nor_the_analyses(monkeypatch):
    unreachable = bot_activity.RedisThinkers("redis://127.0.0.1:1/0")  # nothing listens there
    monkeypatch.setattr(bot_activity, "thinkers", lambda: unreachable)
    with bot_activity.thinking():  # the bot thinks all the same
        assert bot_activity.bots_thinking() == 0
        assert bot_activity.wait_while_bots_think(30) == 0.0
