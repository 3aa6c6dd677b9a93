"""While the live path is down (Redis: the channel layer) the match page's socket is refused
with 4503 and the page plays over the REST API: a move made on the page is saved and shown,
the other player's moves show by polling; once the live path is back the socket reconnects.

The outage is simulated in the server's process as the outage tests do: the live path's
breaker says it is down (``live.reach.down``), so every new socket is closed with
``LIVE_DOWN_CLOSE_CODE`` and no broadcast is tried."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games import services, state_cache
from games.models import Match
from live import reach

from . import pages
from .test_match_page import RECONNECT_PAUSE_MAX_MS, log_in, off_the_page_thread, page_version, start

pytestmark = pytest.mark.browser

API_POLL_MS = 5_000  # static/js/match.js: how often the page asks for the position without its socket
DOWN_BANNER = "The live connection is down"


def bob_moves(match_id, bob):
    current = Match.objects.get(pk=match_id)
    action = state_cache.load(current).legal_actions()[0]
    services.match_act(match_id=match_id, user=bob, action=action, version=current.version)


def alice_to_move(match, alice, bob):
    """Bob plays until alice is to move (the first seat to move may be either)."""
    while Match.objects.get(pk=match.pk).to_move != 0:
        bob_moves(match.pk, bob)
    return Match.objects.get(pk=match.pk)


def test_during_an_outage_the_page_moves_over_the_api_and_reconnects_once_the_live_path_is_back(
    asgi_server, browser, alice, bob, monkeypatch, screenshot
):
    match = off_the_page_thread(lambda: alice_to_move(start(alice, bob), alice, bob))
    monkeypatch.setattr(reach, "down", lambda: True)  # the live path is down from here on

    context = browser.new_context()
    context.clock.install()  # the page's reconnect and polling timers run when the test says
    page = log_in(context, asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")

    # The socket is refused with 4503: the page says the moves go to the server directly.
    page.wait_for_selector("#banner:not([hidden])")
    assert DOWN_BANNER in page.inner_text("#banner")
    assert page.evaluate("() => window.matchClient.socket.readyState") == 3  # CLOSED
    seen = page_version(page)
    assert seen == match.version

    # Alice moves on the page: each move is saved over the API and the page shows it.
    while True:
        page.locator("#actions button[data-action]").first.click()
        page.wait_for_function("v => window.matchClient.payload.version > v", arg=seen, timeout=20_000)
        saved = Match.objects.get(pk=match.pk)
        assert saved.version == seen + 1 and page_version(page) == saved.version
        seen = saved.version
        if saved.to_move != 0:
            break  # alice's turn is over
    assert saved.moves.filter(seat=0).exists()
    assert DOWN_BANNER in page.inner_text("#banner"), "still without its socket"

    # Bob answers (nobody can be told over the live path): alice's page finds it by polling.
    off_the_page_thread(lambda: bob_moves(match.pk, bob))
    latest = Match.objects.get(pk=match.pk).version
    # The poll skips a round while the page still waits on its own last move: the page's
    # clock runs poll after poll until one finds it, as it would by itself.
    for _ in range(20):
        page.clock.run_for(API_POLL_MS)
        try:
            page.wait_for_function("v => window.matchClient.payload.version === v", arg=latest, timeout=1_000)
            break
        except PlaywrightTimeoutError:
            continue
    assert page_version(page) == latest, "the page's polls found bob's move"
    screenshot(page, "match-live-down")

    # The live path is back: the page's next try opens the socket, and the banner goes.
    monkeypatch.undo()
    page.clock.run_for(RECONNECT_PAUSE_MAX_MS)
    page.wait_for_function(pages.CONNECTED, timeout=20_000)
    page.wait_for_selector("#banner", state="hidden")
    assert page_version(page) == Match.objects.get(pk=match.pk).version
    context.close()
