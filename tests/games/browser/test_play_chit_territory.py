"""Territory (chits) in the browser: a person plays a match against a Random bot to its end by
clicking the board (war on a structure, a chit to build then a plot, a chit to discard).

The match is made through the page, and then taken to a position near its end before the
person plays on: the first 60-odd plots of a seeded playout are recorded as the match's moves
(the way a takeback rewrites them: a new version, noted as rewound). Every kind of click still
comes up in what is left, which the person plays to the end through the page; a whole match
played by clicking took up to a minute and a half and showed nothing more.
"""

import random

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from games.engines import CHANCE, get_game
from games.models import Match, Move, Seat
from live.groups import match_group
from portal import page_cache

from .pages import finished, log_in, wait_for_change

pytestmark = pytest.mark.browser

MAX_CLICKS = 3000
WARS_ON_THE_BOARD = 3  # then the person makes peace, so the map fills sooner
PLOTS_LEFT = 16  # free plots when the person takes over: some 40 clicks to the end

# What the page offers: the board's clickable elements and the moves listed under it (a
# button each, or the options of the one list of many), side by side.
# Read in one go, with the version they belong to; buttons are disabled while a move is sent.
OFFERS = """() => ({
  version: window.matchClient ? window.matchClient.payload.version : -1,
  board: [...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action),
  choosers: [...document.querySelectorAll('#board svg [data-select]')].map((e) => e.dataset.select),
  buttons: [...document.querySelectorAll('#actions [data-action]:not([disabled])')]
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
    page.locator("#actions button.action").first.click()  # a button, or Play on the list's first move
    return "button"


def ready_to_hand_over(state, person):
    """The person is to choose war or peace, and after a war would choose among two or more
    kinds of structure: the first turn through the page has a war and a choice of structure."""
    legal = state.legal_actions()
    if state.current_player() != person or "peace" not in legal or state.empty.bit_count() > PLOTS_LEFT:
        return False
    after = state.clone()
    wars = [a for a in legal if a.startswith("war:")]
    after.apply(wars[len(wars) // 2])
    builds = [a for a in after.legal_actions() if a.startswith("build:")] if after.current_player() == person else []
    return len({a[6:].split("@")[0] for a in builds}) >= 2


def near_the_end(options, person):
    """A seeded playout to a position ``ready_to_hand_over``: the person keeps the armies it
    draws (peace, and other chits discarded first), the bot plays at random. Its moves as
    (seat or None for chance, action), and the state."""
    game = get_game("chit-territory")
    for seed in range(100):
        rng = random.Random(seed)
        state, moves = game.new_state(2, options), list[tuple[int | None, str]]()
        while not state.is_terminal():
            if ready_to_hand_over(state, person):
                return moves, state
            player = state.current_player()
            legal = state.legal_actions()
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], weights=[w for _, w in outcomes])[0]
            elif player == person and "peace" in legal:
                action = "peace"
            elif player == person and any(a.startswith("discard:") and a != "discard:army" for a in legal):
                action = rng.choice([a for a in legal if a != "discard:army"])
            else:
                action = rng.choice(legal)
            state.apply(action)
            moves.append((None if player == CHANCE else player, action))
    raise AssertionError("no playout reached a position to hand over")


def take_near_the_end(match_id, person):
    """Record the playout's moves as the match's, under a new version noted as rewound (so a
    state any process remembers of the match is replayed, not caught up). A change made behind
    the services' back moves the match page's cache area on itself, as the live room does."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        assert match.status == Match.Status.ACTIVE and match.to_move == person
        moves, state = near_the_end(match.options, person)
        Move.objects.filter(match=match).delete()
        Move.objects.bulk_create(Move(match=match, index=i, seat=s, action=a) for i, (s, a) in enumerate(moves))
        version = match.version + 1
        Match.objects.filter(pk=match_id).update(
            version=version,
            rewound_version=version,
            to_move=person,
            snapshot=state.view(None),
            updated_at=timezone.now(),
        )
        page_cache.bump_on_commit(page_cache.live_area(match_group(match_id)))
    return state


def test_a_person_plays_a_match_to_its_end_by_clicking_the_chit_territory_board(
    asgi_server, browser, make_user, screenshot
):
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

    # Once the person is to move (the bot may have opened), the match goes on from near its end.
    person_seat = Seat.objects.get(match_id=match_id, user=person).index
    page.wait_for_function(
        "(seat) => window.matchClient && window.matchClient.payload.clocks.to_move === seat"
        " && document.querySelectorAll('#actions [data-action]:not([disabled])').length > 0",
        arg=person_seat,
    )
    state = take_near_the_end(match_id, person_seat)
    page.reload()
    page.wait_for_selector("#board svg.chit-territory")
    shown = page.evaluate("window.matchClient.payload")
    assert shown["moves"] == len(state.history) and shown["version"] == Match.objects.get(pk=match_id).version
    assert page.locator("#board svg [data-plot]").count() == 81

    done = {"war": 0, "peace": 0, "discard": 0, "build": 0, "chosen": 0, "button": 0}
    stalls = []  # updates that did not come within 20 s, in a row: for the failure message
    for _ in range(MAX_CLICKS):
        if finished(page):
            break
        seen = offers(page)
        what = play_one(page, seen, done)
        if what is not None:
            done[what] += 1
        if wait_for_change(page, seen["version"]):
            stalls.clear()
        else:
            match = Match.objects.get(pk=match_id)
            stalls.append(
                f"{what or 'waiting'} at version {seen['version']} (server: version {match.version}, "
                f"seat {match.to_move} to move, {match.status})"
            )
            assert len(stalls) < 2, f"the page got no update for 40 s: {stalls}; moves made: {done}"
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
    print(f"moves made through the page: {done}")
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
