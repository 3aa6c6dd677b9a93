"""The match page says "your move" where a player looks when they are in another tab: the tab's
title and icon. The header's count of matches waiting follows along; a spectator is never
told it is their move."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services, state_cache
from tests.games.browser.pages import CONNECTED, log_in
from tests.games.helpers import fresh

from .helpers import correspondence, until_waiting_for, waiting_for

pytestmark = pytest.mark.browser

TIMEOUT = 15_000
TITLE_IS = "(expected) => document.title === expected"
HEADER_COUNT_IS = "(n) => document.documentElement.dataset.yourTurnCount === String(n)"


def in_thread(fn, *args):
    """``fn(*args)`` in a thread of its own: Playwright's event loop runs in this one, and the
    services send to the channel layer."""

    def run():
        try:
            return fn(*args)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(run).result()


def opponent_to_move(ann, ben):
    match = correspondence(ann, ben)
    return until_waiting_for(match, ben) if waiting_for(match) == ann else match


def opponent_moves(match_id):
    """The person to move (not the one in the browser) plays until it is the other's move."""
    match = fresh(match_id)
    mover = waiting_for(match)
    while match.status == "active" and waiting_for(match) == mover:
        state = state_cache.load(match)
        services.match_act(match_id=match.pk, user=mover, action=state.legal_actions()[0], version=match.version)
        match = fresh(match_id)


def test_the_tab_title_shows_your_move_when_the_opponent_moves_and_back_after_you_move(
    asgi_server, browser, make_user, screenshot
):
    ann, ben, cleo = make_user("ann"), make_user("ben"), make_user("cleo")
    match = in_thread(opponent_to_move, ann, ben)
    base_title = f"Game of God #{match.pk} · Territory Games"

    page = log_in(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), asgi_server, ann)
    page.goto(f"{asgi_server}{match.get_absolute_url()}")
    page.wait_for_function(CONNECTED)
    watcher = log_in(browser.new_context(viewport={"width": 390, "height": 800}).new_page(), asgi_server, cleo)
    watcher.goto(f"{asgi_server}{match.get_absolute_url()}")
    watcher.wait_for_function(CONNECTED)
    assert page.title() == base_title
    idle_icon = page.get_attribute('link[rel="icon"]', "href")
    page.wait_for_function(HEADER_COUNT_IS, arg=0, timeout=TIMEOUT)

    in_thread(opponent_moves, match.pk)  # now it is ann's move
    page.wait_for_function(TITLE_IS, arg=f"(Your move) {base_title}", timeout=TIMEOUT)
    assert page.get_attribute('link[rel="icon"]', "href").endswith("favicon-your-turn.svg")
    page.wait_for_function(HEADER_COUNT_IS, arg=1, timeout=TIMEOUT)
    assert page.locator("#your-turn-count").inner_text() == "1"
    screenshot(page, "your-move-tab-title")

    # The spectator's page moved on too, and never claims the move.
    version = fresh(match.pk).version
    watcher.wait_for_function("(v) => window.matchClient.payload.version >= v", arg=version, timeout=TIMEOUT)
    assert watcher.title() == base_title
    assert watcher.locator("#turn-sound").count() == 0

    # Ann moves: the title and icon are back to normal, and nothing waits for her.
    while page.evaluate("window.matchClient.payload.clocks.to_move === window.matchClient.payload.seat"):
        # The version is read before the click: the update may arrive before a read after it.
        before = page.evaluate("window.matchClient.payload.version")
        page.locator("#actions button.action").first.click()
        page.wait_for_function("(v) => window.matchClient.payload.version > v", arg=before, timeout=TIMEOUT)
    page.wait_for_function(TITLE_IS, arg=base_title, timeout=TIMEOUT)
    assert page.get_attribute('link[rel="icon"]', "href") == idle_icon
    page.wait_for_function(HEADER_COUNT_IS, arg=0, timeout=TIMEOUT)


def test_the_sound_toggle_is_off_by_default_and_remembered(asgi_server, browser, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    match = in_thread(correspondence, ann, ben)
    context = browser.new_context()
    page = log_in(context.new_page(), asgi_server, ann)
    page.goto(f"{asgi_server}{match.get_absolute_url()}")
    toggle = page.get_by_label("Play a sound when it is my move")
    assert not toggle.is_checked()
    toggle.check()
    page.reload()
    assert page.get_by_label("Play a sound when it is my move").is_checked()
    assert page.evaluate("window.localStorage.getItem('territory-games:turn-sound')") == "on"
