"""Two people, each in a browser of their own, finish a match (one resigns), one offers a
rematch, the other sees the offer appear without a reload and accepts, and both land on the
new match, where the seats have swapped."""

import re

import pytest

from games.models import Match
from tests.games.browser.pages import CONNECTED, log_in
from tests.games.helpers import start_two_player

pytestmark = pytest.mark.browser

TIMEOUT = 15_000


def test_a_rematch_offered_and_accepted_takes_both_players_to_the_new_match(
    asgi_server, browser, make_user, screenshot
):
    base = asgi_server
    ann = make_user("ann")
    ben = make_user("ben")
    match = start_two_player("territories", ann, ben)
    ann_page = log_in(browser.new_context(viewport={"width": 1280, "height": 900}).new_page(), base, ann)
    ben_page = log_in(browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page(), base, ben)
    for page in (ann_page, ben_page):
        page.goto(f"{base}{match.get_absolute_url()}")
        page.wait_for_function(CONNECTED)

    # Ben resigns: both pages show the result, and the rematch button to its players.
    ben_page.once("dialog", lambda dialog: dialog.accept())
    ben_page.get_by_role("button", name="Resign").click()
    for page in (ann_page, ben_page):
        page.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT)
        page.wait_for_selector("#rematch:not([hidden]) button:has-text('Rematch')", timeout=TIMEOUT)
        page.wait_for_function(CONNECTED)

    ann_page.get_by_role("button", name="Rematch").click()
    ann_page.wait_for_selector("#rematch >> text=ben: not answered yet", timeout=TIMEOUT)
    assert ann_page.get_by_role("button", name="Withdraw the offer").is_visible()

    # Ben's page shows the offer live, without a reload.
    accept = ben_page.get_by_role("button", name="Accept the rematch")
    accept.wait_for(timeout=TIMEOUT)
    assert ben_page.locator("#rematch").inner_text().startswith("Rematch")
    assert "ann offers a rematch" in ben_page.locator("#rematch").inner_text()
    screenshot(ben_page, "rematch-offered-390")
    accept.click()

    # Both land on the new match.
    new_url = re.compile(rf"{re.escape(base)}/matches/(?!{match.pk}/)\d+/$")
    ben_page.wait_for_url(new_url, timeout=TIMEOUT)
    ann_page.wait_for_url(new_url, timeout=TIMEOUT)
    assert ann_page.url == ben_page.url
    rematch = Match.objects.get(pk=int(ann_page.url.rstrip("/").rsplit("/", 1)[-1]))
    assert rematch.status == Match.Status.ACTIVE
    assert list(rematch.seats.order_by("index").values_list("user__username", flat=True)) == ["ben", "ann"]
    for page in (ann_page, ben_page):
        page.wait_for_function(CONNECTED)
        page.wait_for_selector("#board svg.territories")
    screenshot(ann_page, "rematch-started-1280")
