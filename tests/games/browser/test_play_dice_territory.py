"""Territory (dice) in the browser: a person plays a whole 3-player match against Random bots
by clicking the board (claim or capture a space, the drawn Roll and Stop buttons)."""

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from .pages import CHANGED, finished, log_in, wait_for_change

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000
TIME_LIMIT = 90  # seconds
EXTRA_ROLLS = 1  # after the free rolls the person rolls this many times, then stops (not before a first stop)

# What the page offers: the board's clickable elements, the button list and the turn so far,
# read in one go with the version they belong to (buttons are disabled while a move is sent).
OFFERS = """() => {
  const view = window.matchClient ? window.matchClient.payload.view : {};
  return {
    version: window.matchClient ? window.matchClient.payload.version : -1,
    board: [...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action),
    buttons: [...document.querySelectorAll('#actions button[data-action]:not([disabled])')]
      .map((e) => e.dataset.action),
    round: view.round || 0,
    rolls: (view.rolls || []).length,
    freeRolls: view.free_rolls || 0,
    card: [...document.querySelectorAll('#board svg .dt-card text')].map((e) => e.textContent).join(' '),
  };
}"""


def offers(page):
    try:
        return page.evaluate(OFFERS)
    except PlaywrightError:
        page.wait_for_load_state()
        return {"version": -1, "board": [], "buttons": [], "round": 0, "rolls": 0, "freeRolls": 0, "card": ""}


def play_one(page, seen, done):
    """Make one move through the page; returns what it did, or None when we are not to move."""
    board, buttons = seen["board"], seen["buttons"]
    if not buttons:
        return None
    # The board offers exactly the page's moves: every space move, Roll and Stop are drawn.
    assert sorted(board) == sorted(buttons), f"board {sorted(board)} != buttons {sorted(buttons)}"
    svg = page.locator("#board svg")
    if seen["round"] == 1:
        assert "A hidden card" in seen["card"], seen["card"]
        done["hidden card seen"] = True
    captures = [a for a in board if a.startswith("capture:")]
    claims = [a for a in board if a.startswith("claim:")]
    if captures or claims:
        target = claims[len(claims) // 2] if claims else captures[0]
        svg.locator(f"[data-action='{target}']").click()
        return target.split(":")[0]
    if "stop" in board and seen["rolls"] >= seen["freeRolls"] + (EXTRA_ROLLS if done["stop"] else 0):
        stop = svg.locator("[data-action=stop]")
        if done["stop"] == 0:  # by keyboard, once
            stop.focus()
            page.keyboard.press("Enter")
        else:
            stop.click()
        return "stop"
    if done["roll"] == 0:  # the page's own button list works too
        page.locator("#actions button[data-action=roll]").click()
    else:
        svg.locator("[data-action=roll]").click()
    return "roll"


def test_a_person_plays_a_whole_match_by_clicking_the_dice_territory_board(asgi_server, browser, make_user, screenshot):
    person = make_user("roller")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, asgi_server, person)
    page.goto(f"{asgi_server}/play/computer/")
    page.select_option("select[name=game]", "dice-territory")
    page.select_option("select[name=num_players]", "3")
    page.select_option("select[name=bot]", "random")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.wait_for_selector("#board svg.dice-territory")
    # The addition table: 36 spaces, each with its number and its value.
    assert page.locator("#board svg [data-space]").count() == 36
    assert page.locator("#board svg [data-space='a1'] .dt-number").text_content() == "2"
    assert page.locator("#board svg [data-space='a1'] .dt-value").text_content() == "11 pts"
    assert page.locator("#board svg [data-space='c4'] .dt-number").text_content() == "7"
    assert page.locator("#board svg [data-space='c4'] .dt-value").text_content() == "1 pt"
    # Every player is listed with a shape and a letter of their own.
    letters = page.locator("#board svg .dt-player .dt-letter").all_text_contents()
    assert sorted(letters) == ["B", "G", "R"], letters

    done = {"roll": 0, "stop": 0, "claim": 0, "capture": 0, "hidden card seen": False}
    started = time.monotonic()
    clicks = 0
    for _ in range(MAX_CLICKS):
        if finished(page):
            break
        assert time.monotonic() - started < TIME_LIMIT, f"no end after {TIME_LIMIT} s; moves made: {done}"
        seen = offers(page)
        what = play_one(page, seen, done)
        if what is not None:
            done[what] += 1
            clicks += 1
            if what == "claim" and done["claim"] == 1:
                # The white marker of this turn is on the board before the turn ends.
                page.wait_for_function(CHANGED, arg=seen["version"])
                assert page.locator("#board svg .dt-marker").count() >= 1
                screenshot(page, "dice-territory-marker")
        wait_for_change(page, seen["version"])
    else:
        pytest.fail(f"the match did not finish within {MAX_CLICKS} clicks; moves made: {done}")

    page.wait_for_selector("#result:not([hidden])")
    result = page.locator("#result").inner_text()
    assert "Final ranking" in result and "roller" in result
    page.wait_for_selector("#board svg.dice-territory")
    assert "Game over after 8 rounds" in page.locator("#board svg .dt-status").text_content()
    assert page.locator("#board svg [data-action]").count() == 0
    assert done["hidden card seen"], "round 1 never showed its card as a hidden card"
    assert done["roll"] and done["stop"] and done["claim"], done
    # The person's pieces carry their letter; their best group is outlined when they own one.
    mine = page.locator("#board svg .dt-piece.seat-0 .dt-letter").all_text_contents()
    assert set(mine) <= {"B"}
    if mine:
        assert page.locator("#board svg .dt-best").count() == 1
    print(f"moves made through the page: {done} in {time.monotonic() - started:.1f} s")
    screenshot(page, "dice-territory-finished")

    # On a phone the panel goes under the board and nothing runs off the screen.
    page.set_viewport_size({"width": 375, "height": 800})
    page.wait_for_selector("#board svg.dice-territory.dt-narrow")
    layout = page.evaluate(
        """() => ({
          width: document.querySelector('#board svg').getBoundingClientRect().width,
          page: document.documentElement.scrollWidth,
        })"""
    )
    assert 300 <= layout["width"] <= 375, layout
    assert layout["page"] <= 375, layout
    screenshot(page, "dice-territory-phone")
