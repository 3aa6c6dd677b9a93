"""The board's stylesheet comes with the page, not after the board is drawn: no moment of an
unstyled board, and the board's script does not link it a second time."""

import pytest

pytestmark = pytest.mark.browser


def test_a_match_page_brings_its_boards_stylesheet_once(asgi_server, browser, alice, bob):
    from games import services
    from tests.games.browser import pages

    def start():
        match = services.match_create(user=alice, game="game-of-god", num_players=2)
        services.match_join(match_id=match.pk, user=bob)
        return match

    match = pages.in_thread(start)
    page = pages.signed_in_context(browser, asgi_server, alice).new_page()
    response = page.goto(f"{asgi_server}/matches/{match.pk}/")
    head = response.text().split("</head>")[0]
    assert '<link rel="stylesheet" href="/static/games/game-of-god.css">' in head
    page.wait_for_function(pages.CONNECTED)
    page.wait_for_selector("#board svg")
    links = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.href)")
    assert links.count(f"{asgi_server}/static/games/game-of-god.css") == 1, links


@pytest.mark.parametrize("slug", ["territories", "gp02a"])
def test_a_lesson_page_brings_its_boards_stylesheet(asgi_server, browser, slug):
    page = browser.new_page()
    response = page.goto(f"{asgi_server}/games/{slug}/learn/")
    assert f'<link rel="stylesheet" href="/static/games/{slug}.css">' in response.text().split("</head>")[0]
    page.wait_for_selector("#board svg")
    links = page.evaluate("() => [...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.href)")
    assert links.count(f"{asgi_server}/static/games/{slug}.css") == 1, links
    page.close()
