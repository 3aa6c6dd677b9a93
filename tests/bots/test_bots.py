"""The bots over the engine contract: legal, reproducible, blind to secrets, and not stupid.

Budgets here are tiny (tens of iterations) so the suite stays fast; the strength of the real
levels is measured by ``python -m bench.bots`` (docs/BOTS.md).
"""

import random

import pytest

from games.bots import GreedyBot, MCTSBot, RandomBot, bot_label, bot_names, get_bot
from games.bots.base import resolve_chance, rewards_from_ranking, rewards_from_scores
from games.engines import CHANCE, all_games, get_game
from games.engines.dice_territory import GAME as DICE

LEVELS = ["random", "greedy", "mcts-easy", "mcts-medium", "mcts-hard"]


def cheap_bots():
    """Every kind of bot on a budget a test can afford."""
    return {
        "random": RandomBot(),
        "greedy": GreedyBot(leaf_budget=60),
        "mcts": MCTSBot(iterations=40),
        "mcts-with-playouts": MCTSBot(iterations=40, rollout_limit=15),
    }


def random_positions(game, num_players, count, seed, options=None):
    """Positions where a seat must decide, from random games (chance resolved at random)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.new_state(num_players, options)
        stop_after = rng.randrange(0, 160)
        steps = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                resolve_chance(state, rng)
                continue
            if steps >= stop_after:
                positions.append(state.clone())
                break
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
    return positions


GAME_COUNTS = [(game.slug, n) for game in all_games() for n in game.allowed_player_counts()]


def test_the_registry_has_five_levels_with_names_people_can_read():
    assert bot_names() == LEVELS
    assert [bot_label(name) for name in LEVELS] == ["Random", "Greedy", "MCTS Easy", "MCTS Medium", "MCTS Hard"]
    hard, medium, easy = get_bot("mcts-hard"), get_bot("mcts-medium"), get_bot("mcts-easy")
    assert hard.seconds is not None  # a safety cap, far above what its budget takes
    assert easy.iterations < medium.iterations < hard.iterations
    with pytest.raises(KeyError, match="known bots"):
        get_bot("grandmaster")


@pytest.mark.parametrize(("slug", "num_players"), GAME_COUNTS)
def test_every_bot_plays_a_legal_action_from_many_random_positions(slug, num_players):
    game = get_game(slug)
    bots = cheap_bots()
    for i, state in enumerate(random_positions(game, num_players, count=6, seed=f"{slug}/{num_players}")):
        seat = state.current_player()
        legal = state.legal_actions()
        before = state.history[:]
        for name, bot in bots.items():
            action = bot.choose(state, seat, random.Random(i))
            assert action in legal, f"{name} chose {action!r}, not legal in {slug}"
        assert state.history == before  # the bots searched copies, never the position itself


GOD = get_game("game-of-god")
GOD_PIECES = [(n, p) for n in GOD.allowed_player_counts() for p in GOD.option_values(GOD.options[0], n)]


@pytest.mark.parametrize(("num_players", "pieces"), GOD_PIECES, ids=lambda v: str(v))
def test_every_bot_plays_game_of_god_with_any_number_of_pieces(num_players, pieces):
    bots = cheap_bots()
    positions = random_positions(GOD, num_players, count=3, seed=f"{num_players}/{pieces}", options={"pieces": pieces})
    for i, state in enumerate(positions):
        seat = state.current_player()
        for name, bot in bots.items():
            action = bot.choose(state, seat, random.Random(i))
            assert action in state.legal_actions(), f"{name} chose {action!r} with {pieces} pieces"


@pytest.mark.parametrize("slug", [game.slug for game in all_games()])
def test_with_a_fixed_random_generator_the_choice_is_reproducible(slug):
    game = get_game(slug)
    num_players = game.allowed_player_counts()[-1]
    for i, state in enumerate(random_positions(game, num_players, count=3, seed=11)):
        seat = state.current_player()
        for bot in (MCTSBot(iterations=150), GreedyBot(leaf_budget=60)):
            first = bot.choose(state, seat, random.Random(100 + i))
            again = bot.choose(state.clone(), seat, random.Random(100 + i))
            assert first == again


def test_a_position_with_one_legal_action_is_answered_without_searching():
    state = DICE.new_state(3)
    for action in ("first:0", "card:C"):
        state.apply(action)
    assert state.legal_actions() == ["roll"]
    bot = MCTSBot(iterations=10_000_000, seconds=60)
    assert bot.choose(state, 0, random.Random(1)) == "roll"
    assert bot.last_iterations == 0


def test_the_time_cap_stops_a_search_whose_iteration_cap_is_out_of_reach():
    import time

    state = random_positions(get_game("chit-territory"), 2, count=1, seed=3)[0]
    bot = MCTSBot(iterations=10_000_000, seconds=0.3)
    started = time.perf_counter()
    action = bot.choose(state, state.current_player(), random.Random(1))
    assert time.perf_counter() - started < 1.5
    assert action in state.legal_actions()
    assert bot.last_search().capped


# ---------------------------------------------------------------------------------------
# Hidden information: the face-down round-1 card of the dice game


def twin_dice_positions(hidden_a, hidden_b, seed):
    """Two dice-game positions that differ only in the face-down round-1 card, at the last
    turn of round 1 (so a search soon meets the draw of the round-2 card)."""
    rng = random.Random(seed)
    a = DICE.new_state(4)
    b = DICE.new_state(4)
    for state, hidden in ((a, hidden_a), (b, hidden_b)):
        state.apply("first:1")
        state.apply(f"card:{hidden}")
    while True:
        legal = a.legal_actions()
        if a.current_player() == CHANCE:
            action = rng.choice([x for x in legal if x.startswith("dice:")])
        elif a.turn_index == a.num_players - 1 and len(legal) > 1:
            return a, b
        else:
            action = rng.choice(legal)
        a.apply(action)
        b.apply(action)
        assert a.round == 1, "the scripted turns left round 1"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_bot_reads_the_hidden_card(seed):
    a, b = twin_dice_positions("B", "H", seed)
    seat = a.current_player()
    assert a.hidden_card != b.hidden_card
    assert a.view(seat) == b.view(seat)  # to the seat the two positions look the same
    for name, bot in cheap_bots().items():
        for k in range(3):
            assert bot.choose(a, seat, random.Random(k)) == bot.choose(b, seat, random.Random(k)), name
    hard_on_a_budget = MCTSBot(iterations=400, rollout_limit=40)  # playouts that draw the next card
    assert hard_on_a_budget.choose(a, seat, random.Random(5)) == hard_on_a_budget.choose(b, seat, random.Random(5))


# ---------------------------------------------------------------------------------------
# Rewards


def test_rewards_give_one_to_the_sole_winner_and_share_ties():
    assert rewards_from_ranking([1, 2]) == [1.0, 0.0]
    assert rewards_from_ranking([1, 1]) == [0.5, 0.5]
    four = rewards_from_ranking([2, 1, 4, 3])
    assert four[1] == 1.0 and four[2] == 0.0 and four[0] > four[3]
    shared = rewards_from_ranking([1, 1, 3])
    assert shared[0] == shared[1] < 1.0 and shared[2] == 0.0


def test_a_bigger_lead_on_points_is_a_bigger_reward():
    small, big = rewards_from_scores([11, 10], 3.0), rewards_from_scores([20, 10], 3.0)
    assert 0.5 < small[0] < big[0] < 1.0
    assert abs(sum(big) - 1.0) < 1e-9
    six = rewards_from_scores([30, 10, 10, 10, 10, 29], 4.0)
    assert six[0] > six[5] > six[1] == six[2]


def test_judged_by_gains_a_seat_far_ahead_still_prefers_the_bigger_lead():
    from games.bots.base import margins, rewards_from_gains, rewards_from_scores

    baseline = margins([60, 40, 35, 30])  # seat 0 leads by 20 when the search starts
    keeps_lead = rewards_from_gains([63, 40, 35, 30], baseline, 5.0)
    loses_some = rewards_from_gains([60, 43, 35, 30], baseline, 5.0)
    assert keeps_lead[0] > 0.6 > 0.4 > loses_some[0]
    assert loses_some[1] > 0.6  # seat 1 closed the gap: a gain for it
    # Judged by the gap itself the two positions look alike to the leader.
    assert abs(rewards_from_scores([63, 40, 35, 30], 5.0)[0] - rewards_from_scores([60, 43, 35, 30], 5.0)[0]) < 0.02
