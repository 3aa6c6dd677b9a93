"""Territories in the browser: a person plays a whole match against a Random bot by clicking
the board (a free spot for a farm house, a highlighted line for a trunk)."""

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from games.engines.territories import TerritoriesState

from .pages import draw_board_alone, log_in, wait_for_change

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000
TIME_LIMIT = 90  # seconds

# What the page offers: the board's clickable elements and the button list, side by side,
# read in one go with the version they belong to (buttons are disabled while a move is sent).
OFFERS = """() => ({
  version: window.matchClient ? window.matchClient.payload.version : -1,
  board: [...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action),
  buttons: [...document.querySelectorAll('#actions button[data-action]:not([disabled])')]
    .map((e) => e.dataset.action),
})"""


def offers(page):
    try:
        return page.evaluate(OFFERS)
    except PlaywrightError:
        page.wait_for_load_state()
        return {"version": -1, "board": [], "buttons": []}


def test_a_person_plays_a_whole_match_by_clicking_the_territories_board(asgi_server, browser, make_user, screenshot):
    person = make_user("farmer")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, asgi_server, person)
    page.goto(f"{asgi_server}/play/computer/")
    page.select_option("select[name=game]", "territories")
    page.select_option("select[name=num_players]", "2")
    page.select_option("select[name=bot]", "random")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.wait_for_selector("#board svg.territories")
    # The field: 48 squares, the eight farm-house spots, columns a-h and rows 1-6.
    assert page.locator("#board svg [data-square].tr-square").count() == 48
    assert page.locator("#board svg .tr-coord").all_text_contents() == list("abcdefgh123456")

    done = {"farm": 0, "trunk": 0, "keyboard": 0, "off_the_line": 0}
    stalls = []
    started = time.monotonic()
    for _ in range(MAX_CLICKS):
        if page.locator("#result:not([hidden])").count():
            break
        assert time.monotonic() - started < TIME_LIMIT, (
            f"no end after {TIME_LIMIT} s; moves made: {done}; versions without an update for 20 s: {stalls}"
        )
        seen = offers(page)
        board, buttons = seen["board"], seen["buttons"]
        if buttons:
            # Every move of the turn is on the board, and nothing else is.
            assert sorted(board) == sorted(buttons), f"board {board} != buttons {buttons}"
            action = board[len(board) // 2]
            target = page.locator(f"#board svg [data-action='{action}']")
            kind = action.split(":")[0]
            if kind == "farm":
                # Only free spots are offered: no farm house stands there yet.
                square = action[5:]
                assert page.locator(f"#board svg .tr-house[data-square='{square}']").count() == 0
            if kind == "trunk" and done["keyboard"] == 0:
                target.focus()
                page.keyboard.press("Enter")
                done["keyboard"] += 1
            elif kind == "trunk" and done["off_the_line"] == 0:
                # A finger lands beside the line, not on it: the line's wide touch area takes it.
                # A click by coordinates does not scroll, so the line is brought into view first
                # (the bottom row's lines lie below a 900 px window).
                target.scroll_into_view_if_needed()
                box = target.bounding_box()
                across = (0.25, 0.5) if box["width"] < box["height"] else (0.5, 0.25)
                page.mouse.click(box["x"] + box["width"] * across[0], box["y"] + box["height"] * across[1])
                done["off_the_line"] += 1
            else:
                target.click()
            done[kind] += 1
        if not wait_for_change(page, seen["version"]):
            stalls.append(seen["version"])
        if buttons and kind == "trunk":
            # The trunk just placed is drawn (the page may be reloading at the very end).
            page.wait_for_selector(f"#board svg .tr-trunk[data-edge='{action[6:]}']", state="attached", timeout=5_000)
    else:
        pytest.fail(f"the match did not finish within {MAX_CLICKS} clicks; moves made: {done}")

    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_selector("#board svg.territories")
    result = page.locator("#result").inner_text()
    assert "Final ranking" in result and "farmer" in result
    assert page.locator("#board svg .tr-house").count() == 8
    assert page.locator("#board svg .tr-trunk").count() >= 6
    # Every area is decided at the end: each farm house stands on shaded, hatched land.
    assert page.locator("#board svg .tr-square.decided").count() == 48
    assert "Game over" in page.locator("#board svg .tr-hint").text_content()
    assert page.locator("#board svg [data-action]").count() == 0
    assert done["farm"] == 4 and done["trunk"] > 0, done
    print(f"moves made through the page: {done} in {time.monotonic() - started:.1f} s")
    screenshot(page, "territories-finished")


def test_an_area_without_a_farm_house_is_drawn_as_nobodys(asgi_server, browser, screenshot):
    # The seed: "both count their land squares inside the surroundings around their farm
    # houses". Play never closes an area without a farm house, so the position is built: the
    # crooked line of the rules page's example, and h6 fenced off alone.
    crooked = ["e1-f1", "e2-f2", "e3-f3", "e4-f4", "e4-e5", "d5-e5", "d6-e6"]
    state = TerritoriesState.from_position(
        yellow=["b2", "d2", "a5", "c5"], red=["f2", "h2", "e5", "g5"], trunks=[*crooked, "g6-h6", "h5-h6"]
    )
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    page.goto(f"{asgi_server}/")
    draw_board_alone(page, "territories", state.view(None), ["farmer", "Random"])
    labels = page.locator("#board svg .tr-area-label .tr-area-text")
    assert sorted(labels.all_text_contents()) == ["R 15", "Y 24", "– 1"]
    nobody = page.locator("#board svg .tr-area-label.nobody title").text_content()
    assert nobody == "No farm house: 1 land square for nobody"
    assert page.locator("#board svg [data-square=h6] .tr-area").count() == 0  # not shaded as anyone's
    assert page.locator("#board svg [data-square=h5].decided.red").count() == 1
    assert "24" in page.locator("#board svg .tr-head").text_content()
    screenshot(page, "territories-nobodys-area")
