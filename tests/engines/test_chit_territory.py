"""Territory, the chit game: one test per rule of shared/rules/chit-territory.md.

Positions come from ``ChitTerritoryState.from_position`` (board, reserves, cups, discard
piles, whose turn and at which step); chance outcomes are forced by applying them.
"""

import json
import random
from pathlib import Path

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction, get_game
from games.engines.chit_territory import (
    GAME,
    MOUNTAINS,
    RIVERS,
    ChitTerritoryState,
)

position = ChitTerritoryState.from_position


def breakdown(state, seat):
    return [tuple(line) for line in state.view(None)["score_breakdown"][seat]]


def rows(state, seat):
    """Only the "rows of structures" lines of a seat's breakdown."""
    return [line for line in breakdown(state, seat) if line[0].startswith("Row ")]


def cup(state, seat):
    return {t: c for t, c in state.view(None)["players"][seat]["cup"].items() if c}


def reserve(state, seat):
    return {t: c for t, c in state.view(None)["players"][seat]["reserve"].items() if c}


def discard_pile(state, seat):
    return {t: c for t, c in state.view(None)["players"][seat]["discard"].items() if c}


# --------------------------------------------------------------------------- game


def test_the_game_is_registered_for_two_to_four_players_with_the_variant_option():
    game = get_game("chit-territory")
    assert game is GAME
    assert game.allowed_player_counts() == (2, 3, 4)
    assert [o.name for o in game.options] == ["mountains_rivers"]
    assert game.options[0].default is False
    with pytest.raises(ValueError):
        game.new_state(5)


def test_the_first_player_is_a_fair_chance_action():
    state = GAME.new_state(3)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [("first:0", 1 / 3), ("first:1", 1 / 3), ("first:2", 1 / 3)]
    state.apply("first:2")
    view = state.view(None)
    assert view["first_player"] == 2 and view["turn_player"] == 2 and view["round"] == 1


def test_each_cup_starts_with_ten_of_each_of_the_seven_types():
    state = GAME.new_state(2)
    for seat in range(2):
        assert cup(state, seat) == {t: 10 for t in ("temple", "castle", "town", "farm", "mine", "palace", "army")}
        assert state.view(None)["players"][seat]["cup_total"] == 70


# --------------------------------------------------------------------------- draw


def test_a_turn_starts_with_two_draws_from_the_players_own_cup_into_the_public_reserve():
    state = GAME.new_state(2)
    state.apply("first:1")
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes()) == {
        f"draw:{t}": 10 / 70 for t in ("temple", "castle", "town", "farm", "mine", "palace", "army")
    }
    state.apply("draw:temple")
    assert state.current_player() == CHANCE
    assert dict(state.chance_outcomes())["draw:temple"] == 9 / 69
    state.apply("draw:army")
    assert reserve(state, 1) == {"temple": 1, "army": 1}
    assert state.view(None)["players"][1]["cup_total"] == 68
    assert state.view(None)["players"][0]["cup_total"] == 70
    assert state.view(0)["drawn_this_turn"] == ["temple", "army"]
    # No enemy structure yet, so no war: straight to the build.
    assert state.current_player() == 1
    assert state.view(None)["phase"] == "build"


def test_draw_probabilities_are_the_shares_of_the_chits_left_in_the_cup():
    state = position(2, cups=[{"temple": 3, "army": 1}, {"town": 5}])
    assert state.chance_outcomes() == [("draw:temple", 0.75), ("draw:army", 0.25)]
    with pytest.raises(IllegalAction):
        state.apply("draw:town")  # the town is in the other player's cup


def test_an_empty_cup_is_refilled_from_the_discard_pile_when_a_draw_is_due():
    state = position(2, cups=[{}, {"town": 5}], discards=[{"mine": 2, "army": 1}, {}])
    assert state.current_player() == CHANCE
    assert cup(state, 0) == {"mine": 2, "army": 1}
    assert discard_pile(state, 0) == {}
    assert state.chance_outcomes() == [("draw:mine", 2 / 3), ("draw:army", 1 / 3)]


def test_the_cup_is_refilled_between_the_two_draws_when_the_first_empties_it():
    state = position(2, cups=[{"farm": 1}, {"town": 5}], discards=[{"castle": 2}, {}])
    assert cup(state, 0) == {"farm": 1} and discard_pile(state, 0) == {"castle": 2}
    state.apply("draw:farm")
    assert state.current_player() == CHANCE
    assert cup(state, 0) == {"castle": 2} and discard_pile(state, 0) == {}
    state.apply("draw:castle")
    assert reserve(state, 0) == {"farm": 1, "castle": 1}


def test_a_draw_is_skipped_when_both_cup_and_discard_pile_are_empty():
    state = position(2, cups=[{"town": 1}, {"town": 5}], reserves=[{"temple": 1}, {}])
    state.apply("draw:town")
    # The second draw finds nothing anywhere and is skipped: the build follows.
    assert state.current_player() == 0
    assert state.view(None)["phase"] == "build"
    assert reserve(state, 0) == {"temple": 1, "town": 1}


# --------------------------------------------------------------------------- war


def test_war_removes_an_enemy_structure_to_its_owners_discard_pile_and_costs_the_army():
    state = position(
        2,
        board={"e5": ("palace", 1), "a1": ("town", 0)},
        reserves=[{"army": 2, "farm": 1}, {}],
        step="war",
    )
    assert state.view(None)["phase"] == "war"
    assert sorted(state.legal_actions()) == ["peace", "war:e5"]
    state.apply("war:e5")
    view = state.view(None)
    assert view["board"][4 * 9 + 4] == {"plot": "e5", "territory": 5, "structure": None, "owner": None}
    assert discard_pile(state, 1) == {"palace": 1}
    assert discard_pile(state, 0) == {"army": 1}
    assert reserve(state, 0) == {"army": 1, "farm": 1}
    assert view["players"][1]["structures_on_board"] == 0
    # At most one war a turn: the build follows.
    assert view["phase"] == "build"


def test_war_may_not_target_an_empty_plot_or_ones_own_structure():
    state = position(
        2, board={"e5": ("palace", 1), "a1": ("town", 0)}, reserves=[{"army": 1, "farm": 1}, {}], step="war"
    )
    for action in ("war:a1", "war:b2"):
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert reserve(state, 0) == {"army": 1, "farm": 1}


def test_peace_keeps_the_army_and_goes_on_to_the_build():
    state = position(2, board={"e5": ("palace", 1)}, reserves=[{"army": 1, "farm": 1}, {}], step="war")
    state.apply("peace")
    assert state.view(None)["phase"] == "build"
    assert reserve(state, 0) == {"army": 1, "farm": 1}
    assert state.view(None)["board"][40]["structure"] == "palace"


def test_war_is_offered_only_with_an_army_and_an_enemy_structure_on_the_board():
    own_only = position(2, board={"e5": ("palace", 0)}, reserves=[{"army": 1, "farm": 1}, {}], step="war")
    assert own_only.view(None)["phase"] == "build"
    no_army = position(2, board={"e5": ("palace", 1)}, reserves=[{"farm": 1}, {}], step="war")
    assert no_army.view(None)["phase"] == "build"
    assert "peace" not in no_army.legal_actions()


# --------------------------------------------------------------------------- build


def test_build_places_a_structure_from_the_reserve_on_an_empty_plot():
    state = position(2, board={"e5": ("town", 1)}, reserves=[{"farm": 1, "army": 1}, {}], step="build")
    assert all(a.startswith("build:farm@") for a in state.legal_actions())
    assert len(state.legal_actions()) == 80
    with pytest.raises(IllegalAction, match="e5 is not free"):
        state.apply("build:farm@e5")
    with pytest.raises(IllegalAction, match="no temple"):
        state.apply("build:temple@a1")
    state.apply("build:farm@a1")
    assert state.view(None)["board"][0]["structure"] == "farm"
    assert state.view(None)["board"][0]["owner"] == 0
    assert reserve(state, 0) == {"army": 1}


def test_build_is_compulsory_when_a_legal_build_exists():
    state = position(2, reserves=[{"town": 1, "army": 4}, {}], step="build")
    assert state.current_player() == 0
    assert all(a.startswith("build:") for a in state.legal_actions())
    for action in ("peace", "discard:army"):
        with pytest.raises(IllegalAction):
            state.apply(action)


def test_build_is_skipped_when_the_reserve_holds_no_structure():
    state = position(2, reserves=[{"army": 2}, {}], step="build")
    # Nothing to build and at most 4 chits: the turn passes to player 1's draws.
    assert state.current_player() == CHANCE
    assert state.view(None)["turn_player"] == 1
    assert reserve(state, 0) == {"army": 2}


def test_build_is_skipped_when_every_empty_plot_is_forbidden():
    # Everything is full but a1 and b1, both next to player 1's castle on a2.
    board = {}
    for i in range(81):
        name = "abcdefghi"[i % 9] + str(i // 9 + 1)
        if name not in ("a1", "b1"):
            board[name] = ("town", 1)
    board["a2"] = ("castle", 1)
    state = position(2, board=board, reserves=[{"castle": 1}, {}], cups=[{"town": 5}, {"town": 5}], step="build")
    assert state.view(None)["turn_player"] == 1
    assert state.current_player() == CHANCE


@pytest.mark.parametrize("kind", ["castle", "temple", "palace"])
@pytest.mark.parametrize(
    "enemy,plot,where",
    [
        ("e5", "e4", "orthogonally"),
        ("e5", "f6", "diagonally"),
        ("d4", "c3", "diagonally across a territory border"),
        ("d4", "c4", "orthogonally across a territory border"),
        ("c6", "d7", "diagonally across the corner of four territories"),
    ],
)
def test_a_castle_temple_or_palace_may_not_be_built_next_to_an_opponents_same_type(kind, enemy, plot, where):
    state = position(2, board={enemy: (kind, 1)}, reserves=[{kind: 1, "town": 1}, {}], step="build")
    assert f"build:{kind}@{plot}" not in state.legal_actions(), where
    assert f"build:town@{plot}" in state.legal_actions()
    with pytest.raises(IllegalAction, match=f"next to an opponent's {kind}"):
        state.apply(f"build:{kind}@{plot}")


@pytest.mark.parametrize("kind", ["castle", "temple", "palace"])
def test_the_neighbour_restriction_spares_own_structures_other_types_and_plots_two_away(kind):
    other = "town" if kind != "town" else "farm"
    state = position(
        2,
        board={"e5": (kind, 0), "b2": (other, 1), "h8": (kind, 1)},
        reserves=[{kind: 1}, {}],
        step="build",
    )
    legal = state.legal_actions()
    assert f"build:{kind}@e4" in legal  # next to its own kind
    assert f"build:{kind}@b3" in legal  # next to an opponent's other type
    assert f"build:{kind}@h6" in legal  # two plots from the opponent's
    assert f"build:{kind}@g7" not in legal


@pytest.mark.parametrize("kind", ["town", "farm", "mine"])
def test_towns_farms_and_mines_have_no_neighbour_restriction(kind):
    state = position(2, board={"e5": (kind, 1)}, reserves=[{kind: 1}, {}], step="build")
    assert len(state.legal_actions()) == 80


def test_the_restriction_holds_against_every_opponent_in_a_four_player_game():
    state = position(
        4, board={"a1": ("temple", 1), "i9": ("temple", 3)}, reserves=[{"temple": 1}, {}, {}, {}], step="build"
    )
    legal = state.legal_actions()
    assert "build:temple@b2" not in legal and "build:temple@h8" not in legal
    assert "build:temple@e5" in legal


# --------------------------------------------------------------------------- end of turn


def test_the_reserve_is_discarded_down_to_four_at_the_end_of_the_turn():
    state = position(2, reserves=[{"town": 3, "farm": 1}, {}], cups=[{"army": 2}, {"town": 5}])
    state.apply("draw:army")
    state.apply("draw:army")
    state.apply("build:town@a1")
    assert state.view(None)["phase"] == "discard"
    assert state.current_player() == 0
    assert sorted(state.legal_actions()) == ["discard:army", "discard:farm", "discard:town"]
    with pytest.raises(IllegalAction):
        state.apply("discard:temple")
    state.apply("discard:army")
    assert reserve(state, 0) == {"town": 2, "farm": 1, "army": 1}
    assert discard_pile(state, 0) == {"army": 1}
    # Four left: the turn passes on.
    assert state.current_player() == CHANCE and state.view(None)["turn_player"] == 1


def test_no_discard_with_four_chits_or_fewer():
    state = position(2, reserves=[{"town": 3, "farm": 2}, {}], step="build")
    state.apply("build:town@a1")
    assert state.view(None)["turn_player"] == 1
    assert reserve(state, 0) == {"town": 2, "farm": 2}


def test_play_goes_clockwise_and_a_round_ends_with_the_player_before_the_first():
    state = position(3, reserves=[{}, {}, {"town": 1}], player=2, first=1, step="build", built_in_round=True)
    state.apply("build:town@a1")
    assert state.view(None)["turn_player"] == 0
    assert state.view(None)["round"] == 1
    state = position(3, reserves=[{"town": 1}, {}, {}], player=0, first=1, step="build")
    state.apply("build:town@a1")
    assert state.view(None)["turn_player"] == 1
    assert state.view(None)["round"] == 2
    assert state.view(None)["built_this_round"] is False


# --------------------------------------------------------------------------- end of game


def test_the_game_ends_as_soon_as_the_81st_plot_is_built():
    board = {"abcdefghi"[i % 9] + str(i // 9 + 1): ("town", 1) for i in range(81)}
    del board["e5"]
    state = position(
        2, board=board, reserves=[{"town": 4, "army": 2}, {}], cups=[{"town": 5}, {"town": 5}], step="build"
    )
    state.apply("build:town@e5")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert reserve(state, 0) == {"town": 3, "army": 2}  # no discard after the last build


def test_the_rules_page_states_the_stall_safeguard_of_the_ruling():
    """The ruling (shared rules, "End of the game"): the game "also ends after five full rounds
    in a row in which nobody built, and after 60 rounds ... do not show it as 'Round 1 of 60'"."""
    page = (Path(__file__).resolve().parents[2] / "games" / "rules" / "chit-territory.md").read_text()
    assert "five full rounds in a row in which nobody built" in page
    assert "a whole round in which nobody built" not in page
    script = (Path(__file__).resolve().parents[2] / "static" / "games" / "chit-territory.js").read_text()
    assert "max_rounds" not in script  # the cap is never shown as "Round n of 60"


def idle_round(state, seats=2):
    """Every seat draws two armies, has nothing to build and keeps four: one full round
    without a build."""
    for _ in range(seats):
        for _ in range(2):
            assert not state.is_terminal()
            state.apply("draw:army")
        while state.legal_actions() == ["discard:army"]:
            state.apply("discard:army")


def test_a_first_round_of_armies_only_no_longer_ends_the_game():
    """The ruling (shared rules, "End of the game"): "it also ends after five full rounds in a
    row in which nobody built ... A single round without a build is no stall: early on, every
    seat may simply have drawn armies, and a game ended 0-0 after its first round is not a
    game." The deal that used to end a game 0-0 after five actions: both seats draw armies."""
    state = GAME.new_state(2)
    state.apply("first:0")
    idle_round(state)
    assert not state.is_terminal()
    view = state.view(None)
    assert view["round"] == 2 and view["rounds_without_build"] == 1 and view["stall_rounds"] == 5
    assert state.current_player() == CHANCE and view["turn_player"] == 0


def test_the_game_ends_after_five_full_rounds_in_a_row_in_which_nobody_built():
    state = position(2, cups=[{"army": 10}, {"army": 10}])
    for _ in range(4):
        idle_round(state)
    assert not state.is_terminal() and state.view(None)["rounds_without_build"] == 4
    state.apply("draw:army")
    state.apply("draw:army")
    state.apply("discard:army")
    state.apply("discard:army")
    state.apply("draw:army")
    state.apply("draw:army")
    state.apply("discard:army")
    assert not state.is_terminal()
    state.apply("discard:army")
    assert state.is_terminal()
    assert state.scores() == [0, 0] and state.ranking() == [1, 1]
    assert state.view(None)["end"] == "Nobody built in 5 full rounds in a row."
    assert state.prompt() == "The game is over. Nobody built in 5 full rounds in a row."


def test_a_build_starts_the_count_of_rounds_without_a_build_again():
    state = position(2, cups=[{"army": 10, "town": 1}, {"army": 10}], idle_rounds=4)
    state.apply("draw:town")
    state.apply("draw:army")
    state.apply("build:town@a1")  # no enemy structure, so no war: the build
    state.apply("draw:army")
    state.apply("draw:army")
    state.apply("peace")
    assert not state.is_terminal()
    assert state.view(None)["rounds_without_build"] == 0 and state.view(None)["round"] == 2


def test_a_record_made_under_the_former_ruling_replays_to_its_recorded_end():
    # A game of the bot tournament's kind: round 1, armies only, ended 0-0 after five actions.
    record = ["first:0", "draw:army", "draw:army", "draw:army", "draw:army"]
    old = GAME.replay(2, {"mountains_rivers": False, "stall_rounds": 1}, record)
    assert old.is_terminal() and old.scores() == [0, 0]
    assert old.view(None)["end"] == "Nobody built in a whole round."
    assert GAME.options_text({"mountains_rivers": False, "stall_rounds": 1}) == [
        "Rounds without a build that end the game: 1"
    ]
    # The same actions today leave the game going on.
    assert not GAME.replay(2, {"mountains_rivers": False}, record).is_terminal()


def test_the_former_ruling_is_no_option_for_a_new_match():
    assert [o.name for o in GAME.options] == ["mountains_rivers"]
    with pytest.raises(ValueError, match="no option stall_rounds"):
        GAME.normalise_options({"stall_rounds": 1}, 2)
    with pytest.raises(ValueError, match="Rounds without a build"):
        GAME.new_state(2, {"stall_rounds": 3})
    assert GAME.normalise_options({}, 2) == {"mountains_rivers": False}


def test_a_round_with_a_build_does_not_end_the_game():
    state = position(2, cups=[{"town": 10}, {"army": 10}])
    state.apply("draw:town")
    state.apply("draw:town")
    state.apply("build:town@a1")
    state.apply("draw:army")
    state.apply("draw:army")
    state.apply("peace")  # nothing to build: player 1's turn ends the round
    assert not state.is_terminal()
    assert state.view(None)["round"] == 2


def test_the_game_ends_after_sixty_rounds():
    last = position(2, reserves=[{}, {"town": 1}], player=1, first=0, round=60, step="build")
    last.apply("build:town@a1")
    assert last.is_terminal()
    earlier = position(2, reserves=[{}, {"town": 1}], player=1, first=0, round=59, step="build")
    earlier.apply("build:town@a1")
    assert not earlier.is_terminal()
    assert earlier.view(None)["round"] == 60
    assert last.view(None)["end"] == "60 rounds were played, the safety limit."


# --------------------------------------------------------------------------- scoring


def test_worked_example_scores_20_and_3():
    state = position(
        2,
        board={
            "a1": ("temple", 0),
            "b1": ("temple", 0),
            "c1": ("temple", 0),
            "a2": ("farm", 0),
            "b2": ("castle", 0),
            "i9": ("mine", 1),
        },
    )
    assert state.scores() == [20, 3]
    assert breakdown(state, 0) == [
        ("Territory 1: 5 structures", 5),
        ("Most temples (3)", 3),
        ("Most castles (1)", 3),
        ("Most farms (1)", 3),
        ("Row a1-c1 (3 temples)", 6),
    ]
    assert breakdown(state, 1) == [("Most mines (1)", 3)]
    assert state.ranking() == [1, 2]


@pytest.mark.parametrize("count", [5, 6, 7, 8, 9])
def test_n_structures_in_a_territory_score_n_only_the_highest_line(count):
    # Territory 9 (g-i x 7-9), one type each so no "most" line is shared out oddly.
    plots = ["g7", "i7", "h8", "g9", "i9", "h7", "g8", "i8", "h9"][:count]
    state = position(2, board={p: ("town", 0) for p in plots})
    lines = [line for line in breakdown(state, 0) if line[0].startswith("Territory")]
    assert lines == [(f"Territory 9: {count} structures", count)]


def test_four_structures_in_a_territory_score_nothing():
    state = position(2, board={p: ("town", 0) for p in ["g7", "i7", "g9", "i9"]})
    assert not [line for line in breakdown(state, 0) if line[0].startswith("Territory")]


def test_control_of_the_centre_scores_5():
    state = position(2, board={"e5": ("town", 0), "d4": ("farm", 0), "f6": ("town", 1)})
    assert ("Centre (territory 5)", 5) in breakdown(state, 0)
    assert state.view(None)["territories"][4]["controller"] == 0


def test_control_needs_strictly_more_structures_than_each_other_player():
    state = position(3, board={"e5": ("town", 0), "d4": ("town", 1), "a1": ("farm", 2)})
    assert state.view(None)["territories"][4]["controller"] is None
    assert all("Centre" not in label for seat in range(3) for label, _ in breakdown(state, seat))


TERRITORY_CENTRES = ["b2", "e2", "h2", "b5", "e5", "h5", "b8", "e8", "h8"]


@pytest.mark.parametrize(
    "line", [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)]
)
def test_controlling_three_territories_in_a_row_scores_9(line):
    state = position(2, board={TERRITORY_CENTRES[t - 1]: ("town", 0) for t in line})
    lines = [entry for entry in breakdown(state, 0) if entry[0].startswith("Territories")]
    assert lines == [(f"Territories {'-'.join(map(str, line))} in a row", 9)]


def test_two_controlled_territories_of_a_line_score_no_line():
    state = position(2, board={"b2": ("town", 0), "e2": ("town", 0), "h2": ("town", 1)})
    assert not [entry for entry in breakdown(state, 0) if entry[0].startswith("Territories")]


@pytest.mark.parametrize("square", [(1, 2, 4, 5), (2, 3, 5, 6), (4, 5, 7, 8), (5, 6, 8, 9)])
def test_controlling_a_square_of_four_territories_scores_8(square):
    state = position(2, board={TERRITORY_CENTRES[t - 1]: ("town", 0) for t in square})
    lines = [entry for entry in breakdown(state, 0) if entry[0].startswith("Square")]
    assert lines == [(f"Square of territories {'-'.join(map(str, square))}", 8)]


def test_controlling_the_four_corners_scores_8():
    corners = {TERRITORY_CENTRES[t - 1]: ("town", 0) for t in (1, 3, 7, 9)}
    state = position(2, board=corners)
    assert breakdown(state, 0) == [("All four corners (1, 3, 7, 9)", 8), ("Most towns (4)", 3)]
    del corners["h8"]
    assert not [e for e in breakdown(position(2, board=corners), 0) if e[0].startswith("All four")]


def test_a_full_board_of_control_adds_up_every_territory_line():
    state = position(2, board={p: ("town", 0) for p in TERRITORY_CENTRES})
    labels = [label for label, _ in breakdown(state, 0)]
    assert sum(label.startswith("Territories") for label in labels) == 8
    assert sum(label.startswith("Square") for label in labels) == 4
    # 5 centre + 8 lines x 9 + 4 squares x 8 + corners 8 + most towns 3
    assert state.scores()[0] == 5 + 72 + 32 + 8 + 3


@pytest.mark.parametrize("kind", ["temple", "castle", "town", "farm", "mine", "palace"])
def test_the_sole_player_with_the_most_of_a_type_scores_3(kind):
    state = position(3, board={"a1": (kind, 1), "a9": (kind, 1), "e5": (kind, 2)})
    assert breakdown(state, 1) == [(f"Most {kind}s (2)", 3)]
    assert breakdown(state, 2) == [("Centre (territory 5)", 5)]


def test_a_tie_for_the_most_of_a_type_gives_nobody_anything():
    state = position(3, board={"a1": ("mine", 0), "i9": ("mine", 1), "e5": ("town", 2)})
    assert breakdown(state, 0) == [] and breakdown(state, 1) == []
    assert state.scores() == [0, 0, 8]  # the centre 5 and the most towns 3


DIRECTIONS = {
    "horizontal": (1, 0),
    "vertical": (0, 1),
    "diagonal": (1, 1),
    "other diagonal": (-1, 1),
}


def run_plots(direction, length):
    dc, dr = DIRECTIONS[direction]
    col = 8 if dc < 0 else 0
    return ["abcdefghi"[col + k * dc] + str(1 + k * dr) for k in range(length)]


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize("length", range(3, 10))
def test_a_run_of_mixed_structures_scores_its_length(direction, length):
    plots = run_plots(direction, length)
    kinds = ["town", "farm"]
    state = position(2, board={p: (kinds[k % 2], 0) for k, p in enumerate(plots)})
    assert rows(state, 0) == [(f"Row {plots[0]}-{plots[-1]} ({length} structures)", length)]


@pytest.mark.parametrize("direction", list(DIRECTIONS))
@pytest.mark.parametrize("length", range(3, 10))
def test_a_run_of_one_type_scores_double_its_length(direction, length):
    plots = run_plots(direction, length)
    state = position(2, board={p: ("mine", 0) for p in plots})
    assert rows(state, 0) == [(f"Row {plots[0]}-{plots[-1]} ({length} mines)", 2 * length)]


@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_a_same_type_stretch_inside_a_run_scores_double_the_stretch_when_that_is_more(direction):
    plots = run_plots(direction, 5)
    kinds = ["town", "farm", "farm", "farm", "town"]
    state = position(2, board={p: (kinds[k], 0) for k, p in enumerate(plots)})
    assert rows(state, 0) == [(f"Row {plots[0]}-{plots[-1]} (5 structures, 3 farms in a row)", 6)]
    plots = run_plots(direction, 8)
    kinds = ["farm", "farm", "farm", "town", "farm", "town", "farm", "town"]
    state = position(2, board={p: (kinds[k], 0) for k, p in enumerate(plots)})
    assert rows(state, 0) == [(f"Row {plots[0]}-{plots[-1]} (8 structures)", 8)]


def test_a_stretch_of_two_of_a_type_adds_nothing():
    state = position(2, board={"a1": ("farm", 0), "b1": ("farm", 0), "c1": ("town", 0), "d1": ("town", 0)})
    assert rows(state, 0) == [("Row a1-d1 (4 structures)", 4)]
    state = position(2, board={"a1": ("farm", 0), "b1": ("farm", 0), "c1": ("town", 0)})
    assert rows(state, 0) == [("Row a1-c1 (3 structures)", 3)]


def test_a_run_stops_at_an_empty_plot_or_an_opponents_structure():
    board = {p: ("town", 0) for p in ("a1", "b1", "c1", "e1", "f1", "h1", "i1")}
    board["g1"] = ("farm", 1)
    state = position(2, board=board)
    assert rows(state, 0) == [("Row a1-c1 (3 towns)", 6)]
    assert rows(state, 1) == []


def test_a_maximal_run_counts_once_not_as_several_shorter_runs():
    state = position(2, board={p: ("town", 0) for p in ("a1", "b1", "c1", "d1")})
    assert rows(state, 0) == [("Row a1-d1 (4 towns)", 8)]


def test_runs_of_two_score_nothing():
    state = position(2, board={"a1": ("town", 0), "b2": ("town", 0), "a2": ("farm", 0)})
    assert rows(state, 0) == []


def test_having_all_six_types_in_a_territory_scores_6():
    kinds = ["temple", "castle", "town", "farm", "mine", "palace"]
    plots = ["a1", "c1", "b2", "a3", "c3", "b1"]
    state = position(2, board={p: (k, 0) for p, k in zip(plots, kinds, strict=True)})
    assert ("Variety in territory 1", 6) in breakdown(state, 0)
    state = position(2, board={p: (k, 0) for p, k in zip(plots[:5], kinds[:5], strict=True)})
    assert not [e for e in breakdown(state, 0) if e[0].startswith("Variety")]


def test_a_tie_on_points_goes_to_more_structures_and_then_is_shared():
    state = position(
        3,
        board={
            "a1": ("town", 0),
            "i1": ("town", 0),  # most towns
            "a9": ("farm", 1),
            "i9": ("farm", 1),
            "a6": ("palace", 1),  # most farms
            "a5": ("mine", 2),
            "i5": ("mine", 2),
            "e1": ("palace", 2),  # most mines
        },
    )
    assert state.scores() == [3, 3, 3]
    assert state.ranking() == [3, 1, 1]


def test_the_breakdown_adds_up_to_the_score_after_every_action():
    """Checked after each action of a whole game, on the state and on a copy of it, so a
    breakdown or total kept from an earlier position would show."""
    state = GAME.new_state(3)
    rng = random.Random(4)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        for position in (state, state.clone()):
            view = position.view(None)
            for seat in range(3):
                assert sum(points for _, points in view["score_breakdown"][seat]) == view["scores"][seat]
    assert view["ranking"] is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_score_and_its_breakdown_agree_on_crowded_boards(players):
    """The score is counted from the plots' bit masks and the breakdown line by line; on
    boards full of long rows, one-type stretches, variety and contested territories the two
    must give the same totals."""
    rng = random.Random(players)
    names = [f"{c}{r}" for c in "abcdefghi" for r in range(1, 10)]
    for _ in range(150):
        kinds = rng.sample(["temple", "castle", "town", "farm", "mine", "palace"], rng.randint(1, 6))
        owners = rng.sample(range(players), rng.randint(1, players))
        stock = {(kind, owner): 10 for kind in kinds for owner in owners}  # ten of each a seat
        board = {}
        for plot in rng.sample(names, rng.randint(0, 81)):
            left = [chit for chit, count in stock.items() if count]
            if not left:
                break
            chit = board[plot] = rng.choice(left)
            stock[chit] -= 1
        state = position(players, board=board)
        view = state.view(None)
        for seat in range(players):
            assert view["scores"][seat] == sum(points for _, points in view["score_breakdown"][seat])


# --------------------------------------------------------------------------- variant


def test_the_variant_has_six_mountains_and_six_rivers_shown_in_the_view():
    state = GAME.new_state(2, {"mountains_rivers": True})
    view = state.view(None)
    assert len(MOUNTAINS) == len(RIVERS) == 6 and not set(MOUNTAINS) & set(RIVERS)
    assert sorted(p["plot"] for p in view["board"] if p["mountain"]) == sorted(MOUNTAINS)
    assert sorted(p["plot"] for p in view["board"] if p["river"]) == sorted(RIVERS)
    plain = GAME.new_state(2).view(None)
    assert "mountain" not in plain["board"][0] and plain["mountains"] == []


def test_in_the_variant_mines_go_on_or_next_to_a_mountain():
    variant = {"mountains_rivers": True}
    state = position(2, reserves=[{"mine": 1}, {}], step="build", options=variant)
    legal = state.legal_actions()
    assert "build:mine@c3" in legal  # on the mountain
    assert "build:mine@d4" in legal  # next to it, diagonally, in the next territory
    assert "build:mine@e5" not in legal
    with pytest.raises(IllegalAction, match="next to a mountain"):
        state.apply("build:mine@e5")
    # Four mountains inland (9 plots each), a5 and i5 on the edge (6 each); b4 and h6 are
    # next to two mountains.
    assert len(legal) == 4 * 9 + 2 * 6 - 2


def test_in_the_variant_farms_go_on_or_next_to_a_river():
    state = position(2, reserves=[{"farm": 1}, {}], step="build", options={"mountains_rivers": True})
    legal = state.legal_actions()
    assert "build:farm@e1" in legal and "build:farm@f2" in legal and "build:farm@c3" in legal
    assert "build:farm@e5" not in legal
    with pytest.raises(IllegalAction, match="next to a river"):
        state.apply("build:farm@e5")


def test_in_the_variant_other_structures_may_go_anywhere_even_on_a_mountain_or_river():
    state = position(2, reserves=[{"town": 1}, {}], step="build", options={"mountains_rivers": True})
    assert len(state.legal_actions()) == 81
    state.apply("build:town@c3")
    assert state.view(None)["board"][2 * 9 + 2]["structure"] == "town"


def test_without_the_variant_mines_and_farms_go_anywhere():
    state = position(2, reserves=[{"mine": 1, "farm": 1}, {}], step="build")
    assert len(state.legal_actions()) == 2 * 81


def test_in_the_variant_every_territory_has_a_site_for_mines_and_farms():
    state = position(2, reserves=[{"mine": 1, "farm": 1}, {}], step="build", options={"mountains_rivers": True})
    territory = {p["plot"]: p["territory"] for p in state.view(None)["board"]}
    for kind in ("mine", "farm"):
        sites = {territory[a.split("@")[1]] for a in state.legal_actions() if a.startswith(f"build:{kind}")}
        assert sites == set(range(1, 10))


# --------------------------------------------------------------------------- view and labels


def test_the_view_shows_the_whole_public_position():
    state = position(
        2,
        board={"e5": ("palace", 1)},
        reserves=[{"army": 1, "town": 1}, {}],
        discards=[{"farm": 2}, {}],
        step="war",
    )
    view = state.view(0)
    json.dumps(view)
    assert view == state.view(None) == state.view(1)  # nothing is hidden
    assert view["board"][40] == {"plot": "e5", "territory": 5, "structure": "palace", "owner": 1}
    assert view["board"][0]["territory"] == 1 and view["board"][80]["territory"] == 9
    assert view["players"][0]["reserve"]["army"] == 1
    assert view["players"][0]["discard"] == {
        "temple": 0,
        "castle": 0,
        "town": 0,
        "farm": 2,
        "mine": 0,
        "palace": 0,
        "army": 0,
    }
    assert view["players"][1]["cup"]["palace"] == 9
    assert view["phase"] == "war" and view["current_player"] == 0
    assert view["territories"][4]["controller"] == 1 and view["territories"][4]["counts"] == [0, 1]
    assert view["score_breakdown"][1] == [["Centre (territory 5)", 5], ["Most palaces (1)", 3]]


def test_the_view_lists_where_each_structure_may_be_built():
    state = position(2, board={"a1": ("castle", 1)}, reserves=[{"castle": 1, "army": 1}, {}], step="build")
    buildable = state.view(None)["buildable"]
    assert list(buildable) == ["castle"]
    assert "a2" not in buildable["castle"] and "c1" in buildable["castle"]
    assert len(buildable["castle"]) == 80 - 3


def test_actions_have_plain_labels_and_the_prompt_says_what_to_do():
    assert GAME.action_label("build:temple@e5") == "Build a temple on e5"
    assert GAME.action_label("draw:army") == "Draw an army"
    assert GAME.action_label("war:c4") == "War: remove the structure on c4"
    assert GAME.action_label("peace") == "Make peace"
    assert GAME.action_label("discard:mine") == "Discard a mine"
    assert GAME.action_label("first:1") == "Seat 2 goes first"  # seats counted from 1
    state = position(2, board={"e5": ("palace", 1)}, reserves=[{"army": 1, "town": 1}, {}], step="war")
    assert "War or peace" in state.prompt()


def test_illegal_actions_change_nothing():
    state = position(2, reserves=[{"town": 1}, {}], step="build")
    before = json.dumps(state.view(None))
    for action in (None, 3, "", "build:town@j1", "build:town", "x" * 200, "draw:town", "war:a1"):
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert json.dumps(state.view(None)) == before and state.history == []
