import re

import pytest
from django.core import mail

pytestmark = pytest.mark.browser


def test_a_newcomer_confirms_their_email_logs_out_logs_in_and_sees_their_name(asgi_server, browser, screenshot):
    page = browser.new_page()
    page.goto(f"{asgi_server}/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=email]", "newcomer@example.com")
    page.fill("input[name=password1]", "Correct-Horse-42")
    page.fill("input[name=password2]", "Correct-Horse-42")
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(f"{asgi_server}/accounts/confirm-email/")
    assert "Verify Your Email Address" in page.content()

    link = re.search(r"http://[^/]+(/accounts/confirm-email/\S+/)", mail.outbox[-1].body).group(1)
    page.goto(f"{asgi_server}{link}")
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(f"{asgi_server}/")
    assert page.locator(".user-menu .username").inner_text() == "newcomer"

    page.locator(".user-menu summary").click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_load_state()
    assert page.locator(".user-menu").count() == 0

    page.get_by_role("link", name="Sign in").first.click()
    page.fill("input[name=login]", "newcomer@example.com")
    page.fill("input[name=password]", "Correct-Horse-42")
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{asgi_server}/")
    assert page.locator(".user-menu .username").inner_text() == "newcomer"
    screenshot(page, "signup-login")
