"""A new password ends the user's API tokens and their other sessions, however it was set."""

import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.core.management import call_command
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "Brand-New-Secret-7"


def api_token(client, user) -> str:
    response = client.post("/api/auth/token/", {"username": user.username, "password": DEMO_PASSWORD})
    assert response.status_code == 200
    return response.json()["token"]


def token_works(client, token) -> bool:
    """Whether the token still signs requests in (joining needs a signed-in user)."""
    response = client.post("/api/matches/999999/join/", HTTP_AUTHORIZATION=f"Token {token}")
    return response.status_code != 403 and response.json().get("code") != "not_seated"


def signed_in(client) -> bool:
    return client.get("/").context["user"].is_authenticated


def logged_in_client(user) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"login": user.username, "password": DEMO_PASSWORD}).status_code == 302
    return client


def test_the_token_and_a_session_work_before_any_change(client, alice):
    token = api_token(client, alice)
    assert token_works(client, token)
    assert signed_in(logged_in_client(alice))


def test_changing_the_password_revokes_tokens_and_other_sessions_and_keeps_this_one(client, alice):
    token = api_token(client, alice)
    laptop, phone = logged_in_client(alice), logged_in_client(alice)
    response = laptop.post(
        "/accounts/password/change/",
        {"oldpassword": DEMO_PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert signed_in(laptop)
    assert not signed_in(phone)
    assert not Token.objects.filter(user=alice).exists()
    assert not token_works(client, token)


def test_resetting_the_password_revokes_tokens_and_every_session(client, alice):
    token = api_token(client, alice)
    phone = logged_in_client(alice)
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    response = client.post(form_page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert not signed_in(phone)
    assert not token_works(client, token)
    assert not Token.objects.filter(user=alice).exists()


def test_a_password_set_by_an_administrator_revokes_tokens(client, alice, make_user):
    token = api_token(client, alice)
    staff = Client()
    staff.force_login(make_user("root", is_staff=True, is_superuser=True))
    response = staff.post(
        f"/admin/accounts/user/{alice.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302
    assert not token_works(client, token)


def test_a_password_set_from_the_command_line_revokes_tokens(client, alice, monkeypatch):
    token = api_token(client, alice)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": NEW_PASSWORD)
    call_command("changepassword", "alice", stdout=None)
    assert not token_works(client, token)


def test_other_users_tokens_survive(client, alice, bob):
    token = api_token(client, bob)
    alice.set_password(NEW_PASSWORD)
    alice.save()
    assert token_works(client, token)


def test_resetting_the_password_unlocks_a_locked_account(client, alice):
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    assert client.post("/accounts/login/", {"login": "alice", "password": DEMO_PASSWORD}).status_code == 429
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    client.post(form_page.redirect_chain[-1][0], {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert not AccessAttempt.objects.filter(username="alice").exists()
    assert client.post("/accounts/login/", {"login": "alice", "password": NEW_PASSWORD}).status_code == 302
