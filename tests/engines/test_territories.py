"""Territories (shared/rules/territories.md): one test per rule, in the order of the rule sheet.

Positions are reached by playing scripted actions from ``SETUP`` (seat 0 is Yellow with farm
houses on b2 d2 a5 c5, seat 1 is Red with f2 h2 e5 g5). Grid points are (x, y): x 0..8 from
the west edge, y 0..6 from the north edge; trunk ``d1-e1`` runs from (4, 0) to (4, 1).
A few positions that play hardly ever reaches are built with
``TerritoriesState.from_position``.
"""

import json
import random

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction
from games.engines.base import square_name
from games.engines.territories import EDGES, GAME, TRUNK_BY_ACTION, TerritoriesState

SETUP = [
    "first:0",
    "farm:b2",  # Yellow 1
    "farm:f2",  # Red 2
    "farm:h2",
    "farm:d2",  # Yellow 2
    "farm:a5",
    "farm:e5",  # Red 2
    "farm:g5",
    "farm:c5",  # Yellow 1
]
YELLOW_SEAT, RED_SEAT = 0, 1
# Yellow's fence a4-a5, a5-b5, a5-a6 closes a5 off against the west border.
AROUND_A5 = ["trunk:a4-a5", "trunk:a5-b5", "trunk:a5-a6"]
# A straight fence down between columns d and e (20 land squares each side).
DOWN_THE_MIDDLE = [f"trunk:d{r}-e{r}" for r in range(1, 7)]
# From e1-f1 down between e and f to row 4, one step west, then down between d and e.
CROOKED_LINE = [
    "trunk:e1-f1",
    "trunk:e2-f2",
    "trunk:e3-f3",
    "trunk:e4-f4",
    "trunk:e4-e5",
    "trunk:d5-e5",
    "trunk:d6-e6",
]


def play(*actions, setup=SETUP):
    state = GAME.new_state(2)
    for action in [*setup, *actions]:
        state.apply(action)
    return state


def refused(state, action, words):
    before = json.dumps([state.view(None), state.history], sort_keys=True)
    with pytest.raises(IllegalAction, match=words):
        state.apply(action)
    assert json.dumps([state.view(None), state.history], sort_keys=True) == before
    assert action not in state.legal_actions()


def ends(action):
    """The two grid points a trunk joins."""
    edge = TRUNK_BY_ACTION[action]
    return {(edge.p % 9, edge.p // 9), (edge.q % 9, edge.q // 9)}


def on_border(point):
    x, y = point
    return x in (0, 8) or y in (0, 6)


# -- set-up -----------------------------------------------------------------------------


def test_chance_decides_which_seat_plays_yellow_and_yellow_starts():
    state = GAME.new_state(2)
    assert state.current_player() == CHANCE
    assert sorted(state.chance_outcomes()) == [("first:0", 0.5), ("first:1", 0.5)]
    state.apply("first:1")
    assert state.current_player() == 1
    assert state.view(None)["colours"] == {"yellow": 1, "red": 0}


def test_farm_houses_are_placed_yellow_one_red_two_yellow_two_red_two_yellow_one():
    state = GAME.new_state(2)
    state.apply("first:1")  # seat 1 is Yellow
    movers = []
    for spot in ["b2", "d2", "f2", "h2", "a5", "c5", "e5", "g5"]:
        movers.append(state.current_player())
        state.apply(f"farm:{spot}")
    assert movers == [1, 0, 0, 1, 1, 0, 0, 1]
    squares = {s["square"]: s["farm"] for s in state.view(None)["squares"]}
    assert [squares[s] for s in ["b2", "d2", "f2", "h2", "a5", "c5", "e5", "g5"]] == [
        "yellow",
        "red",
        "red",
        "yellow",
        "yellow",
        "red",
        "red",
        "yellow",
    ]
    # Then the trunks begin, Yellow first.
    assert state.current_player() == 1
    assert all(a.startswith("trunk:") for a in state.legal_actions())


def test_farm_houses_go_only_on_the_eight_free_spots():
    state = play(setup=SETUP[:3])  # Yellow b2, Red f2; Red places again
    assert sorted(state.legal_actions()) == ["farm:a5", "farm:c5", "farm:d2", "farm:e5", "farm:g5", "farm:h2"]
    refused(state, "farm:c3", "not a farm-house spot")
    refused(state, "farm:b2", "already has a farm house")
    refused(state, "trunk:d1-e1", "farm house first")


# -- trunks -----------------------------------------------------------------------------


def test_the_first_trunk_must_touch_the_border():
    state = play()
    legal = state.legal_actions()
    assert legal and all(any(on_border(p) for p in ends(a)) for a in legal)
    assert "trunk:d1-e1" in legal
    refused(state, "trunk:c3-d3", "first trunk must touch the border")


def test_the_first_trunk_also_avoids_the_sides_of_opponent_farm_houses():
    state = play()
    legal = state.legal_actions()
    assert "trunk:a4-a5" in legal  # a side of Yellow's own a5
    assert "trunk:h1-h2" not in legal  # touches the border, but is a side of Red's h2
    refused(state, "trunk:h1-h2", "side of an opponent's farm house")


def test_a_fence_with_an_open_end_must_be_continued_there():
    state = play("trunk:d1-e1")
    assert state.current_player() == RED_SEAT  # an unfinished fence passes the turn
    view = state.view(None)
    assert view["open_end"] == [4, 1]
    assert view["trunks"] == [{"edge": "d1-e1", "from": [4, 0], "to": [4, 1], "seat": 0, "open_fence": True}]
    legal = state.legal_actions()
    assert sorted(legal) == ["trunk:d1-d2", "trunk:d2-e2", "trunk:e1-e2"]
    assert all((4, 1) in ends(a) for a in legal)
    refused(state, "trunk:a4-a5", "continued from its open end, the corner where d1, e1, d2 and e2 meet")


def test_completing_a_surrounding_gives_the_same_player_another_trunk():
    state = play(*AROUND_A5[:2])
    assert state.current_player() == YELLOW_SEAT
    state.apply(AROUND_A5[2])  # reaches the border: a5 is fenced off
    assert state.current_player() == YELLOW_SEAT
    view = state.view(None)
    assert view["open_end"] is None
    assert not any(t["open_fence"] for t in view["trunks"])
    areas = sorted(view["areas"], key=lambda a: len(a["squares"]))
    assert areas[0]["squares"] == ["a5"] and areas[0]["owner"] == "yellow"
    assert areas[1]["owner"] is None  # still both colours
    assert not state.is_terminal()


def test_a_new_fence_must_start_against_an_earlier_trunk():
    state = play(*AROUND_A5)
    legal = state.legal_actions()
    # Only trunks from the points (1, 4) and (1, 5) of the finished fence; a6-b6 would
    # close off a6, which has no farm house.
    assert sorted(legal) == ["trunk:a4-b4", "trunk:b4-b5", "trunk:b5-b6"]
    refused(state, "trunk:d1-e1", "start against a trunk already placed")


def test_a_new_fence_avoids_the_sides_of_opponent_farm_houses():
    # Seat 1 is Yellow here (a5 d2 f2 g5); Red's fence closes off g1 h1 g2 h2 with Red's h2,
    # and Red starts again next to Yellow's f2.
    setup = ["first:1", "farm:a5", "farm:e5", "farm:c5", "farm:f2", "farm:d2", "farm:h2", "farm:b2", "farm:g5"]
    state = play("trunk:f1-g1", "trunk:f2-g2", "trunk:g2-g3", "trunk:h2-h3", setup=setup)
    assert state.current_player() == 0 and state.view(None)["seat_colours"][0] == "red"
    assert sorted(state.legal_actions()) == ["trunk:f3-g3", "trunk:g3-h3"]
    # f1-f2 and f2-f3 touch the fence and could separate farm houses, but they are sides
    # of Yellow's f2.
    refused(state, "trunk:f1-f2", "side of an opponent's farm house")
    refused(state, "trunk:f2-f3", "side of an opponent's farm house")


def test_a_side_of_an_opponent_farm_house_is_allowed_when_nothing_else_is():
    # Built: a mixed area d1 e1 (Yellow's d1, Red's e1); every other area is Yellow's.
    # The only trunk that separates them is a side of both farm squares.
    for mover in ("yellow", "red"):
        state = TerritoriesState.from_position(
            yellow=("d1", "b2", "a5", "c5"),
            red=("e1",),
            trunks=("c1-d1", "d1-d2", "e1-e2", "e1-f1"),
            to_move=mover,
        )
        assert state.legal_actions() == ["trunk:d1-e1"]
        state.apply("trunk:d1-e1")
        assert state.is_terminal()


def test_no_trunk_in_an_area_whose_farm_houses_are_all_one_colour():
    # Yellow's fence closes off rows 1-2 of columns a-e, with only Yellow's b2 and d2.
    state = play(*TOP_LEFT)
    assert state.current_player() == YELLOW_SEAT
    view = state.view(None)
    top_left = next(a for a in view["areas"] if "b2" in a["squares"])
    assert top_left["owner"] == "yellow" and top_left["farms"] == {"yellow": 2, "red": 0}
    # d2-e2 starts at the fence and could go on to fence d2 off from b2 (both sides would
    # keep a farm house), but the area is already decided.
    refused(state, "trunk:d2-e2", "farm houses are all of one colour")
    inside = set(top_left["squares"])
    for action in state.legal_actions():
        a, b = action[6:].split("-")
        assert a not in inside and b not in inside


def test_a_trunk_that_would_close_off_an_area_without_a_farm_house_is_refused():
    # Continuing a fence: after a1-a2, a1-b1 would close off a1 alone.
    state = play("trunk:a1-a2")
    assert sorted(state.legal_actions()) == ["trunk:a2-b2", "trunk:b1-b2"]
    refused(state, "trunk:a1-b1", "spoil land")
    # Starting a fence: after a5 is fenced off, a6-b6 would close off a6 alone.
    state = play(*AROUND_A5)
    refused(state, "trunk:a6-b6", "spoil land")


def test_a_trunk_that_could_never_be_completed_legally_is_refused():
    # f1-g1, f2-g2, g2-g3: the open end is (7, 2). g2-h2 would lead to (7, 1), a point no
    # trunk touches yet; from there the fence can only end at (7, 0), (8, 1) or back on
    # itself, and each of those closes off land without a farm house.
    state = play("trunk:f1-g1", "trunk:f2-g2", "trunk:g2-g3")
    assert state.view(None)["open_end"] == [7, 2]
    assert sorted(state.legal_actions()) == ["trunk:g3-h3", "trunk:h2-h3"]
    refused(state, "trunk:g2-h2", "spoil land")


def test_the_game_ends_exactly_when_no_area_holds_both_colours():
    state = play(*CROOKED_LINE[:-1])
    assert not state.is_terminal()
    assert state.current_player() == YELLOW_SEAT
    state.apply(CROOKED_LINE[-1])
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    view = state.view(None)
    assert view["terminal"] and view["phase"] == "over"
    assert all(area["owner"] is not None for area in view["areas"])
    refused(state, "trunk:a3-b3", "game is over")


def test_a_finished_board_scores_the_land_of_each_colour_24_to_16():
    state = play(*CROOKED_LINE)
    assert state.scores() == [24, 16]
    assert state.ranking() == [1, 2]
    breakdown = state.view(YELLOW_SEAT)["score_breakdown"]
    assert breakdown == [
        [["Area of the farm houses b2 d2 a5 c5", 24]],
        [["Area of the farm houses f2 h2 e5 g5", 16]],
    ]


def test_equal_land_is_a_draw():
    state = play(*DOWN_THE_MIDDLE)
    assert state.is_terminal()
    assert state.scores() == [20, 20]
    assert state.ranking() == [1, 1]


def test_farm_squares_are_not_land():
    state = play(*AROUND_A5)
    a5 = next(a for a in state.view(None)["areas"] if a["squares"] == ["a5"])
    assert a5["land"] == 0 and a5["owner"] == "yellow"
    assert state.scores() == [0, 0]


def test_an_area_without_a_farm_house_counts_for_nobody():
    # The seed: "both count their land squares inside the surroundings around their farm
    # houses" -- land around no farm house is nobody's. Legal play never closes such an area
    # ("Don't spoil land!"), so the position is built directly: the crooked line of the
    # worked example, and h6 fenced off alone in Red's corner.
    state = TerritoriesState.from_position(
        yellow=["b2", "d2", "a5", "c5"],
        red=["f2", "h2", "e5", "g5"],
        trunks=[action.removeprefix("trunk:") for action in CROOKED_LINE] + ["g6-h6", "h5-h6"],
        to_move="red",
    )
    assert state.is_terminal()
    assert state.scores() == [24, 15]  # Red keeps the 15 land squares around its houses
    view = state.view(None)
    h6 = next(area for area in view["areas"] if area["squares"] == ["h6"])
    assert h6["farms"] == {"yellow": 0, "red": 0}
    assert h6["land"] == 1
    assert h6["owner"] is None and h6["owner_seat"] is None
    assert view["score_breakdown"] == [
        [["Area of the farm houses b2 d2 a5 c5", 24]],
        [["Area of the farm houses f2 h2 e5 g5", 15]],
    ]


# -- the board a page draws ---------------------------------------------------------------


def test_the_view_names_squares_farm_houses_trunks_points_areas_and_colours():
    state = play("trunk:d1-e1", "trunk:d2-e2")
    view = state.view(None)
    json.dumps(view)
    assert len(view["squares"]) == 48
    assert view["squares"][0] == {"square": "a1", "col": 0, "row": 0, "farm": None, "spot": False, "area": 0}
    assert sum(1 for s in view["squares"] if s["farm"]) == 8
    assert {h["square"]: h["colour"] for h in view["farm_houses"]}["f2"] == "red"
    assert [t["edge"] for t in view["trunks"]] == ["d1-e1", "d2-e2"]
    assert view["trunks"][1] == {"edge": "d2-e2", "from": [4, 1], "to": [4, 2], "seat": 1, "open_fence": True}
    assert view["open_end"] == [4, 2]
    assert view["colours"] == {"yellow": 0, "red": 1}
    assert view["seat_colours"] == ["yellow", "red"]
    assert view["to_move_colour"] == "yellow" and view["current_player"] == 0
    assert view["legal"] == state.legal_actions()
    assert len(view["areas"]) == 1 and view["areas"][0]["owner"] is None  # unfinished fence
    # The open end in the board's own terms: the squares that meet there.
    assert "open end, the corner where d2, e2, d3 and e3 meet." in view["prompt"]


def test_action_labels_read_as_plain_words():
    assert GAME.action_label("first:1") == "Seat 2 plays Yellow"  # seats counted from 1
    assert GAME.action_label("farm:b2") == "Farm house on b2"
    assert GAME.action_label("trunk:b3-c3") == "Trunk between b3 and c3"


def test_edges_are_named_with_their_squares_in_order():
    state = play()
    refused(state, "trunk:e1-d1", "not an edge")
    refused(state, "trunk:d1-e2", "not an edge")


# -- whole games ------------------------------------------------------------------------


def random_game(seed):
    rng = random.Random(seed)
    state = GAME.new_state(2)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(rng.choice(["first:0", "first:1"]))
        else:
            state.apply(rng.choice(state.legal_actions()))
        yield state


def test_random_games_end_with_all_forty_land_squares_scored_when_every_area_is_decided():
    decided = 0
    for seed in range(60):
        for state in random_game(seed):
            view = state.view(None)
            squares = sorted(s for a in view["areas"] for s in a["squares"])
            assert len(squares) == 48 == len(set(squares))
            if view["phase"] == "trunks":
                mixed = {s for a in view["areas"] if a["owner"] is None for s in a["squares"]}
                for action in state.legal_actions():
                    assert set(action[6:].split("-")) <= mixed
        areas = state.view(None)["areas"]
        if all(a["owner"] for a in areas):
            decided += 1
            assert sum(state.scores()) == 40
            assert sum(a["land"] for a in areas) == 40
    assert decided == 60  # play never got stuck with a mixed area left


# A plain reference for rule 6: the same rules with sets and tuples and an exhaustive search
# over every way to go on, no pruning and no cache.

W, H = 8, 6


def _reference_edges():
    edges = {}
    for r in range(H):
        for c in range(W):
            if c < W - 1:
                edges[f"{square_name(c, r)}-{square_name(c + 1, r)}"] = (
                    (c, r),
                    (c + 1, r),
                    ((c + 1, r), (c + 1, r + 1)),
                )
            if r < H - 1:
                edges[f"{square_name(c, r)}-{square_name(c, r + 1)}"] = (
                    (c, r),
                    (c, r + 1),
                    ((c, r + 1), (c + 1, r + 1)),
                )
    return edges


REF_EDGES = _reference_edges()
REF_BY_POINTS = {frozenset(v[2]): k for k, v in REF_EDGES.items()}


def _regions(walls):
    blocked = {frozenset(REF_EDGES[k][:2]) for k in walls}
    squares = {(c, r) for r in range(H) for c in range(W)}
    found = []
    while squares:
        start = squares.pop()
        region, stack = {start}, [start]
        while stack:
            c, r = stack.pop()
            for n in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if n in squares and frozenset(((c, r), n)) not in blocked:
                    squares.discard(n)
                    region.add(n)
                    stack.append(n)
        found.append(region)
    return found


def _far_end(name, open_end, points):
    """The end of a trunk away from the open end it continues, or from what it starts at."""
    p1, p2 = REF_EDGES[name][2]
    if open_end is not None:
        return p2 if p1 == open_end else p1
    return p2 if (on_border(p1) or p1 in points) else p1


def reference_legal_trunks(history):
    yellow_first = [0, 1, 1, 0, 0, 1, 1, 0]
    farms, trunks, fence, open_end, colour = {}, [], [], None, 0
    for action in history[1:]:
        if action.startswith("farm:"):
            sq = action[5:]
            farms[(ord(sq[0]) - 97, int(sq[1]) - 1)] = yellow_first[len(farms)]
            continue
        name = action[6:]
        points = {p for t in trunks for p in REF_EDGES[t][2]}
        far = _far_end(name, open_end, points)
        trunks.append(name)
        if on_border(far) or far in points:
            fence, open_end = [], None
        else:
            fence, open_end, colour = fence + [name], far, 1 - colour
    points = {p for t in trunks for p in REF_EDGES[t][2]}
    areas = _regions([t for t in trunks if t not in fence])

    def area_of(square):
        return next(a for a in areas if square in a)

    def good(walls, square, area):
        side = next(r for r in _regions(walls) if square in r)
        houses = [s for s in area if s in farms]
        return any(s in side for s in houses) and any(s not in side for s in houses)

    def touched(p, used):
        return on_border(p) or p in used

    def completable(p, walls, used, area):
        x, y = p
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            name = REF_BY_POINTS.get(frozenset((p, q)))
            if name is None or name in walls:
                continue
            if touched(q, used):
                if good(walls + [name], REF_EDGES[name][0], area):
                    return True
            elif completable(q, walls + [name], used | {q}, area):
                return True
        return False

    def allowed(name):
        p1, p2 = REF_EDGES[name][2]
        far = _far_end(name, open_end, points)
        area = area_of(REF_EDGES[name][0])
        if touched(far, points):
            return good(trunks + [name], REF_EDGES[name][0], area)
        return completable(far, trunks + [name], points | {p1, p2}, area)

    if open_end is not None:
        return sorted(n for n in REF_EDGES if n not in trunks and open_end in REF_EDGES[n][2] and allowed(n))
    starts = []
    for name, (a, _, (p1, p2)) in REF_EDGES.items():
        colours = {farms[s] for s in area_of(a) if s in farms}
        anchored = (p1 in points or p2 in points) if trunks else (on_border(p1) or on_border(p2))
        if name not in trunks and colours == {0, 1} and anchored and allowed(name):
            starts.append(name)
    opponent = {s for s, c in farms.items() if c != colour}
    free_of_opponent = [n for n in starts if not set(REF_EDGES[n][:2]) & opponent]
    return sorted(free_of_opponent or starts)


def test_legal_trunks_agree_with_a_plain_exhaustive_search():
    checked = 0
    for seed in range(6):
        for state in random_game(seed):
            if state.is_terminal() or not state.legal_actions()[0].startswith("trunk:"):
                continue
            expected = [f"trunk:{n}" for n in reference_legal_trunks(state.history)]
            assert sorted(state.legal_actions()) == expected, state.history
            checked += 1
    assert checked > 100


def test_the_exact_check_in_apply_agrees_with_the_listed_actions():
    # apply() checks one trunk without listing them all; both must say the same.
    for seed in range(4):
        for state in random_game(seed):
            if state.is_terminal() or not state.legal_actions()[0].startswith("trunk:"):
                continue
            legal = set(state.legal_actions())
            base = GAME.replay(2, None, state.history)  # no list of legal actions cached
            for edge in EDGES:
                probe = base.clone()
                action = f"trunk:{edge.name}"
                try:
                    probe.apply(action)
                    assert action in legal
                except IllegalAction:
                    assert action not in legal


TOP_LEFT = [
    "trunk:a2-a3",
    "trunk:b2-b3",
    "trunk:c2-c3",
    "trunk:d2-d3",
    "trunk:e2-e3",
    "trunk:e2-f2",
    "trunk:e1-f1",
]
