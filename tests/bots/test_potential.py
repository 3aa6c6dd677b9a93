"""A search's judgement of what a position is still worth: in the chit game the bonuses for
controlling territories counted by how likely the control is to last, not all or nothing; in
Game of God the pieces on their way home, not only those already there."""

import random

import pytest

from games.bots import MCTSBot
from games.bots.base import margin
from games.bots.potential import (
    GOD_READY,
    GOD_TRAPPED,
    chit_control,
    chit_expected_scores,
    expected_scores_of,
    god_expected_scores,
)
from games.engines import get_game
from games.engines.chit_territory import TYPES, ChitTerritoryState
from games.engines.game_of_god import GameOfGodState

STRUCTURE_TYPES = TYPES[:6]


def centre(lead: int, rival: int = 0) -> ChitTerritoryState:
    """Seat 0 with ``lead`` structures in the centre territory (d4-f6), seat 1 with ``rival``,
    and nothing else on the board."""
    plots = ["d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"]
    board = {plot: (STRUCTURE_TYPES[i % 6], 0) for i, plot in enumerate(plots[:lead])}
    board.update({plot: (STRUCTURE_TYPES[i % 6], 1) for i, plot in enumerate(plots[lead : lead + rival])})
    return ChitTerritoryState.from_position(2, board=board)


def full_board() -> ChitTerritoryState:
    """Every plot built, the two seats alternating plot by plot (row by row)."""
    board = {}
    for i in range(81):
        plot = "abcdefghi"[i % 9] + str(i // 9 + 1)
        board[plot] = (STRUCTURE_TYPES[(i // 2) % 6], i % 2)
    return ChitTerritoryState.from_position(2, board=board)


def test_on_a_full_board_the_expected_scores_are_the_scores():
    state = full_board()
    assert not state.empty
    assert chit_expected_scores(state) == pytest.approx(state.scores())


def test_a_lead_in_a_half_empty_territory_is_likely_control_but_not_certain():
    state = centre(lead=2, rival=1)  # six plots empty
    assert state.scores() == [5 + 3, 0]  # the centre's 5 counts whole now, and most castles
    chance, now = chit_control(state)
    assert now[4] == 0
    assert 0.5 < chance[0][4] < 1
    assert chance[1][4] == pytest.approx(1 - chance[0][4])


def test_a_wider_lead_is_worth_more_than_the_scores_say():
    narrow, wide = centre(lead=2, rival=1), centre(lead=4, rival=1)
    assert chit_control(narrow)[0][0][4] < chit_control(wide)[0][0][4] < 1
    # The scores give the centre's 5 to both leads; only the most-of-a-type bonuses differ.
    # Judged by what is to come, the wider lead also makes the centre (and every line and
    # square through it) more likely to stay.
    by_scores = margin(wide.scores(), 0) - margin(narrow.scores(), 0)
    by_expectation = margin(chit_expected_scores(wide), 0) - margin(chit_expected_scores(narrow), 0)
    assert by_expectation > by_scores + 1


def test_the_same_lead_is_safer_the_fewer_plots_are_left_to_fill():
    early = chit_control(centre(lead=2, rival=1))[0][0][4]  # 6 plots empty
    late = chit_control(centre(lead=5, rival=4))[0][0][4]  # 0 plots empty: settled
    later = chit_control(centre(lead=4, rival=3))[0][0][4]  # 2 plots empty
    assert early < later < late == 1.0


def test_a_tied_territory_is_anybodys_and_an_empty_one_too():
    tied = chit_control(centre(lead=2, rival=2))[0]
    assert tied[0][4] == pytest.approx(0.5) and tied[1][4] == pytest.approx(0.5)
    empty = chit_control(ChitTerritoryState.from_position(3))[0]
    assert all(empty[s][t] == pytest.approx(1 / 3) for s in range(3) for t in range(9))


def test_the_chit_game_and_game_of_god_have_a_model_of_what_is_to_come_the_others_none():
    assert expected_scores_of(get_game("chit-territory").new_state(2)) is chit_expected_scores
    assert expected_scores_of(get_game("game-of-god").new_state(2)) is god_expected_scores
    for slug in ("gp02a", "dice-territory", "territories"):
        game = get_game(slug)
        assert expected_scores_of(game.new_state(game.allowed_player_counts()[0])) is None


def test_in_games_without_a_model_the_setting_changes_no_choice():
    from tests.bots.test_positions import TERRITORIES_BEFORE_THE_LAST_FENCE

    state = get_game("territories").new_state(2)
    for action in TERRITORIES_BEFORE_THE_LAST_FENCE.split()[:12]:
        state.apply(action)
    seat = state.current_player()
    for seed in range(3):
        plain = MCTSBot(iterations=300).choose(state.clone(), seat, random.Random(seed))
        judged = MCTSBot(iterations=300, potential=4).choose(state.clone(), seat, random.Random(seed))
        assert plain == judged


def test_a_search_judging_what_is_to_come_reinforces_a_narrow_lead_in_the_centre():
    # Seat 0 leads the centre 2 to 1 with six plots empty and holds a farm; seat 1 holds
    # nothing. By the scores every build is as good as any other (the centre's 5 is already
    # counted, no build makes a row of three); judged by what is to come, a third structure
    # in the centre is worth more than a farm elsewhere.
    state = ChitTerritoryState.from_position(
        2,
        board={"d4": ("temple", 0), "f5": ("castle", 0), "e6": ("town", 1)},
        reserves=[{"farm": 1}, {}],
        player=0,
        step="build",
    )
    centre_plots = {"e4", "f4", "d5", "e5", "d6", "f6"}  # its empty plots
    bot = MCTSBot(iterations=1500, potential=2)
    built = {bot.choose(state.clone(), 0, random.Random(seed)).split("@")[1] for seed in range(4)}
    assert built <= centre_plots


def test_larger_tables_than_the_setting_allows_are_judged_by_the_scores():
    state = ChitTerritoryState.from_position(
        3,
        board={"d4": ("temple", 0), "f5": ("castle", 0), "e6": ("town", 1), "a1": ("farm", 2)},
        reserves=[{"farm": 1, "mine": 1}, {}, {}],
        player=0,
        step="build",
    )
    for seed in range(3):
        plain = MCTSBot(iterations=300).choose(state.clone(), 0, random.Random(seed))
        two_players = MCTSBot(iterations=300, potential=2).choose(state.clone(), 0, random.Random(seed))
        assert plain == two_players


# -- Game of God: North (seat 0) races for row 8, South (seat 1) for row 1 ------------------


def god(stacks: dict[str, list[int]], to_move: int = 0) -> GameOfGodState:
    return GameOfGodState.from_position(2, stacks, to_move, pieces=[14, 14])


def test_a_piece_home_counts_one_and_a_piece_on_its_way_part_of_one():
    home = god({"d8": [0], "e8": [1]})  # d8 in South's goal area; South's piece on its own row
    assert home.scores() == [1, 0]
    assert god_expected_scores(home)[0] == pytest.approx(1.0)  # frozen there: exactly its point
    # The same piece three rows short of row 8, its line into it blocked by South's piece.
    on_its_way = god({"d5": [0], "d7": [1], "e8": [1]})
    assert on_its_way.scores() == [0, 0]
    assert 0 < god_expected_scores(on_its_way)[0] < 1


def test_a_piece_further_on_its_way_counts_more():
    behind, ahead = god({"d3": [0], "d4": [1]}), god({"d6": [0], "d7": [1]})
    assert god_expected_scores(behind)[0] < god_expected_scores(ahead)[0]


def test_an_open_line_into_a_goal_area_is_worth_more_than_a_blocked_one():
    open_line = god({"d5": [0], "e7": [1]})  # d6, d7 empty: d5-d8 enters South's goal area
    blocked = god({"d5": [0], "d7": [1]})
    # Also blocked sideways and back: no line from d5 reaches any goal square but row 8.
    gain = god_expected_scores(open_line)[0] - god_expected_scores(blocked)[0]
    assert gain == pytest.approx(GOD_READY)


def test_a_trapped_piece_counts_little_and_its_trapper_as_a_free_piece():
    trapped = god({"d5": [0, 1], "a2": [1]})  # South's piece lies on North's
    free = god({"c4": [0], "d5": [1], "a2": [1]})
    assert god_expected_scores(trapped)[0] == pytest.approx(GOD_TRAPPED)
    assert god_expected_scores(free)[0] > GOD_TRAPPED
    # South's trapper on d5 can still head for row 1 like any lone piece there.
    assert god_expected_scores(trapped)[1] == pytest.approx(god_expected_scores(free)[1])


def test_a_search_judging_what_is_to_come_lines_a_piece_up_with_the_way_home():
    # South's pairs hold every square of row 8 but d8, and North's pairs on row 2 close every
    # file South could come up: nobody can enter a goal area this move, so by the scores every
    # move is as good as any other. Judged by what is to come, a move onto the empty d file
    # opens North's only way home, which South (its pieces on row 8 move only north, up their
    # own files) cannot close before North moves again.
    row8 = {f"{col}8": [1, 1] for col in "abcefgh"}
    row2 = {f"{col}2": [0, 0] for col in "abcefgh"}
    state = god({"b4": [0], **row2, **row8}, to_move=0)
    bot = MCTSBot(iterations=300, potential=2)
    targets = {bot.choose(state.clone(), 0, random.Random(seed)).split("-")[1] for seed in range(4)}
    assert {square[0] for square in targets} == {"d"}
