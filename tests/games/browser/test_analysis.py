"""After the game: a player asks for the analysis on the match page, follows it to its chart,
and clicks the chart to step the replay to the blunder it marked, where the board marks the
place of the move the analysis preferred and a key under it says that move in words."""

import pytest
from django.conf import settings

from games.models import Match, MatchAnalysis
from tests.bots.test_analysis import thrown_away
from tests.portal.test_browser_axe import violations

from ..helpers import finished_from
from . import pages

pytestmark = pytest.mark.browser


def finished_with(record, game, users) -> Match:
    """A finished match of ``users`` whose moves are ``record``, written straight to the database."""
    replayed = game.new_state(len(users), {})
    stored = []
    for action in record:
        seat = replayed.current_player()
        stored.append((seat if seat >= 0 else None, action))
        replayed.apply(action)
    return finished_from(game.slug, users, game.normalise_options({}, len(users)), replayed, stored)


def test_a_player_asks_for_the_analysis_and_clicks_the_chart_to_the_blunder_the_board_marks_the_better_move(
    asgi_server, browser, alice, bob, screenshot
):
    game, record, step, _wins = thrown_away("territories", 2, 7)
    match = finished_with(record, game, [alice, bob])
    page = pages.log_in(browser.new_context().new_page(), asgi_server, alice)
    # What the page's socket says of the analysis as it goes (match.js hands it on as an event),
    # on every page the browser loads from here.
    page.add_init_script(
        "window.progressSeen = [];"
        " document.addEventListener('analysis-progress', (e) => window.progressSeen.push(e.detail));"
    )
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.get_by_role("button", name="Analyse this game").click()
    # Queued for a worker: a progress bar the page follows. Eager (the embedded default): done at once.
    page.wait_for_selector("#analysis-progress, #analysis-chart")
    page.wait_for_selector("#analysis-chart", timeout=20_000)
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        page.wait_for_function("() => window.progressSeen.some((p) => p.status === 'done')")
        seen = page.evaluate("window.progressSeen")
        assert any(p["status"] == "running" and 0 <= p["progress"] < 100 for p in seen), seen
        assert [p["progress"] for p in seen] == sorted(p["progress"] for p in seen), "the bar only moves on"
    blunder = page.locator(".analysis-marked li.blunder", has_text=f"Move {step + 1}")
    assert "best was" in blunder.inner_text()
    page.wait_for_selector(f'#moves li[data-index="{step}"] .analysis-mark.blunder')
    assert "30 a blunder" in page.inner_text("#analysis-thresholds")

    page.locator(f'#analysis-chart rect[data-frame="{step + 1}"]').click()
    page.wait_for_function(f"() => document.getElementById('replay-pos').textContent.startsWith('Step {step + 1} ')")
    assert page.locator("#analysis-cursor.shown").count() == 1
    assert page.locator('.analysis-marked li.current[aria-current="step"]').inner_text() == blunder.inner_text()
    assert "current" in (page.get_attribute(f'#moves li[data-index="{step}"]', "class") or "")

    # The board at the blunder marks the place of the move the analysis preferred, and of the
    # one played, and the key under it says both.
    result = MatchAnalysis.objects.get(match=match).result
    assert result is not None
    judged = next(d for d in result["decisions"] if d["step"] == step)
    assert judged["grade"] == "blunder" and judged["best"] != judged["action"]
    best = page.locator("#board .analysis-place.best")
    best.wait_for(state="attached")
    key = page.locator("#analysis-board-key")
    assert key.get_attribute("role") == "status"
    assert f"Move {step + 1}, " in key.inner_text() and "a blunder" in key.inner_text()
    assert f"Better: {judged['best_label']}" in key.inner_text()
    assert f"Played: {judged['label']}" in key.inner_text()
    assert best.get_attribute("aria-label") == f"Better: {judged['best_label']}"
    played = page.locator("#board .analysis-place.played")
    assert played.get_attribute("aria-label") == f"Played: {judged['label']}"

    # The mark stands where the preferred move goes: a farm house's square, or a trunk's line
    # between its two squares.
    verb, _, where = judged["best"].partition(":")
    squares = [page.locator(f'#board .tr-square[data-square="{name}"]').bounding_box() for name in where.split("-")]
    if verb == "farm":
        expected = _centre(squares[0])
    else:
        a, b = (_centre(box) for box in squares)
        expected = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    x, y = _centre(best.bounding_box())
    assert abs(x - expected[0]) < 3 and abs(y - expected[1]) < 3
    assert violations(page) == []
    screenshot(page, "match-analysis")

    # A board drawn anew (narrowed to a phone's width) keeps its marks.
    page.set_viewport_size({"width": 400, "height": 900})
    page.wait_for_selector("#board svg.tr-narrow .analysis-place.best", state="attached")
    assert page.locator("#board .analysis-place").count() == 2

    # The start, no decision's position: no marks, no key.
    page.get_by_role("button", name="First position").click()
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 0 ')")
    assert page.locator("#board .analysis-place").count() == 0
    assert key.inner_text() == ""


def _centre(box):
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
