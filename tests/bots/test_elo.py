"""The Elo fit of the bots from tournament games (bench/elo.py)."""

import math

import pytest

from bench.elo import expected_score, fit, pairs_of_game, ratings


def games_between(a, b, wins, losses, draws=0):
    """One game per result, each a list of pairwise results as the tournament gives them."""
    return [[(a, b, 1.0)]] * wins + [[(a, b, 0.0)]] * losses + [[(a, b, 0.5)]] * draws


def test_three_wins_in_four_are_191_elo():
    # 400 * log10(0.75 / 0.25) = 190.85
    elo = fit(games_between("greedy", "random", 75, 25), prior_draws=0)
    assert elo["random"] == 0
    assert elo["greedy"] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert expected_score(elo["greedy"]) == pytest.approx(0.75)


def test_even_results_and_draws_are_zero_elo_apart():
    elo = fit(games_between("greedy", "random", 10, 10, draws=30), prior_draws=0)
    assert elo["greedy"] == pytest.approx(0, abs=1e-6)


def test_ratings_chain_through_a_common_opponent():
    # A beats B 3 to 1, B beats Random 3 to 1, A never met Random: A is 2 x 191 above it.
    games = games_between("mcts-hard", "greedy", 30, 10) + games_between("greedy", "random", 30, 10)
    elo = fit(games, prior_draws=0)
    assert elo["mcts-hard"] == pytest.approx(2 * 400 * math.log10(3), abs=0.1)


def test_the_prior_keeps_a_clean_sweep_finite():
    # Ten wins and one virtual draw: 10.5 to 0.5, so 400 * log10(21) = 528.9.
    elo = fit(games_between("greedy", "random", 10, 0))
    assert elo["greedy"] == pytest.approx(400 * math.log10(21), abs=0.1)


def test_a_bot_never_linked_to_random_gets_no_rating():
    games = games_between("greedy", "random", 5, 5) + games_between("mcts-easy", "mcts-medium", 3, 3)
    assert set(fit(games)) == {"greedy", "random"}


def test_a_multiplayer_game_gives_one_result_per_pair_of_different_bots():
    # MCTS Hard second of three, between two Greedy bots: it lost to one and beat the other.
    assert pairs_of_game(["greedy", "mcts-hard", "greedy"], [1, 2, 3]) == [
        ("greedy", "mcts-hard", 1.0),
        ("mcts-hard", "greedy", 1.0),
    ]
    assert pairs_of_game(["mcts-hard", "greedy"], [1, 1]) == [("mcts-hard", "greedy", 0.5)]


def test_intervals_hold_the_fit_narrow_with_games_and_repeat_with_the_seed():
    few = games_between("greedy", "random", 15, 5)
    many = games_between("greedy", "random", 150, 50)
    small = {r.bot: r for r in ratings(few, resamples=100, seed=1)}
    large = {r.bot: r for r in ratings(many, resamples=100, seed=1)}
    for rated in (small, large):
        assert rated["greedy"].low < rated["greedy"].elo < rated["greedy"].high
        assert rated["random"].elo == 0
    assert large["greedy"].plus_minus < small["greedy"].plus_minus
    assert ratings(few, resamples=100, seed=1) == ratings(few, resamples=100, seed=1)
    assert [r.bot for r in ratings(many, resamples=20)] == ["greedy", "random"]  # strongest first
    assert large["greedy"].games == 200
