"""Standings: points from places, and the tie-breaks, on examples worked out by hand."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Entrant, round_robin
from tournaments.standings import (
    BYE_POINTS,
    TIE_BREAKS,
    RoundResults,
    StandingsError,
    TableResult,
    pairing_entrants,
    standings,
    table_points,
)

A, B, C, D, E = 1, 2, 3, 4, 5


def win(winner, loser):
    return TableResult(players=(winner, loser), places=(1, 2))


def draw(first, second):
    return TableResult(players=(first, second), places=(1, 1))


def table(rows):
    """The standings as (entrant, rank, points, Buchholz, Sonneborn-Berger, wins) rows."""
    return [(s.entrant, s.rank, s.points, *(value for _, value in s.tie_breaks)) for s in rows]


# ---------------------------------------------------------------------------------------------
# Points per table


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ((1, 2), [1.0, 0.0]),
        ((2, 1), [0.0, 1.0]),
        ((1, 1), [0.5, 0.5]),
        ((2, 1, 3, 4), [2 / 3, 1.0, 1 / 3, 0.0]),
        ((1, 1, 3), [0.75, 0.75, 0.0]),  # two share first: the mean of 1 and 0.5
        ((1, 1, 2), [0.75, 0.75, 0.0]),  # the same ranking written densely
        ((1, 2, 2), [1.0, 0.25, 0.25]),
        ((1, 1, 1, 1, 1), [0.5] * 5),
        ((3, 1, 2, 3, 5, 6), [0.5, 1.0, 0.8, 0.5, 0.2, 0.0]),
    ],
)
def test_table_points_from_places(places, points):
    assert table_points(places) == pytest.approx(points)


@settings(max_examples=100, deadline=None)
@given(places=st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_every_table_hands_out_half_a_point_per_player_and_a_better_place_never_scores_less(places):
    points = table_points(places)
    assert sum(points) == pytest.approx(len(places) / 2)
    for i in range(len(places)):
        for j in range(len(places)):
            if places[i] < places[j]:
                assert points[i] > points[j]
            if places[i] == places[j]:
                assert points[i] == points[j]


def test_a_bye_scores_a_win():
    assert BYE_POINTS == 1.0
    assert TIE_BREAKS == ("Buchholz", "Sonneborn-Berger", "Wins")


# ---------------------------------------------------------------------------------------------
# Hand-worked tournaments


def test_four_player_round_robin_with_draws_is_decided_by_sonneborn_berger():
    rounds: list[RoundResults] = [
        ([win(A, B), draw(C, D)], []),
        ([draw(A, C), win(B, D)], []),
        ([win(D, A), win(C, B)], []),
    ]
    # Points: A 1 + .5 + 0 = 1.5; B 0 + 1 + 0 = 1; C .5 + .5 + 1 = 2; D .5 + 0 + 1 = 1.5.
    # Buchholz in a round robin is everyone else's points: A 6 - 1.5 = 4.5, D 4.5, B 5, C 4,
    # so A and D stay level; Sonneborn-Berger separates them:
    #   A: beat B (1) + drew C (2 / 2)                      = 2.0
    #   D: drew C (2 / 2) + beat A (1.5)                    = 2.5
    #   B: beat D (1.5)                                     = 1.5
    #   C: drew D (1.5 / 2) + drew A (1.5 / 2) + beat B (1) = 2.5
    assert table(standings([A, B, C, D], rounds)) == [
        (C, 1, 2.0, 4.0, 2.5, 1.0),
        (D, 2, 1.5, 4.5, 2.5, 1.0),
        (A, 3, 1.5, 4.5, 2.0, 1.0),
        (B, 4, 1.0, 5.0, 1.5, 1.0),
    ]
    assert {s.played for s in standings([A, B, C, D], rounds)} == {3}


def test_three_round_swiss_with_byes():
    rounds: list[RoundResults] = [
        ([win(A, B), draw(C, D)], [E]),
        ([win(A, C), win(E, B)], [D]),
        ([draw(A, E), win(D, B)], [C]),
    ]
    # Points: A 1 + 1 + .5 = 2.5; B 0; C .5 + 0 + 1 (bye) = 1.5; D .5 + 1 (bye) + 1 = 2.5;
    # E 1 (bye) + 1 + .5 = 2.5. Three share the lead.
    # A bye counts as a meeting with an opponent as strong as the player ends up:
    #   Buchholz A: B 0 + C 1.5 + E 2.5 = 4.0; D: C 1.5 + bye 2.5 + B 0 = 4.0;
    #            E: bye 2.5 + B 0 + A 2.5 = 5.0                       -> E first
    #   Sonneborn-Berger A: B 0 + C 1.5 + half of E 2.5 = 2.75;
    #                    D: half of C 1.5 + bye 2.5 + B 0 = 3.25      -> D before A
    rows = standings([A, B, C, D, E], rounds)
    assert table(rows) == [
        (E, 1, 2.5, 5.0, 3.75, 1.0),
        (D, 2, 2.5, 4.0, 3.25, 1.0),
        (A, 3, 2.5, 4.0, 2.75, 2.0),
        (C, 4, 1.5, 6.5, 2.75, 0.0),  # D 2.5 + A 2.5 + bye 1.5; half of D 2.5 + bye 1.5
        (B, 5, 0.0, 7.5, 0.0, 0.0),
    ]
    assert {s.entrant: (s.played, s.byes) for s in rows} == {A: (3, 0), B: (3, 0), C: (2, 1), D: (2, 1), E: (2, 1)}


def test_multiplayer_tables_use_the_place_analogues():
    rounds: list[RoundResults] = [
        ([TableResult((1, 2, 3), (1, 2, 3)), TableResult((4, 5, 6), (1, 1, 3))], []),
        ([TableResult((1, 4, 6), (2, 1, 3)), TableResult((2, 5, 3), (1, 2, 2))], []),
    ]
    # Points: 1: 1 + .5 = 1.5; 2: .5 + 1 = 1.5; 3: 0 + .25; 4: .75 + 1 = 1.75; 5: .75 + .25 = 1;
    # 6: 0. Buchholz takes the mean of a table's opponents:
    #   1: (2 1.5 + 3 .25) / 2 + (4 1.75 + 6 0) / 2 = .875 + .875 = 1.75
    #   2: (1 1.5 + 3 .25) / 2 + (5 1 + 3 .25) / 2 = .875 + .625 = 1.5   -> 1 before 2
    # Sonneborn-Berger, the mean of (pairwise result x opponent's points):
    #   1: (1 x 1.5 + 1 x .25) / 2 + (0 x 1.75 + 1 x 0) / 2 = .875
    #   2: (0 x 1.5 + 1 x .25) / 2 + (1 x 1 + 1 x .25) / 2 = .75
    #   4: (.5 x 1 + 1 x 0) / 2 + (1 x 1.5 + 1 x 0) / 2 = 1.0
    # Wins: alone in first place. 4 shared first in round one, so only round two counts.
    assert table(standings([1, 2, 3, 4, 5, 6], rounds)) == [
        (4, 1, 1.75, 1.25, 1.0, 1.0),
        (1, 2, 1.5, 1.75, 0.875, 1.0),
        (2, 3, 1.5, 1.5, 0.75, 1.0),
        (5, 4, 1.0, 1.75, 0.5, 0.0),
        (3, 5, 0.25, 2.75, 0.25, 0.0),
        (6, 6, 0.0, 3.0, 0.0, 0.0),
    ]


def test_level_on_points_buchholz_and_sonneborn_berger_the_wins_decide():
    rounds: list[RoundResults] = [
        ([win(D, A), draw(B, C)], []),
        ([win(B, D), draw(C, A)], []),
        ([draw(D, C), win(A, B)], []),
    ]
    # Everyone scores 1.5 (A 0 + .5 + 1, B .5 + 1 + 0, C three draws, D 1 + 0 + .5), so every
    # Buchholz is the other three's 4.5. Sonneborn-Berger is level too:
    #   A: drew C (1.5 / 2) + beat B (1.5) = 2.25;  B: drew C + beat D = 2.25
    #   C: three draws, 3 x 1.5 / 2         = 2.25;  D: beat A + drew C = 2.25
    # Only Wins is left: C won no table and is last; A, B and D share first.
    assert table(standings([A, B, C, D], rounds)) == [
        (A, 1, 1.5, 4.5, 2.25, 1.0),
        (B, 1, 1.5, 4.5, 2.25, 1.0),
        (D, 1, 1.5, 4.5, 2.25, 1.0),
        (C, 4, 1.5, 4.5, 2.25, 0.0),
    ]


def test_entrants_equal_on_everything_share_a_rank():
    rows = standings([A, B, C], [([draw(A, B)], [C])])
    assert [(s.entrant, s.rank) for s in rows] == [(C, 1), (A, 2), (B, 2)]


def test_a_win_by_forfeit_counts_in_points_but_not_for_the_tie_breaks():
    # A beat B, C beat D by forfeit (D never came): the winners tie on points. B played and
    # scored nothing; D forfeited, so for C that meeting counts as one against C's own score.
    rounds: list[RoundResults] = [([win(A, B), TableResult((C, D), (1, 2), forfeited=(D,))], [])]
    rows = {s.entrant: s for s in standings([A, B, C, D], rounds)}
    assert rows[A].points == rows[C].points == 1.0
    assert dict(rows[A].tie_breaks)["Buchholz"] == 0.0
    assert dict(rows[C].tie_breaks)["Buchholz"] == 1.0
    assert dict(rows[C].tie_breaks)["Wins"] == 1.0
    assert rows[C].rank == 1 and rows[A].rank == 2


def test_withdrawn_entrants_stay_in_the_standings_and_keep_counting_for_their_opponents():
    rounds: list[RoundResults] = [([win(A, B), win(C, D)], []), ([win(A, C), win(B, D)], [])]
    rows = standings([A, B, C, D], rounds, withdrawn=[B])
    by_entrant = {s.entrant: s for s in rows}
    assert [(s.entrant, s.rank) for s in rows] == [(A, 1), (B, 2), (C, 2), (D, 4)]
    assert by_entrant[B].withdrawn and not by_entrant[A].withdrawn
    assert by_entrant[B].points == 1.0
    assert dict(by_entrant[A].tie_breaks)["Buchholz"] == 2.0  # B's 1 + C's 1


def test_no_rounds_yet_lists_everyone_level():
    rows = standings([3, 1, 2], [])
    assert [(s.entrant, s.rank, s.points, s.played) for s in rows] == [(3, 1, 0.0, 0), (1, 1, 0.0, 0), (2, 1, 0.0, 0)]
    assert [name for name, _ in rows[0].tie_breaks] == list(TIE_BREAKS)


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ([([win(A, 99)], [])], "did not enter"),
        ([([win(A, B)], [A])], "seated twice"),
        ([([win(A, B), win(A, C)], [])], "seated twice"),
        ([([TableResult((A, B), (1,))], [])], "places"),
        ([([TableResult((A, B), (1, 2), forfeited=(C,))], [])], "forfeit"),
        ([([TableResult((A, B), (0, 1))], [])], "Places start at 1"),
    ],
)
def test_results_that_cannot_be_are_refused(rounds, message):
    with pytest.raises(StandingsError, match=message):
        standings([A, B, C], rounds)


@settings(max_examples=50, deadline=None)
@given(n=st.integers(2, 9), data=st.data())
def test_a_round_robin_of_any_results_ranks_by_points_with_buchholz_the_field_minus_oneself(n, data):
    ids = list(range(1, n + 1))
    rounds: list[RoundResults] = [
        ([TableResult(t, data.draw(st.sampled_from([(1, 2), (2, 1), (1, 1)]))) for t in rnd.tables], list(rnd.byes))
        for rnd in round_robin(ids, 2)
    ]
    rows = standings(ids, rounds)
    total = sum(s.points for s in rows)
    assert total == pytest.approx(n * (n - 1) / 2 + (n if n % 2 else 0) * BYE_POINTS)
    for s in rows:
        buchholz = dict(s.tie_breaks)["Buchholz"]
        # Everyone met everyone else once; an odd field's bye counts as meeting oneself.
        assert buchholz == pytest.approx(total - s.points + (s.points if n % 2 else 0))
    keys = [(s.points, *(v for _, v in s.tie_breaks)) for s in rows]
    assert keys == sorted(keys, reverse=True)
    for before, after, key_before, key_after in zip(rows, rows[1:], keys, keys[1:], strict=False):
        assert (after.rank == before.rank) == (key_after == key_before)


# ---------------------------------------------------------------------------------------------
# What pairing needs from the results


def test_pairing_entrants_carry_points_opponents_byes_and_seats_and_leave_out_the_withdrawn():
    rounds: list[RoundResults] = [
        ([win(A, B), draw(C, D)], [E]),
        ([win(E, A), win(B, C)], [D]),
    ]
    ratings = {A: 1600.0, B: 1500.0, C: 1400.0, D: 1300.0, E: 1200.0}
    entrants = {e.id: e for e in pairing_entrants(ratings, rounds, withdrawn=[D])}
    assert set(entrants) == {A, B, C, E}
    assert entrants[A] == Entrant(A, 1600.0, 1.0, frozenset({B, E}), 0, (1, 1))
    assert entrants[E] == Entrant(E, 1200.0, 2.0, frozenset({A}), 1, (1,))
    assert entrants[C] == Entrant(C, 1400.0, 0.5, frozenset({D, B}), 0, (1, 1))
