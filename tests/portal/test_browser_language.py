"""A visitor switches the site to German from the footer: the page comes back in German, and
its scripts read the German catalogue."""

import pytest

pytestmark = pytest.mark.browser


def test_a_visitor_switches_the_pages_to_german_from_the_footer(asgi_server, browser):
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(f"{asgi_server}/play/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#footer-language", "de")
    page.get_by_role("button", name="Change the language").click()
    page.wait_for_selector("html[lang=de]", timeout=10_000)
    assert page.url == f"{asgi_server}/play/"
    assert page.get_by_role("heading", name="Partien, die auf Spieler warten").is_visible()
    assert page.locator("#footer-language").input_value() == "de"
    assert page.evaluate("window.gettext('Your move')") == "Du bist am Zug"


def test_a_german_reader_of_a_match_reads_the_pages_scripts_in_german(asgi_server, browser, alice, bob):
    from games import services
    from tests.games.browser import pages

    def start():
        match = services.match_create(user=alice, game="game-of-god", num_players=2)
        services.match_join(match_id=match.pk, user=bob)
        match.refresh_from_db()
        return match

    match = pages.in_thread(start)
    to_move, waiting = (alice, bob) if match.to_move == 0 else (bob, alice)
    for user, mine in ((to_move, True), (waiting, False)):
        page = pages.signed_in_context(browser, asgi_server, user, locale="de-DE").new_page()
        page.goto(f"{asgi_server}/matches/{match.pk}/")
        page.wait_for_function(pages.CONNECTED)
        assert page.locator("html").get_attribute("lang") == "de"
        name = page.evaluate(f"window.matchClient.payload.seat_names[{match.to_move}]")
        expected = "Du bist am Zug" if mine else f"{name} ist am Zug"  # the turn line, made by match.js
        assert page.inner_text("#turn-who") == expected
        # The board's module reads the same catalogue (static/games/game-of-god.js).
        assert "Figuren in gegnerischen Zielfeldern" in page.locator("#board").text_content()
        # What the engine says too: the seats' colours, the line above the board, the moves.
        assert name.endswith(("(blau)", "(grün)", "(orange)", "(rosa)")), name
        # The game begins with the empty goal square the chooser leaves.
        if mine:
            assert page.inner_text("#prompt").startswith("Wähle die Spalte deines Zielfelds, die frei bleibt (")
            assert "frei lassen" in page.inner_text("#actions") and "Leave" not in page.inner_text("#actions")
        else:
            assert " wählt die Spalte des eigenen Zielfelds, die frei bleibt (" in page.inner_text("#prompt")
        page.context.close()
