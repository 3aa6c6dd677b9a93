"""The lobby updates itself: a match opened, filled or called off elsewhere shows or goes
without reloading the page, at desktop and phone widths."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services

pytestmark = pytest.mark.browser

LIVE = "() => document.documentElement.dataset.lobbyLive === 'true'"


def in_thread(fn, *args, **kwargs):
    """Run a service in a thread of its own (Playwright's event loop runs in this one)."""

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()  # give the pooled connection back before the thread ends

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(call).result()


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_lobby_shows_new_matches_and_drops_started_ones_by_itself(
    asgi_server, browser, make_user, screenshot, width, height
):
    ann, ben = make_user("ann"), make_user("ben")
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{asgi_server}/play/?game=game-of-god")
    page.wait_for_function(LIVE, timeout=10_000)
    assert "No open match" in page.locator("#open-matches").inner_text()

    match = in_thread(services.match_create, user=ann, game="game-of-god", num_players=2)
    link = page.locator(f'#open-matches a[href="/matches/{match.pk}/"]')
    link.wait_for(timeout=10_000)
    assert "1 open match" in page.locator("#open-count").inner_text()
    other_game = in_thread(services.match_create, user=ben, game="gp02a", num_players=3)
    screenshot(page, f"lobby-updated-{width}")

    in_thread(services.match_join, match_id=match.pk, user=ben)  # full: the match starts
    link.wait_for(state="detached", timeout=10_000)
    assert "No open match" in page.locator("#open-matches").inner_text()
    # The page kept its filter: the other game's match never showed here.
    assert page.locator(f'#open-matches a[href="/matches/{other_game.pk}/"]').count() == 0
    page.close()
