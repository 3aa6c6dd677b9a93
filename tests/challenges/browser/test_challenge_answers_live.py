"""The challenger's challenges page hears an answer the moment it is given, through the
person's /ws/me/ socket, without asking the server again and again: a declined challenge says
so (and no longer when it expires)."""

import pytest

from challenges import services
from tests.games.browser.pages import log_in
from tests.tournaments.browser.test_standings_live import in_thread

pytestmark = pytest.mark.browser

TERMS = {"game": "game-of-god", "num_players": 2, "rated": False, "speed": "live", "seconds_per_move": 30}


def test_a_declined_challenge_shows_on_the_challengers_page_at_once(asgi_server, browser, alice, bob, screenshot):
    challenge = services.challenge_create(user=alice, to=bob, **TERMS)
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, alice)
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/api/challenges/" in request.url else None)
    page.goto(f"{asgi_server}/challenges/")
    page.wait_for_function("() => window.meSocket && window.meSocket.readyState === 1", timeout=10_000)
    row = page.locator(f'li[data-challenge="{challenge.pk}"]')
    assert "expires in" in row.inner_text()

    in_thread(services.challenge_decline, challenge_id=challenge.pk, user=bob)
    page.wait_for_selector(f'li[data-challenge="{challenge.pk}"][data-state="declined"]', timeout=10_000)
    text = row.inner_text()
    assert "declined" in text and "just now" in text and "expires in" not in text
    assert row.get_by_role("button").count() == 0
    page.wait_for_timeout(4000)  # longer than the former polling's first pause
    assert len(asked) <= 1  # at most the one look as the socket opened
    screenshot(page, "challenge-declined-live")
    page.close()
