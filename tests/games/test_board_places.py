"""After the game, the replay of an analysed match marks on the board where a move went, or
would have gone: each board names the places an action goes to (``actionPlaces`` of
static/games/<slug>.js, run by Node), in terms of its own elements; an action that names no
place (a roll, a draw, a pass) has none, and the key under the board says it in words."""

import json
from pathlib import Path

from .node import run_module

ROOT = Path(__file__).resolve().parents[2]


def places(game: str, actions: list[str]) -> list:
    script = (
        f'import {{ actionPlaces }} from "./static/games/{game}.js";'
        f"console.log(JSON.stringify({json.dumps(actions)}.map(actionPlaces)));"
    )
    return run_module(script)


def test_territories_marks_a_farm_houses_square_and_a_trunks_line_between_two_squares():
    assert places("territories", ["farm:d4", "trunk:c6-d6", "first:1"]) == [
        [{"at": '.tr-square[data-square="d4"]'}],
        [{"edge": ['.tr-square[data-square="c6"]', '.tr-square[data-square="d6"]']}],
        [],
    ]


def test_the_game_of_god_marks_a_move_from_its_square_to_its_target_and_a_challenged_square():
    assert places("game-of-god", ["move:a1-b2", "challenge:c3", "pass", "trap", "vacant:c", "dice:3-4"]) == [
        [{"from": '.gg-cell[data-square="a1"]', "to": '.gg-cell[data-square="b2"]'}],
        [{"at": '.gg-cell[data-square="c3"]'}],
        [],
        [],
        [],
        [],
    ]


def test_the_chit_game_marks_the_plot_built_on_or_warred_on():
    assert places("chit-territory", ["build:town@d8", "war:e5", "draw:town", "discard:farm", "peace"]) == [
        [{"at": '.ct-plot[data-plot="d8"]'}],
        [{"at": '.ct-plot[data-plot="e5"]'}],
        [],
        [],
        [],
    ]


def test_the_dice_game_marks_the_space_claimed_or_captured():
    assert places("dice-territory", ["claim:b3", "capture:f6", "roll", "stop"]) == [
        [{"at": '.dt-space[data-space="b3"]'}],
        [{"at": '.dt-space[data-space="f6"]'}],
        [],
        [],
    ]


def test_gp02a_marks_a_field_a_block_or_the_chronology():
    assert places("gp02a", ["put:red@c2", "remove:k5", "lift:a1", "block:3", "chrono:blue", "draw:red", "roll:4"]) == [
        [{"at": '.field[data-field="c2"]'}],
        [{"at": '.field[data-field="k5"]'}],
        [{"at": '.field[data-field="a1"]'}],
        [{"at": '.block-frame[data-block="3"]'}],
        [{"at": ".chronology"}],
        [],
        [],
    ]
