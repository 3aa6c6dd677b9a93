"""Pairing: who meets whom each round, in which seat, and who sits out.

Properties are checked with hypothesis over small fields (bounded example counts, so the file
runs in seconds); an exact brute-force search stands in for "avoidable" where it matters.
"""

import itertools
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    FORMATS,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    PairingError,
    Round,
    recommended_rounds,
    round_robin,
    round_robin_lower_bound,
    swiss_round,
)
from tournaments.standings import TableResult, pairing_entrants

FAST = settings(max_examples=60, deadline=None)


def assert_everyone_placed_once(rnd: Round, ids, table_size):
    seated = [p for table in rnd.tables for p in table]
    assert sorted(seated + list(rnd.byes)) == sorted(ids), "every active player: one table or a bye"
    assert all(len(table) == table_size for table in rnd.tables)
    assert len(rnd.byes) == len(ids) % table_size, "byes only for the players a full table cannot take"


def meetings(rounds):
    return Counter(
        frozenset(pair) for rnd in rounds for table in rnd.tables for pair in itertools.combinations(table, 2)
    )


def repeats_in(rnd: Round, entrants):
    met = {e.id: e.opponents for e in entrants}
    return [(a, b) for table in rnd.tables for a, b in itertools.combinations(table, 2) if b in met[a]]


# ---------------------------------------------------------------------------------------------
# Round robin


@FAST
@given(n=st.integers(2, 24))
def test_two_player_round_robin_meets_every_pair_exactly_once_with_first_moves_balanced(n):
    ids = [100 + i for i in range(n)]
    rounds = round_robin(ids, 2)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for rnd in rounds:
        assert_everyone_placed_once(rnd, ids, 2)
    assert meetings(rounds) == {frozenset(pair): 1 for pair in itertools.combinations(ids, 2)}
    first = Counter(table[0] for rnd in rounds for table in rnd.tables)
    second = Counter(table[1] for rnd in rounds for table in rnd.tables)
    for p in ids:
        assert abs(first[p] - second[p]) <= 1, f"{p} moves first {first[p]} times, second {second[p]}"
    assert max(first[p] for p in ids) - min(first[p] for p in ids) <= 1
    if n % 2:
        assert sorted(b for rnd in rounds for b in rnd.byes) == sorted(ids), "odd field: one bye each"


@settings(max_examples=20, deadline=None)
@given(table_size=st.integers(3, 6), extra=st.integers(0, 8))
def test_multiplayer_round_robin_meets_every_pair_at_least_once_with_seats_rotated(table_size, extra):
    ids = list(range(1, table_size + extra + 1))
    rounds = round_robin(ids, table_size)
    for rnd in rounds:
        assert_everyone_placed_once(rnd, ids, table_size)
    assert set(meetings(rounds)) == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
    assert len(rounds) >= round_robin_lower_bound(len(ids), table_size)
    byes = Counter(b for rnd in rounds for b in rnd.byes)
    assert max(byes[p] for p in ids) - min(byes[p] for p in ids) <= 1, "byes spread evenly"
    for p in ids:
        seats = Counter(table.index(p) for rnd in rounds for table in rnd.tables if p in table)
        played = sum(seats.values())
        # nobody sits in the same seat more often than a fair rotation allows
        assert max(seats.values()) <= -(-played // table_size) + 1


@pytest.mark.parametrize(
    ("n", "table_size", "rounds"),
    [(3, 3, 1), (6, 6, 1), (4, 3, 3), (5, 4, 3), (8, 4, 3), (9, 3, 4), (12, 6, 3), (16, 4, 5)],
)
def test_multiplayer_round_robin_reaches_the_fewest_rounds_possible_where_known(n, table_size, rounds):
    # Each round a player meets table_size - 1 new people, and someone sits out when the tables
    # do not divide the field, so these fields cannot do better;
    # 9 at tables of 3 in 4 rounds and 16 at tables of 4 in 5 are the affine planes of orders
    # 3 and 4, which the search has to find.
    assert len(round_robin(list(range(n)), table_size)) == rounds == round_robin_lower_bound(n, table_size)


def test_round_robin_is_the_same_for_the_same_entrants():
    assert round_robin([5, 3, 9, 1, 7], 2) == round_robin([5, 3, 9, 1, 7], 2)
    assert round_robin(list(range(10)), 3) == round_robin(list(range(10)), 3)


@pytest.mark.parametrize(
    ("ids", "table_size", "message"),
    [([1], 2, "cannot fill"), ([1, 2, 3], 4, "cannot fill"), ([1, 1, 2], 2, "twice"), ([1, 2], 7, "seats")],
)
def test_impossible_fields_are_refused_with_a_reason(ids, table_size, message):
    with pytest.raises(PairingError, match=message):
        round_robin(ids, table_size)
    with pytest.raises(PairingError, match=message):
        swiss_round([Entrant(i, 1500.0) for i in ids], table_size, 1)


# ---------------------------------------------------------------------------------------------
# Swiss, two a table


def pairing_without_repeats_exists(entrants, allowed=lambda a, b: b.id not in a.opponents):
    """Brute force: is there a round of ``allowed`` pairs only (by default: no repeat), with
    the bye (if any) to a fewest-byes player?"""
    by_id = {e.id: e for e in entrants}

    def perfect(ids):
        if not ids:
            return True
        first, rest = ids[0], ids[1:]
        return any(
            allowed(by_id[first], by_id[other]) and perfect(rest[:i] + rest[i + 1 :]) for i, other in enumerate(rest)
        )

    ids = [e.id for e in entrants]
    if len(ids) % 2 == 0:
        return perfect(ids)
    fewest = min(e.byes for e in entrants)
    return any(perfect([i for i in ids if i != e.id]) for e in entrants if e.byes == fewest)


@st.composite
def swiss_fields(draw, min_size=2, max_size=10, table_size=2):
    """Active entrants partway through a tournament: points, ratings, opponents met, byes, seats."""
    n = draw(st.integers(min_size, max_size))
    ids = draw(st.lists(st.integers(1, 10_000), min_size=n, max_size=n, unique=True))
    pairs = list(itertools.combinations(ids, 2))
    met = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) if pairs else []
    opponents = {i: set() for i in ids}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        Entrant(
            id=i,
            rating=draw(st.sampled_from([1200.0, 1500.0, 1800.0])),
            points=draw(st.integers(0, 8)) / 2,
            opponents=frozenset(opponents[i]),
            byes=draw(st.integers(0, 2)),
            seat_counts=tuple(draw(st.lists(st.integers(0, 3), min_size=table_size, max_size=table_size))),
        )
        for i in ids
    ]


@settings(max_examples=150, deadline=None)
@given(entrants=swiss_fields())
def test_swiss_pairs_without_a_repeat_whenever_such_a_pairing_exists(entrants):
    rnd = swiss_round(entrants, 2, 3)
    assert_everyone_placed_once(rnd, [e.id for e in entrants], 2)
    if pairing_without_repeats_exists(entrants):
        assert repeats_in(rnd, entrants) == []


@st.composite
def fields_with_a_hidden_clean_pairing(draw):
    """Dense histories in which few pairings avoid every repeat (one is hidden among them).

    In odd fields the hidden pairing leaves out someone anywhere in the ranking, who is due a
    bye like everyone else.
    """
    n = draw(st.integers(4, 21))
    ids = list(range(1, n + 1))
    order = draw(st.permutations(ids))
    hidden = {frozenset(order[i : i + 2]) for i in range(0, n - 1, 2)}
    keep = draw(st.floats(0.6, 1.0))
    rng = random.Random(draw(st.integers(0, 2**16)))
    opponents = {i: set() for i in ids}
    for a, b in itertools.combinations(ids, 2):
        if frozenset((a, b)) not in hidden and rng.random() < keep:
            opponents[a].add(b)
            opponents[b].add(a)
    return [Entrant(i, 1500.0 + rng.randrange(5) * 100, rng.randrange(4) / 2, frozenset(opponents[i])) for i in ids]


@FAST
@given(entrants=fields_with_a_hidden_clean_pairing())
def test_swiss_finds_a_pairing_without_repeats_in_a_crowded_history(entrants):
    rnd = swiss_round(entrants, 2, 5)
    assert_everyone_placed_once(rnd, [e.id for e in entrants], 2)
    assert repeats_in(rnd, entrants) == []


@FAST
@given(entrants=swiss_fields(min_size=3, max_size=15))
def test_the_bye_goes_to_the_lowest_ranked_of_those_with_the_fewest_byes(entrants):
    rnd = swiss_round(entrants, 2, 2)
    if len(entrants) % 2 == 0:
        assert rnd.byes == ()
        return
    (bye,) = rnd.byes
    fewest = min(e.byes for e in entrants)
    by_id = {e.id: e for e in entrants}
    assert by_id[bye].byes == fewest, "nobody gets another bye while someone has had fewer"
    if all(not e.opponents for e in entrants):  # nothing to avoid: strictly the lowest-ranked
        eligible = [e for e in entrants if e.byes == fewest]
        assert bye == min(eligible, key=lambda e: (e.points, e.rating, -e.id)).id


@FAST
@given(entrants=swiss_fields(max_size=12), round_number=st.integers(1, 9), seed=st.integers(0, 1000))
def test_swiss_is_the_same_for_the_same_entrants_in_any_order(entrants, round_number, seed):
    shuffled = list(entrants)
    random.Random(seed).shuffle(shuffled)
    assert swiss_round(entrants, 2, round_number) == swiss_round(shuffled, 2, round_number)


@FAST
@given(entrants=swiss_fields(max_size=12), round_number=st.integers(1, 9))
def test_the_player_who_moved_first_less_often_gets_seat_zero(entrants, round_number):
    by_id = {e.id: e for e in entrants}
    due = {e.id: e.seat_counts[0] - e.seat_counts[1] for e in entrants}
    for first, second in swiss_round(entrants, 2, round_number).tables:
        assert due[first] <= due[second], (by_id[first], by_id[second])


def due(e):
    return e.seat_counts[0] - e.seat_counts[1]


@FAST
@given(entrants=swiss_fields(max_size=10), round_number=st.integers(1, 9))
def test_nobody_moves_first_three_times_more_than_second_while_that_can_be_avoided(entrants, round_number):
    entrants = [e for e in entrants if abs(due(e)) <= 2]
    entrants = entrants[: len(entrants) // 2 * 2]  # an even field: the bye has rules of its own
    if not entrants:
        return

    def balanced(a, b):
        both_owed_the_same_seat_twice = due(a) * due(b) > 0 and min(abs(due(a)), abs(due(b))) >= 2
        return b.id not in a.opponents and not both_owed_the_same_seat_twice

    if not pairing_without_repeats_exists(entrants, balanced):
        return
    by_id = {e.id: e for e in entrants}
    for first, second in swiss_round(entrants, 2, round_number).tables:
        assert due(by_id[first]) + 1 <= 2 and due(by_id[second]) - 1 >= -2, (by_id[first], by_id[second])


def test_a_fresh_score_group_pairs_its_top_half_against_its_bottom_half():
    entrants = [Entrant(i, 2000.0 - 10 * i) for i in range(1, 9)]
    rnd = swiss_round(entrants, 2, 1)
    assert sorted(tuple(sorted(t)) for t in rnd.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert [t[0] for t in rnd.tables] == [1, 2, 3, 4], "round 1: the higher-rated moves first"
    assert [t[0] for t in swiss_round(entrants, 2, 2).tables] == [5, 6, 7, 8], "and alternates"


def test_players_meet_their_own_score_group_and_the_odd_one_floats_down():
    points = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0}
    entrants = [Entrant(i, 2000.0 - i, points[i]) for i in points]
    tables = {frozenset(t) for t in swiss_round(entrants, 2, 3).tables}
    assert frozenset((1, 2)) in tables, "a group of three pairs its top two"
    assert frozenset((3, 4)) in tables, "the floater meets the top of the group below"
    assert frozenset((5, 6)) in tables
    assert frozenset((7, 8)) in tables


def test_equal_scores_written_differently_by_float_sums_are_one_score_group():
    one = sum([0.1] * 10)  # 0.9999999999999999: results summed in another order
    entrants = [Entrant(1, 2000.0, one), Entrant(2, 1900.0, 1.0), Entrant(3, 1700.0, 1.0), Entrant(4, 1600.0, 0.0)]
    # One group of three led by the highest-rated: 1 meets 2, and 3 floats down to 4.
    tables = {frozenset(t) for t in swiss_round(entrants, 2, 2).tables}
    assert tables == {frozenset((1, 2)), frozenset((3, 4))}


def test_a_repeat_is_avoided_even_when_it_means_leaving_the_score_group():
    entrants = [
        Entrant(1, 1900.0, 2.0, frozenset({2})),
        Entrant(2, 1800.0, 2.0, frozenset({1})),
        Entrant(3, 1700.0, 1.0),
        Entrant(4, 1600.0, 1.0),
    ]
    tables = {frozenset(t) for t in swiss_round(entrants, 2, 3).tables}
    assert tables == {frozenset((1, 3)), frozenset((2, 4))}


def test_the_bye_moves_up_the_ranking_when_the_lowest_would_force_a_repeat():
    met = {1: {2, 3, 4}, 2: {1, 3}, 3: {1, 2}, 4: {1}, 5: set()}
    entrants = [Entrant(i, 2000.0 - i, opponents=frozenset(met[i])) for i in met]
    # A bye for 5 leaves 1 with nobody new; a bye for 4 leaves 2 and 3 together; 3 it is.
    rnd = swiss_round(entrants, 2, 3)
    assert rnd.byes == (3,)
    assert repeats_in(rnd, entrants) == []


def test_when_every_pairing_repeats_the_fewest_repeats_are_made():
    # Four players who have all met: two repeats are unavoidable, and no more than that.
    ids = [1, 2, 3, 4]
    entrants = [Entrant(i, 1500.0, opponents=frozenset(set(ids) - {i})) for i in ids]
    rnd = swiss_round(entrants, 2, 4)
    assert_everyone_placed_once(rnd, ids, 2)
    # Six players where 1 has met everyone: 1 must repeat, nobody else needs to.
    ids = [1, 2, 3, 4, 5, 6]
    entrants = [Entrant(1, 1500.0, opponents=frozenset({2, 3, 4, 5, 6}))] + [
        Entrant(i, 1500.0, opponents=frozenset({1})) for i in ids[1:]
    ]
    assert len(repeats_in(swiss_round(entrants, 2, 6), entrants)) == 1


# ---------------------------------------------------------------------------------------------
# Swiss, 3-6 a table


@FAST
@given(table_size=st.integers(3, 6), data=st.data())
def test_multiplayer_swiss_seats_every_active_player_once_at_full_tables(table_size, data):
    entrants = data.draw(swiss_fields(min_size=table_size, max_size=20, table_size=table_size))
    rnd = swiss_round(entrants, table_size, 3)
    assert_everyone_placed_once(rnd, [e.id for e in entrants], table_size)
    fewest = min(e.byes for e in entrants)
    by_id = {e.id: e for e in entrants}
    if sum(1 for e in entrants if e.byes == fewest) >= len(rnd.byes):
        assert all(by_id[b].byes == fewest for b in rnd.byes)
    assert swiss_round(list(reversed(entrants)), table_size, 3) == rnd


def test_multiplayer_swiss_groups_by_score_then_rating_in_round_one():
    entrants = [Entrant(i, 1000.0 + i, points=1.0 if i > 6 else 0.0) for i in range(1, 10)]
    rnd = swiss_round(entrants, 3, 2)
    assert [sorted(t) for t in rnd.tables] == [[7, 8, 9], [4, 5, 6], [1, 2, 3]]
    assert rnd.byes == ()


def test_multiplayer_swiss_swaps_players_between_tables_to_avoid_meeting_again():
    # Round one sat 1-2-3, 4-5-6 and 7-8-9 together, and all tie: in rank order they would
    # meet again, but one from each former table per table avoids every repeat.
    groups = [{1, 2, 3}, {4, 5, 6}, {7, 8, 9}]
    entrants = [Entrant(i, 2000.0 - i, 0.5, frozenset(g - {i})) for g in groups for i in sorted(g)]
    rnd = swiss_round(entrants, 3, 2)
    assert repeats_in(rnd, entrants) == []
    # With two former tables of three, some table must seat two who met: no more than that.
    entrants = [e for e in entrants if e.id <= 6]
    assert len(repeats_in(swiss_round(entrants, 3, 2), entrants)) == 2


def test_multiplayer_swiss_rotates_seats_towards_those_least_held():
    entrants = [
        Entrant(1, 1900.0, seat_counts=(2, 0, 0)),
        Entrant(2, 1800.0, seat_counts=(0, 2, 0)),
        Entrant(3, 1700.0, seat_counts=(0, 0, 2)),
    ]
    (table,) = swiss_round(entrants, 3, 3).tables
    assert table[0] != 1 and table[1] != 2 and table[2] != 3


# ---------------------------------------------------------------------------------------------
# A whole tournament


def play(rnd, rng, table_size):
    """Random final places; at two a table one game in four is drawn."""
    results = []
    for table in rnd.tables:
        if table_size == 2 and rng.random() < 0.25:
            places = (1, 1)
        else:
            places = tuple(rng.sample(range(1, table_size + 1), table_size))
        results.append(TableResult(players=table, places=places))
    return results, rnd.byes


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_seven_round_swiss_of_thirty_keeps_every_rule_every_round(seed):
    rng = random.Random(seed)
    ratings = {i: float(rng.randrange(1000, 2200)) for i in range(1, 31)}
    withdrawn = set()
    played = []
    for number in range(1, 8):
        if number == 4:
            withdrawn.add(rng.choice(sorted(ratings)))  # someone withdraws: the field turns odd
        active = pairing_entrants(ratings, played, withdrawn)
        rnd = swiss_round(active, 2, number)
        assert_everyone_placed_once(rnd, [e.id for e in active], 2)
        # After at most six rounds each has met at most six of the other 28 or 29: the pairs not
        # yet played form a graph where everyone has more than half the field left, which always
        # holds a perfect pairing (Dirac), so any repeat would be an avoidable one.
        assert repeats_in(rnd, active) == []
        bye_counts = {e.id: e.byes for e in active}
        for b in rnd.byes:
            assert bye_counts[b] == min(bye_counts.values()), "a second bye before everyone had one"
        played.append(play(rnd, rng, 2))
    final = pairing_entrants(ratings, played)
    for e in final:
        assert abs(e.seat_count(0) - e.seat_count(1)) <= 2, f"{e.id} seats {e.seat_counts}"
    full = [e for e in final if sum(e.seat_counts) == 7]
    assert len(full) >= 20
    assert all(e.seat_count(0) in (3, 4) for e in full), "seven games: three or four first moves"


@pytest.mark.parametrize("table_size", [3, 4])
def test_a_multiplayer_swiss_of_thirty_keeps_every_rule_every_round(table_size):
    rng = random.Random(table_size)
    ratings = {i: float(rng.randrange(1000, 2200)) for i in range(1, 31)}
    played = []
    for number in range(1, 6):
        active = pairing_entrants(ratings, played)
        rnd = swiss_round(active, table_size, number)
        assert_everyone_placed_once(rnd, list(ratings), table_size)
        # After four rounds each has met at most 4 x (table_size - 1) of the other 29: room enough.
        assert repeats_in(rnd, active) == [], "nobody meets anyone twice"
        leader = min(active, key=lambda e: (-e.points, -e.rating, e.id))
        assert leader.id in rnd.tables[0], "the first table is the top of the standings"
        byes = Counter(e.byes for e in active)
        assert all(e.byes == min(byes) for e in active if e.id in rnd.byes)
        played.append(play(rnd, rng, table_size))


# ---------------------------------------------------------------------------------------------
# How many rounds


def test_recommended_rounds():
    assert recommended_rounds(8, 2, ROUND_ROBIN) == 7
    assert recommended_rounds(7, 2, ROUND_ROBIN) == 7
    assert recommended_rounds(9, 3, ROUND_ROBIN) == 4
    assert recommended_rounds(30, 2, SWISS) == 5, "2^5 = 32 >= 30: one player can win every game"
    assert recommended_rounds(64, 2, SWISS) == 6
    assert recommended_rounds(100, 4, SWISS) == 4
    assert recommended_rounds(4, 2, SWISS) == 3, "at least three rounds"
    assert recommended_rounds(4, 4, SWISS) == 1, "but never more than it takes to meet everyone"
    with pytest.raises(PairingError, match="format"):
        recommended_rounds(8, 2, "knockout")
    assert set(FORMATS) == {ROUND_ROBIN, SWISS}


def test_pairing_and_standings_load_without_django():
    code = (
        "import sys, tournaments.pairing, tournaments.standings; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'rest_framework', 'channels', 'celery'}))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
