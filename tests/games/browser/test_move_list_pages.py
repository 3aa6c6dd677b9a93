"""The match page's move list reads the API's moves page after page: a list longer than a
page shows whole."""

import random

import pytest

from games.api import MovePagination
from tests.games.helpers import play_turn

from .pages import CONNECTED, log_in
from .test_takeback import MOVES_SHOWN, TIMEOUT, casual_match, in_thread

pytestmark = pytest.mark.browser


def test_the_move_list_shows_every_move_of_a_list_longer_than_a_page(asgi_server, browser, make_user, monkeypatch):
    monkeypatch.setattr(MovePagination, "page_size", 2)
    ann, ben = make_user("ann"), make_user("ben")
    match = casual_match(ann, ben)
    rng = random.Random(4)
    for _ in range(5):
        in_thread(lambda: play_turn(match.pk, {0: ann, 1: ben}, rng))
    page = log_in(browser.new_context().new_page(), asgi_server, ann)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(CONNECTED)
    moves = page.evaluate("window.matchClient.payload.moves")
    assert moves >= 6  # who begins, then five moves: three pages
    page.wait_for_function(MOVES_SHOWN, arg=moves, timeout=TIMEOUT)
    shown = page.locator("#moves li").all_inner_texts()
    assert len(set(shown)) == len(shown) == moves
