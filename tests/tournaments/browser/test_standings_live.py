"""The tournament page follows the tournament by itself: when a match of the round ends, its
standings show the result without a reload, and when the round's last match ends the next
round's pairings appear. Watched signed out, at desktop and phone widths."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services as game_services
from tournaments import services

from ..helpers import announce, seated_users, tables_of

pytestmark = pytest.mark.browser

CONNECTED = (
    "() => window.tournamentClient && window.tournamentClient.socket && window.tournamentClient.socket.readyState === 1"
)


def in_thread(fn, *args, **kwargs):
    """Run a service in a thread of its own (Playwright's event loop runs in this one)."""

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(call).result()


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_standings_update_when_a_match_of_the_round_ends(
    asgi_server, browser, make_user, alice, screenshot, width, height
):
    tournament = announce(alice, name="Live cup")
    for name in ("ann", "ben", "cat", "dan"):
        services.tournament_join(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    first, second = tables_of(tournament)
    winner = first.seats.all()[0].entrant

    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{asgi_server}/tournaments/{tournament.pk}/")
    page.wait_for_function(CONNECTED, timeout=10_000)
    points = page.locator(f'tr[data-entrant="{winner.pk}"] .points')
    assert points.inner_text() == "0"

    in_thread(game_services.match_resign, match_id=first.match_id, user=seated_users(first)[1])
    page.wait_for_function(
        f"() => document.querySelector('tr[data-entrant=\"{winner.pk}\"] .points').textContent === '1'",
        timeout=10_000,
    )
    # Sorted again: the winner of the finished table leads.
    assert page.locator(".standings tbody tr").first.get_attribute("data-entrant") == str(winner.pk)
    assert page.get_by_role("heading", name="Round 2").count() == 0
    screenshot(page, f"tournament-standings-{width}")

    in_thread(game_services.match_resign, match_id=second.match_id, user=seated_users(second)[1])
    page.get_by_role("heading", name="Round 2").wait_for(timeout=10_000)
    round_two = tables_of(tournament, 2)
    for table in round_two:
        assert page.locator(f'a[href="/matches/{table.match_id}/"]').count() == 1
    # Nothing is wider than the screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.close()
