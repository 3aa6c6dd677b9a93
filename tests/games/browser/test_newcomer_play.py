"""A newcomer's first matches, in chromium at desktop and phone widths: the form against the
computer follows the game and starts an untimed match; a live clock shows beside the board
and warns as it runs low; after resigning the page says so; Abort and Resign ask first; tied
places in the final ranking say what decided them."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engines import CHANCE, get_game
from games.models import Match, Move, Seat
from tests.conftest import wait_for
from tests.engines.test_conformance import pick

from . import pages
from .test_match_page import off_the_page_thread

pytestmark = pytest.mark.browser

WIDTHS = [pytest.param(1280, id="desktop"), pytest.param(390, id="phone")]
CONNECTED = pages.CONNECTED


def open_page(browser, base, user, width):
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=phone, has_touch=phone)
    return pages.log_in(context.new_page(), base, user)


def no_horizontal_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def player_counts(page):
    return page.eval_on_selector_all("#computer_num_players option", "els => els.map(e => e.value)")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_computer_form_follows_the_game_and_starts_an_untimed_match(asgi_server, browser, alice, width, screenshot):
    page = open_page(browser, asgi_server, alice, width)
    page.goto(f"{asgi_server}/games/gp02a/")
    page.get_by_role("link", name="Play GP02A Territory").click()
    form = page.locator("form[action='/play/computer/']")
    # As it opens: GP02A, and only the counts GP02A is played by.
    assert form.locator("select[name=game]").input_value() == "gp02a"
    assert player_counts(page) == ["3", "4"]
    assert form.locator("select[name=num_players]").input_value() == "3"
    chit_option = form.locator("[data-game='chit-territory']")
    assert chit_option.is_hidden()
    # Untimed practice is the default against the computer, and it is never rated.
    assert form.locator("select[name=time_control]").input_value() == "untimed"
    assert form.locator("input[name=rated]").is_disabled()
    form.locator("select[name=time_control]").select_option("live-90")
    assert form.locator("input[name=rated]").is_enabled()
    form.locator("select[name=time_control]").select_option("untimed")
    assert not form.locator("input[name=rated]").is_checked()

    form.locator("select[name=game]").select_option("chit-territory")
    assert player_counts(page) == ["2", "3", "4"] and chit_option.is_visible()
    form.locator("select[name=game]").select_option("game-of-god")
    assert player_counts(page) == ["2", "4"] and chit_option.is_hidden()
    assert form.locator("select[name=num_players]").input_value() == "2"
    form.locator("select[name=bot]").select_option("greedy")
    screenshot(page, f"play-computer-form-{width}")
    form.get_by_role("button", name="Play against the computer").click()

    page.wait_for_url("**/matches/*/")
    page.wait_for_function(CONNECTED)
    header = page.locator(".match-header").inner_text()
    assert "Untimed practice" in header and "casual" in header
    page.wait_for_selector("#turn:not([hidden])")
    assert page.locator("#turn-clock").is_hidden(), "no clock runs in untimed practice"
    assert no_horizontal_scroll(page)
    screenshot(page, f"untimed-match-{width}")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_live_clock_beside_the_board_warns_as_it_runs_low(asgi_server, browser, alice, width, screenshot):
    def create():
        match = services.match_create(user=alice, game="game-of-god", num_players=2, speed="live", seconds_per_move=30)
        services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
        return match

    match = off_the_page_thread(create)
    wait_for(lambda: Match.objects.get(pk=match.pk).to_move == 0, message="alice to move")
    page = open_page(browser, asgi_server, alice, width)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(CONNECTED)
    clock = page.locator("#turn #turn-clock")
    assert page.locator("#turn-who").inner_text() == "Your move"
    assert clock.is_visible() and "left" in clock.inner_text()
    assert "low" not in (clock.get_attribute("class") or "")
    assert page.locator("#clock-warning").is_hidden()
    # The clock is beside the board: above it, in the board's column, not only in the sidebar.
    board, bar = page.locator("#board").bounding_box(), page.locator("#turn").bounding_box()
    assert bar["y"] < board["y"] and abs(bar["x"] - board["x"]) < 40

    # Time runs short: the clock turns red and the page says to hurry.
    soon = timezone.now() + timedelta(seconds=9)
    Match.objects.filter(pk=match.pk).update(deadline=soon)
    page.evaluate("window.matchClient.socket.send(JSON.stringify({type: 'snapshot'}))")
    page.wait_for_selector("#turn-clock.low", timeout=10_000)
    page.wait_for_selector("#clock-warning:not([hidden])")
    assert "Hurry" in page.locator("#clock-warning").inner_text()
    screenshot(page, f"live-clock-low-{width}")
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(hours=1))  # no time-out at teardown


def tied_finished_match(users):
    """A finished dice-game match (3 players) whose final ranking breaks a tie on points,
    recorded as its moves from a random playout that ends that way."""
    game = get_game("dice-territory")
    for seed in range(500):
        rng = random.Random(seed)
        state, moves = game.new_state(3), []
        while not state.is_terminal():
            player = state.current_player()
            action = pick(state, rng)
            state.apply(action)
            moves.append((None if player == CHANCE else player, action))
        scores, places = state.scores(), state.ranking()
        if any(scores[i] == scores[j] and places[i] != places[j] for i in range(3) for j in range(i + 1, 3)):
            break
    now = timezone.now()
    match = Match.objects.create(
        game=game.slug,
        num_players=3,
        options=game.normalise_options({}),
        rated=False,
        creator=users[0],
        status=Match.Status.FINISHED,
        version=len(moves),
        started_at=now,
        finished_at=now,
        end_reason="game over",
        snapshot=state.view(None),
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, user=users[i], joined_at=now, place=places[i], score=scores[i]) for i in range(3)
    )
    Move.objects.bulk_create(Move(match=match, index=k, seat=s, action=a) for k, (s, a) in enumerate(moves))
    return match


@pytest.mark.parametrize("width", WIDTHS)
def test_resign_and_abort_ask_first_and_tied_places_say_why(
    asgi_server, browser, alice, bob, make_user, width, screenshot
):
    carol = make_user("carol")

    def create():
        match = services.match_create(user=alice, game="chit-territory", num_players=3)
        services.match_join(match_id=match.pk, user=bob)
        services.match_join(match_id=match.pk, user=carol)
        return match

    match = off_the_page_thread(create)
    page = open_page(browser, asgi_server, alice, width)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(CONNECTED)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Abort").click()
    assert asked and "Call this match off?" in asked[0]
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE, "dismissed: nothing happens"

    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Resign").click()
    page.wait_for_selector("#you-left")
    assert asked[-1] == "Resign this match?"
    assert page.locator("#you-left").inner_text() == "you resigned"
    assert page.locator("#watching").count() == 0
    assert page.get_by_role("button", name="Resign").count() == 0
    screenshot(page, f"after-resigning-{width}")

    tied = off_the_page_thread(lambda: tied_finished_match([alice, bob, carol]))
    page.goto(f"{asgi_server}/matches/{tied.pk}/")
    page.wait_for_selector("#result:not([hidden]) .final-ranking")
    note = page.locator(".final-ranking .tie-break").first.inner_text()
    assert "ahead of" in note and "total value of all spaces owned" in note
    assert "Equal points are decided by" in page.locator("#result .tie-rule").inner_text()
    assert no_horizontal_scroll(page)
    screenshot(page, f"tied-ranking-{width}")
