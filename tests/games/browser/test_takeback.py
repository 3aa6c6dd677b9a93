"""Two people play a casual match of Territories, each in a browser of their own: one asks to
take back the move they just made, the other sees the request live and accepts it; both boards
go back to the position before the move, the move leaves both move lists, and the chat says
what was taken back. Then a second request is declined, and the asker reads that it was."""

import pytest

from games import services
from games.models import Match

from .pages import CONNECTED, in_thread, log_in

pytestmark = pytest.mark.browser

TIMEOUT = 15_000
MY_TURN = "() => document.querySelectorAll('#actions button.action').length > 0"
MOVES_SHOWN = "(n) => document.querySelectorAll('#moves li').length === n"
VERSION = "(v) => window.matchClient.payload.version === v"


def state_of(page):
    return page.evaluate(
        "({v: window.matchClient.payload.version, moves: window.matchClient.payload.moves,"
        " seat: window.matchClient.payload.seat, to_move: window.matchClient.payload.clocks.to_move})"
    )


def casual_match(ann, ben):
    """An untimed, unrated Territories match of Ann and Ben, ready to play."""

    def start():
        match = services.match_create(user=ann, game="territories", num_players=2, rated=False, speed="untimed")
        services.match_join(match_id=match.pk, user=ben)
        return match

    return in_thread(start)


def test_one_asks_to_take_back_a_move_and_the_other_accepts_then_declines(asgi_server, browser, make_user, screenshot):
    base = asgi_server
    ann, ben = make_user("ann"), make_user("ben")
    match = casual_match(ann, ben)
    ann_page = log_in(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), base, ann)
    ben_page = log_in(browser.new_context(viewport={"width": 390, "height": 844}).new_page(), base, ben)
    pages = [ann_page, ben_page]
    for page in pages:
        page.goto(f"{base}/matches/{match.pk}/")
        page.wait_for_function(CONNECTED)
    first = state_of(ann_page)
    mover, other = (ann_page, ben_page) if first["to_move"] == first["seat"] else (ben_page, ann_page)
    # Nothing to take back before anyone has moved.
    assert mover.locator("#takeback-ask").count() == 0

    mover.wait_for_function(MY_TURN, timeout=TIMEOUT)
    mover.locator("#actions button.action").first.click()
    moved = first["v"] + 1
    for page in pages:
        page.wait_for_function(VERSION, arg=moved, timeout=TIMEOUT)
        page.wait_for_function(MOVES_SHOWN, arg=first["moves"] + 1, timeout=TIMEOUT)
    board_after_move = mover.evaluate("JSON.stringify(window.matchClient.payload.view)")
    # Only the player who moved is offered the takeback.
    mover.get_by_role("button", name="Ask to take back").wait_for(timeout=TIMEOUT)
    assert other.locator("#takeback-ask").count() == 0
    mover.get_by_role("button", name="Ask to take back").click()

    mover.get_by_text("You asked to take back your last move").wait_for(timeout=TIMEOUT)
    other.get_by_text("asks to take back their last move").wait_for(timeout=TIMEOUT)
    screenshot(other, "takeback-asked")
    screenshot(mover, "takeback-asking")
    other.get_by_role("button", name="Accept").click()

    for page in pages:
        page.wait_for_function(VERSION, arg=moved + 1, timeout=TIMEOUT)
        page.wait_for_function(MOVES_SHOWN, arg=first["moves"], timeout=TIMEOUT)
        page.locator("#chat").get_by_text("took back their").wait_for(timeout=TIMEOUT)
        assert page.locator("#takeback-status").is_hidden() or page.locator("#takeback-status").inner_text() == ""
    after = state_of(mover)
    assert after["to_move"] == after["seat"], "the move is the asker's to play again"
    assert mover.evaluate("JSON.stringify(window.matchClient.payload.view)") != board_after_move
    mover.wait_for_function(MY_TURN, timeout=TIMEOUT)
    screenshot(mover, "takeback-done")

    # A second move, a second request: this time it is declined.
    mover.locator("#actions button.action").first.click()
    mover.wait_for_function(VERSION, arg=moved + 2, timeout=TIMEOUT)
    mover.get_by_role("button", name="Ask to take back").click()
    other.get_by_role("button", name="Decline").click()
    mover.get_by_text("declined to take back your move").wait_for(timeout=TIMEOUT)
    assert mover.locator("#takeback-ask").count() == 0
    assert state_of(mover)["moves"] == first["moves"] + 1


def test_a_move_list_answered_after_a_takeback_with_the_taken_back_move_is_asked_for_again(
    asgi_server, browser, make_user
):
    """The page asks the API for the whole move list when it opens and whenever the list and
    the position disagree. An answer that left the server after a move but reaches the page
    after that move was taken back lists the move: the page must see the list disagree with
    the position and ask again, not keep showing a move nobody can find."""
    base = asgi_server
    ann, ben = make_user("ann"), make_user("ben")
    match = casual_match(ann, ben)
    ann_page = log_in(browser.new_context().new_page(), base, ann)
    ben_page = log_in(browser.new_context().new_page(), base, ben)
    # Ann's requests for the move list: the first two wait for the test, later ones go through.
    asked = []

    def hold_two(route):
        asked.append(route)
        if len(asked) > 2:
            route.continue_()

    def wait_for_request(n):
        for _ in range(300):
            if len(asked) >= n:
                return True
            ann_page.wait_for_timeout(50)
        return False

    ann_page.route("**/api/matches/*/moves/**", hold_two)
    for page in (ann_page, ben_page):
        page.goto(f"{base}/matches/{match.pk}/")
        page.wait_for_function(CONNECTED)
    assert wait_for_request(1), "the page asks for the move list when it opens"
    first = state_of(ann_page)
    mover, other = (ann_page, ben_page) if first["to_move"] == first["seat"] else (ben_page, ann_page)
    mover.wait_for_function(MY_TURN, timeout=TIMEOUT)
    mover.locator("#actions button.action").first.click()
    moved = first["v"] + 1
    ann_page.wait_for_function(VERSION, arg=moved, timeout=TIMEOUT)
    # The first list was still on its way when the move came: once it lands, the page asks
    # again. That second answer leaves the server now, with the move in it...
    asked[0].continue_()
    ann_page.wait_for_function(MOVES_SHOWN, arg=first["moves"] + 1, timeout=TIMEOUT)
    assert wait_for_request(2), "the page asks again for a list that missed a move"
    late = asked[1]
    answer = late.fetch()
    assert len(answer.json()["results"]) == first["moves"] + 1

    mover.get_by_role("button", name="Ask to take back").click()
    other.get_by_role("button", name="Accept").click()
    ann_page.wait_for_function(VERSION, arg=moved + 1, timeout=TIMEOUT)
    ann_page.wait_for_function(MOVES_SHOWN, arg=first["moves"], timeout=TIMEOUT)
    late.fulfill(response=answer)  # ...and reaches the page after the takeback.

    assert wait_for_request(3), "a list longer than the position is asked for again"
    ann_page.wait_for_function(MOVES_SHOWN, arg=first["moves"], timeout=TIMEOUT)
    assert ann_page.locator("#moves li").count() == state_of(ann_page)["moves"] == first["moves"]


def test_after_a_roll_of_the_dice_the_takeback_button_stays_disabled_and_says_why(asgi_server, browser, make_user):
    """A roll cannot be taken back (nothing random is drawn again): once the dice fell after
    the player's own move, the box keeps a disabled button and one sentence saying why,
    instead of the button vanishing without a word."""
    ann, ben, cy = make_user("ann"), make_user("ben"), make_user("cy")

    def start():
        match = services.match_create(user=ann, game="dice-territory", num_players=3, rated=False, speed="untimed")
        for user in (ben, cy):
            services.match_join(match_id=match.pk, user=user)
        to_move = Match.objects.get(pk=match.pk).to_move
        assert to_move is not None, "somebody is to move once every seat is taken"
        return match.pk, (ann, ben, cy)[to_move]

    match_id, mover = in_thread(start)
    page = log_in(browser.new_context(viewport={"width": 390, "height": 844}).new_page(), asgi_server, mover)
    page.goto(f"{asgi_server}/matches/{match_id}/")
    page.wait_for_function(CONNECTED)
    page.wait_for_function(MY_TURN, timeout=TIMEOUT)
    before = state_of(page)
    page.locator("#actions button[data-action=roll]").click()
    page.wait_for_function(MOVES_SHOWN, arg=before["moves"] + 2, timeout=TIMEOUT)  # the roll, then the dice
    ask = page.locator("#takeback-ask")
    ask.wait_for(timeout=TIMEOUT)
    assert ask.is_disabled()
    assert page.locator("#takeback-status").inner_text() == "No takeback after a roll of the dice or a drawn card."
    page.context.close()
