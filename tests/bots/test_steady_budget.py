"""A level's strength is its iteration budget, not the clock: MCTS Hard plays the same moves on
a busy machine as on an idle one, and only a safety cap far above its budget's time stops a
search early (and says so).

The mechanism is checked on a clock of the test's own, where each iteration costs a fixed
amount: nothing depends on this machine's speed. One test then loads the machine for real (a
CPU burner per core, started and stopped by the test) and compares the moves. How long Hard
takes on this machine is measured by ``python -m bench.hard_think``, never here.
"""

import multiprocessing
import random
import types
from typing import cast

import pytest

from bench.hard_think import heaviest_position
from games.bots import get_bot, mcts
from games.bots.base import resolve_chance
from games.bots.levels import HARD_LIMIT_SECONDS, SAFETY_SECONDS
from games.bots.mcts import MCTSBot
from games.engines import CHANCE, get_game


class FakeClock:
    """``perf_counter`` for the search: it moves only when an iteration is done."""

    def __init__(self, cost: float):
        self.now = 1000.0
        self.cost = cost

    def perf_counter(self):
        return self.now


def on_a_clock(monkeypatch, hard: MCTSBot, cost: float) -> FakeClock:
    """Hard searching on a fake clock that advances ``cost`` seconds per iteration."""
    clock = FakeClock(cost)
    monkeypatch.setattr(mcts, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))

    def iterate(*args):
        MCTSBot._iterate(hard, *args)
        clock.now += clock.cost

    monkeypatch.setattr(hard, "_iterate", iterate)
    return clock


def hard() -> MCTSBot:
    return cast(MCTSBot, get_bot("mcts-hard"))


def test_the_safety_cap_is_far_above_what_hards_budget_takes_on_an_idle_core():
    assert hard().seconds == SAFETY_SECONDS >= 5 * HARD_LIMIT_SECONDS


# Two games stand for all: the search is the same code in each (and the heaviest positions
# take Hard its whole budget twice here).
@pytest.mark.parametrize("game", [get_game("territories"), get_game("game-of-god")], ids=lambda g: g.slug)
def test_on_a_machine_three_times_slower_hard_plays_the_move_it_plays_on_an_idle_one(game, monkeypatch):
    players = max(game.allowed_player_counts())
    state, choices = heaviest_position(game, players, seed=20)
    assert choices > 1
    bot = hard()
    budget = bot.settings(game.slug, players)["iterations"]
    # Each iteration three times what the budget may take on an idle core: well past the
    # 2 seconds there, well under the safety cap.
    cost = 3 * HARD_LIMIT_SECONDS / budget
    clock = on_a_clock(monkeypatch, bot, cost=0.0)
    idle = bot.choose(state.clone(), state.current_player(), random.Random(1))
    idle_search = bot.last_search()

    clock.cost = cost
    started = clock.now
    busy = bot.choose(state.clone(), state.current_player(), random.Random(1))

    assert busy == idle
    assert bot.last_search() == idle_search and not idle_search.capped
    assert clock.now - started > HARD_LIMIT_SECONDS or idle_search.iterations < budget / 3  # an early decision
    assert clock.now - started < SAFETY_SECONDS


def test_a_search_that_would_outlast_the_safety_cap_stops_there_and_says_so(monkeypatch):
    game = get_game("territories")
    state, _ = heaviest_position(game, max(game.allowed_player_counts()), seed=20)
    bot = hard()
    budget = bot.settings(game.slug, state.num_players)["iterations"]
    clock = on_a_clock(monkeypatch, bot, cost=4 * SAFETY_SECONDS / budget)  # a starved machine
    started = clock.now

    action = bot.choose(state.clone(), state.current_player(), random.Random(1))

    assert action in state.legal_actions()
    assert bot.last_search().capped and 0 < bot.last_search().iterations < budget
    assert SAFETY_SECONDS <= clock.now - started <= SAFETY_SECONDS + mcts._CHECK_EVERY * clock.cost + 1e-9


def _burn(stop) -> None:
    """Spin one core until told to stop."""
    while not stop.is_set():
        sum(i * i for i in range(10_000))


# Early positions, where Hard's whole budget takes a fraction of a second on an idle core.
LOADED = [("territories", 2, 11), ("dice-territory", 3, 5)]


def _positions():
    out = []
    for slug, players, seed in LOADED:
        game = get_game(slug)
        rng = random.Random(seed)
        state = game.new_state(players)
        for _ in range(6):
            while state.current_player() == CHANCE:
                resolve_chance(state, rng)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        while state.current_player() == CHANCE:
            resolve_chance(state, rng)
        out.append((slug, state))
    return out


def test_hard_plays_the_same_moves_with_every_core_busy():
    positions = [(slug, state) for slug, state in _positions() if len(state.legal_actions()) > 1]
    assert len(positions) == len(LOADED)
    bot = hard()

    def moves():
        return [bot.choose(state.clone(), state.current_player(), random.Random(7)) for _, state in positions]

    idle = moves()
    context = multiprocessing.get_context("spawn")
    stop = context.Event()
    burners = [context.Process(target=_burn, args=(stop,), daemon=True) for _ in range(multiprocessing.cpu_count())]
    for burner in burners:
        burner.start()
    try:
        busy = moves()
    finally:
        stop.set()
        for burner in burners:
            burner.join(10)
            if burner.is_alive():
                burner.kill()
    assert busy == idle
