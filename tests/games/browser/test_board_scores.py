"""The boards write a score of one in the singular, as the rest of the page does."""

import pytest

from games.engines import get_game

from .pages import draw_board_alone

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("slug", "num_players", "score_class"), [("gp02a", 3, "seat-score"), ("dice-territory", 3, "dt-player-score")]
)
def test_a_seat_with_one_point_reads_1_pt(asgi_server, browser, slug, num_players, score_class):
    view = get_game(slug).new_state(num_players).view(None)
    view["scores"] = [1] + [2] * (num_players - 1)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{asgi_server}/")
    draw_board_alone(page, slug, view, [f"player{i}" for i in range(num_players)])
    scores = [text.split("· ")[-1] for text in page.locator(f"#board svg .{score_class}").all_text_contents()]
    assert "1 pt" in scores and "2 pts" in scores, scores
    assert "1 pts" not in scores
