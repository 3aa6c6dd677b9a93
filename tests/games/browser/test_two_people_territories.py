"""Two people play Territories against each other, each in a browser of their own: one
creates a public match on /play/, the other joins it from the lobby, and every farm house or
trunk one of them clicks shows up on the other's board without a reload. Then one resigns."""

import pytest

from .pages import CONNECTED, log_in

pytestmark = pytest.mark.browser

MOVES = 13  # the eight farm houses, then five trunks: too few to end the game
DRAWN = "() => document.querySelectorAll('#board svg .tr-house, #board svg .tr-trunk').length"
TIMEOUT = 15_000
CLICKABLE = "() => document.querySelectorAll('#board svg [data-action]').length > 0"


def log_in_on(browser, base, user, **device):
    return log_in(browser.new_context(**device).new_page(), base, user)


def board_offers(page):
    return page.evaluate("[...document.querySelectorAll('#board svg [data-action]')].map((e) => e.dataset.action)")


def drawn(page):
    return page.evaluate(DRAWN)


def test_two_people_see_each_others_moves_live_and_one_resigns(asgi_server, browser, make_user, screenshot):
    base = asgi_server
    ann = make_user("ann")
    ben = make_user("ben")
    ann_page = log_in_on(browser, base, ann, viewport={"width": 1100, "height": 900})
    # Ben plays on a phone: a narrow screen, and he taps.
    ben_page = log_in_on(browser, base, ben, viewport={"width": 375, "height": 800}, has_touch=True, is_mobile=True)

    # Ann creates a public match for two on /play/.
    ann_page.goto(f"{base}/play/")
    create = ann_page.locator("section[aria-labelledby=new-heading]")
    create.locator("select[name=game]").select_option("territories")
    create.locator("input[name=num_players]").fill("2")
    create.locator("select[name=visibility]").select_option("public")
    create.get_by_role("button", name="Create match").click()
    ann_page.wait_for_url(f"{base}/matches/*/")
    match_url = ann_page.url
    match_id = match_url.rstrip("/").rsplit("/", 1)[-1]
    ann_page.wait_for_selector("#waiting-heading")

    # Ben finds it in the lobby and joins.
    ben_page.goto(f"{base}/play/")
    ben_page.get_by_role("button", name=f"Join #{match_id}").click()
    ben_page.wait_for_url(match_url)
    # Ann's page notices the match has started and shows the board with the Resign button.
    ann_page.wait_for_selector("#resign-form", timeout=TIMEOUT)
    pages = {"ann": ann_page, "ben": ben_page}
    for page in pages.values():
        page.wait_for_selector("#board svg.territories")
        page.wait_for_function(CONNECTED)

    kinds = []
    ann_seat = ann_page.evaluate("window.matchClient.payload.seat")
    for _ in range(MOVES):
        # Whoever is to move sees clickable places on the board; the other sees none.
        ann_page.wait_for_function(
            f"() => ({CLICKABLE})() || window.matchClient.payload.view.current_player !== {ann_seat}",
            timeout=TIMEOUT,
        )
        mover_name = "ann" if board_offers(ann_page) else "ben"
        mover, other = pages[mover_name], pages["ben" if mover_name == "ann" else "ann"]
        mover.wait_for_function(CLICKABLE, timeout=TIMEOUT)
        assert board_offers(other) == [], "only the player to move gets clickable places"
        before = drawn(other)
        assert drawn(mover) == before
        action = board_offers(mover)[0]
        target = mover.locator(f"#board svg [data-action='{action}']")
        if mover is ben_page:
            target.tap()
        else:
            target.click()
        # The other person's board shows the new farm house or trunk, without a reload.
        other.wait_for_function(f"(n) => ({DRAWN})() > n", arg=before, timeout=TIMEOUT)
        mover.wait_for_function(f"(n) => ({DRAWN})() > n", arg=before, timeout=TIMEOUT)
        kind, where = action.split(":")
        selector = f".tr-house[data-square='{where}']" if kind == "farm" else f".tr-trunk[data-edge='{where}']"
        assert other.locator(f"#board svg {selector}").count() == 1, f"{action} is not drawn on the other board"
        kinds.append(kind)

    assert kinds.count("farm") == 8 and kinds.count("trunk") == MOVES - 8, kinds
    for page in pages.values():
        assert page.locator("#board svg .tr-house").count() == 8
        assert page.locator("#board svg .tr-house.yellow").count() == 4
        assert page.locator("#board svg .tr-trunk").count() == MOVES - 8
        assert page.locator("#result:not([hidden])").count() == 0

    # Ann resigns (and confirms); both pages show the final ranking with Ben first.
    ann_page.on("dialog", lambda dialog: dialog.accept())
    ann_page.locator("#resign-form button").click()
    for page in pages.values():
        page.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT)
        result = page.locator("#result").inner_text()
        assert "Final ranking" in result
        assert "1. ben" in result and "ann" in result and "(resigned)" in result, result
        assert "ann resigned" in page.locator("#board svg .tr-hint").text_content()
        assert page.locator("#board svg [data-action]").count() == 0
    assert "tr-narrow" in ben_page.locator("#board svg").get_attribute("class")
    assert ben_page.evaluate("document.documentElement.scrollWidth") <= 375, "the phone page scrolls sideways"
    screenshot(ben_page, "territories-two-people-resigned")
    ann_page.context.close()
    ben_page.context.close()
