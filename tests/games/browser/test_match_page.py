"""The live match page itself: it survives a dropped socket, replays a finished match, and
fits a phone."""

import random
import threading

import pytest
from django.db import connection

from games import services, state_cache
from games.models import Match
from tests.conftest import wait_for
from tests.games.helpers import finished_by_random_play, replay_frames

from . import pages

pytestmark = pytest.mark.browser


def log_in(context, base, user):
    return pages.log_in(context.new_page(), base, user)


def off_the_page_thread(call):
    """Run a service call in its own thread: Playwright's event loop owns this one, and the
    broadcast after commit must not run inside it."""
    result = {}

    def run():
        try:
            result["value"] = call()
        except BaseException as exc:  # handed back to the test below
            result["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if "error" in result:
        raise result["error"]
    return result["value"]


def start(alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob)
    return match


def page_version(page):
    return page.evaluate("window.matchClient.payload.version")


# The longest pause before the page tries its socket again (static/js/match.js: a growing pause
# of at most 10 s, and up to a quarter of a second at random).
RECONNECT_PAUSE_MAX_MS = 10_250


def test_a_dropped_socket_reconnects_and_catches_up(asgi_server, browser, alice, bob, screenshot):
    match = off_the_page_thread(lambda: start(alice, bob))
    context = browser.new_context()
    # The page's timers run on a clock of the test's own: the socket tries again only when the
    # test moves that clock on, so the moves below are surely made while the page is away.
    context.clock.install()
    page = log_in(context, asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(pages.CONNECTED)
    seen = page_version(page)

    page.evaluate("window.matchClient.socket.close()")
    page.wait_for_selector("#banner:not([hidden])")
    assert "Reconnecting" in page.inner_text("#banner")
    # While alice's page is away, the game moves on: whoever is to move plays.
    rng = random.Random(5)

    def play_three_moves():
        for _ in range(3):
            current = Match.objects.get(pk=match.pk)
            user = alice if current.to_move == 0 else bob
            action = rng.choice(state_cache.load(current).legal_actions())
            services.match_act(match_id=match.pk, user=user, action=action, version=current.version)

    off_the_page_thread(play_three_moves)
    latest = Match.objects.get(pk=match.pk).version
    assert latest > seen
    # Away indeed: the socket is still closed and the page shows what it saw before.
    assert page.evaluate("window.matchClient.socket.readyState") == 3  # CLOSED
    assert page_version(page) == seen and "Reconnecting" in page.inner_text("#banner")

    page.clock.run_for(RECONNECT_PAUSE_MAX_MS)
    page.wait_for_function("v => window.matchClient.payload.version === v", arg=latest, timeout=20_000)
    page.wait_for_selector("#banner", state="hidden")
    screenshot(page, "match-reconnected")


def test_a_finished_match_replays_step_by_step_to_the_final_board(asgi_server, browser, alice, bob, screenshot):
    match = off_the_page_thread(lambda: start(alice, bob))
    rng = random.Random(8)

    def play_and_resign():
        for _ in range(12):
            current = Match.objects.get(pk=match.pk)
            user = alice if current.to_move == 0 else bob
            action = rng.choice(state_cache.load(current).legal_actions())
            services.match_act(match_id=match.pk, user=user, action=action, version=current.version)
        services.match_resign(match_id=match.pk, user=bob)

    off_the_page_thread(play_and_resign)
    final_board = Match.objects.get(pk=match.pk).snapshot
    moves = Match.objects.get(pk=match.pk).moves.count()

    page = log_in(browser.new_context(), asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_selector("#replay:not([hidden])")
    assert "Final ranking" in page.inner_text("#result")
    board_at_end = page.inner_html("#board")

    page.get_by_role("button", name="First position").click()
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 0 ')")
    assert page.inner_html("#board") != board_at_end
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 1 ')")
    page.get_by_role("button", name="Last position").click()
    page.wait_for_function(f"() => document.getElementById('replay-pos').textContent.startsWith('Step {moves} ')")
    assert page.inner_html("#board") == board_at_end
    last = replay_frames(page.evaluate(f"fetch('/matches/{match.pk}/replay.json').then(r => r.json())"))[-1]["view"]
    # The replay's headline speaks to onlookers; the position is the final one.
    assert {**last, "prompt": ""} == {**final_board, "prompt": ""}
    screenshot(page, "match-replayed")


def test_a_long_replay_loads_once_and_takes_the_steps_clicked_while_it_loads(asgi_server, browser, make_user):
    match = finished_by_random_play("chit-territory", [make_user("ann"), make_user("ben")], seed=0)
    page = browser.new_context().new_page()  # a visitor: the match is public
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/replay.json" in request.url else None)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_selector("#replay:not([hidden])")
    # First, next, next, clicked at once: all before the replay can have arrived.
    loading = page.evaluate(
        """() => {
            for (const step of ["first", "forward", "forward"]) document.querySelector(`[data-step=${step}]`).click();
            const bar = document.getElementById("replay");
            return [bar.getAttribute("aria-busy"), document.getElementById("replay-pos").textContent];
        }"""
    )
    assert loading == ["true", "Loading the replay…"]
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 2 of ')")
    assert f"Step 2 of {match.moves.count()}" in page.inner_text("#replay-pos")
    assert page.get_attribute("#replay", "aria-busy") is None
    page.get_by_role("button", name="Next move").click()
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 3 of ')")
    assert len(asked) == 1


def test_the_match_page_fits_a_phone(asgi_server, browser, alice, screenshot):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = log_in(context, asgi_server, alice)
    page.goto(f"{asgi_server}/play/computer/")
    page.select_option("select[name=game]", "game-of-god")
    page.select_option("select[name=num_players]", "2")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.wait_for_selector("#board svg")
    wait_for(
        lambda: page.evaluate("document.querySelectorAll('#actions button[data-action]').length") > 0,
        message="a legal move offered",
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
    # Measured in one script run: the board is redrawn whenever the bot moves, and a locator
    # could resolve an SVG that is replaced before it is measured.
    board, side = page.evaluate(
        """() => ['#board svg', '.side-panel'].map(sel => {
            const r = document.querySelector(sel).getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })"""
    )
    assert board["width"] >= 330, "the board uses the phone's full width"
    assert side["y"] >= board["y"] + board["height"] - 1, "the panels sit below the board"
    screenshot(page, "match-phone")
