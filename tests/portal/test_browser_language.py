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
