"""A match page whose sign-in ends (here: a new password set from another browser) says so
and stops: no reconnecting in a loop, no moves sent as someone no longer signed in."""

import pytest
from django.test import Client

from tests.conftest import DEMO_PASSWORD

from . import pages
from .test_match_page import RECONNECT_PAUSE_MAX_MS, log_in, off_the_page_thread, start

pytestmark = pytest.mark.browser

NEW_PASSWORD = "Brand-New-Secret-7"


def change_password_elsewhere(user):
    other = Client()
    assert other.post("/accounts/login/", {"login": user.username, "password": DEMO_PASSWORD}).status_code == 302
    response = other.post(
        "/accounts/password/change/",
        {"oldpassword": DEMO_PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302


def test_a_new_password_elsewhere_signs_the_match_page_out_for_good(asgi_server, browser, alice, bob, screenshot):
    match = off_the_page_thread(lambda: start(alice, bob))
    context = browser.new_context()
    context.clock.install()  # the page's reconnect timers run only when the test says
    page = log_in(context, asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(pages.CONNECTED)
    page.evaluate("() => { window.firstSocket = window.matchClient.socket; }")

    off_the_page_thread(lambda: change_password_elsewhere(alice))

    page.wait_for_function("() => window.matchClient.socket.readyState === 3")  # CLOSED
    page.wait_for_selector("#banner:not([hidden])")
    assert "You were signed out" in page.inner_text("#banner")
    page.clock.run_for(3 * RECONNECT_PAUSE_MAX_MS)
    # The same closed socket: the page never tried again.
    assert page.evaluate("() => window.matchClient.socket === window.firstSocket")
    assert page.evaluate("() => window.matchClient.socket.readyState") == 3
    assert "You were signed out" in page.inner_text("#banner")
    screenshot(page, "match-signed-out")
    context.close()
