"""The your-turn e-mail of correspondence matches: who gets it, when, how often, and how to
stop it. Mail goes to Django's locmem outbox (``mailoutbox``)."""

import time
from datetime import UTC, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.core import signing
from django.utils import timezone

from accounts.services import user_confirm_email
from notifications import services
from notifications.models import Notification, NotificationSettings
from notifications.tasks import sweep_your_turn

from .helpers import correspondence, last_seen, turn_began, until_waiting_for, waiting_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]

HOUR = timedelta(hours=1)


@pytest.fixture
def away_turn(alice, bob):
    """A correspondence match whose turn began ten minutes after its player left the site,
    an hour ago."""
    match = turn_began(correspondence(alice, bob), timedelta(minutes=50))
    last_seen(waiting_for(match), HOUR)
    return match


def test_a_player_away_gets_one_mail_when_it_becomes_their_turn(away_turn, mailoutbox):
    person = waiting_for(away_turn)
    assert sweep_your_turn() == 1
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == [person.email]
    assert mail.subject == f"Your move in Game of God #{away_turn.pk}"
    assert f"/matches/{away_turn.pk}/" in mail.body
    assert mail.extra_headers["List-Unsubscribe"].startswith("<http")
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_second_mail_about_the_same_match_within_the_batching_window(away_turn, mailoutbox, settings):
    person = waiting_for(away_turn)
    sweep_your_turn()
    sweep_your_turn()
    assert len(mailoutbox) == 1
    later = timezone.now() + timedelta(hours=settings.TURN_MAIL_EVERY_HOURS) - timedelta(minutes=5)
    assert services.turn_mail_send(user_id=person.pk, now=later) == 0
    after_window = timezone.now() + timedelta(hours=settings.TURN_MAIL_EVERY_HOURS, minutes=5)
    assert services.turn_mail_send(user_id=person.pk, now=after_window) == 1
    assert len(mailoutbox) == 2


def test_several_matches_waiting_make_one_mail_listing_them(alice, bob, make_user, mailoutbox):
    carol = make_user("carol")
    matches = []
    for opponent in (bob, carol):
        match = correspondence(alice, opponent)
        match = until_waiting_for(match, alice)
        matches.append(turn_began(match, timedelta(minutes=30)))
    last_seen(alice, HOUR)
    sweep_your_turn()
    to_alice = [mail for mail in mailoutbox if mail.to == [alice.email]]
    assert len(to_alice) == 1
    assert to_alice[0].subject == "Your move in 2 matches"
    for match in matches:
        assert f"#{match.pk}" in to_alice[0].body


def test_no_mail_while_the_player_is_on_the_site(away_turn, mailoutbox):
    last_seen(waiting_for(away_turn), timedelta(minutes=2))
    sweep_your_turn()
    assert mailoutbox == []


def test_no_mail_when_the_turn_began_before_the_player_left(alice, bob, mailoutbox):
    match = turn_began(correspondence(alice, bob), 2 * HOUR)
    last_seen(waiting_for(match), HOUR)  # they saw it was their move, and left
    sweep_your_turn()
    assert mailoutbox == []


def test_no_mail_with_the_setting_off(away_turn, mailoutbox):
    services.settings_update(user=waiting_for(away_turn), email_your_turn=False)
    sweep_your_turn()
    assert mailoutbox == []


def test_no_mail_to_an_unconfirmed_address(make_user, bob, mailoutbox):
    from allauth.account.models import EmailAddress

    dora = make_user("dora")
    EmailAddress.objects.filter(user=dora).update(verified=False)
    match = correspondence(dora, bob)
    match = until_waiting_for(match, dora)
    turn_began(match, timedelta(minutes=30))
    last_seen(dora, HOUR)
    sweep_your_turn()
    assert [mail for mail in mailoutbox if mail.to == [dora.email]] == []
    user_confirm_email(user=dora)
    sweep_your_turn()
    assert len([mail for mail in mailoutbox if mail.to == [dora.email]]) == 1


def test_no_mail_without_an_address(make_user, bob, mailoutbox):
    nobody = make_user("nobody", email="")
    match = correspondence(nobody, bob)
    match = until_waiting_for(match, nobody)
    turn_began(match, timedelta(minutes=30))
    last_seen(nobody, HOUR)
    assert sweep_your_turn() == 1  # a notification on the site all the same
    assert mailoutbox == []
    assert Notification.objects.filter(user=nobody, kind="your_turn").count() == 1


def test_live_matches_send_no_mail(alice, bob, mailoutbox):
    from tests.games.helpers import start_two_player

    match = start_two_player("game-of-god", alice, bob)
    last_seen(waiting_for(match), HOUR)
    sweep_your_turn()
    assert mailoutbox == []


def test_the_sweep_notifies_each_turn_once(away_turn):
    person = waiting_for(away_turn)
    sweep_your_turn()
    sweep_your_turn()
    notes = Notification.objects.filter(user=person, kind="your_turn")
    assert [n.text for n in notes] == [f"Your move in Game of God #{away_turn.pk}."]
    assert notes[0].url == away_turn.get_absolute_url()


# -- unsubscribing --------------------------------------------------------------------


def test_the_unsubscribe_link_in_the_mail_turns_the_mail_off_without_logging_in(away_turn, mailoutbox, client):
    person = waiting_for(away_turn)
    sweep_your_turn()
    link = mailoutbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get(f"/{path}")
    assert page.status_code == 200 and "Stop the your-turn e-mail?" in page.content.decode()
    assert NotificationSettings.objects.get(user=person).email_your_turn  # a visit alone changes nothing
    done = client.post(f"/{path}")
    assert "You are unsubscribed" in done.content.decode()
    assert not NotificationSettings.objects.get(user=person).email_your_turn


def test_a_mail_client_one_click_post_needs_no_csrf_token(alice):
    from django.test import Client

    token = services.unsubscribe_token(alice)
    response = Client(enforce_csrf_checks=True).post(
        f"/notifications/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"}
    )
    assert response.status_code == 200
    assert not NotificationSettings.objects.get(user=alice).email_your_turn


@pytest.mark.parametrize(
    "damage",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # signature changed
        lambda token: token.split(":")[0] + ":forged",
        lambda token: signing.dumps({"u": 1, "k": "your_turn"}, salt="another.purpose"),
        lambda token: "not-a-token",
    ],
    ids=["tampered signature", "forged signature", "signed for something else", "garbage"],
)
def test_a_bad_unsubscribe_token_is_refused_and_changes_nothing(alice, client, damage):
    bad = damage(services.unsubscribe_token(alice))
    for response in (
        client.get(f"/notifications/unsubscribe/{bad}/"),
        client.post(f"/notifications/unsubscribe/{bad}/"),
    ):
        assert response.status_code == 400
        assert "This link does not work" in response.content.decode()
    assert not NotificationSettings.objects.filter(user=alice, email_your_turn=False).exists()


def test_a_token_names_its_own_person_only(alice, bob):
    assert services.unsubscribe_user(services.unsubscribe_token(alice)) == alice
    assert services.unsubscribe_user(services.unsubscribe_token(bob)) == bob
    payload = signing.loads(services.unsubscribe_token(alice), salt=services.UNSUBSCRIBE_SALT)
    changed = signing.dumps({**payload, "u": bob.pk}, salt="not-our-salt")
    assert services.unsubscribe_user(changed) is None


def _days_later(monkeypatch, days: float) -> None:
    """Signed links are read as if ``days`` had passed since they were made."""
    later = time.time() + days * 86400
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: later))


def test_an_unsubscribe_link_works_for_60_days_and_then_no_more(alice, client, monkeypatch):
    token = services.unsubscribe_token(alice)
    _days_later(monkeypatch, 59)
    assert services.unsubscribe_user(token) == alice
    _days_later(monkeypatch, 61)
    for response in (
        client.get(f"/notifications/unsubscribe/{token}/"),
        client.post(f"/notifications/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"}),
    ):
        assert response.status_code == 400
        assert "older than 60 days" in response.content.decode()
    assert not NotificationSettings.objects.filter(user=alice, email_your_turn=False).exists()


def test_the_mail_says_how_long_its_unsubscribe_link_works(away_turn, mailoutbox):
    sweep_your_turn()
    assert "this link works for 60 days" in mailoutbox[0].body


def test_a_link_from_a_mail_sent_before_links_expired_works_until_60_days_after_it_was_sent(alice, monkeypatch):
    earlier = signing.dumps({"u": alice.pk, "k": "your_turn"}, salt=services.UNSUBSCRIBE_SALT)
    _days_later(monkeypatch, 30)
    assert services.unsubscribe_user(earlier) == alice
    _days_later(monkeypatch, 61)
    assert services.unsubscribe_user(earlier) is None


def test_a_used_unsubscribe_link_does_not_unsubscribe_again_after_the_mail_is_turned_back_on(alice, client):
    token = services.unsubscribe_token(alice)
    services.settings_update(user=alice, email_your_turn=True)  # saved while on: the link still works
    assert "You are unsubscribed" in client.post(f"/notifications/unsubscribe/{token}/").content.decode()
    services.settings_update(user=alice, email_your_turn=True)

    replayed = client.post(f"/notifications/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert replayed.status_code == 400
    assert "turned the e-mail back on" in replayed.content.decode()
    assert NotificationSettings.objects.get(user=alice).email_your_turn
    # The link of the next mail works.
    client.post(f"/notifications/unsubscribe/{services.unsubscribe_token(alice)}/")
    assert not NotificationSettings.objects.get(user=alice).email_your_turn


def test_the_profile_setting_turns_the_mail_off_and_on(alice, client):
    client.force_login(alice)
    page = client.get("/settings/profile/").content.decode()
    assert "E-mail me when it is my turn" in page and "checked" in page  # on by default
    client.post("/notifications/settings/", {})
    assert not NotificationSettings.objects.get(user=alice).email_your_turn
    assert "checked" not in client.get("/settings/profile/").content.decode().split("notification-settings")[1]
    client.post("/notifications/settings/", {"email_your_turn": "on"})
    assert NotificationSettings.objects.get(user=alice).email_your_turn


def test_a_your_turn_notification_is_read_once_the_turn_is_played(away_turn):
    from .helpers import play_one_move

    person = waiting_for(away_turn)
    sweep_your_turn()
    assert Notification.objects.filter(user=person, kind="your_turn", read=False).count() == 1
    match = away_turn
    while waiting_for(match) == person:
        match = play_one_move(match)
    sweep_your_turn()
    assert not Notification.objects.filter(user=person, kind="your_turn", read=False).exists()


def test_the_clock_command_make_run_starts_sends_the_mail_too(away_turn, mailoutbox):
    from django.core.management import call_command

    call_command("run_clocks", "--once")
    assert [mail.to for mail in mailoutbox] == [[waiting_for(away_turn).email]]


@pytest.mark.django_db(transaction=True)
def test_a_mail_the_server_refuses_is_sent_by_the_next_try_and_holds_no_lock_meanwhile(
    away_turn, mailoutbox, monkeypatch
):
    from django.core.mail.backends.locmem import EmailBackend
    from django.db import connection

    from notifications.models import TurnMail

    person = waiting_for(away_turn)
    working = EmailBackend.send_messages
    inside_a_transaction = []

    def refused(self, messages):
        inside_a_transaction.append(connection.in_atomic_block)
        raise ConnectionRefusedError("the mail server is down")

    monkeypatch.setattr(EmailBackend, "send_messages", refused)
    with pytest.raises(ConnectionRefusedError):
        services.turn_mail_send(user_id=person.pk)
    assert inside_a_transaction == [False], "the mail goes out with the person's settings row free"
    assert mailoutbox == [] and not TurnMail.objects.filter(user=person).exists(), "the claim is given back"

    monkeypatch.setattr(EmailBackend, "send_messages", working)
    assert services.turn_mail_send(user_id=person.pk) == 1
    assert [mail.to for mail in mailoutbox] == [[person.email]]


def test_the_mail_states_the_deadline_in_the_recipients_zone_and_names_it(away_turn, mailoutbox):
    person = waiting_for(away_turn)
    person.time_zone = "Asia/Tokyo"
    person.save(update_fields=["time_zone"])
    sweep_your_turn()
    due = away_turn.deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"by {due:%a %d %b %Y, %H:%M} (Asia/Tokyo)" in mailoutbox[0].body


def test_the_mail_of_a_person_without_a_zone_states_utc(away_turn, mailoutbox):
    sweep_your_turn()
    assert f"by {away_turn.deadline.astimezone(UTC):%a %d %b %Y, %H:%M} (UTC)" in mailoutbox[0].body


# -- in the person's language ---------------------------------------------------------


def test_the_mail_is_written_in_the_language_saved_on_the_account(away_turn, mailoutbox):
    person = waiting_for(away_turn)
    person.language = "de"
    person.time_zone = "Europe/Berlin"
    person.save(update_fields=["language", "time_zone"])
    sweep_your_turn()
    (mail,) = mailoutbox
    assert mail.subject == f"Du bist am Zug in Game of God #{away_turn.pk}"
    assert mail.body.startswith(f"Hallo {person.username},\n\nDu bist am Zug in einer Fernpartie:")
    assert "Diese E-Mails abbestellen (der Link gilt 60 Tage)" in mail.body
    assert "Oder ändere es in deinem Profil" in mail.body and "Du bekommst höchstens eine Nachricht" in mail.body
    deadline = away_turn.deadline.astimezone(ZoneInfo("Europe/Berlin"))
    day = ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"][deadline.weekday()]
    month = ["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"][deadline.month - 1]
    assert f"bis {day} {deadline:%d} {month} {deadline:%Y}, {deadline:%H:%M} (Europe/Berlin)" in mail.body
    assert "Your move" not in mail.body and "Hello" not in mail.body and "Stop these e-mails" not in mail.body


def test_a_person_with_no_language_saved_gets_the_mail_in_english(away_turn, mailoutbox):
    person = waiting_for(away_turn)
    assert person.language == ""
    sweep_your_turn()
    (mail,) = mailoutbox
    assert mail.subject == f"Your move in Game of God #{away_turn.pk}"
    assert mail.body.startswith(f"Hello {person.username},\n\nIt is your move in a correspondence match:")
    assert "Stop these e-mails (this link works for 60 days)" in mail.body
