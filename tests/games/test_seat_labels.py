"""The boards name the viewer's own seat once: "alice (blue, you)", never "alice (blue) (you)"
nor "Red (bob (red))" (static/games/board-kit.js, ``seatLabel``, run by Node)."""

import json
from pathlib import Path

from .node import run_module

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "static" / "games"


def labels(seat, names):
    script = (
        'import { seatLabel } from "./static/games/board-kit.js";'
        f"const ctx = {{ seat: {json.dumps(seat)}, seatNames: {json.dumps(names)} }};"
        f"console.log(JSON.stringify({json.dumps(names)}.map((_, i) => seatLabel(ctx, i))));"
    )
    return run_module(script)


def test_the_viewers_seat_says_you_inside_its_colour():
    assert labels(1, ["bob (red)", "alice (blue)"]) == ["bob (red)", "alice (blue, you)"]


def test_a_seat_without_a_colour_says_you_once():
    assert labels(0, ["alice", "MCTS Medium"]) == ["alice (you)", "MCTS Medium"]


def test_a_lessons_seat_called_you_says_it_once():
    assert labels(0, ["You (blue)", "Red farmer (red)"]) == ["You (blue)", "Red farmer (red)"]


def test_a_spectator_sees_the_names_alone():
    assert labels(None, ["bob (red)", "alice (blue)"]) == ["bob (red)", "alice (blue)"]


def test_no_board_adds_a_second_you_or_wraps_a_name_in_its_colour():
    for board in GAMES.glob("*.js"):
        source = board.read_text()
        if board.name != "board-kit.js":
            assert '" (you)"' not in source, board.name
        assert "COLOURS[colour].name} (${" not in source, board.name
