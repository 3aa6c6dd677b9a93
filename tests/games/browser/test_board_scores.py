"""The boards write a score of one in the singular, as the rest of the page does, and the dice
game's board writes every player's name whole, however long."""

import random

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


# Every name text of the dice board's player rows, the header's line under the status, and
# whether any row's name runs into its state and score.
DICE_NAMES = """() => {
  const rows = [...document.querySelectorAll('#board svg .dt-player')];
  const overlaps = rows.some((row) => {
    const score = row.querySelector('.dt-player-score').getBBox();
    return [...row.querySelectorAll('.dt-player-name')].some((t) => {
      const b = t.getBBox();
      return b.x < score.x + score.width && score.x < b.x + b.width
        && b.y < score.y + score.height && score.y < b.y + b.height;
    });
  });
  return {
    rows: rows.map((row) => [...row.querySelectorAll('.dt-player-name')].map((t) => t.textContent).join(' ')),
    hint: [...document.querySelector('#board svg .dt-hint').childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent).join(''),
    tooltip: document.querySelector('#board svg .dt-hint title').textContent,
    overlaps,
  };
}"""


def finished_dice_game(num_players: int):
    state = get_game("dice-territory").new_state(num_players)
    rng = random.Random(11)
    while not state.is_terminal():
        outcomes = state.chance_outcomes()
        if outcomes:
            state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state.view(0)


@pytest.mark.parametrize("width", [1280, 390])  # the wide board beside its panel, and a phone's
def test_the_dice_board_writes_the_winners_whole_name(asgi_server, browser, width, screenshot):
    view = finished_dice_game(3)
    view["ranking"], view["scores"] = [1, 2, 3], [24, 17, 9]
    winner = "alexandra_the_patient_winner_of_long_games"
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{asgi_server}/")
    draw_board_alone(page, "dice-territory", view, [winner, "bob", "Greedy (red)"], seat=0)
    seen = page.evaluate(DICE_NAMES)
    # Over as many lines as it takes (cut between words, or inside a word longer than a line),
    # nothing left out.
    whole = [row.replace(" ", "") for row in seen["rows"]]
    assert whole == [f"1.{winner}(you)", "2.bob", "3.Greedy(red)"], seen["rows"]
    assert "…" not in "".join(seen["rows"])
    assert not seen["overlaps"], "a name runs into its score"
    # The header names the winner whole where its width allows, and in its tooltip always.
    if width >= 1280:
        assert seen["hint"] == f"Won by: {winner} (you)"
    else:
        assert seen["hint"].startswith("Won by: alexandra_the_patient") and seen["hint"].endswith("…")
    assert seen["tooltip"] == f"1. {winner}: 24 points; 2. bob: 17 points; 3. Greedy (red): 9 points"
    screenshot(page, f"dice-long-winner-name-{width}")
