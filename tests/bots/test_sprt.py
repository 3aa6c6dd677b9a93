"""The sequential test that decides each claim about the bots (bench/sprt.py)."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.sprt import ACCEPT_H0, ACCEPT_H1, CONTINUE, SPRT, bounds, first_share, llr_normal, place_score, sprt


def test_a_place_becomes_a_score_from_one_for_first_to_zero_for_last():
    assert [place_score([1, 2, 3], seat) for seat in range(3)] == [1.0, 0.5, 0.0]
    assert [place_score([2, 1], seat) for seat in range(2)] == [0.0, 1.0]
    assert place_score([1, 1], 0) == 0.5  # a 2-player draw
    # Two seats sharing first place take the mean of places 1 and 2.
    assert place_score([1, 1, 3], 0) == 0.75 and place_score([1, 1, 3], 2) == 0.0
    assert place_score([1, 2, 2, 4], 1) == 0.5  # places 2 and 3 averaged: (4 - 2.5) / 3


def test_the_share_of_first_place_is_split_between_those_who_share_it():
    assert first_share([1, 2, 3], 0) == 1.0
    assert first_share([1, 1, 3], 1) == 0.5
    assert first_share([2, 1, 3], 0) == 0.0


def test_wald_bounds_for_five_percent_errors_are_log_19():
    lower, upper = bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))


def test_the_llr_of_wins_and_losses_is_the_bernoulli_one_worked_by_hand():
    # 7 wins in 10, H0 60% - 10% = 50%, H1 60%. With only the scores 0 and 1 the likeliest
    # distribution of mean s is (1 - s, s); frequencies include the half-game pseudo-counts:
    # LLR = 10 * (7.5/11 * ln(0.6/0.5) + 3.5/11 * ln(0.4/0.5)) = 0.5331.
    test = SPRT(target=0.6, margin=0.1).extend([1, 1, 0, 1, 1, 0, 1, 1, 0, 1])
    result = test.result()
    assert result.llr == pytest.approx(0.5331, abs=1e-4)
    assert result.decision == CONTINUE
    assert (result.s0, result.s1) == (pytest.approx(0.5), 0.6)
    assert result.mean == pytest.approx(0.7)


def test_straight_wins_decide_for_h1_at_the_game_worked_by_hand():
    # n straight wins: LLR = n * ((n + .5)/(n + 1) ln 1.2 + .5/(n + 1) ln 0.8), which first
    # reaches ln 19 = 2.944 at n = 18 (17 wins give 2.908).
    result = sprt([1.0] * 40, target=0.6, margin=0.1)
    assert result.decision == ACCEPT_H1
    assert result.games == 18
    assert result.llr == pytest.approx(3.090, abs=1e-3)
    assert sprt([1.0] * 17, target=0.6, margin=0.1).decision == CONTINUE


def test_straight_losses_decide_for_h0_and_the_test_stops_at_its_decision():
    result = sprt([0.0] * 30 + [1.0] * 30, target=0.6, margin=0.1)
    assert result.decision == ACCEPT_H0
    assert result.games < 30 and result.mean == 0.0  # the wins after the decision do not count


def test_no_decision_before_the_minimum_number_of_games():
    test = SPRT(target=0.3, margin=0.2, min_games=8).extend([1.0] * 7)
    assert test.llr() > test.upper
    assert test.result().decision == CONTINUE
    test.add(1.0)
    assert test.result().decision == ACCEPT_H1


def test_near_the_hypotheses_the_llr_agrees_with_the_normal_approximation():
    scores = [0.0, 0.5, 1.0, 1.0, 0.5] * 200  # mean 0.6 on three score values
    test = SPRT(target=0.6, margin=0.02).extend(scores)
    normal = llr_normal(test.n, test.mean(), test.variance(), test.s0, test.s1)
    assert test.llr() == pytest.approx(normal, rel=0.05)


def test_the_interval_holds_the_mean_and_narrows_with_games():
    few = SPRT(0.6, 0.1).extend([1, 0, 1, 0.5] * 5).result()
    many = SPRT(0.6, 0.1).extend([1, 0, 1, 0.5] * 50).result()
    for result in (few, many):
        low, high = result.interval
        assert 0 <= low < result.mean < high <= 1
    assert many.interval[1] - many.interval[0] < few.interval[1] - few.interval[0]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        SPRT(target=0.6, margin=0.7)
    with pytest.raises(ValueError):
        SPRT(target=0.6, margin=0.1).add(1.5)
    with pytest.raises(ValueError):
        place_score([1], 0)


@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), max_size=60))
def test_a_better_result_never_lowers_the_llr(scores):
    better = SPRT(0.6, 0.1).extend(scores + [1.0]).llr()
    worse = SPRT(0.6, 0.1).extend(scores + [0.0]).llr()
    assert better > worse


def error_rates(true_share, target, margin, runs, seed, score_values=None):
    """Play ``runs`` sequential tests on made-up games whose mean score is ``true_share``:
    (share accepting H1, share accepting H0, mean games)."""
    rng = random.Random(seed)
    h1 = h0 = total = 0
    for _ in range(runs):
        test = SPRT(target, margin)
        for _ in range(5000):
            if score_values is None:
                test.add(1.0 if rng.random() < true_share else 0.0)
            else:
                test.add(rng.choice(score_values))
            decision = test.result().decision
            if decision != CONTINUE:
                break
        h1 += decision == ACCEPT_H1
        h0 += decision == ACCEPT_H0
        total += test.n
    return h1 / runs, h0 / runs, total / runs


@pytest.mark.parametrize(
    ("target", "margin"),
    [(0.6, 0.1), (0.9, 0.1), (1 / 3, 0.1)],  # a "beats", a near-certain one, Hard at 6 players
)
def test_at_the_edge_of_each_hypothesis_it_errs_about_as_often_as_promised(target, margin):
    # True share exactly at H0's edge: accepting H1 is the error alpha = 5%; exactly at H1's:
    # accepting H0 is the error beta = 5%. 200 seeded runs each: a 5% rate shows as 2-9%.
    wrongly_h1, _, _ = error_rates(target - margin, target, margin, runs=200, seed=1)
    _, wrongly_h0, _ = error_rates(target, target, margin, runs=200, seed=2)
    assert wrongly_h1 <= 0.09
    assert wrongly_h0 <= 0.09


def test_a_clear_difference_is_decided_right_and_soon():
    # Three-player place scores (0, 1/2, 1) of a bot that wins half its games: mean 0.75.
    h1, h0, games = error_rates(None, 0.6, 0.1, runs=200, seed=3, score_values=[1.0, 1.0, 0.5, 0.5])
    assert h1 >= 0.99 and h0 == 0
    assert games < 40
    # And one no better than even (mean 0.5) is found out.
    h1, h0, _ = error_rates(None, 0.6, 0.1, runs=200, seed=4, score_values=[1.0, 0.5, 0.0])
    assert h0 >= 0.95
