import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


def signup(client, username="newcomer", email="newcomer@example.com", password="Correct-Horse-42"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def test_signup_creates_an_account_that_logs_in_once_its_email_is_confirmed(client):
    response = signup(client)
    assert response.status_code == 302 and response["Location"] == "/accounts/confirm-email/"
    user = User.objects.get(username="newcomer")
    assert user.email == "newcomer@example.com" and not user.is_bot
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)
    client.post(link)
    assert client.get("/").context["user"] == user


def test_signup_rejects_a_weak_password_with_django_validators(client):
    response = signup(client, password="123")
    assert response.status_code == 200
    assert not User.objects.filter(username="newcomer").exists()
    assert "too short" in response.content.decode()


def test_signup_with_a_taken_email_makes_no_account(client, alice):
    response = signup(client, username="other", email="alice@example.com")
    assert response.status_code == 302  # the same answer as for a new address (test_enumeration)
    assert not User.objects.filter(username="other").exists()


@pytest.mark.parametrize("login", ["alice", "alice@example.com"])
def test_log_in_by_username_or_email(client, alice, login):
    response = client.post("/accounts/login/", {"login": login, "password": DEMO_PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == alice


def test_a_wrong_password_is_refused_with_a_message(client, alice):
    response = client.post("/accounts/login/", {"login": "alice", "password": "wrong-password"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
    assert not client.get("/").context["user"].is_authenticated


def test_repeated_failed_logins_are_throttled_with_a_clear_message(client, alice):
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong-password"})
    response = client.post("/accounts/login/", {"login": "alice", "password": DEMO_PASSWORD})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert not client.get("/").context["user"].is_authenticated


def test_log_out(client, alice):
    client.force_login(alice)
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": DEMO_PASSWORD, "password1": "Another-Horse-43", "password2": "Another-Horse-43"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Another-Horse-43")


def test_password_reset_mail_is_sent_and_its_link_sets_a_new_password(client, alice):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    response = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link,
        {"password1": "Brand-New-Secret-7", "password2": "Brand-New-Secret-7"},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Brand-New-Secret-7")


def test_profile_page_shows_joined_date_and_bio(client, alice):
    alice.bio = "I fence *everything*."
    alice.save()
    response = client.get("/players/alice/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "I fence *everything*." in body and "Joined" in body


def test_unknown_player_is_a_404_in_the_site_style(client):
    response = client.get("/players/nobody/")
    assert response.status_code == 404
    assert "We could not find that page" in response.content.decode()


def test_users_edit_their_own_bio(client, alice):
    client.force_login(alice)
    response = client.post("/settings/profile/", {"bio": "Territories fan."})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.bio == "Territories fan."


def test_nobody_can_edit_another_users_bio(client, alice, bob):
    client.force_login(bob)
    client.post("/settings/profile/", {"bio": "hacked", "username": "alice"})
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.bio == "" and bob.bio == "hacked"


def test_editing_a_profile_needs_a_login(client):
    response = client.get("/settings/profile/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_bio_is_escaped_on_the_profile(client, alice):
    alice.bio = "<script>alert(1)</script>"
    alice.save()
    body = client.get("/players/alice/").content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;" in body


def test_the_confirmation_email_names_the_site_not_the_address_it_was_served_on(client):
    client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "Correct-Horse-42",
            "password2": "Correct-Horse-42",
        },
        HTTP_HOST="127.0.0.1:8301",
    )
    message = mail.outbox[0]
    assert message.subject.startswith("[Territory Games] ")
    assert "Hello from Territory Games!" in message.body
    assert "account on Territory Games" in message.body
    assert "127.0.0.1:8301" not in message.subject
    # The link itself leads back to where the person signed up.
    assert "http://127.0.0.1:8301/accounts/confirm-email/" in message.body
    assert message.body.count("127.0.0.1:8301") == 1


def test_the_password_reset_mail_is_written_in_the_language_saved_on_the_account(client, alice):
    get_user_model().objects.filter(pk=alice.pk).update(language="de")
    client.post("/accounts/password/reset/", {"email": "alice@example.com"}, headers={"Accept-Language": "fr"})
    (message,) = mail.outbox
    assert message.subject.endswith("E-Mail zum Zurücksetzen des Passworts")
    assert message.body.startswith("Hallo von ") and "password reset" not in message.body


def test_allauths_mails_follow_the_page_when_the_account_has_no_language_saved(client, alice):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"}, headers={"Accept-Language": "es"})
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    spanish, english = mail.outbox
    assert spanish.subject.endswith("Correo electrónico para restablecer contraseña")
    assert english.subject.endswith("Password Reset Email") and english.body.startswith("Hello from ")
