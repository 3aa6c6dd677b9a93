"""A tournament page watched from its entries to its end follows it without a reload (status
line, buttons, winner), and a player is called to the next round's table wherever they look:
a notice with its link, the header's count and the tab's title; the table's match page then
links back to the tournament and counts down the first move."""

import pytest

from tests.games.browser.pages import log_in
from tournaments import services

from ..helpers import announce, fresh, let_seat_win, seated_users, tables_of
from .test_standings_live import CONNECTED, in_thread

pytestmark = pytest.mark.browser

TIMEOUT = 15_000
STATUS = ".tournament-status strong"


def test_a_watched_tournament_page_follows_it_to_its_end(asgi_server, browser, make_user, alice, screenshot):
    tournament = announce(alice, name="Evening cup")  # two entrants: one round, one table
    ann, ben, watcher = make_user("ann"), make_user("ben"), make_user("wes")
    services.tournament_join(tournament_id=tournament.pk, user=ann)

    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, watcher)
    page.goto(f"{asgi_server}/tournaments/{tournament.pk}/")
    page.wait_for_function(CONNECTED, timeout=10_000)
    assert page.locator(STATUS).inner_text() == "Taking entries"
    assert page.get_by_role("button", name="Enter this tournament").count() == 1

    in_thread(services.tournament_join, tournament_id=tournament.pk, user=ben)
    page.get_by_role("heading", name="Entrants (2)").wait_for(timeout=TIMEOUT)
    in_thread(services.tournament_start, tournament_id=tournament.pk, user=alice)
    page.wait_for_function(f"() => document.querySelector('{STATUS}').textContent === 'Being played'", timeout=TIMEOUT)
    assert page.get_by_role("button", name="Enter this tournament").count() == 0
    assert "round 1 of 1" in page.locator(".tournament-status").inner_text()

    (table,) = tables_of(tournament)
    in_thread(let_seat_win, table, 0)
    page.wait_for_function(f"() => document.querySelector('{STATUS}').textContent === 'Finished'", timeout=TIMEOUT)
    winner = seated_users(table)[0]
    assert fresh(tournament).winner == winner
    assert page.locator(".winner").inner_text() == f"Winner: {winner.username}"
    assert page.get_by_role("button", name="Enter this tournament").count() == 0
    assert page.get_by_role("button", name="Withdraw").count() == 0
    screenshot(page, "tournament-watched-to-its-end")
    page.close()


def test_a_player_is_called_to_the_next_rounds_table(asgi_server, browser, make_user, alice, screenshot):
    tournament = announce(alice, name="Evening cup")
    four = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    for user in four:
        services.tournament_join(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    first, second = tables_of(tournament)
    player = seated_users(first)[0]
    let_seat_win(first, 0)  # the player's table is over; the round waits for the other

    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, player)
    page.goto(f"{asgi_server}/tournaments/{tournament.pk}/")
    page.wait_for_function(CONNECTED, timeout=10_000)
    page.wait_for_function("() => window.meSocket && window.meSocket.readyState === 1", timeout=10_000)

    in_thread(let_seat_win, second, 0)  # the round ends: round 2 is paired
    (table,) = [t for t in tables_of(fresh(tournament), 2) if player in seated_users(t)]
    page.wait_for_function("() => document.title === '(1) Your table is ready'", timeout=TIMEOUT)
    notice = page.locator("#notices a")
    assert notice.inner_text() == f"Your table is ready: round 2 of Evening cup, Territories #{table.match_id}."
    page.wait_for_function("() => Number(document.getElementById('unread-count').textContent) >= 1", timeout=TIMEOUT)
    screenshot(page, "tournament-table-ready-notice")

    notice.click()
    page.wait_for_url(f"{asgi_server}/matches/{table.match_id}/")
    assert page.get_by_role("link", name="Evening cup").get_attribute("href") == f"/tournaments/{tournament.pk}/"
    countdown = page.locator("#table-ready")
    assert countdown.inner_text().startswith("Your table is ready: the first move is due within 1:")
    page.close()
