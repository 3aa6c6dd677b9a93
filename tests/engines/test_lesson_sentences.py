"""What the lessons say about the rules, read from the lessons and checked against the engines:
each sentence below is quoted from a lesson (the test fails if the lesson no longer says it)
and then played or scored through the engine it speaks of."""

import pytest

from games.engines.chit_territory import ChitTerritoryState
from games.engines.game_of_god import GameOfGodState
from games.engines.gp02a import GP02AState
from games.tutorials import get_tutorial, moves_of, position


def said(slug, sentence, lesson=None):
    """``sentence`` appears in the lesson's words (intro, prompts, replies, closing)."""
    tutorial = get_tutorial(slug, lesson)
    words = [tutorial.intro, tutorial.closing]
    for step in tutorial.steps:
        words += [step.prompt, step.done, step.hint]
    flat = [" ".join(w.split()) for w in words]
    assert any(sentence in w for w in flat), f"the {slug} lesson no longer says: {sentence}"


def at_move(slug, action, lesson=None):
    """The lesson's position where the learner is to play ``action``."""
    progress = next(i for i, m in enumerate(moves_of(slug, lesson)) if m.action == action)
    return position(slug, progress, lesson).state


# ---------------------------------------------------------------------------- the dice game


def test_dice_round_ones_card_is_face_down_and_never_takes_effect():
    said(
        "dice-territory",
        "Round 1's card lies face down and never takes effect; every later round opens with a card "
        "face up that bends the rules for that round.",
    )
    game = get_tutorial("dice-territory").game
    round_one = game.new_state(3)
    round_one.apply("first:0")
    round_one.apply("card:C")  # Bold, face down
    view = round_one.view(0)
    assert view["card"]["letter"] is None and view["free_rolls"] == 3  # Bold changes nothing
    round_two = at_move("dice-territory", "capture:b1")  # Bold face up in round 2
    assert round_two.view(0)["card"]["letter"] == "C" and round_two.view(0)["free_rolls"] == 4


def test_dice_a_capture_is_forced_when_no_space_of_the_number_is_free():
    said("dice-territory", "Roll: on a 3 you must take b1 back, as no space marked 3 is free.")
    state = at_move("dice-territory", "capture:b1")
    assert state.legal_actions() == ["capture:b1"]


# ---------------------------------------------------------------------------- the chit game


def run_points(plots_and_types):
    """The breakdown's row lines of seat 0 owning exactly these structures."""
    state = ChitTerritoryState.from_position(2, board={p: (t, 0) for p, t in plots_and_types})
    return [points for name, points in state.view(None)["score_breakdown"][0] if name.startswith("Row ")]


def test_chit_a_run_scores_its_length_or_twice_its_longest_stretch_of_one_type():
    said(
        "chit-territory",
        "A straight run of 3 or more of your structures scores its length, or twice its longest "
        "stretch of one type when that stretch is 3 or more and this gives more.",
    )
    row = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert run_points(zip(row, ["temple", "farm", "town"], strict=False)) == [3]  # its length
    assert run_points(zip(row, ["temple"] * 3, strict=False)) == [6]  # twice the stretch of 3
    assert run_points(zip(row, ["town", "farm", "farm", "farm", "mine"], strict=False)) == [6]
    assert run_points(zip(row, ["town", "farm", "farm", "farm", "mine", "town", "mine", "town"], strict=True)) == [8]
    assert run_points(zip(row, ["town", "town", "farm", "mine"], strict=False)) == [4]  # a stretch of 2: nothing
    lesson = at_move("chit-territory", "build:palace@f5")  # after a1, b1, c1: three temples
    assert [p for n, p in lesson.view(None)["score_breakdown"][0] if n.startswith("Row ")] == [6]


def test_chit_the_game_also_ends_after_five_full_rounds_without_a_build():
    said(
        "chit-territory",
        "The game ends when all 81 plots are built on, or after five full rounds in a row in which nobody built.",
    )

    def rounds_without_build(count):
        state = ChitTerritoryState.from_position(2, cups=[{"army": 10}, {"army": 10}])
        for _ in range(count):
            for _seat in range(2):
                state.apply("draw:army")
                state.apply("draw:army")
                while state.legal_actions() == ["discard:army"]:
                    state.apply("discard:army")
        return state

    assert not rounds_without_build(4).is_terminal()
    assert rounds_without_build(5).is_terminal()


# ---------------------------------------------------------------------------- GP02A


def test_gp02a_a_block_scores_3_for_the_sole_majority_and_shares_a_tie():
    said(
        "gp02a",
        "the sole colour with the most chips in a block scores 3; colours tied for the most share it, "
        "3 divided by their number and rounded down.",
    )
    # No two chips of a colour touch: only the block counts.
    sole = GP02AState.position(3, territory={"a1": "blue", "d3": "blue", "a3": "blue", "d1": "red", "c2": "red"})
    assert sole.scores()[:2] == [3, 0]
    two = GP02AState.position(3, territory={"a1": "blue", "d3": "blue", "d1": "red", "a3": "red"})
    assert two.scores()[:2] == [1, 1]
    three = GP02AState.position(3, territory={"a1": "blue", "d1": "red", "c3": "green"})
    assert three.scores() == [1, 1, 1]


def test_gp02a_in_the_three_player_lesson_card_2_alone_may_move():
    said("gp02a", "with card 2 you may move your own chips instead of placing (with four players, card 3 too).")
    deals = at_move("gp02a", "deal:1,2,4").legal_actions()
    assert deals and all(sorted(a[5:].split(",")) == ["1", "2", "4"] for a in deals)  # no card 3


# ---------------------------------------------------------------------------- Game of God


@pytest.mark.parametrize(("enemy", "offered"), [("b3", True), ("b1", False)])
def test_god_a_challenge_needs_both_pieces_outside_every_goal_area(enemy, offered):
    said(
        "game-of-god",
        "When the piece you moved stands alone next to a lone enemy piece, both outside every goal area, "
        "you may challenge it.",
    )
    # North (seat 0) moves d2-b2; South's lone piece stands on b3 (the active area) or on b1,
    # North's own row, which South entered: a goal area.
    state = GameOfGodState.from_position(2, {"d2": [0], enemy: [1], "h5": [1]}, to_move=0, pieces=[2, 2])
    state.apply("move:d2-b2")
    assert (f"challenge:{enemy}" in state.legal_actions()) is offered
    if not offered:
        assert state.current_player() == 1  # no challenge step: South moves


# ---------------------------------------------------------------------------- Territories


def test_territories_the_closed_area_is_d1_e1_d2_e2_with_your_farm_house_on_d2():
    said(
        "territories",
        "the area d1, e1, d2, e2 holds only your farm house, on d2, so its land squares d1, e1 and e2 "
        "are yours too. 8 points to 0.",
    )
    moves = moves_of("territories")
    state = position("territories", len(moves)).state
    view = state.view(0)
    area = next(a for a in view["areas"] if "d1" in a["squares"])
    assert sorted(area["squares"]) == ["d1", "d2", "e1", "e2"]
    assert area["farms"] == {"yellow": 1, "red": 0} and area["land"] == 3 and area["owner"] == "yellow"
    assert next(s for s in view["squares"] if s["square"] == "d2")["farm"] == "yellow"
    assert state.scores() == [8, 0]
