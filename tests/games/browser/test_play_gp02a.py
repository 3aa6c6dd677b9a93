"""GP02A Territory in the browser: a person plays a whole match against Random bots by clicking
the board (a block, a field for each chip, a colour from the tray first when several wait, a
hand chip for the chronology, own chips to lift), and the purple chip is picked from the hand
before the chip it removes."""

import random
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from games.engines.gp02a import GAME, GP02AState

from .pages import finished, log_in, wait_for_change

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000
TIME_LIMIT = 120  # seconds
MOVES_TO_TRY = 2  # the person moves (lifts own chips) this often when the card allows it

# What the page offers: the board's clickable elements and the button list, side by side.
# Read in one go, with the version they belong to; buttons are disabled while a move is sent.
OFFERS = """() => ({
  version: window.matchClient ? window.matchClient.payload.version : -1,
  board: [...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action),
  choosers: [...document.querySelectorAll('#board svg [data-select]')].map((e) => e.dataset.select),
  buttons: [...document.querySelectorAll('#actions button[data-action]:not([disabled])')]
    .map((e) => e.dataset.action),
  seat: window.matchClient ? window.matchClient.payload.seat : null,
})"""


def offers(page):
    try:
        return page.evaluate(OFFERS)
    except PlaywrightError:  # the page reloads itself when the match ends
        page.wait_for_load_state()
        return {"version": -1, "board": [], "choosers": [], "buttons": [], "seat": None}


def of_kind(actions, kind):
    return sorted({a for a in actions if a.startswith(f"{kind}:")})


def play_one(page, seen, done, rng):
    """Make one move through the page; returns what it did, or None when we are not to move."""
    board, buttons = seen["board"], seen["buttons"]
    if not buttons:
        return None
    # Every board element is a legal action of the list.
    assert set(board) <= set(buttons), f"the board offers moves the page does not: {set(board) - set(buttons)}"
    svg = page.locator("#board svg")
    if "move" in buttons and done["move"] < MOVES_TO_TRY:
        page.locator("#actions button[data-action=move]").click()
        return "move"
    purges = of_kind(buttons, "purge")
    if purges and len(purges) == len(buttons):
        # Only the purple chip is left to use: the chips on white fields are clickable at once.
        assert sorted(board) == purges
        svg.locator(f"[data-action='{rng.choice(purges)}']").click()
        return "purge"
    if purges:
        assert of_kind(board, "purge") == [], "pick the purple chip before the chip it removes"
        if done["purge"] == 0:
            svg.locator("[data-select=purple]").click()
            assert of_kind(offers(page)["board"], "purge") == purges
            svg.locator(f"[data-action='{rng.choice(purges)}']").click()
            return "purge"
    puts = of_kind(buttons, "put")
    if puts:
        colours = sorted({a[4:].split("@")[0] for a in puts})
        if len(colours) == 1:  # one colour waits: the free fields are clickable at once
            assert of_kind(board, "put") == puts
            svg.locator(f"[data-action='{rng.choice(puts)}']").click()
            return "put"
        assert set(colours) <= set(seen["choosers"])
        picked = of_kind(board, "put")
        if picked:  # the colour picked for the last chip stays picked while chips of it wait
            colour = picked[0][4:].split("@")[0]
            assert picked == [a for a in puts if a.startswith(f"put:{colour}@")]
            assert svg.locator(f"[data-select='{colour}']").get_attribute("aria-pressed") == "true"
            svg.locator(f"[data-action='{rng.choice(picked)}']").click()
            return "put"
        colour = rng.choice(colours)
        mine = [a for a in puts if a.startswith(f"put:{colour}@")]
        chooser = svg.locator(f"[data-select='{colour}']")
        if done["chosen"] == 0:
            # By keyboard: Enter picks the colour, Escape takes the choice back.
            chooser.focus()
            page.keyboard.press("Enter")
            assert of_kind(offers(page)["board"], "put") == mine
            assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
            page.keyboard.press("Escape")
            assert of_kind(offers(page)["board"], "put") == []
            chooser = svg.locator(f"[data-select='{colour}']")
        chooser.click()
        assert of_kind(offers(page)["board"], "put") == mine
        svg.locator(f"[data-action='{rng.choice(mine)}']").click()
        return "chosen"
    for kind in ("remove", "lift", "block", "chrono"):
        actions = of_kind(buttons, kind)
        if actions:
            assert of_kind(board, kind) == actions, f"{kind}: the board and the list differ"
            svg.locator(f"[data-action='{rng.choice(actions)}']").first.click()
            return kind
    # The deal (and a move past the tries above) stays in the button list, in plain words.
    assert not board, f"the board offers {board} for a step it does not draw"
    deals = of_kind(buttons, "deal")
    choices = page.locator("#actions button[data-action]")
    if deals:
        card_four = [a for a in deals if a.split(":")[1].split(",")[seen["seat"]] == "4"]
        assert card_four == [], "the Main Player is never offered card 4 for himself"
        label = choices.first.inner_text()
        assert label.startswith("Deal card ") and " to " in label, label
    choices.nth(rng.randrange(choices.count())).click()
    return "deal" if deals else "button"


def test_a_person_plays_a_whole_match_by_clicking_the_gp02a_board(asgi_server, browser, make_user, screenshot):
    person = make_user("shaper")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, asgi_server, person)
    page.goto(f"{asgi_server}/play/computer/")
    page.select_option("select[name=game]", "gp02a")
    page.select_option("select[name=num_players]", "4")
    page.select_option("select[name=bot]", "random")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.wait_for_selector("#board svg.gp02a")
    assert page.locator("#board svg .field-bg").count() == 72
    assert page.locator("#board svg .field-bg.gray").count() == 12
    assert page.locator("#board svg .block-frame").count() == 6
    assert page.locator("#board svg .chrono-cell").count() == 28
    assert page.locator("#board svg .seat-panel").count() == 4

    rng = random.Random(2)
    done = dict.fromkeys(("move", "purge", "put", "chosen", "remove", "lift", "block", "chrono", "deal", "button"), 0)
    started = time.monotonic()
    for _ in range(MAX_CLICKS):
        if finished(page):
            break
        assert time.monotonic() - started < TIME_LIMIT, f"no end after {TIME_LIMIT} s; moves made: {done}"
        seen = offers(page)
        what = play_one(page, seen, done, rng)
        if what is not None:
            done[what] += 1
        wait_for_change(page, seen["version"])
    else:
        pytest.fail(f"the match did not finish within {MAX_CLICKS} clicks; moves made: {done}")

    page.wait_for_selector("#result:not([hidden])")
    assert "Final ranking" in page.locator("#result").inner_text()
    assert "shaper" in page.locator("#result").inner_text()
    assert "Game over" in page.locator("#board svg .panel-title").first.text_content()
    assert page.locator("#board svg [data-action]").count() == 0
    # Every turn has a block and a chronology chip; the deal falls to the person only when chance
    # makes them Main Player, so it is checked where it happens (in play_one).
    assert done["block"] > 0 and done["chrono"] > 0, done
    assert done["put"] + done["chosen"] > 0, done
    print(f"moves made through the page: {done} in {time.monotonic() - started:.1f} s")
    screenshot(page, "gp02a-finished")


# ---------------------------------------------------------------------------------------
# The renderer on its own, fed by the engine: positions a random match seldom reaches.

RENDER = """async ({view, legal, seat, names}) => {
  const renderer = await import('/static/games/gp02a.js');
  let box = document.getElementById('board');
  if (!box) {
    box = document.createElement('div');
    box.id = 'board';
    box.className = 'board';
    document.getElementById('main').prepend(box);
  }
  box.replaceChildren();
  window.acted = [];
  const seats = names.map((username, index) => ({index, username, is_bot: index > 0}));
  renderer.render(box, view, {seat, seats, legal, act: (action) => window.acted.push(action)});
}"""


def show(page, state, seat=0):
    legal = state.legal_actions() if state.current_player() == seat else []
    page.evaluate(
        RENDER,
        {
            "view": state.view(seat),
            "legal": [{"action": a, "label": GAME.action_label(a)} for a in legal],
            "seat": seat,
            "names": ["shaper", "Random", "Random", "Random"],
        },
    )


def board_actions(page):
    return page.evaluate("[...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action)")


def a_turn_holding_the_purple_chip():
    """Seat 0, the Main Player, holds purple, blue, red and green; chips lie on a1, b1, e1 and
    the gray b2."""
    state = GP02AState.position(4, territory={"a1": "red", "b1": "blue", "e1": "green", "b2": "yellow"}, main=0)
    for action in ("roll:4", "draw:purple", "draw:blue", "draw:red", "draw:green"):
        state.apply(action)
    for _ in range(3 * 4):
        state.apply("draw:yellow")
    state.apply("deal:1,2,3,4")
    return state


def test_the_purple_chip_is_picked_from_the_hand_then_the_chip_it_removes(asgi_server, browser):
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(f"{asgi_server}/")
    state = a_turn_holding_the_purple_chip()
    show(page, state)
    # The chronology step: each hand colour is a button (in the hand and on the chronology).
    assert sorted(set(board_actions(page))) == ["chrono:blue", "chrono:green", "chrono:red"]
    layout = page.evaluate(
        """() => ({
          cls: document.querySelector('#board svg').getAttribute('class'),
          width: document.querySelector('#board svg').getBoundingClientRect().width,
          page: document.documentElement.scrollWidth,
        })"""
    )
    assert "narrow" in layout["cls"] and 300 <= layout["width"] <= 375 and layout["page"] <= 375, layout

    purple = page.locator("#board svg [data-select=purple]")
    purple.click()
    # Only the chips on white fields can go; the gray b2 stays.
    assert sorted(board_actions(page)) == ["purge:a1", "purge:b1", "purge:e1"]
    page.keyboard.press("Escape")
    assert "purge:a1" not in board_actions(page)

    purple.click()
    page.locator("#board svg [data-action='purge:e1']").click()
    assert page.evaluate("window.acted") == ["purge:e1"]


def test_with_chips_of_several_colours_the_colour_is_picked_before_the_field(asgi_server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{asgi_server}/")
    state = a_turn_holding_the_purple_chip()
    state.apply("chrono:blue")
    show(page, state)
    # Every block with room is one click; the chosen block is then the only place to put.
    assert sorted(a for a in board_actions(page) if a.startswith("block:")) == [f"block:{k}" for k in range(1, 7)]
    assert page.locator("#board svg .waiting").count() == 0
    page.locator("#board svg [data-action='block:4']").click()
    assert page.evaluate("window.acted") == ["block:4"]

    state.apply("block:4")
    show(page, state)
    assert [a for a in board_actions(page) if a.startswith("put:")] == []
    assert page.locator("#board svg .waiting").count() == 12  # block 4 is empty: all its fields, gray ones too
    page.locator("#board svg [data-select=green]").click()
    greens = sorted(a for a in state.legal_actions() if a.startswith("put:green@"))
    assert sorted(board_actions(page)) == greens
    # Clicking elsewhere takes the colour back.
    page.locator("#board svg .gp-bg").click(position={"x": 5, "y": 5})
    assert board_actions(page) == []
    page.locator("#board svg [data-select=red]").click()
    page.locator("#board svg [data-action='put:red@b5']").click()
    assert page.evaluate("window.acted") == ["put:red@b5"]

    # With one colour left, the fields are clickable at once.
    state.apply("put:red@b5")
    show(page, state)
    assert sorted(board_actions(page)) == sorted(a for a in state.legal_actions() if a.startswith("put:"))
    assert page.locator("#board svg .tray-chip").count() == 1


def test_the_blocks_to_choose_are_marked_without_hiding_a_chip(asgi_server, browser, screenshot):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{asgi_server}/")
    state = a_turn_holding_the_purple_chip()
    state.apply("chrono:blue")
    show(page, state)
    overlaps = page.evaluate(
        """() => {
          // Both are discs: they meet when their centres are closer than their radii together.
          const box = (e) => {
            const r = e.getBoundingClientRect();
            return {x: r.left + r.width / 2, y: r.top + r.height / 2, r: r.width / 2};
          };
          const meet = (a, b) => Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r;
          const chips = [...document.querySelectorAll('#board svg .chip:not(.ghost) .chip-disc')].map(box);
          const marks = [...document.querySelectorAll('#board svg .block-target .block-pill')].map(box);
          return {marks: marks.length, chips: chips.length,
                  hidden: marks.flatMap((m) => chips.filter((c) => meet(m, c))).length};
        }"""
    )
    assert overlaps["marks"] == 6 and overlaps["chips"] >= 4, overlaps
    assert overlaps["hidden"] == 0, overlaps
    screenshot(page, "gp02a-choosing-a-block")
