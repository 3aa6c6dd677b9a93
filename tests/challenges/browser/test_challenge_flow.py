"""A challenge between two people in browsers of their own: one challenges the other from
their page, the other accepts it in the lobby, and both land on the match: the challenger's
challenges page goes there by itself."""

import re

import pytest

from challenges.models import Challenge
from tests.games.browser.pages import CONNECTED, log_in

pytestmark = pytest.mark.browser

TIMEOUT = 20_000


def test_a_challenge_sent_from_a_players_page_and_accepted_in_the_lobby(asgi_server, browser, make_user, screenshot):
    base = asgi_server
    ann = make_user("ann")
    ben = make_user("ben")
    ann_page = log_in(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), base, ann)
    ben_page = log_in(browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page(), base, ben)

    ann_page.goto(f"{base}/players/ben/")
    box = ann_page.locator("section.challenge-box")
    box.locator("select[name=game]").select_option("territories")
    box.locator("select[name=time_control]").select_option("live-180")
    screenshot(ann_page, "challenge-form-1280")
    box.get_by_role("button", name="Send the challenge").click()
    ann_page.wait_for_url(f"{base}/challenges/")
    assert "ben is challenged" in ann_page.inner_text("body")
    assert "waiting for an answer" in ann_page.inner_text("#challenges-sent")

    ben_page.goto(f"{base}/play/")
    waiting = ben_page.locator("section.challenges-waiting")
    assert "ann challenges you to Territories" in waiting.inner_text()
    screenshot(ben_page, "challenge-in-lobby-390")
    waiting.get_by_role("button", name="Accept").click()

    match_url = re.compile(rf"{re.escape(base)}/matches/\d+/$")
    ben_page.wait_for_url(match_url, timeout=TIMEOUT)
    ann_page.wait_for_url(ben_page.url, timeout=TIMEOUT)  # the challenges page follows the answer
    for page in (ann_page, ben_page):
        page.wait_for_function(CONNECTED)
        page.wait_for_selector("#board svg.territories")
    assert Challenge.objects.get().match.seconds_per_move == 180
