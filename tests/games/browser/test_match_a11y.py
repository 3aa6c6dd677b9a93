"""A match page for players who listen and players who use the keyboard: the other player's
move is read out in words by a polite live region, and after every update the keyboard focus
stays on the board instead of falling back to the top of the page."""

import pytest

from .pages import CONNECTED, log_in
from .test_takeback import casual_match, state_of

pytestmark = pytest.mark.browser

TIMEOUT = 15_000
MY_TURN = "() => document.querySelectorAll('#actions button.action').length > 0"
MOVES_SHOWN = "(n) => document.querySelectorAll('#moves li').length === n"
NEWS = "() => document.getElementById('move-news').textContent"


def two_players(base, browser, make_user):
    """Ann's and Ben's pages on their casual match, connected, the one to move first."""
    ann, ben = make_user("ann"), make_user("ben")
    match = casual_match(ann, ben)
    pages = []
    for user in (ann, ben):
        page = log_in(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), base, user)
        page.goto(f"{base}/matches/{match.pk}/")
        page.wait_for_function(CONNECTED)
        pages.append(page)
    first = state_of(pages[0])
    return pages if first["to_move"] == first["seat"] else pages[::-1]


def last_listed_move(page, n):
    page.wait_for_function(MOVES_SHOWN, arg=n, timeout=TIMEOUT)
    return page.locator("#moves li").last.locator("span").last.text_content()


def play_and_listen(mover, listener, listed):
    """The mover plays their first legal action, the ``listed``-th move of the match: the
    listener's live region reads it out as the move list words it, the mover's says nothing
    new."""
    mover.wait_for_function(MY_TURN, timeout=TIMEOUT)
    heard_before, mover_before = listener.evaluate(NEWS), mover.evaluate(NEWS)
    mover.locator("#actions button.action").first.click()
    listener.wait_for_function(f"(before) => ({NEWS})() !== before", arg=heard_before, timeout=TIMEOUT)
    name = mover.evaluate("window.matchClient.payload.seat_names[window.matchClient.payload.seat]")
    said = listener.evaluate(NEWS)
    assert said == last_listed_move(listener, listed) and said.startswith(f"{name}: "), said
    assert last_listed_move(mover, listed) == said and mover.evaluate(NEWS) == mover_before


def test_the_other_players_move_is_read_out_in_words_and_ones_own_is_not(asgi_server, browser, make_user):
    first, second = two_players(asgi_server, browser, make_user)
    for page in (first, second):
        assert page.locator("#move-news").get_attribute("aria-live") == "polite"
        assert page.evaluate(NEWS) == ""
    played = state_of(first)["moves"]  # the draw for the first seat is a move already
    play_and_listen(first, second, played + 1)
    play_and_listen(second, first, played + 2)
    for page in (first, second):
        page.context.close()


FOCUS_ON_ACTION = "() => document.activeElement && document.activeElement.matches('[data-action]')"
FOCUS_IN_BOARD = "() => document.getElementById('board').contains(document.activeElement)"
VERSION_PAST = "(v) => window.matchClient.payload.version > v"


def test_a_keyboard_player_keeps_the_focus_on_the_board_after_each_update(asgi_server, browser, make_user):
    first, second = two_players(asgi_server, browser, make_user)
    first.wait_for_function(MY_TURN, timeout=TIMEOUT)
    # Keyboard only: Tab from the top of the page to the first legal action, then Enter.
    for _ in range(100):
        first.keyboard.press("Tab")
        if first.evaluate(FOCUS_ON_ACTION):
            break
    assert first.evaluate(FOCUS_ON_ACTION), "no legal action can be reached with Tab"
    version = state_of(first)["v"]
    first.keyboard.press("Enter")
    first.wait_for_function(VERSION_PAST, arg=version, timeout=TIMEOUT)
    assert first.evaluate(FOCUS_IN_BOARD), first.evaluate("document.activeElement.outerHTML.slice(0, 80)")

    # The other player's moves redraw the board again: the focus stays there.
    while not first.evaluate(MY_TURN):
        state = state_of(second)
        if state["to_move"] == state["seat"]:
            second.wait_for_function(MY_TURN, timeout=TIMEOUT)
            second.locator("#actions button.action").first.click()
        first.wait_for_function(VERSION_PAST, arg=state["v"], timeout=TIMEOUT)
        assert first.evaluate(FOCUS_IN_BOARD)
    # Once it is their move again, the next legal action on the board is one Tab away, not a page of them.
    first.keyboard.press("Tab")
    assert first.evaluate(FOCUS_ON_ACTION) and first.evaluate(FOCUS_IN_BOARD)
    for page in (first, second):
        page.context.close()
