"""The MCTS levels as a player meets them: each level thinks more than the one below in every
game, Hard still sees the plain winning move with its full settings, the one-step judgement
orders what the search tries first, and the guided playouts only ever play legal moves."""

import random

import pytest

from games.bots import GreedyBot, MCTSBot, bot_description, get_bot
from games.bots.base import playout_policy
from games.bots.levels import HARD_LIMIT_SECONDS, LEVEL_ITERATIONS
from games.engines import CHANCE, all_games, get_game
from games.engines.chit_territory import ChitTerritoryState

from .test_positions import TERRITORIES_BEFORE_THE_LAST_FENCE

LEVELS = ("mcts-easy", "mcts-medium", "mcts-hard")


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_each_level_searches_more_than_the_one_below_in_every_game(slug):
    game = get_game(slug)
    state = game.new_state(game.allowed_player_counts()[0])
    easy, medium, hard = (get_bot(name).plan(state) for name in LEVELS)
    assert easy.iterations < medium.iterations < hard.iterations
    # Hard's clock is only a safety net, far above what its budget takes.
    assert hard.seconds is not None and hard.seconds >= 5 * HARD_LIMIT_SECONDS


def test_each_levels_own_description_states_its_budget_as_the_levels_file_sets_it():
    for level in ("mcts-easy", "mcts-medium", "mcts-hard"):
        budgets = LEVEL_ITERATIONS[level].values()
        assert f"{min(budgets):,} to {max(budgets):,} continuations" in bot_description(level)
    assert f"up to {HARD_LIMIT_SECONDS} seconds" in bot_description("mcts-hard")
    assert "busy server" in bot_description("mcts-hard")


def test_hard_closes_the_fence_that_wins_at_territories():
    state = get_game("territories").replay(2, {}, TERRITORIES_BEFORE_THE_LAST_FENCE.split())
    seat = state.current_player()
    hard = get_bot("mcts-hard")
    assert {hard.choose(state, seat, random.Random(seed)) for seed in range(2)} == {"trunk:e1-f1"}


def test_hard_builds_the_third_temple_of_a_row_in_the_chit_game():
    state = ChitTerritoryState.from_position(
        3,
        board={"a1": ("temple", 0), "b1": ("temple", 0), "e5": ("castle", 1), "f6": ("farm", 2)},
        reserves=[{"temple": 1, "farm": 1}, {}, {}],
        player=0,
        step="build",
    )
    assert len(state.legal_actions()) > 100
    assert get_bot("mcts-hard").choose(state, 0, random.Random(1)) == "build:temple@c1"


def test_the_search_tries_greedys_choice_first_when_the_prior_is_on():
    state = ChitTerritoryState.from_position(
        2,
        board={"a1": ("temple", 0), "b1": ("temple", 0), "e5": ("castle", 1)},
        reserves=[{"temple": 1}, {}],
        player=0,
        step="build",
    )
    bot = MCTSBot(iterations=1, prior=True, widen=1.0)
    root = bot.search(state, 0, random.Random(3))
    assert [action for action, _, _ in bot.statistics(root)] == [GreedyBot().choose(state, 0, random.Random(3))]
    assert root.order[0] == "build:temple@c1" and set(root.order) == set(state.legal_actions())


def test_with_widening_the_root_tries_a_new_action_only_as_its_visits_grow():
    state = ChitTerritoryState.from_position(
        2, board={"e5": ("castle", 1)}, reserves=[{"temple": 1, "farm": 1}, {}], player=0, step="build"
    )
    bot = MCTSBot(iterations=100, prior=True, widen=1.0)
    root = bot.search(state, 0, random.Random(1))
    assert len(state.legal_actions()) > 100
    assert len(bot.statistics(root)) <= 1 + int(100**0.5)


def dice_positions(seed, count=300):
    """Positions of dice games played by the guided policy itself, each where a seat decides."""
    rng = random.Random(seed)
    game = get_game("dice-territory")
    state = game.new_state(4)
    policy = playout_policy(state)
    positions = []
    while len(positions) < count:
        if state.is_terminal():
            state = game.new_state(4)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
            continue
        legal = state.legal_actions()
        positions.append(state.clone())
        action = policy(state, legal, rng)
        assert action in legal
        state.apply(action)
    return positions


def test_the_guided_playout_only_plays_legal_actions_through_whole_dice_games():
    positions = dice_positions(seed=5)
    assert any(p.legal_actions() == ["roll", "stop"] for p in positions)
    assert any(p.legal_actions()[0].startswith(("claim:", "capture:")) for p in positions)


def test_the_guided_playout_rolls_on_while_a_bust_is_unlikely_and_stops_when_it_is_likely():
    positions = [p for p in dice_positions(seed=6) if p.legal_actions() == ["roll", "stop"]]
    policy = playout_policy(positions[0])
    rng = random.Random(0)
    for state in positions:
        risk = sum(6 - abs(n - 7) for n in range(2, 13) if state.rolled >> n & 1) / 36
        assert policy(state, ["roll", "stop"], rng) == ("roll" if risk < 0.3 else "stop")


def test_games_without_a_guided_policy_play_uniform_playouts():
    assert playout_policy(get_game("game-of-god").new_state(2)) is None
