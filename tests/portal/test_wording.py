"""The site's words, the same on every page: "Sign up" and "Sign in" (allauth's pages
included), a home page title with its separator, and each form's help where it belongs."""

import re

import pytest

pytestmark = pytest.mark.django_db

OLD_WORDS = ["Register now", "Log in", "Log out", "Sign Up", "Sign In", "Sign Out", "Signup"]


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_home_page_title_has_its_separator(client):
    title = re.search(r"<title>(.*?)</title>", client.get("/").content.decode(), re.S)
    assert title is not None and title.group(1) == "Play territory games online · Territory Games"


@pytest.mark.parametrize("path", ["/", "/accounts/signup/", "/accounts/login/", "/forum/", "/help/", "/games/"])
def test_a_visitor_reads_sign_up_and_sign_in_only(client, path):
    response = client.get(path, follow=True)
    text = visible_text(response.content.decode())
    assert "Sign up" in text and "Sign in" in text
    for old in OLD_WORDS:
        assert old not in text, (path, old)


def test_a_signed_in_member_signs_out(client, alice):
    client.force_login(alice)
    text = visible_text(client.get("/").content.decode())
    assert "Sign out" in text and "Log out" not in text
    page = visible_text(client.get("/accounts/logout/").content.decode())
    assert "Sign out" in page and "Sign Out" not in page


def test_the_sign_up_form_says_the_password_rules_but_not_what_a_change_does(client):
    text = visible_text(client.get("/accounts/signup/").content.decode())
    assert "must contain at least 8 characters" in text
    assert "Changing your password" not in text


def test_the_password_change_form_says_what_a_change_does(client, alice):
    client.force_login(alice)
    text = visible_text(client.get("/accounts/password/change/").content.decode())
    assert "Changing your password signs you out on your other devices and ends your API tokens." in text
