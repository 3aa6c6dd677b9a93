"""Territory (chits) in the browser: a person plays a whole match against a Random bot by
clicking the board (war on a structure, a chit to build then a plot, a chit to discard)."""

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from games.models import Match

from .pages import finished, log_in, wait_for_change

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000
TIME_LIMIT = 110  # seconds; measured: 22-33 s on the embedded defaults, 25-55 s on PostgreSQL + Redis
WARS_ON_THE_BOARD = 3  # then the person makes peace, so the map fills sooner

# What the page offers: the board's clickable elements and the button list, side by side.
# Read in one go, with the version they belong to; buttons are disabled while a move is sent.
OFFERS = """() => ({
  version: window.matchClient ? window.matchClient.payload.version : -1,
  board: [...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action),
  choosers: [...document.querySelectorAll('#board svg [data-select]')].map((e) => e.dataset.select),
  buttons: [...document.querySelectorAll('#actions button[data-action]:not([disabled])')]
    .map((e) => e.dataset.action),
})"""


def offers(page):
    try:
        return page.evaluate(OFFERS)
    except PlaywrightError:  # the page reloads itself when the match ends
        page.wait_for_load_state()
        return {"version": -1, "board": [], "choosers": [], "buttons": []}


def play_one(page, seen, done):
    """Make one move through the page; returns what it did, or None when we are not to move."""
    board, buttons = seen["board"], seen["buttons"]
    if not buttons:
        return None
    # Every board element is a legal action of the list, and nothing clickable is missing.
    assert set(board) <= set(buttons), f"the board offers moves the page does not: {set(board) - set(buttons)}"
    svg = page.locator("#board svg")
    wars = [a for a in buttons if a.startswith("war:")]
    if wars:
        assert sorted(a for a in board if a.startswith("war:")) == sorted(wars)
        if done["war"] < WARS_ON_THE_BOARD:
            svg.locator(f"[data-action='{wars[len(wars) // 2]}']").click()
            return "war"
        page.locator("#actions button[data-action=peace]").click()
        return "peace"
    discards = [a for a in buttons if a.startswith("discard:")]
    if discards:
        assert sorted(a for a in board if a.startswith("discard:")) == sorted(discards)
        svg.locator(f"[data-action='{discards[0]}']").click()
        return "discard"
    builds = [a for a in buttons if a.startswith("build:")]
    if builds:
        types = sorted({a[6:].split("@")[0] for a in builds})
        if len(types) == 1:  # one type: the plots are clickable at once
            assert sorted(board) == sorted(builds)
            svg.locator(f"[data-action='{board[len(board) // 2]}']").click()
            return "build"
        assert board == [] and sorted(seen["choosers"]) == types, "pick a structure first, then a plot"
        chooser = svg.locator(f"[data-select='{types[-1]}']")
        if done["chosen"] == 0:
            # By keyboard: Enter picks the structure and moves on to its first plot;
            # Escape takes the choice back.
            chooser.focus()
            page.keyboard.press("Enter")
            focused = page.evaluate("document.activeElement.dataset.action || ''")
            assert focused.startswith(f"build:{types[-1]}@"), focused
            page.keyboard.press("Escape")
            assert offers(page)["board"] == []
            chooser = svg.locator(f"[data-select='{types[-1]}']")
        chooser.click()
        targets = offers(page)["board"]
        assert sorted(targets) == sorted(a for a in builds if a.startswith(f"build:{types[-1]}@"))
        svg.locator(f"[data-action='{targets[0]}']").click()
        return "chosen"
    page.locator("#actions button[data-action]").first.click()
    return "button"


def test_a_person_plays_a_whole_match_by_clicking_the_chit_territory_board(asgi_server, browser, make_user, screenshot):
    person = make_user("builder")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, asgi_server, person)
    page.goto(f"{asgi_server}/play/computer/")
    page.select_option("select[name=game]", "chit-territory")
    page.select_option("select[name=num_players]", "2")
    page.select_option("select[name=bot]", "random")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    match_id = int(page.url.rstrip("/").split("/")[-1])
    page.wait_for_selector("#board svg.chit-territory")
    assert page.locator("#board svg [data-plot]").count() == 81
    assert page.locator("#board svg .ct-territory").count() == 9
    assert page.locator("#board svg .ct-panel").count() == 2

    done = {"war": 0, "peace": 0, "discard": 0, "build": 0, "chosen": 0, "button": 0}
    stalls, waits = [], []  # 20 s waits in a row, and every wait: for the failure messages
    started = time.monotonic()
    for _ in range(MAX_CLICKS):
        if finished(page):
            break
        assert time.monotonic() - started < TIME_LIMIT, (
            f"no end after {TIME_LIMIT} s; moves made: {done}; slowest updates: {sorted(waits)[-5:]}"
        )
        seen = offers(page)
        what = play_one(page, seen, done)
        if what is not None:
            done[what] += 1
        tick = time.monotonic()
        if wait_for_change(page, seen["version"]):
            stalls.clear()
        else:
            match = Match.objects.get(pk=match_id)
            stalls.append(
                f"{what or 'waiting'} at version {seen['version']} (server: version {match.version}, "
                f"seat {match.to_move} to move, {match.status})"
            )
            assert len(stalls) < 2, f"the page got no update for 40 s: {stalls}; moves made: {done}"
        waits.append(time.monotonic() - tick)
    else:
        pytest.fail(f"the match did not finish within {MAX_CLICKS} clicks; moves made: {done}")

    page.wait_for_selector("#result:not([hidden])")
    assert "Final ranking" in page.locator("#result").inner_text()
    assert "builder" in page.locator("#result").inner_text()
    assert "Game over" in page.locator("#board svg .ct-status").text_content()
    assert page.locator("#board svg [data-action]").count() == 0
    # Every kind of board click was used at least once.
    assert done["war"] > 0 and done["discard"] > 0 and done["build"] + done["chosen"] > 0, done
    assert done["chosen"] > 0, f"never had to choose a structure from the reserve: {done}"
    print(f"moves made through the page: {done} in {time.monotonic() - started:.1f} s")
    screenshot(page, "chit-territory-finished")


def test_mountains_and_rivers_are_drawn_and_the_board_fits_a_phone(asgi_server, browser, make_user, screenshot):
    person = make_user("hiker")
    page = browser.new_page(viewport={"width": 375, "height": 800})
    log_in(page, asgi_server, person)
    page.goto(f"{asgi_server}/play/new/")
    page.select_option("select[name=game]", "chit-territory")
    page.select_option("select[name=num_players]", "3")
    page.check("input[name='opt_chit-territory_mountains_rivers']")
    page.uncheck("input[name=rated]")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.select_option("#bot-level", "random")
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    page.wait_for_selector("#board svg.chit-territory .ct-panel")

    svg = page.locator("#board svg.chit-territory")
    assert page.locator("#board svg .ct-cell.mountain").count() == 6
    assert page.locator("#board svg .ct-cell.river").count() == 6
    assert page.locator("#board svg [data-plot='c3'] .ct-cell.mountain").count() == 1
    assert page.locator("#board svg [data-plot='e1'] .ct-cell.river").count() == 1
    assert "mountain" in svg.locator(".ct-legend").all_text_contents()[-2]
    assert page.locator("#board svg .ct-panel").count() == 3
    # Each seat has its own marker shape besides its colour.
    shapes = page.evaluate(
        """[...document.querySelectorAll('#board svg .ct-seat-marker')]
             .map((e) => e.tagName + (e.getAttribute('points') || '').split(' ').length)"""
    )
    assert len(set(shapes)) == 3, shapes
    # The bots keep playing, so the board is redrawn under us: measure in one go.
    layout = page.evaluate(
        """() => ({
          cls: document.querySelector('#board svg').getAttribute('class'),
          width: document.querySelector('#board svg').getBoundingClientRect().width,
          page: document.documentElement.scrollWidth,
        })"""
    )
    assert "narrow" in layout["cls"]
    assert 340 <= layout["width"] <= 375  # the full width of the page, not shrunk to the screen height
    assert layout["page"] <= 375
    screenshot(page, "chit-territory-phone")
