"""Game of God, rule by rule (shared/rules/game-of-god.md).

Squares: columns a-h west to east, rows 1-8 north to south. With 2 players seat 0 is North
(goal area row 1) and seat 1 South (row 8); with 4 players seats 0-3 are North, East, South,
West and each goal area is its edge without the corners.

Positions are built with ``GameOfGodState.from_position`` (stacks listed bottom to top).
"""

import json
import random

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction
from games.engines.game_of_god import GAME, MOVE_LIMIT, GameOfGodState, pieces_choices


def position(num_players, stacks, to_move, **kwargs):
    return GameOfGodState.from_position(num_players, stacks, to_move, **kwargs)


def moves_from(state, square):
    return sorted(a.split("-")[1] for a in state.legal_actions() if a.startswith(f"move:{square}-"))


def stacks(state):
    return state.view(None)["stacks"]


def play(state, *actions):
    for action in actions:
        state.apply(action)
    return state


# -- set-up ------------------------------------------------------------------------------


def test_two_player_setup_lays_seven_pairs_and_mirrors_the_empty_column():
    state = GAME.new_state(2)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [("chooser:0", 0.5), ("chooser:1", 0.5)]
    state.apply("chooser:1")
    assert state.current_player() == 1
    assert state.legal_actions() == [f"vacant:{c}" for c in "abcdefgh"]
    state.apply("vacant:c")
    board = stacks(state)
    assert "c1" not in board and "c8" not in board
    for col in "abdefgh":
        assert board[f"{col}1"] == [0, 0]
        assert board[f"{col}8"] == [1, 1]
    assert len(board) == 14
    assert state.view(None)["vacant"] == [["c"], ["c"]]
    assert state.current_player() == CHANCE
    state.apply("first:1")
    assert state.current_player() == 1
    assert state.view(None)["step"] == "move"


def test_four_player_setup_leaves_corners_empty_and_both_choices_are_mirrored():
    state = play(GAME.new_state(4), "chooser:2")
    assert state.current_player() == 2  # South names a column
    assert state.legal_actions() == [f"vacant:{c}" for c in "bcdefg"]
    state.apply("vacant:e")
    assert state.current_player() == 3  # then West, the next seat clockwise, names a row
    assert state.legal_actions() == [f"vacant:{r}" for r in "234567"]
    state.apply("vacant:5")
    board = stacks(state)
    for corner in ("a1", "h1", "a8", "h8"):
        assert corner not in board
    assert {"e1", "e8", "a5", "h5"}.isdisjoint(board)
    for seat, squares in enumerate(state.view(None)["goal_areas"]):
        pairs = [sq for sq in squares if sq in board]
        assert len(pairs) == 5
        assert all(board[sq] == [seat, seat] for sq in pairs)
    assert state.view(None)["vacant"] == [["e"], ["5"], ["e"], ["5"]]
    state.apply("first:3")
    assert state.current_player() == 3
    state.apply("move:a2-b2")
    assert state.current_player() == 0  # play goes clockwise


def test_only_the_chooser_names_the_empty_square():
    state = play(GAME.new_state(2), "chooser:0")
    with pytest.raises(IllegalAction):
        state.apply("vacant:i")
    with pytest.raises(IllegalAction):
        state.apply("first:0")
    assert state.current_player() == 0


# -- moving ------------------------------------------------------------------------------


def test_a_piece_slides_over_empty_squares_and_stops_on_its_own_stack():
    state = position(2, {"d4": [0], "d6": [0, 0], "b4": [0]}, to_move=0)
    # South: d5, then onto the own stack on d6 where it must stop (d7 is beyond it).
    # North: d3, d2 (d1 is its own goal area). East to h4; west c4, then onto b4.
    assert moves_from(state, "d4") == ["b4", "c4", "d2", "d3", "d5", "d6", "e4", "f4", "g4", "h4"]
    state.apply("move:d4-d6")
    assert stacks(state)["d6"] == [0, 0, 0]
    assert "d4" not in stacks(state)


def test_a_move_cannot_pass_any_piece_even_its_own():
    state = position(2, {"d4": [0], "d6": [0], "d2": [1]}, to_move=0)
    with pytest.raises(IllegalAction, match="blocked on d6"):
        state.apply("move:d4-d7")
    with pytest.raises(IllegalAction, match="blocked on d2"):
        state.apply("move:d4-d1")


def test_only_the_top_piece_moves_and_the_stack_keeps_the_rest():
    state = position(2, {"d4": [0, 0, 0], "a8": [1]}, to_move=0)
    state.apply("move:d4-f4")
    assert stacks(state)["d4"] == [0, 0]
    assert stacks(state)["f4"] == [0]


def test_no_move_through_or_onto_an_opponent_or_a_mixed_stack():
    state = position(2, {"d4": [0], "d6": [1], "f4": [1, 0], "b4": [1, 1]}, to_move=0)
    assert moves_from(state, "d4") == ["c4", "d2", "d3", "d5", "e4"]
    with pytest.raises(IllegalAction, match="opponent"):
        state.apply("move:d4-d6")
    with pytest.raises(IllegalAction, match="mixed stack"):
        state.apply("move:d4-f4")  # even though seat 0's piece is on top of it
    with pytest.raises(IllegalAction, match="blocked"):
        state.apply("move:d4-d7")


def test_a_piece_in_its_own_goal_area_moves_only_forward():
    state = position(2, {"c1": [0, 0], "a5": [1]}, to_move=0)
    assert moves_from(state, "c1") == ["c2", "c3", "c4", "c5", "c6", "c7", "c8"]
    with pytest.raises(IllegalAction, match="only forward"):
        state.apply("move:c1-d1")
    east = position(4, {"h4": [1], "a1": [0]}, to_move=1)
    assert moves_from(east, "h4") == ["a4", "b4", "c4", "d4", "e4", "f4", "g4"]  # west only
    # With 4 players the corner a1 is an ordinary square, yet b1 may not step sideways to it.
    north = position(4, {"b1": [0], "d4": [1]}, to_move=0)
    assert moves_from(north, "b1") == ["b2", "b3", "b4", "b5", "b6", "b7", "b8"]
    with pytest.raises(IllegalAction, match="only forward"):
        north.apply("move:b1-a1")


def test_no_piece_re_enters_its_own_goal_area():
    state = position(2, {"c2": [0], "a5": [1]}, to_move=0)
    assert "c1" not in moves_from(state, "c2")
    with pytest.raises(IllegalAction, match="re-enter its own goal area"):
        state.apply("move:c2-c1")
    # A North piece on the corner a1 cannot even run through its own goal area b1-g1.
    corner = position(4, {"a1": [0], "d4": [1]}, to_move=0)
    assert moves_from(corner, "a1") == ["a2"]


def test_a_piece_entering_an_opponents_goal_area_stops_there_and_is_frozen():
    corner = position(4, {"h1": [0], "d4": [1]}, to_move=0)
    assert moves_from(corner, "h1") == ["h2"]  # East's goal area: it cannot go on to h3
    with pytest.raises(IllegalAction, match="stops there"):
        corner.apply("move:h1-h3")
    state = position(2, {"d6": [0], "e4": [0], "a5": [1]}, to_move=0)
    state.apply("move:d6-d8")
    assert state.scores() == [1, 0]
    assert state.view(None)["frozen"] == {"d8": [0]}
    state.apply("move:a5-a4")
    assert moves_from(state, "d8") == []
    with pytest.raises(IllegalAction, match="frozen"):
        state.apply("move:d8-e8")


def test_a_piece_may_stack_on_its_own_frozen_piece_in_an_opponents_goal_area():
    state = position(2, {"d8": [0], "d5": [0], "e4": [0], "a5": [1]}, to_move=0)
    state.apply("move:d5-d8")
    assert stacks(state)["d8"] == [0, 0]
    assert state.scores() == [2, 0]


# -- challenges --------------------------------------------------------------------------


def test_a_lone_moved_piece_may_challenge_an_adjacent_lone_opponent():
    state = position(2, {"d4": [0], "d6": [1], "h7": [1]}, to_move=0)
    state.apply("move:d4-d5")
    assert state.current_player() == 0
    assert state.legal_actions() == ["challenge:d6", "pass"]
    assert state.view(0)["challenge_from"] == "d5"
    state.apply("pass")
    assert state.current_player() == 1
    assert stacks(state) == {"d5": [0], "d6": [1], "h7": [1]}


def test_a_challenge_names_one_of_several_neighbours():
    state = position(2, {"d4": [0], "d6": [1], "c5": [1], "e5": [1]}, to_move=0)
    state.apply("move:d4-d5")
    assert state.legal_actions() == ["challenge:e5", "challenge:d6", "challenge:c5", "pass"]
    with pytest.raises(IllegalAction, match="cannot challenge"):
        state.apply("challenge:d4")


def test_no_challenge_diagonally():
    state = position(2, {"d4": [0], "e6": [1]}, to_move=0)
    state.apply("move:d4-d5")
    assert state.current_player() == 1  # no challenge step: the turn passed at once


def test_no_challenge_against_a_stack_nor_from_a_stack():
    state = position(2, {"d4": [0], "d6": [1, 1]}, to_move=0)
    state.apply("move:d4-d5")
    assert state.current_player() == 1
    onto_own = position(2, {"d4": [0], "d5": [0], "c5": [1]}, to_move=0)
    onto_own.apply("move:d4-d5")
    assert onto_own.current_player() == 1
    mixed = position(2, {"d4": [0], "d6": [0, 1], "a8": [1]}, to_move=0)
    mixed.apply("move:d4-d5")
    assert mixed.current_player() == 1


def test_only_the_piece_just_moved_may_challenge():
    state = position(2, {"d4": [0], "d5": [1], "h3": [0]}, to_move=0)
    state.apply("move:h3-h4")
    assert state.current_player() == 1


def test_no_challenge_against_a_piece_in_a_goal_area():
    state = position(4, {"b4": [0], "a2": [3], "c2": [1]}, to_move=0)
    state.apply("move:b4-b2")
    assert state.legal_actions() == ["challenge:c2", "pass"]  # not West's piece at home on a2
    with pytest.raises(IllegalAction):
        state.apply("challenge:a2")


def test_no_challenge_from_a_piece_that_entered_a_goal_area():
    # North's piece steps from the neutral corner h8 into East's goal area next to South's
    # lone piece on g7: frozen there, it may not challenge, and the turn passes.
    state = position(4, {"h8": [0], "d4": [0], "g7": [2], "b2": [1], "c4": [3]}, to_move=0)
    state.apply("move:h8-h7")
    assert state.current_player() == 1
    with pytest.raises(IllegalAction):
        state.apply("challenge:g7")
    # The same neighbour, reached outside every goal area, can be challenged.
    state = position(4, {"f5": [0], "d4": [0], "g7": [2], "b2": [1], "c4": [3]}, to_move=0)
    state.apply("move:f5-f7")
    assert state.legal_actions() == ["challenge:g7", "pass"]


def challenged(num_players=2):
    """Seat 0 has moved d4-d5 and challenges seat 1's (or seat 2's) lone piece on d6."""
    defender = 1 if num_players == 2 else 2
    state = position(num_players, {"d4": [0], "d6": [defender], "g7": [defender], "b5": [1]}, to_move=0)
    play(state, "move:d4-d5", "challenge:d6")
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and all(p == 1 / 36 for _, p in outcomes)
    return state


def test_the_challenger_who_rolls_higher_traps_the_target():
    state = play(challenged(), "dice:5,2")
    assert stacks(state)["d6"] == [1, 0]
    assert "d5" not in stacks(state)
    assert state.view(None)["trapped"] == {"d6": [0]}
    assert state.current_player() == 1
    view = state.view(None)["last_dice"]
    assert (view["challenger"], view["defender"]) == (0, 1)
    assert (view["challenger_roll"], view["defender_roll"]) == (5, 2)


def test_the_defender_who_rolls_higher_chooses_to_trap_and_the_turn_passes_as_usual():
    state = play(challenged(4), "dice:2,5")
    assert state.current_player() == 2  # the defender decides
    assert state.legal_actions() == ["trap", "spare"]
    assert state.view(2)["step"] == "defender"
    state.apply("trap")
    assert stacks(state)["d5"] == [0, 2]
    assert "d6" not in stacks(state)
    assert state.current_player() == 1  # the seat after the challenger, not the defender


def test_the_defender_who_rolls_higher_may_spare_the_challenger():
    state = play(challenged(4), "dice:1,6", "spare")
    assert stacks(state)["d5"] == [0] and stacks(state)["d6"] == [2]
    assert state.current_player() == 1


def test_equal_dice_change_nothing():
    state = play(challenged(), "dice:4,4")
    assert stacks(state)["d5"] == [0] and stacks(state)["d6"] == [1]
    assert state.current_player() == 1
    assert state.view(None)["last_dice"]["outcome"] == "tie"


def test_a_trapped_piece_cannot_move_until_the_piece_on_top_leaves():
    state = play(challenged(), "dice:6,1")
    with pytest.raises(IllegalAction, match="trapped"):
        state.apply("move:d6-d7")
    assert not moves_from(state, "d6")
    play(state, "move:b5-b4", "move:d6-e6", "pass")  # seat 0's trapper walks away
    assert stacks(state)["d6"] == [1]
    assert state.view(None)["trapped"] == {}
    assert "move:d6-d7" in state.legal_actions()


def test_nothing_is_stacked_on_a_mixed_stack():
    state = position(2, {"d4": [1, 0], "d2": [0], "d6": [1]}, to_move=0)
    assert "d3" in moves_from(state, "d2") and "d4" not in moves_from(state, "d2")
    with pytest.raises(IllegalAction, match="mixed stack"):
        state.apply("move:d2-d4")
    state.apply("move:d2-d3")
    assert "move:d6-d4" not in state.legal_actions()
    assert "move:d6-d5" in state.legal_actions()


# -- the end -----------------------------------------------------------------------------


def test_a_player_with_all_pieces_in_opponents_goal_areas_wins_at_once():
    state = position(2, {"d8": [0], "d7": [0], "c1": [1], "b1": [1], "a1": [1], "e3": [1]}, to_move=0)
    assert state.scores() == [1, 3]
    state.apply("move:d7-d8")
    assert state.current_player() == TERMINAL
    assert state.view(None)["winner"] == 0
    assert state.ranking() == [1, 2]  # the winner first, even with fewer pieces in goal areas


def test_the_win_counts_every_piece_not_only_those_on_the_board_edge():
    state = position(2, {"d8": [0], "d7": [0], "d4": [0], "e3": [1]}, to_move=0)
    state.apply("move:d7-d8")
    assert not state.is_terminal()


def test_stalemate_when_the_player_to_move_has_no_move_ranks_by_pieces_in_goal_areas():
    state = position(
        4,
        {"d8": [0], "h3": [0, 0], "a4": [1], "b4": [1], "d4": [2], "e5": [3], "f5": [3]},
        to_move=3,
    )
    state.apply("move:e5-e8")
    assert state.current_player() == TERMINAL
    assert state.view(None)["end_reason"] == "stalemate"
    assert state.scores() == [3, 1, 0, 1]
    assert state.ranking() == [1, 2, 4, 2]


def test_two_player_stalemate_with_equal_counts_is_a_draw():
    state = position(2, {"c8": [0], "c1": [1], "e4": [1]}, to_move=1)
    state.apply("move:e4-e5")
    assert state.is_terminal()
    assert state.ranking() == [1, 1]
    ahead = position(2, {"c8": [0], "c1": [1], "e4": [1]}, to_move=1, pieces=[1, 3])
    ahead.apply("move:e4-e1")
    assert ahead.is_terminal()
    assert ahead.ranking() == [2, 1]


def test_the_game_ends_as_a_stalemate_after_400_moves():
    layout = {"e4": [0], "h3": [0], "e6": [1], "a8": [1], "c8": [0]}
    state = position(2, layout, to_move=0, moves_played=MOVE_LIMIT - 2)
    state.apply("move:h3-h2")
    assert not state.is_terminal()
    state.apply("move:e6-e5")  # the 400th move: next to e4, yet no challenge follows
    assert state.is_terminal()
    assert state.view(None)["end_reason"] == "move limit"
    assert state.ranking() == [1, 2]


def test_a_random_game_never_plays_more_than_400_moves():
    rng = random.Random(4)
    state = GAME.new_state(2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))  # chance outcomes are listed too
    assert sum(a.startswith("move:") for a in state.history) <= MOVE_LIMIT
    assert state.view(None)["moves_played"] == sum(a.startswith("move:") for a in state.history)


# -- what a player sees ------------------------------------------------------------------


def test_the_view_shows_stacks_goal_areas_sides_and_where_the_score_comes_from():
    state = position(4, {"d8": [0, 0], "h3": [0], "d4": [2, 1], "a1": [3]}, to_move=3)
    view = state.view(2)
    json.dumps(view)
    assert view["sides"] == ["North", "East", "South", "West"]
    assert view["goal_areas"][1] == ["h2", "h3", "h4", "h5", "h6", "h7"]
    assert view["stacks"]["d4"] == [2, 1]
    assert view["trapped"] == {"d4": [0]}
    assert view["frozen"] == {"d8": [0, 1], "h3": [0]}
    assert view["scores"] == view["in_goal"] == [3, 0, 0, 0]
    assert view["score_breakdown"][0] == [
        ["Pieces in East's goal area", 1],
        ["Pieces in South's goal area", 2],
        ["Pieces in West's goal area", 0],
    ]
    for seat in range(4):
        assert sum(points for _, points in view["score_breakdown"][seat]) == view["scores"][seat]
    assert view["step"] == "move" and view["current_player"] == 3


def test_labels_and_prompts_speak_plain_words():
    assert GAME.action_label("move:b1-b5") == "Move b1 to b5"
    assert GAME.action_label("challenge:c4") == "Challenge the piece on c4"
    assert GAME.action_label("dice:3,5") == "Challenger rolls 3, defender rolls 5"
    state = play(challenged(), "dice:1,2")
    assert state.prompt() == "You won the challenge: trap the challenger's piece or spare it?"


def test_an_illegal_action_changes_nothing():
    state = position(2, {"d4": [0], "d6": [1]}, to_move=0)
    before = json.dumps(state.view(None))
    for action in ("move:d6-d5", "move:d4-e5", "pass", "trap", None, 7, "x" * 200):
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert json.dumps(state.view(None)) == before
    assert state.history == []


# -- other numbers of pieces -------------------------------------------------------------
# The seed: "If less or more than a standard number of pieces per player is to be used, then
# each player must be assigned the same number of colored pieces and the pieces aligned in the
# goal areas must be mirrored for all the facing players." The ruling (our rules page): an
# even number, in pairs on the own goal area; the chooser names every empty square.


def test_fewer_pieces_stand_in_pairs_and_the_facing_player_mirrors_every_empty_square():
    # "each player must be assigned the same number of colored pieces and the pieces aligned
    # in the goal areas must be mirrored for all the facing players"
    state = GAME.new_state(2, {"pieces": 6})  # 3 pairs each: 5 of the 8 goal squares stay empty
    state.apply("chooser:0")
    assert state.prompt() == (
        "Choose 5 columns of your goal area to leave empty, one at a time (5 more; South mirrors them)."
    )
    for column in "abdg":
        state.apply(f"vacant:{column}")
        assert state.current_player() == 0  # the same chooser names every empty square
    assert state.legal_actions() == ["vacant:c", "vacant:e", "vacant:f", "vacant:h"]
    with pytest.raises(IllegalAction, match="already leave column d empty"):
        state.apply("vacant:d")
    assert stacks(state) == {}  # the pieces go down once every empty square is named
    state.apply("vacant:h")
    board = stacks(state)
    assert board == {"c1": [0, 0], "e1": [0, 0], "f1": [0, 0], "c8": [1, 1], "e8": [1, 1], "f8": [1, 1]}
    view = state.view(None)
    assert view["vacant"] == [list("abdgh"), list("abdgh")]
    assert view["pieces_per_player"] == [6, 6]
    assert state.current_player() == CHANCE and state.legal_actions() == ["first:0", "first:1"]


def test_four_players_with_more_pieces_mirror_both_choices_and_keep_the_corners_empty():
    # "mirrored for all the facing players": North/South and East/West each mirror a choice.
    state = play(GAME.new_state(4, {"pieces": 8}), "chooser:1")  # 4 pairs on 6 goal squares each
    play(state, "vacant:2", "vacant:7")  # East names two rows
    assert state.current_player() == 2  # then South, the next seat clockwise, names two columns
    play(state, "vacant:b", "vacant:c")
    board = stacks(state)
    assert sorted(board) == sorted(
        ["d1", "e1", "f1", "g1", "h3", "h4", "h5", "h6", "d8", "e8", "f8", "g8", "a3", "a4", "a5", "a6"]
    )
    for seat, squares in enumerate(state.view(None)["goal_areas"]):
        assert [board[sq] for sq in squares if sq in board] == [[seat, seat]] * 4
    assert state.view(None)["vacant"] == [["b", "c"], ["2", "7"], ["b", "c"], ["2", "7"]]


@pytest.mark.parametrize(("num_players", "pieces", "squares"), [(2, 16, 8), (4, 12, 6)])
def test_a_pair_on_every_goal_square_leaves_nothing_to_choose(num_players, pieces, squares):
    state = GAME.new_state(num_players, {"pieces": pieces})
    assert state.current_player() == CHANCE
    assert state.legal_actions() == [f"first:{s}" for s in range(num_players)]  # no chooser
    board = stacks(state)
    assert len(board) == squares * num_players
    for seat, goal in enumerate(state.view(None)["goal_areas"]):
        assert all(board[sq] == [seat, seat] for sq in goal)


def test_with_fewer_pieces_bringing_all_of_them_home_wins():
    # "The first player to move all their pieces into an opponent's goal area ... is
    # designated the winner": all of the pieces the match gives, here 2.
    state = GAME.new_state(2, {"pieces": 2})  # one pair each, in the same column
    play(state, "chooser:0", *[f"vacant:{c}" for c in "abcefgh"], "first:0")
    assert stacks(state) == {"d1": [0, 0], "d8": [1, 1]}
    play(state, "move:d1-d3", "move:d8-d4", "pass", "move:d3-e3", "move:d4-a4", "move:e3-e8")
    assert not state.is_terminal()  # one of North's two pieces is home
    play(state, "move:a4-a3", "move:d1-d6", "move:a3-a2", "move:d6-e6", "move:a2-b2", "move:e6-e8")
    assert state.is_terminal()
    assert state.view(None)["winner"] == 0 and state.view(None)["end_reason"] == "win"
    assert state.scores() == [2, 0] and state.ranking() == [1, 2]


def test_an_old_record_without_the_option_replays_as_the_standard_game():
    actions = ["chooser:1", "vacant:c", "first:0", "move:a1-a4"]
    for options in (None, {}, {"pieces": None}, {"pieces": 14}):
        state = GAME.replay(2, options, actions)
        assert state.view(None)["pieces_per_player"] == [14, 14]
        assert len(stacks(state)) == 15
    assert GAME.normalise_options({}, 4) == {"pieces": None}


@pytest.mark.parametrize(
    ("num_players", "pieces", "words"),
    [
        (4, 14, "Pieces per player with 4 players: an even number from 2 to 12, not 14."),
        (2, 18, "Pieces per player with 2 players: an even number from 2 to 16, not 18."),
        (2, 7, "not 7"),
        (2, 0, "not 0"),
        (2, True, "not True"),
        (2, "8", "not '8'"),
    ],
)
def test_a_number_of_pieces_that_does_not_fit_the_goal_areas_is_refused(num_players, pieces, words):
    with pytest.raises(ValueError) as refusal:
        GAME.new_state(num_players, {"pieces": pieces})
    assert words in str(refusal.value)


@pytest.mark.parametrize(
    ("num_players", "pieces"), [(n, p) for n in (2, 4) for p in pieces_choices(n)], ids=lambda v: str(v)
)
def test_two_hundred_random_games_per_number_of_pieces_end_within_the_move_limit(num_players, pieces):
    for seed in range(200):
        rng = random.Random(seed)
        state = GAME.new_state(num_players, {"pieces": pieces})
        for _ in range(5_000):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert state.is_terminal(), f"seed {seed} did not end"
        view = state.view(None)
        assert view["moves_played"] <= MOVE_LIMIT
        on_board = [sum(stack.count(seat) for stack in view["stacks"].values()) for seat in range(num_players)]
        assert on_board == [pieces] * num_players  # pieces are never made or lost
        if view["end_reason"] == "win":
            assert view["in_goal"][view["winner"]] == pieces
