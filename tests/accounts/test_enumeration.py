"""Sign-up and password reset do not tell whether an e-mail address has an account."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
User = get_user_model()


def signup(client, username, email):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": "Correct-Horse-42", "password2": "Correct-Horse-42"},
        follow=True,
    )


def page_text(response, email) -> str:
    """The page as a visitor reads it, with the address typed in left out (and the footer's
    CSRF token, masked anew on every page, blanked)."""
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', response.content.decode())
    return re.sub(r"\s+", " ", text.replace(email, "ADDRESS"))


def test_signup_with_a_registered_email_answers_exactly_as_with_a_new_one(alice):
    registered = signup(Client(), "someoneelse", "alice@example.com")
    new = signup(Client(), "newcomer", "newcomer@example.com")
    assert registered.redirect_chain == new.redirect_chain == [("/accounts/confirm-email/", 302)]
    assert registered.status_code == new.status_code == 200
    assert page_text(registered, "alice@example.com") == page_text(new, "newcomer@example.com")
    assert "A user is already registered" not in page_text(registered, "alice@example.com")


def test_signup_with_a_registered_email_makes_no_account_and_tells_its_owner(alice):
    signup(Client(), "someoneelse", "ALICE@example.com")
    assert not User.objects.filter(username="someoneelse").exists()
    assert User.objects.filter(email__iexact="alice@example.com").count() == 1
    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    assert "already exists" in message.body and "/accounts/password/reset/" in message.body


def test_a_new_account_logs_in_once_its_address_is_confirmed():
    client = Client()
    signup(client, "newcomer", "newcomer@example.com")
    assert User.objects.filter(username="newcomer").exists()
    assert not client.get("/").context["user"].is_authenticated
    [message] = mail.outbox
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", message.body).group(1)
    assert client.post(link).status_code == 302
    assert client.get("/").context["user"].username == "newcomer"


def test_an_unconfirmed_account_cannot_log_in_yet():
    signup(Client(), "newcomer", "newcomer@example.com")
    client = Client()
    response = client.post("/accounts/login/", {"login": "newcomer", "password": "Correct-Horse-42"})
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    assert not client.get("/").context["user"].is_authenticated


def test_password_reset_answers_exactly_the_same_for_a_known_and_an_unknown_address(alice):
    known = Client().post("/accounts/password/reset/", {"email": "alice@example.com"}, follow=True)
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [("/accounts/password/reset/done/", 302)]
    assert page_text(known, "alice@example.com") == page_text(unknown, "nobody@example.com")
    # Each address gets a mail, so only its owner learns whether it has an account.
    assert sorted(message.to[0] for message in mail.outbox) == ["alice@example.com", "nobody@example.com"]


def test_an_unconfirmed_account_gets_no_api_token_until_it_is_confirmed():
    signup(Client(), "newcomer", "newcomer@example.com")
    credentials = {"username": "newcomer", "password": "Correct-Horse-42"}
    refused = Client().post("/api/auth/token/", credentials)
    assert refused.status_code == 400
    assert "Confirm your e-mail address" in refused.json()["non_field_errors"][0]
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)
    Client().post(link)
    assert Client().post("/api/auth/token/", credentials).json()["token"]
