"""After the game: a player asks for the analysis on the match page, follows it to its chart,
and clicks the chart to step the replay to the blunder it marked."""

import pytest

from games.models import Match
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


def test_a_player_asks_for_the_analysis_and_clicks_the_chart_to_the_blunder(
    asgi_server, browser, alice, bob, screenshot
):
    game, record, step, _wins = thrown_away("territories", 2, 7)
    match = finished_with(record, game, [alice, bob])
    page = pages.log_in(browser.new_context().new_page(), asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.get_by_role("button", name="Analyse this game").click()
    # Queued for a worker (a progress bar the page follows) or, eager, done at once.
    page.wait_for_selector("#analysis-progress, #analysis-chart")
    page.wait_for_selector("#analysis-chart", timeout=20_000)
    blunder = page.locator(".analysis-marked li.blunder", has_text=f"Move {step + 1}")
    assert "best was" in blunder.inner_text()
    page.wait_for_selector(f'#moves li[data-index="{step}"] .analysis-mark.blunder')
    assert "30 a blunder" in page.inner_text("#analysis-thresholds")

    page.locator(f'#analysis-chart rect[data-frame="{step + 1}"]').click()
    page.wait_for_function(f"() => document.getElementById('replay-pos').textContent.startsWith('Step {step + 1} ')")
    assert page.locator("#analysis-cursor.shown").count() == 1
    assert page.locator('.analysis-marked li.current[aria-current="step"]').inner_text() == blunder.inner_text()
    assert "current" in (page.get_attribute(f'#moves li[data-index="{step}"]', "class") or "")
    assert violations(page) == []
    screenshot(page, "match-analysis")
