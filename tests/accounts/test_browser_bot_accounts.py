import pytest

from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.browser


def test_a_person_registers_a_bot_sees_its_token_once_and_the_bot_cannot_sign_in(
    asgi_server, browser, screenshot, alice
):
    page = browser.new_page()
    page.goto(f"{asgi_server}/accounts/login/")
    page.fill("input[name=login]", "alice")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{asgi_server}/")

    page.goto(f"{asgi_server}/settings/profile/")
    page.get_by_role("link", name="Your bots").click()
    page.fill("input[name=name]", "Cornerstone")
    page.fill("textarea[name=description]", "Takes the corners first.")
    page.get_by_role("button", name="Register the bot").click()
    token = page.get_by_test_id("bot-token").inner_text()
    assert len(token) == 40
    screenshot(page, "bot-registered")
    page.get_by_role("link", name="Cornerstone").click()
    assert page.locator(".bot-owner").inner_text().startswith("A bot account of alice")

    page.locator(".user-menu summary").click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_load_state()
    page.goto(f"{asgi_server}/accounts/login/")
    page.fill("input[name=login]", "Cornerstone")
    page.fill("input[name=password]", token)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_load_state()
    assert "Cornerstone is a bot account" in page.content()
    assert page.locator(".user-menu").count() == 0
    screenshot(page, "bot-login-refused")
