"""GP02A Territory with Negotiation in the browser: the person, Main Player at the deal step,
writes an exchange offer to a Greedy bot below the board, sends it, and sees the bot's answer
there; then deals the cards from the button list as usual."""

import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services, state_cache
from games.bots.negotiation import negotiation_move
from games.engines.gp02a import COLOURS, DEALS, GAME, P_DEAL
from games.models import Match
from tests.conftest import wait_for

from ..helpers import fresh
from .pages import CONNECTED, log_in

pytestmark = pytest.mark.browser


def to_the_persons_deal(ann, bob, carol):
    """Seats: ann, bob, carol, a Greedy bot. Everyone but the bot plays random moves through
    the services, and whoever of bob and carol deals gives ann card 4, until ann is the Main
    Player at the deal step. Returns the match id and the bot's hand then."""
    try:
        match = services.match_create(user=ann, game="gp02a", num_players=4, options={"negotiation": True}, rated=False)
        services.match_join(match_id=match.pk, user=bob)
        services.match_join(match_id=match.pk, user=carol)
        services.match_seat_bot(match_id=match.pk, user=ann, index=3, bot="greedy")
        people = {0: ann, 1: bob, 2: carol}
        rng = random.Random(7)

        def there():
            current = fresh(match.pk)
            assert current.status == Match.Status.ACTIVE, "the game ended before ann dealt"
            if current.to_move not in people:
                return None
            state = state_cache.load(current)
            if state.phase == P_DEAL:
                if current.to_move == 0:
                    return current.pk, list(state.hands[3])
                action = next(d for d in DEALS[(4, state.main)] if d.split(":")[1].split(",")[0] == "4")
            else:
                action = rng.choice(state.legal_actions())
            services.match_act(match_id=match.pk, user=people[current.to_move], action=action, version=current.version)
            return None

        return wait_for(there, timeout=90, interval=0.01, message="ann to deal")
    finally:
        connection.close()  # give the pooled connection back before the thread ends


def test_a_person_offers_a_bot_an_exchange_and_sees_its_answer(asgi_server, browser, make_user, settings, screenshot):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the bot thinks in the server process
    ann, bob, carol = make_user("ann"), make_user("bob"), make_user("carol")
    with ThreadPoolExecutor(1) as thread:
        match_id, bot_hand = thread.submit(to_the_persons_deal, ann, bob, carol).result()
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, ann)
    page.goto(f"{asgi_server}/matches/{match_id}/")
    page.wait_for_function(CONNECTED)
    panel = page.locator(".gp02a-negotiation")
    form = panel.locator("form.offer-form")
    form.wait_for()
    assert "3 offers left" in form.inner_text()
    # The deal stays in the button list, the offer is written in the form.
    assert page.locator("#actions button[data-action^='deal:']").count() > 0

    # An empty side is refused on the page, with a reason.
    form.locator("select[name=partner]").select_option("3")
    form.get_by_role("button", name="Propose exchange").click()
    assert "1 to 6 chips on each side" in form.locator(".error").inner_text()

    mine = page.evaluate("window.matchClient.payload.view.hands[0]")
    give = next(c for c in COLOURS if mine[c])
    take = next((c for c in COLOURS if bot_hand[COLOURS.index(c)] and c != give), None)
    take = take or next(c for c in COLOURS if bot_hand[COLOURS.index(c)])
    form.locator(f"input[name=give-{give}]").fill("1")
    form.locator(f"input[name=take-{take}]").fill("1")
    form.get_by_role("button", name="Propose exchange").click()
    offer = f"offer:3@{give}>{take}"

    # The bot answers by itself; the page shows the answer and gives the deal back to ann.
    page.wait_for_selector(".gp02a-negotiation .offer-last", timeout=20_000)
    answer_text = panel.locator(".offer-last").inner_text()
    match = fresh(match_id)
    moves = list(match.moves.order_by("index").values_list("action", flat=True))
    assert moves[-2] == offer and moves[-1] in ("accept", "decline")
    # The bot answered as its evaluation of the exchange says.
    asked = GAME.replay(4, match.options, moves[:-1])
    assert negotiation_move(asked, 3) == moves[-1]
    verb = "accepted" if moves[-1] == "accept" else "declined"
    assert f"yellow) {verb}" in answer_text and f"1 {give} for 1 {take}" in answer_text, answer_text
    assert "2 offers left" in form.inner_text()
    screenshot(page, "gp02a-negotiation-answered")


def test_the_negotiation_option_shows_in_the_create_form_only_while_gp02a_is_chosen(asgi_server, browser, make_user):
    page = log_in(browser.new_page(), asgi_server, make_user("dora"))
    page.goto(f"{asgi_server}/play/new/")
    option = page.locator("input[name=opt_gp02a_negotiation]")
    page.select_option("select[name=game]", "game-of-god")
    assert not option.is_visible()
    page.select_option("select[name=game]", "gp02a")
    assert option.is_visible()
    assert not page.locator("input[name='opt_chit-territory_mountains_rivers']").is_visible()
    page.select_option("select[name=num_players]", "3")
    option.check()
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    with ThreadPoolExecutor(1) as thread:
        options = thread.submit(lambda: (fresh(match_id).options, connection.close())[0]).result()
    assert options == {"negotiation": True}
