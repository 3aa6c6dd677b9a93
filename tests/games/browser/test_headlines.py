"""The line above the board in the browser: the seat to move reads what to do ("Roll the
dice."), the other seats and a spectator read who does what ("Blue rolls the dice."), and
both follow the match live."""

import re

import pytest

from games import services
from tests.games.helpers import fresh

from .pages import CONNECTED, log_in

pytestmark = pytest.mark.browser

TIMEOUT = 15_000
PROMPT = "() => document.getElementById('prompt').textContent"


def test_the_headline_speaks_to_the_player_to_move_and_about_them_to_the_others(asgi_server, browser, make_user):
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    match = services.match_create(user=ann, game="dice-territory", num_players=3)
    for user in (ben, cat):
        services.match_join(match_id=match.pk, user=user)
    match = fresh(match.pk)
    users = [ann, ben, cat]
    mover = match.to_move
    assert mover is not None
    colour = ["Blue", "Red", "Green"][mover]
    url = f"{asgi_server}/matches/{match.pk}/"
    pages = {
        "mover": log_in(browser.new_context().new_page(), asgi_server, users[mover]),
        "other": log_in(browser.new_context().new_page(), asgi_server, users[(mover + 1) % 3]),
        "spectator": browser.new_context().new_page(),
    }
    for page in pages.values():
        page.goto(url)
        page.wait_for_function(CONNECTED)
    assert pages["mover"].inner_text("#prompt") == "Roll the dice."
    for who in ("other", "spectator"):
        assert pages[who].inner_text("#prompt") == f"{colour} rolls the dice."

    # The first roll of the game, on an empty board: a marker to place, whatever the dice.
    pages["mover"].evaluate("window.matchClient.act('roll')")
    for page in pages.values():
        page.wait_for_function(f"() => ({PROMPT})().includes('rolled')", timeout=TIMEOUT)
    said = {who: page.inner_text("#prompt") for who, page in pages.items()}
    rolled = re.fullmatch(r"You rolled (\d+): place a marker on a space marked \1\.", said["mover"])
    assert rolled, said["mover"]
    number = rolled.group(1)
    for who in ("other", "spectator"):
        assert said[who] == f"{colour} rolled {number} and places a marker on a space marked {number}."
