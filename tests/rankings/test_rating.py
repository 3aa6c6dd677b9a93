"""The Elo maths, checked against numbers worked out by hand.

Expected scores used below, E(d) = 1 / (1 + 10^(-d/400)) for a rating d points above the
opponent:
    E(0)    = 0.5
    E(+200) = 1 / (1 + 10^-0.5) = 1 / 1.316227766 = 0.759746927
    E(-200) = 1 - 0.759746927   = 0.240253073
    E(+400) = 1 / (1 + 10^-1)   = 1 / 1.1         = 0.909090909
    E(-400) = 0.090909091
"""

import pytest

from rankings.rating import changes_by_player, elo_changes, expected_score, k_factor

EXACT = 1e-6


def test_expected_scores_match_the_table():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1700, 1500) == pytest.approx(0.759746927, abs=1e-9)
    assert expected_score(1300, 1700) == pytest.approx(0.090909091, abs=1e-9)


def test_two_player_win_moves_both_by_the_same_amount():
    # 1600 beats 1400, both provisional (K = 40, N - 1 = 1):
    #   winner: 40 * (1 - 0.759746927) = +9.610122934
    #   loser:  40 * (0 - 0.240253073) = -9.610122934
    assert elo_changes([1600, 1400], [1, 2], [0, 0]) == pytest.approx([9.610122934, -9.610122934], abs=EXACT)


def test_two_player_upset_win_moves_more():
    # 1400 beats 1600: 40 * (1 - 0.240253073) = +30.389877066
    assert elo_changes([1600, 1400], [2, 1], [0, 0]) == pytest.approx([-30.389877066, 30.389877066], abs=EXACT)


def test_two_player_draw_favours_the_lower_rated():
    # 1600 (established, K = 20) draws with 1400 (provisional, K = 40):
    #   1600: 20 * (0.5 - 0.759746927) = -5.194938533
    #   1400: 40 * (0.5 - 0.240253073) = +10.389877066
    assert elo_changes([1600, 1400], [1, 1], [30, 5]) == pytest.approx([-5.194938533, 10.389877066], abs=EXACT)


def test_four_players_with_a_tie_for_second():
    # Ratings 1700, 1500, 1500, 1300 finish 2nd, 1st, 4th, 2nd; all provisional, K/(N-1) = 40/3.
    # 1700 (2nd): vs 1500 1st  0   - 0.759746927 = -0.759746927
    #             vs 1500 4th  1   - 0.759746927 = +0.240253073
    #             vs 1300 2nd  0.5 - 0.909090909 = -0.409090909
    #             sum -0.928584763 * 40/3 = -12.381130165
    # 1500 (1st): 0.759746927 + 0.5 + 0.240253073 = 1.5 -> * 40/3 = +20
    # 1500 (4th): -0.240253073 - 0.5 - 0.759746927 = -1.5 -> -20
    # 1300 (2nd): +0.409090909 - 0.240253073 + 0.759746927 = 0.928584763 -> +12.381130165
    changes = elo_changes([1700, 1500, 1500, 1300], [2, 1, 4, 2], [0, 0, 0, 0])
    assert changes == pytest.approx([-12.381130165, 20.0, -20.0, 12.381130165], abs=EXACT)
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)  # same K for all: nothing created or lost


def test_six_players_in_order():
    # Six players at 1500 finish 3rd, 1st, 6th, 2nd, 5th, 4th; E = 0.5 against each of 5
    # opponents, so sum(S - E) = (wins + draws/2) - 2.5. K/(N-1) = 40/5 = 8, except the
    # established third seat: 20/5 = 4.
    #   3rd: 3 - 2.5 = +0.5 -> +4      1st: 5 - 2.5 = +2.5 -> +20
    #   6th: 0 - 2.5 = -2.5 -> (K 20) -10
    #   2nd: 4 - 2.5 = +1.5 -> +12     5th: 1 - 2.5 = -1.5 -> -12     4th: 2 - 2.5 = -0.5 -> -4
    changes = elo_changes([1500] * 6, [3, 1, 6, 2, 5, 4], [0, 0, 25, 0, 0, 0])
    assert changes == pytest.approx([4.0, 20.0, -10.0, 12.0, -12.0, -4.0], abs=EXACT)


def test_the_twentieth_rated_game_is_the_last_provisional_one():
    # Equal ratings, one win: 19 games behind -> K = 40 -> +20; 20 behind -> K = 20 -> -10.
    assert elo_changes([1500, 1500], [1, 2], [19, 20]) == pytest.approx([20.0, -10.0], abs=EXACT)
    assert (k_factor(0), k_factor(19), k_factor(20), k_factor(500)) == (40, 40, 20, 20)


def test_an_account_in_several_seats_gains_only_against_the_others():
    # One bot account holds seats 2 and 3 (places 1 and 2) against a person (place 3), all at
    # 1500 and provisional: K/(N-1) = 40/2 = 20.
    #   person: (0 - 0.5) + (0 - 0.5) = -1 -> -20
    #   bot, 1st seat: vs person +0.5, vs its own 2nd seat +0.5 -> +20
    #   bot, 2nd seat: vs person +0.5, vs its own 1st seat -0.5 ->   0
    # The bot's own pair cancels (+0.5 - 0.5): it gains +20, exactly what the person loses.
    ratings, games = {"person": 1500, "bot": 1500}, {"person": 0, "bot": 0}
    total = changes_by_player(["person", "bot", "bot"], [3, 1, 2], ratings, games)
    assert total == pytest.approx({"person": -20.0, "bot": 20.0}, abs=EXACT)


@pytest.mark.parametrize(
    "ratings, places, games",
    [
        ([1500], [1], [0]),  # one player
        ([1500, 1500], [1], [0, 0]),  # a place missing
        ([1500, 1500], [1, 3], [0, 0]),  # a place beyond the number of players
        ([1500, 1500], [0, 1], [0, 0]),
        ([1500, 1500], [1, 2], [0, -1]),
        ([1500, 1500], [1, "2"], [0, 0]),
    ],
)
def test_inconsistent_input_is_refused(ratings, places, games):
    with pytest.raises(ValueError):
        elo_changes(ratings, places, games)
