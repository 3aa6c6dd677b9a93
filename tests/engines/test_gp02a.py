"""GP02A Territory, rule by rule (shared/rules/gp02a.md).

Positions come from ``GP02AState.position(...)`` (the start of a round, the Main Player about
to roll); chance is forced by applying the chosen outcome (``roll:3``, ``draw:red``).
"""

import json
import random

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction
from games.engines.gp02a import FIELD_NAMES, GAME, GP02AState, group_points

COLOURS = ("blue", "red", "green", "yellow")


def play(state, *actions):
    for action in actions:
        state.apply(action)
    return state


def start_turns(state, roll, draws, deal):
    """Roll, draw (colours in drawing order, clockwise from the Main Player) and deal."""
    play(state, f"roll:{roll}", *(f"draw:{c}" for c in draws), deal)
    return state


def snake(length, start_row=0):
    """``length`` fields joined in a line that runs left to right, then right to left."""
    fields = []
    row = start_row
    while len(fields) < length:
        cols = "abcdefghijkl" if (row - start_row) % 2 == 0 else "lkjihgfedcba"
        for col in cols:
            if len(fields) < length:
                fields.append(f"{col}{row + 1}")
        row += 1
    return fields


def board_colour(state, name):
    field = next(f for f in state.view(None)["territory"] if f["name"] == name)
    return field["colour"]


def territory_count(state, colour):
    return sum(1 for f in state.view(None)["territory"] if f["colour"] == colour)


# ---------------------------------------------------------------------------- scoring


def test_worked_example_scores_11_9_3_0():
    territory = {name: "blue" for name in ("a1", "b1", "c1", "d1", "e1", "a6")}
    territory.update({name: "red" for name in ("e2", "f2", "g2", "h6", "g6")})
    territory["i1"] = "green"
    state = GP02AState.position(4, territory=territory, chronology={"blue": 2, "red": 1})
    assert state.scores() == [11, 9, 3, 0]
    view = state.view(None)
    for seat in range(4):
        assert sum(points for _, points in view["score_breakdown"][seat]) == view["scores"][seat]
    assert view["score_parts"][0] == {"chronology": 2, "groups": 3, "blocks": 6, "total": 11}
    assert view["score_parts"][1] == {"chronology": 1, "groups": 2, "blocks": 6, "total": 9}


@pytest.mark.parametrize("players", [3, 4])
def test_the_score_and_its_breakdown_agree_on_crowded_territories(players):
    """The score is counted on bit masks of the board and the breakdown group by group and
    block by block; on boards of long snaking groups and tied blocks they must agree."""
    rng = random.Random(players)
    names = list(FIELD_NAMES)
    for _ in range(150):
        colours = rng.sample(["blue", "red", "green", "yellow"], rng.randint(1, 4))
        chronology = {c: rng.randint(0, 7) for c in colours}
        stock = {c: 25 - chronology[c] for c in colours}  # 25 chips a colour in all
        territory = {}
        for name in rng.sample(names, rng.randint(0, len(names))):
            left = [c for c, count in stock.items() if count]
            if not left:
                break
            colour = territory[name] = rng.choice(left)
            stock[colour] -= 1
        state = GP02AState.position(players, territory=territory, chronology=chronology)
        view = state.view(None)
        for seat in range(players):
            assert view["scores"][seat] == sum(points for _, points in view["score_breakdown"][seat])


@pytest.mark.parametrize(
    "size,points",
    [(1, 0), (2, 1), (4, 1), (5, 3), (7, 3), (8, 6), (10, 6), (11, 10), (14, 10), (15, 16), (25, 16)],
)
def test_group_sizes_score_0_1_3_6_10_16_from_1_2_5_8_11_15_chips(size, points):
    assert group_points(size) == points
    state = GP02AState.position(4, territory={name: "blue" for name in snake(size)})
    assert state.view(None)["score_parts"][0]["groups"] == points


def test_groups_join_across_block_borders_but_not_diagonally():
    joined = GP02AState.position(4, territory={"d1": "red", "e1": "red"})
    assert joined.view(None)["score_parts"][1]["groups"] == 1
    diagonal = GP02AState.position(4, territory={"d1": "red", "e2": "red"})
    assert diagonal.view(None)["score_parts"][1]["groups"] == 0


@pytest.mark.parametrize(
    "chips,points",
    [
        ({"a1": "blue"}, [3, 0, 0, 0]),
        ({"a1": "blue", "c1": "blue", "a3": "red"}, [3, 0, 0, 0]),
        ({"a1": "blue", "c1": "red"}, [1, 1, 0, 0]),
        ({"a1": "blue", "c1": "red", "a3": "green"}, [1, 1, 1, 0]),
        ({"a1": "blue", "c1": "red", "a3": "green", "c3": "yellow"}, [0, 0, 0, 0]),
    ],
)
def test_block_majority_scores_3_and_a_tie_of_k_colours_scores_floor_3_over_k(chips, points):
    state = GP02AState.position(4, territory=chips)
    assert [part["blocks"] for part in state.view(None)["score_parts"]] == points


def test_an_empty_block_scores_nothing():
    state = GP02AState.position(4)
    assert state.scores() == [0, 0, 0, 0]


def test_ranking_breaks_ties_by_chronology_then_by_fewer_territory_chips():
    # blue 3 (chronology 3); red 3 (block 1, one chip); green 3 (block 2, two chips); yellow 0.
    state = GP02AState.position(4, territory={"a1": "red", "e1": "green", "g1": "green"}, chronology={"blue": 3})
    assert state.scores() == [3, 3, 3, 0]
    assert state.ranking() == [1, 2, 3, 4]


def test_a_tie_on_every_count_shares_the_place():
    state = GP02AState.position(4, territory={"a1": "red", "e1": "green"}, chronology={"blue": 3})
    assert state.scores() == [3, 3, 3, 0]
    assert state.ranking() == [1, 2, 2, 4]


# ---------------------------------------------------------------------------- set-up and the roll


def test_a_random_seat_is_the_first_main_player_and_rolls():
    state = GAME.new_state(4)
    assert state.current_player() == CHANCE
    assert sorted(state.legal_actions()) == ["first:0", "first:1", "first:2", "first:3"]
    play(state, "first:2")
    assert state.view(None)["main_player"] == 2
    assert state.view(None)["step"] == "roll"
    assert state.legal_actions() == [f"roll:{n}" for n in range(1, 7)]


def test_a_roll_of_n_makes_each_seat_draw_n_chips_clockwise_from_the_main_player():
    state = GP02AState.position(4, main=2)
    play(state, "roll:2")
    drawers = []
    for colour in ("red", "red", "green", "blue", "yellow", "yellow", "blue", "blue"):
        drawers.append(state.view(None)["acting_seat"])
        assert state.current_player() == CHANCE
        state.apply(f"draw:{colour}")
    assert drawers == [2, 2, 3, 3, 0, 0, 1, 1]
    hands = state.view(None)["hands"]
    assert hands[2]["red"] == 2 and hands[3]["green"] == 1 and hands[3]["blue"] == 1
    assert state.view(None)["bag"]["blue"] == 22
    assert state.current_player() == 2 and state.view(None)["step"] == "deal"


def test_draw_probabilities_follow_the_bag():
    state = play(GP02AState.position(4, bag={"blue": 3, "red": 1}), "roll:2")
    assert dict(state.chance_outcomes()) == {"draw:blue": 0.75, "draw:red": 0.25}
    with pytest.raises(IllegalAction):
        state.apply("draw:green")


def test_a_one_makes_each_seat_remove_a_chip_clockwise_from_the_main_player_then_rerolls():
    chips = {"a1": "blue", "e1": "red", "i1": "green", "a4": "yellow", "e4": "blue"}
    state = GP02AState.position(4, territory=chips, main=2)
    play(state, "roll:1")
    removers = []
    for field in ("a1", "e1", "i1", "a4"):
        removers.append(state.current_player())
        assert state.view(None)["step"] == "remove"
        state.apply(f"remove:{field}")
    assert removers == [2, 3, 0, 1]
    assert territory_count(state, "blue") == 1  # e4 stays
    assert state.view(None)["bag"]["yellow"] == 25
    assert state.current_player() == CHANCE and state.view(None)["step"] == "roll"


def test_a_second_one_is_rerolled_without_another_removal():
    state = GP02AState.position(4, territory={"a1": "blue", "e1": "red", "i1": "green", "a4": "yellow", "e4": "red"})
    play(state, "roll:1", "remove:a1", "remove:e1", "remove:i1", "remove:a4", "roll:1")
    assert state.current_player() == CHANCE
    assert state.legal_actions() == [f"roll:{n}" for n in range(1, 7)]
    assert territory_count(state, "red") == 1
    play(state, "roll:3")
    assert state.view(None)["step"] == "draw"


def test_a_seat_with_nothing_to_remove_is_skipped():
    state = GP02AState.position(4, territory={"a1": "blue", "e1": "red", "b2": "green"})
    play(state, "roll:1", "remove:a1", "remove:e1")
    assert state.current_player() == CHANCE  # seats 2 and 3 find only the gray b2
    assert board_colour(state, "b2") == "green"


def test_chips_on_gray_fields_and_the_chronology_are_never_removable():
    state = GP02AState.position(4, territory={"b2": "red", "a1": "red"}, chronology={"red": 3}, main=0)
    play(state, "roll:1")
    assert state.legal_actions() == ["remove:a1"]
    with pytest.raises(IllegalAction, match="gray"):
        state.apply("remove:b2")
    play(state, "remove:a1")
    assert board_colour(state, "b2") == "red"
    assert state.view(None)["chronology"]["counts"]["red"] == 3
    assert state.current_player() == CHANCE  # nothing else could be removed


def test_a_short_bag_ends_the_game_at_once():
    state = GP02AState.position(4, territory={"a1": "blue", "b1": "blue"}, bag={"red": 5}, main=0)
    play(state, "roll:3", "draw:red", "draw:red", "draw:red")
    assert state.current_player() == TERMINAL
    view = state.view(None)
    assert view["end_reason"] == "bag"
    assert sum(view["hands"][1].values()) == 0  # seat 1 drew nothing
    assert view["bag_total"] == 2
    assert state.scores() == [4, 0, 0, 0]  # blue: pair 1 + block 1 majority 3
    assert state.ranking() == [1, 2, 2, 2]


# ---------------------------------------------------------------------------- the deal


def test_the_main_player_deals_every_card_once_but_may_not_keep_card_4():
    state = start_turns(GP02AState.position(4, main=1), 2, ["red"] * 8, "deal:1,3,4,2")
    assert state.view(None)["cards"] == [1, 3, 4, 2]
    state = play(GP02AState.position(4, main=1), "roll:2", *["draw:red"] * 8)
    legal = state.legal_actions()
    assert len(legal) == 18 and all(a.split(":")[1].split(",")[1] != "4" for a in legal)
    for bad in ("deal:1,4,2,3", "deal:1,2,3", "deal:1,1,2,3", "deal:9,2,3,4"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert state.view(None)["cards"] == [None] * 4


def test_turns_follow_the_cards_and_card_4_makes_the_next_main_player():
    state = start_turns(GP02AState.position(4, main=0), 2, ["blue", "red"] * 4, "deal:3,1,4,2")
    assert state.view(None)["turn_order"] == [1, 3, 0, 2]
    order = []
    put_field = {0: "a1", 1: "e1", 2: "i1", 3: "a4"}
    while state.current_player() != CHANCE:
        seat = state.current_player()
        order.append(seat)
        play(state, "chrono:blue", f"block:{[1, 2, 3, 4][seat]}", f"put:red@{put_field[seat]}")
    assert order == [1, 3, 0, 2]
    assert state.view(None)["main_player"] == 2
    assert state.view(None)["cards"] == [None] * 4


# ---------------------------------------------------------------------------- placement


def test_every_chip_left_goes_into_one_block_with_room_for_all_of_them():
    crowded = {name: "yellow" for name in ("a1", "b1", "c1", "d1", "a2", "d2", "a3", "b3", "c3", "d3")}
    state = start_turns(GP02AState.position(4, territory=crowded), 4, ["red"] * 16, "deal:1,2,4,3")
    play(state, "chrono:red")
    assert state.view(None)["step"] == "block"
    assert "block:1" not in state.legal_actions()  # 2 free fields for 3 chips
    with pytest.raises(IllegalAction, match="only 2 free"):
        state.apply("block:1")
    play(state, "block:2")
    assert state.view(None)["to_place"]["red"] == 3
    with pytest.raises(IllegalAction, match="not in block 2"):
        state.apply("put:red@a4")
    play(state, "put:red@e1", "put:red@f2")  # a gray field is a free field too
    with pytest.raises(IllegalAction, match="not free"):
        state.apply("put:red@e1")
    play(state, "put:red@h3")
    assert state.current_player() == 1  # the turn passed to card 2
    assert [board_colour(state, f) for f in ("e1", "f2", "h3")] == ["red"] * 3
    assert sum(state.view(None)["hands"][0].values()) == 0


def test_the_chronology_takes_one_chip_from_hand_and_scores_its_colour():
    state = start_turns(GP02AState.position(4), 2, ["green", "red"] + ["blue"] * 6, "deal:1,2,4,3")
    with pytest.raises(IllegalAction, match="no blue"):
        state.apply("chrono:blue")
    play(state, "chrono:green")
    view = state.view(None)
    assert view["chronology"] == {"counts": {"blue": 0, "red": 0, "green": 1, "yellow": 0}, "used": 1, "size": 28}
    assert state.scores()[2] == 1


# ---------------------------------------------------------------------------- movement


def test_cards_1_and_4_cannot_move():
    own = {"a1": "blue", "a3": "blue", "e1": "red", "e3": "red"}
    state = start_turns(GP02AState.position(4, territory=own, main=2), 2, ["green"] * 8, "deal:1,4,2,3")
    play(state, "chrono:green")  # blue holds card 1
    assert "move" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="Card 1"):
        state.apply("move")
    play(state, "block:6", "put:green@i4")
    play(state, "chrono:green")  # green, card 2, could move but has no chips of its own
    play(state, "block:6", "put:green@j4")
    play(state, "chrono:green")  # yellow, card 3
    play(state, "block:6", "put:green@k4")
    assert state.current_player() == 1  # red holds card 4
    play(state, "chrono:green")
    assert "move" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="Card 4"):
        state.apply("move")


def test_movement_returns_the_hand_and_replaces_as_many_own_chips_from_white_fields():
    own = {"a1": "blue", "a3": "blue", "b2": "blue"}
    draws = ["yellow"] * 3 + ["red", "red", "green"] + ["yellow"] * 6  # seats 3, 0, 1, 2
    state = start_turns(GP02AState.position(4, territory=own, main=3), 3, draws, "deal:2,4,1,3")
    play(state, "chrono:yellow", "block:6", "put:yellow@i4", "put:yellow@j4")  # green, card 1
    assert state.current_player() == 0  # blue, card 2
    bag_red = state.view(None)["bag"]["red"]
    play(state, "chrono:green", "move")
    view = state.view(None)
    assert view["bag"]["red"] == bag_red + 2  # the two chips left in hand went back
    assert sum(view["hands"][0].values()) == 0
    assert view["step"] == "lift" and view["to_lift"] == 2
    assert sorted(state.legal_actions()) == ["lift:a1", "lift:a3"]  # b2 is gray
    with pytest.raises(IllegalAction):
        state.apply("lift:b2")
    with pytest.raises(IllegalAction):
        state.apply("lift:i4")  # not blue
    play(state, "lift:a1", "lift:a3")
    assert state.view(None)["lifted"] == ["a1", "a3"]
    play(state, "block:1", "put:blue@a1")  # a field just lifted from is free again
    assert state.view(None)["to_place"]["blue"] == 1
    play(state, "put:blue@d3")
    assert territory_count(state, "blue") == 3
    assert [board_colour(state, f) for f in ("a1", "a3", "b2", "d3")] == ["blue", None, "blue", "blue"]
    assert state.current_player() == 3  # the turn passed on


def test_movement_is_refused_without_enough_own_chips_on_white_fields():
    own = {"a1": "blue", "b2": "blue"}  # one white, one gray
    state = start_turns(GP02AState.position(4, territory=own, main=3), 3, ["red"] * 12, "deal:2,4,1,3")
    play(state, "chrono:red", "block:6", "put:red@i4", "put:red@j4")
    play(state, "chrono:red")  # blue, card 2, with 2 chips left
    assert "move" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="cannot lift"):
        state.apply("move")


def full_board(free=(), blue=()):
    """Every field filled with red, green and yellow, but ``free`` empty and ``blue`` blue."""
    territory = {}
    others = ("red", "green", "yellow")
    i = 0
    for name in (f"{c}{r}" for r in range(1, 7) for c in "abcdefghijkl"):
        if name in free:
            continue
        if name in blue:
            territory[name] = "blue"
        else:
            territory[name] = others[i % 3]
            i += 1
    return territory


def test_a_lift_is_refused_when_no_block_could_then_take_the_lifted_chips():
    territory = full_board(free=("l5", "l6"), blue=("a1", "a3", "e1"))
    state = GP02AState.position(4, territory=territory, main=3, bag={"blue": 5, "red": 15, "green": 5, "yellow": 5})
    start_turns(state, 3, ["red"] * 12, "deal:2,4,1,3")
    play(state, "chrono:red", "block:6", "put:red@l5", "put:red@l6")  # green, card 1: board full
    play(state, "chrono:red")  # blue, card 2, 2 chips: no block has room, but it can move
    assert state.legal_actions() == ["move"]
    play(state, "move")
    # Lifting e1 would leave block 2 with one free field and block 1 with one chip to lift.
    assert sorted(state.legal_actions()) == ["lift:a1", "lift:a3"]
    with pytest.raises(IllegalAction, match="no block could take"):
        state.apply("lift:e1")
    play(state, "lift:a1", "lift:a3", "block:1", "put:blue@a3", "put:blue@a1")
    assert state.current_player() == 3


def test_movement_is_refused_when_no_block_could_take_the_chips_it_would_lift():
    # Blue has two own chips on white fields, enough to lift, but in two different blocks:
    # lifted, they leave one free field in each, and no block has room for both.
    territory = full_board(free=("l5", "l6"), blue=("a1", "e1"))
    state = GP02AState.position(4, territory=territory, main=3, bag={"blue": 5, "red": 15, "green": 5, "yellow": 5})
    start_turns(state, 3, ["red"] * 12, "deal:2,4,1,3")
    play(state, "chrono:red", "block:6", "put:red@l5", "put:red@l6")  # green, card 1: board full
    play(state, "chrono:red")  # blue, card 2, 2 chips
    assert "move" not in state.legal_actions()
    before = state.view(None)
    with pytest.raises(IllegalAction):
        state.apply("move")
    assert state.view(None) == before


# ---------------------------------------------------------------------------- the purple chip


def test_the_purple_chip_removes_one_white_field_chip_and_both_go_back_to_the_bag():
    chips = {"a1": "red", "b2": "red", "e1": "green"}
    draws = ["purple", "blue", "blue"] + ["red"] * 9
    state = start_turns(GP02AState.position(4, territory=chips), 3, draws, "deal:1,2,4,3")
    assert state.view(None)["hands"][0]["purple"] == 1
    assert "purge:a1" in state.legal_actions()  # usable before the chronology step
    assert "purge:b2" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="gray"):
        state.apply("purge:b2")
    with pytest.raises(IllegalAction):
        state.apply("chrono:purple")
    play(state, "chrono:blue", "purge:a1")
    view = state.view(None)
    assert board_colour(state, "a1") is None and board_colour(state, "b2") == "red"
    assert view["bag"]["red"] == 25 - 2 - 9 + 1 and view["bag"]["purple"] == 1
    assert view["hands"][0]["purple"] == 0
    assert not any(a.startswith("purge:") for a in state.legal_actions())
    play(state, "block:1", "put:blue@a1")
    assert state.current_player() == 1


def test_the_purple_chip_cannot_be_kept_past_the_turn():
    state = start_turns(GP02AState.position(4), 3, ["purple", "blue", "blue"] + ["red"] * 9, "deal:1,2,4,3")
    play(state, "chrono:blue", "block:1", "put:blue@a1")
    # The board held no chip before, but now a1 does: the seat must use the purple chip.
    assert state.current_player() == 0 and state.view(None)["step"] == "purge"
    assert state.legal_actions() == ["purge:a1"]
    with pytest.raises(IllegalAction):
        state.apply("chrono:red")
    play(state, "purge:a1")
    assert state.current_player() == 1
    assert state.view(None)["bag"]["purple"] == 1


def test_the_purple_chip_goes_back_by_itself_when_no_white_field_chip_exists():
    state = start_turns(GP02AState.position(4), 3, ["purple", "blue", "blue"] + ["red"] * 9, "deal:1,2,4,3")
    play(state, "chrono:blue", "block:1", "put:blue@b2")  # a gray field
    assert state.current_player() == 1
    assert state.view(None)["bag"]["purple"] == 1
    assert state.view(None)["hands"][0]["purple"] == 0


# ---------------------------------------------------------------------------- end of the game


def test_a_stuck_seat_ends_the_game_at_once():
    territory = full_board(free=("l6",))
    state = GP02AState.position(4, territory=territory, bag={"blue": 20, "red": 10})
    start_turns(state, 3, ["blue"] * 12, "deal:1,2,4,3")
    play(state, "chrono:blue")  # two chips left, one free field on the board
    assert state.current_player() == TERMINAL
    assert state.view(None)["end_reason"] == "stuck"
    assert state.view(None)["hands"][0]["blue"] == 2  # ignored
    assert len(state.ranking()) == 4


def test_a_seat_holding_the_purple_chip_is_not_stuck_while_a_purge_makes_room():
    territory = full_board(free=("l6",))
    state = GP02AState.position(4, territory=territory, bag={"blue": 20, "purple": 1})
    start_turns(state, 3, ["purple", "blue", "blue"] + ["blue"] * 9, "deal:1,2,4,3")
    play(state, "chrono:blue")  # one chip, one free field: it can place, any purge is fine
    assert state.view(None)["step"] == "block"
    assert "block:6" in state.legal_actions() and "purge:a1" in state.legal_actions()
    state = GP02AState.position(4, territory=territory, bag={"blue": 20, "purple": 1})
    start_turns(state, 4, ["purple", "blue", "blue", "blue"] + ["blue"] * 12, "deal:1,2,4,3")
    play(state, "chrono:blue")  # two chips, only l6 free: only a purge in block 6 makes room
    assert state.current_player() == 0 and state.view(None)["step"] == "purge"
    legal = state.legal_actions()
    assert legal and all(a.startswith("purge:") for a in legal)
    play(state, "purge:i4", "block:6", "put:blue@i4", "put:blue@l6")
    assert state.current_player() == 1


SEED_PURPLE = (
    "The player who has the purple chip chooses a chip on the board and removes it. However chips "
    "in the chronology area and the gray fields of territory area cannot be removed."
)
SEED_NO_FIELDS = "If there are no more fields to fill, the game ends immediately."


def test_a_purge_that_leaves_the_holder_unable_to_place_is_legal_and_ends_the_game():
    """The seed: "The player who has the purple chip chooses a chip on the board and removes it.
    However chips in the chronology area and the gray fields of territory area cannot be
    removed." and "The player may remove chip by the purple chip at any time during his
    placement phase." Nothing forbids a removal that leaves the holder without room, and then
    "When one cannot place chips on the territory area. If there are no more fields to fill,
    the game ends immediately." Ending the game this way can be the winning move."""
    territory = full_board(free=("l6",))
    state = GP02AState.position(4, territory=territory, bag={"blue": 20, "purple": 1})
    start_turns(state, 4, ["purple", "blue", "blue", "blue"] + ["blue"] * 12, "deal:1,2,4,3")
    play(state, "chrono:blue")  # two chips, only l6 free; a purge in block 1 makes no room
    assert "purge:a1" in state.legal_actions()
    bag_before = state.view(None)["bag"]
    play(state, "purge:a1")
    assert state.current_player() == TERMINAL
    view = state.view(None)
    assert view["end_reason"] == "stuck"
    assert board_colour(state, "a1") is None
    assert view["bag"]["purple"] == bag_before["purple"] + 1
    assert view["bag"]["red"] == bag_before["red"] + 1  # a1 held red (full_board starts red)
    assert state.history[-1] == "purge:a1"


def test_a_purge_before_the_chronology_step_may_leave_the_holder_stuck_after_it():
    """The seed: "The player may remove chip by the purple chip at any time during his placement
    phase." A card-2 seat that could only move removes one of its own two chips first: it can
    then neither place nor move, and the game ends after its chronology chip."""
    territory = full_board(free=("k5", "l5", "l6"), blue=("a1", "a3"))
    state = GP02AState.position(4, territory=territory, main=3, bag={"blue": 5, "red": 15, "purple": 1})
    draws = ["red"] * 4 + ["purple", "red", "red", "red"] + ["red"] * 8  # seats 3, 0, 1, 2
    start_turns(state, 4, draws, "deal:2,4,1,3")
    play(state, "chrono:red", "block:6", "put:red@k5", "put:red@l5", "put:red@l6")  # green: board full
    assert state.current_player() == 0
    assert "purge:a1" in state.legal_actions()
    play(state, "purge:a1", "chrono:red")
    assert state.current_player() == TERMINAL
    assert state.view(None)["end_reason"] == "stuck"


def test_mid_movement_a_purge_may_not_take_the_own_chips_still_to_lift():
    """Ruling (games/rules/gp02a.md, the seed being silent): in the middle of a movement the
    purple chip may not take away the own chips the movement still has to lift, since "he/she
    takes at hand from the white fields as many chips of his/her own color as returned chips"
    could then not be done. Any other white-field chip may go."""
    own = {"a1": "blue", "a3": "blue", "i1": "red"}
    draws = ["yellow"] * 4 + ["purple", "green", "red", "red"] + ["yellow"] * 8  # seats 3, 0, 1, 2
    state = start_turns(GP02AState.position(4, territory=own, main=3), 4, draws, "deal:2,4,1,3")
    play(state, "chrono:yellow", "block:6", "put:yellow@i4", "put:yellow@j4", "put:yellow@k4")
    assert state.current_player() == 0  # blue, card 2, holding the purple chip
    play(state, "chrono:green", "move")
    assert state.view(None)["to_lift"] == 2
    legal = state.legal_actions()
    assert "purge:a1" not in legal and "purge:a3" not in legal
    assert "purge:i1" in legal and "purge:i4" in legal
    with pytest.raises(IllegalAction, match="still has to lift 2"):
        state.apply("purge:a1")
    play(state, "lift:a1")
    with pytest.raises(IllegalAction, match="still has to lift 1"):
        state.apply("purge:a3")
    play(state, "lift:a3")
    # Once lifted, nothing is left to protect: any chip on a white field may go.
    assert "purge:i1" in state.legal_actions()
    play(state, "block:1", "purge:i1", "put:blue@a1", "put:blue@b1")
    assert state.current_player() == 3


def test_mid_movement_a_purge_may_take_an_own_chip_the_movement_can_spare():
    own = {"a1": "blue", "a3": "blue", "e1": "blue"}
    draws = ["yellow"] * 4 + ["purple", "green", "red", "red"] + ["yellow"] * 8
    state = start_turns(GP02AState.position(4, territory=own, main=3), 4, draws, "deal:2,4,1,3")
    play(state, "chrono:yellow", "block:6", "put:yellow@i4", "put:yellow@j4", "put:yellow@k4")
    play(state, "chrono:green", "move")
    assert {"purge:a1", "purge:a3", "purge:e1"} <= set(state.legal_actions())  # three own chips, two to lift
    play(state, "purge:e1")
    assert sorted(state.legal_actions()) == ["lift:a1", "lift:a3"]


def test_a_full_chronology_ends_the_game_after_the_round_and_later_seats_skip_it():
    chronology = {"blue": 7, "red": 7, "green": 6, "yellow": 6}
    state = start_turns(GP02AState.position(4, chronology=chronology), 2, ["red"] * 8, "deal:1,2,4,3")
    play(state, "chrono:red", "block:1", "put:red@a1")
    play(state, "chrono:red", "block:2", "put:red@e1")
    assert state.view(None)["chronology"]["used"] == 28
    assert not state.is_terminal()
    assert state.current_player() == 3 and state.view(None)["step"] == "block"  # no chronology step
    with pytest.raises(IllegalAction):
        state.apply("chrono:red")
    play(state, "block:3", "put:red@i1", "put:red@j1")
    assert state.current_player() == 2
    play(state, "block:4", "put:red@a4", "put:red@b4")
    assert state.current_player() == TERMINAL
    assert state.view(None)["end_reason"] == "chronology"


def test_random_games_end_for_every_reason():
    import random

    from games.engines import CHANCE as chance

    reasons = set()
    for seed in range(60):
        rng = random.Random(seed)
        state = GAME.new_state(3 + seed % 2)
        while not state.is_terminal():
            if state.current_player() == chance:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        reasons.add(state.view(None)["end_reason"])
    assert reasons == {"bag", "chronology", "stuck"}


# ---------------------------------------------------------------------------- three players


def test_three_players_have_no_card_3_and_yellow_is_a_dummy_that_never_sits_or_ranks():
    state = GP02AState.position(3, main=0)
    play(state, "roll:2", "draw:yellow", "draw:yellow", "draw:red", "draw:yellow", "draw:green", "draw:green")
    deals = state.legal_actions()
    assert sorted(deals) == ["deal:1,2,4", "deal:1,4,2", "deal:2,1,4", "deal:2,4,1"]
    with pytest.raises(IllegalAction):
        state.apply("deal:1,2,3")
    with pytest.raises(IllegalAction):
        state.apply("deal:1,2,3,4")
    play(state, "deal:1,4,2")
    play(state, "chrono:yellow", "block:1", "put:yellow@a1")  # blue places a yellow chip
    seen = {state.current_player()}
    play(state, "chrono:green", "block:2", "put:green@e1")  # green, card 2
    seen.add(state.current_player())
    play(state, "chrono:red", "block:3", "put:yellow@i1")  # red, card 4
    assert seen <= {0, 1, 2}
    view = state.view(None)
    assert view["seat_colours"] == ["blue", "red", "green"]
    assert view["dummy"]["colour"] == "yellow"
    assert view["dummy"]["score"] == 1 + 3 + 3  # chronology, blocks 1 and 3
    assert sum(p for _, p in view["dummy"]["breakdown"]) == view["dummy"]["score"]
    assert state.scores() == [0, 1, 4]
    assert len(state.ranking()) == 3
    assert view["main_player"] == 1  # red held card 4


def test_three_player_games_end_without_yellow_ever_to_move():
    import random

    for seed in range(10):
        rng = random.Random(seed)
        state = GAME.new_state(3)
        while not state.is_terminal():
            player = state.current_player()
            assert player in (CHANCE, 0, 1, 2)
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert len(state.scores()) == 3 and len(state.ranking()) == 3


# ---------------------------------------------------------------------------- the view


def test_the_view_shows_the_whole_board_and_is_the_same_for_every_seat():
    state = start_turns(GP02AState.position(4, territory={"b2": "green"}), 2, ["red"] * 8, "deal:1,2,4,3")
    view = state.view(0)
    json.dumps(view)
    assert len(view["territory"]) == 72
    assert view["territory"][13] == {"name": "b2", "block": 1, "gray": True, "colour": "green"}
    assert view["territory"][71] == {"name": "l6", "block": 6, "gray": False, "colour": None}
    assert sum(f["gray"] for f in view["territory"]) == 12
    assert view["step"] == "chrono" and view["current_player"] == 0
    assert view["last_roll"] == 2 and view["last_chance"] == "draw:red"
    assert view["hands"][3]["red"] == 2
    assert view["cards"] == [1, 2, 4, 3]
    assert view["dummy"] is None
    assert view == state.view(None) == state.view(2)


def test_action_labels_are_plain_words():
    assert GAME.action_label("put:red@e3") == "Put a red chip on e3"
    assert GAME.action_label("deal:1,2,4,3").startswith("Deal card 1 to Blue")
    assert GAME.action_label("roll:4") == "Roll a 4"
    assert GAME.action_label("purge:a1").endswith("with the purple chip")


# ---------------------------------------------------------------------------- the Negotiation variant

SEED_NEGOTIATE = "The Main Player may negotiate with other players. Other players may not negotiate with each other."
SEED_EXCHANGE = (
    "He/She may suggest exchanging chips, changing the placement and so on. "
    "The number of chips to be exchanged needs not be same."
)


def at_the_deal(negotiation=True, main=0, roll=3, draws=None):
    """Four players, ``main`` to deal after a roll of 3: by default the Main Player drew blue,
    blue, red; the next seat green, green, purple; then yellow x3 and red x3."""
    state = GP02AState.position(4, main=main, negotiation=negotiation)
    draws = draws or ["blue", "blue", "red", "green", "green", "purple"] + ["yellow"] * 3 + ["red"] * 3
    play(state, f"roll:{roll}", *(f"draw:{c}" for c in draws))
    assert state.view(None)["step"] == "deal"
    return state


def hands(state):
    return [{c: n for c, n in hand.items() if n} for hand in state.view(None)["hands"]]


def test_the_main_player_offers_an_exchange_of_unequal_counts_and_the_other_player_accepts():
    """The seed: "He/She may suggest exchanging chips, changing the placement and so on. The
    number of chips to be exchanged needs not be same." Blue gives two chips for one."""
    state = at_the_deal()
    assert state.view(None)["negotiation"]["can_offer"] is True
    play(state, "offer:1@2blue>purple")
    # The turn passes to the player who must answer; the answers are the legal actions.
    assert state.current_player() == 1
    assert state.legal_actions() == ["accept", "decline"]
    assert state.view(None)["step"] == "answer"
    offer = {"main": 0, "partner": 1, "give": {"blue": 2}, "take": {"purple": 1}}
    assert state.view(None)["negotiation"]["open"] == offer
    assert "offers you 2 blue for your 1 purple" in state.prompt()
    play(state, "accept")
    assert hands(state)[:2] == [{"red": 1, "purple": 1}, {"blue": 2, "green": 2}]
    assert state.current_player() == 0 and state.view(None)["step"] == "deal"
    assert state.view(None)["negotiation"]["last"]["accepted"] is True
    assert state.view(None)["negotiation"]["open"] is None
    play(state, "deal:1,2,3,4")
    assert state.current_player() == 0 and state.view(None)["step"] == "chrono"


def test_a_declined_offer_changes_no_hand_and_the_main_player_deals_on():
    """The seed: "He/She may suggest exchanging chips": a suggestion binds only once accepted."""
    state = at_the_deal()
    before = hands(state)
    play(state, "offer:2@red>yellow", "decline")
    assert hands(state) == before
    assert state.current_player() == 0
    assert state.view(None)["negotiation"]["last"] == {
        "main": 0,
        "partner": 2,
        "give": {"red": 1},
        "take": {"yellow": 1},
        "accepted": False,
    }
    assert state.view(None)["negotiation"]["offers_left"] == 2
    assert "deal:1,2,3,4" in state.legal_actions()


def test_only_the_main_player_offers_and_only_to_another_player_at_the_deal_step():
    """The seed: "The Main Player may negotiate with other players. Other players may not
    negotiate with each other." Offers belong to the Main Player's deal step."""
    state = at_the_deal(main=1, draws=["green", "green", "purple"] + ["yellow"] * 3 + ["red"] * 3 + ["blue"] * 3)
    assert state.current_player() == 1
    with pytest.raises(IllegalAction, match="other players"):
        state.apply("offer:1@green>blue")  # himself
    play(state, "offer:0@green>blue")
    # The player offered may only answer, never make an offer of his own.
    with pytest.raises(IllegalAction, match="Accept or decline"):
        state.apply("offer:2@blue>yellow")
    play(state, "decline", "deal:1,2,3,4")
    # Once the cards are dealt nobody offers: the turns have begun.
    assert state.current_player() == 0
    with pytest.raises(IllegalAction):
        state.apply("offer:2@blue>yellow")


def test_an_offer_asks_only_for_chips_the_two_hands_hold():
    state = at_the_deal()
    before = state.view(None)
    for offer, why in (
        ("offer:1@green>green", "You cannot give 1 green"),
        ("offer:1@3blue>green", "You cannot give 3 blue"),
        ("offer:2@blue>green", "Green holds 0"),
        ("offer:1@blue>3green", "Red holds 2"),
        ("offer:4@blue>green", "other players"),
    ):
        with pytest.raises(IllegalAction, match=why):
            state.apply(offer)
    assert state.view(None) == before


def test_offers_are_written_one_way_and_have_one_to_six_chips_a_side():
    state = at_the_deal()
    for offer in (
        "offer:1@red+blue>green",  # colours in the order blue, red, green, yellow, purple
        "offer:1@blue+blue>green",
        "offer:1@>green",
        "offer:1@blue>",
        "offer:1@1blue>green",
        "offer:1blue>green",
        "offer:x@blue>green",
        "offer:1@blue>teal",
    ):
        with pytest.raises(IllegalAction):
            state.apply(offer)
    many = GP02AState.position(4, negotiation=True)
    play(many, "roll:6", *["draw:blue"] * 6, *["draw:red"] * 6, *["draw:yellow"] * 12)
    with pytest.raises(IllegalAction, match="1 to 6 chips"):
        many.apply("offer:1@blue>7red")
    play(many, "offer:1@6blue>6red", "accept")
    assert hands(many)[:2] == [{"red": 6}, {"blue": 6}]


def test_the_main_player_makes_at_most_three_offers_a_round():
    state = at_the_deal()
    play(state, "offer:1@blue>green", "decline", "offer:2@blue>yellow", "decline")
    play(state, "offer:3@blue>red", "decline")
    assert state.view(None)["negotiation"]["can_offer"] is False
    assert "offer" not in state.prompt()
    with pytest.raises(IllegalAction, match="3 offers a round"):
        state.apply("offer:1@blue>green")
    play(state, "deal:1,2,3,4")
    # The next round starts afresh.
    while state.view(None)["step"] != "roll":
        state.apply(state.legal_actions()[0])
    play(state, "roll:2", *["draw:blue"] * 8)
    assert state.view(None)["negotiation"]["offers_left"] == 3
    assert state.view(None)["negotiation"]["last"] is None


def test_a_player_left_with_the_purple_chip_alone_skips_the_chronology_and_uses_it():
    """After exchanges a hand may hold no coloured chip: the chronology step needs one, so it is
    skipped (a ruling), and the purple chip is used as usual."""
    state = GP02AState.position(4, territory={"a1": "yellow"}, negotiation=True)
    draws = ["blue", "blue", "red", "green", "green", "purple"] + ["yellow"] * 3 + ["red"] * 3
    play(state, "roll:3", *(f"draw:{c}" for c in draws))
    play(state, "offer:1@blue>purple", "accept", "offer:1@purple>blue+2green", "accept")
    assert hands(state)[:2] == [{"blue": 2, "red": 1, "green": 2}, {"purple": 1}]
    play(state, "deal:2,1,3,4")  # red holds card 1
    assert state.current_player() == 1
    assert state.view(None)["step"] == "purge" and state.legal_actions() == ["purge:a1"]
    play(state, "purge:a1")
    assert state.current_player() == 0 and state.view(None)["step"] == "chrono"
    assert state.view(None)["chronology"]["used"] == 0


def test_every_seat_sees_the_same_open_offer_since_the_hands_lie_open():
    """The seed: "The taken chips are placed open in front of each player, so that other players
    know the color and the number." An offer is made at the table, so everyone sees it too."""
    state = at_the_deal()
    play(state, "offer:2@red>2yellow")
    views = [state.view(seat) for seat in (None, 0, 1, 2, 3)]
    assert all(view == views[0] for view in views)
    json.dumps(views[0])


def test_the_standard_game_has_no_offers_and_old_records_replay():
    state = at_the_deal(negotiation=False)
    assert state.view(None)["negotiation"] is None
    with pytest.raises(IllegalAction, match="Negotiation variant"):
        state.apply("offer:1@blue>green")
    with pytest.raises(IllegalAction):
        state.apply("accept")
    # A record without the option is the standard game, whatever was stored.
    assert GAME.normalise_options({}) == {"negotiation": False}
    game, _ = random_game(4, 5, negotiation=False)
    assert GAME.replay(4, None, game.history).view(None) == game.view(None)
    assert GAME.replay(4, {}, game.history).scores() == game.scores()


def test_offer_and_answer_labels_are_plain_words():
    assert GAME.action_label("offer:1@2blue+purple>green") == "Offer Red 2 blue and 1 purple for 1 green"
    assert GAME.action_label("accept") == "Accept the exchange"
    assert GAME.action_label("decline") == "Decline the exchange"


def test_the_longest_offer_fits_an_action_of_64_characters():
    from games.engines.gp02a import offer_action

    assert len(offer_action(3, (1, 1, 1, 2, 1), (2, 2, 1, 1, 0))) <= 64


def random_side(hand, rng):
    """A random non-empty choice of at most six chips from ``hand`` (counts per colour)."""
    chips = [c for c, n in enumerate(hand) for _ in range(n)]
    rng.shuffle(chips)
    picked = chips[: rng.randint(1, min(6, len(chips)))]
    return [picked.count(c) for c in range(5)]


def random_game(num_players, seed, negotiation):
    """A game of random moves; with Negotiation the Main Player offers a random exchange half
    the times he may, and the other player answers at random."""
    from games.engines.gp02a import offer_action

    rng = random.Random(seed)
    state = GAME.new_state(num_players, {"negotiation": negotiation})
    offers = 0
    for _ in range(5000):
        if state.is_terminal():
            return state, offers
        held = sum(map(sum, state.hands)) + sum(state.pending)
        on_board = 72 - sum(state.free)
        assert held + on_board + state.chrono_used + state.bag_total == 101, "a chip was lost or made"
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif negotiation and state.can_offer() and rng.random() < 0.5:
            partner = rng.choice([s for s in range(num_players) if s != state.main])
            give = random_side(state.hands[state.main], rng)
            take = random_side(state.hands[partner], rng)
            state.apply(offer_action(partner, give, take))
            assert state.current_player() == partner and state.legal_actions() == ["accept", "decline"]
            offers += 1
        else:
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no end within 5000 actions (seed {seed})")


@pytest.mark.parametrize("negotiation", [False, True], ids=["standard", "negotiation"])
@pytest.mark.parametrize("num_players", [3, 4])
def test_200_random_games_per_count_end_and_replay(num_players, negotiation):
    reasons = set()
    offers = 0
    for seed in range(200):
        state, made = random_game(num_players, seed, negotiation)
        offers += made
        reasons.add(state.view(None)["end_reason"])
        assert len(state.ranking()) == num_players
        if seed % 20 == 0:
            replayed = GAME.replay(num_players, {"negotiation": negotiation}, state.history)
            assert replayed.view(None) == state.view(None)
    assert reasons == {"bag", "chronology", "stuck"}
    assert (offers > 200) == negotiation


def test_the_rules_page_says_what_the_engine_does_with_a_purge_that_strands_its_holder():
    """The ruling (shared rules, "Stuck"): a purge that leaves its own holder unable to place or
    move ends the game, even when another purge would not have; rules pages must not say
    otherwise. The page's sentence, read from it, holds in play both ways."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "games" / "rules" / "gp02a.md").read_text()
    flat = " ".join(page.split())
    assert "you must use it on such a chip first, then play on" not in flat
    sentence = (
        "the game does not end yet: you now use the purple chip, on any chip on a white field. If "
        "the chip you take makes room, you play on; if it does not, you are stuck and the game ends "
        "at once"
    )
    assert sentence in flat
    for purge, ends in (("purge:i4", False), ("purge:a1", True)):
        state = GP02AState.position(4, territory=full_board(free=("l6",)), bag={"blue": 20, "purple": 1})
        start_turns(state, 4, ["purple", "blue", "blue", "blue"] + ["blue"] * 12, "deal:1,2,4,3")
        play(state, "chrono:blue")  # two chips, only l6 free: the game does not end yet
        assert state.current_player() == 0 and purge in state.legal_actions()  # any white chip
        play(state, purge)
        assert state.is_terminal() is ends
        if not ends:
            assert state.legal_actions() == ["block:6"]
