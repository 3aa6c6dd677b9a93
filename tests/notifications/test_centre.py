"""The notification centre page, following a notification, marking all read, and the API."""

import pytest
from rest_framework.test import APIClient

from notifications import services
from notifications.models import Notification

from .helpers import correspondence, until_waiting_for

pytestmark = pytest.mark.django_db

SIGNED_IN = 2  # the session and the account


def note(user, text="Something happened.", url="/play/", kind="forum_reply", **extra):
    return Notification.objects.create(user=user, kind=kind, text=text, url=url, **extra)


def test_the_centre_asks_anonymous_visitors_to_log_in(client):
    response = client.get("/notifications/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_centre_lists_your_notifications_newest_first_and_only_yours(client, alice, bob):
    note(alice, "First thing.")
    note(alice, "Second thing.")
    note(bob, "Bob's own business.")
    client.force_login(alice)
    body = client.get("/notifications/").content.decode()
    assert body.index("Second thing.") < body.index("First thing.")
    assert "Bob&#x27;s own business." not in body and "Bob's own business." not in body
    assert body.count('class="notification unread"') == 2


def test_the_centre_shows_the_matches_waiting_for_your_move(client, alice, bob):
    match = until_waiting_for(correspondence(alice, bob), alice)
    client.force_login(alice)
    body = client.get("/notifications/").content.decode()
    assert "Waiting for your move" in body and f"Game of God #{match.pk}" in body
    client.force_login(bob)
    assert "Waiting for your move" not in client.get("/notifications/").content.decode()


def test_the_centre_is_paged_thirty_at_a_time(client, alice):
    for i in range(31):
        note(alice, f"Event number {i}.")
    client.force_login(alice)
    first = client.get("/notifications/").content.decode()
    assert "Event number 30." in first and "Event number 0." not in first and 'rel="next"' in first
    second = client.get("/notifications/?page=2").content.decode()
    assert "Event number 0." in second and "Event number 30." not in second


def test_mark_all_read_clears_the_unread_ones_of_the_person_only(client, alice, bob):
    note(alice)
    note(alice)
    note(bob)
    client.force_login(alice)
    assert client.get("/notifications/read-all/").status_code == 405  # a change is a POST
    response = client.post("/notifications/read-all/", follow=True)
    assert "2 notifications marked as read." in response.content.decode()
    assert not Notification.objects.filter(user=alice, read=False).exists()
    assert Notification.objects.filter(user=bob, read=False).count() == 1


def test_following_a_notification_marks_it_read_and_opens_its_page(client, alice):
    mine = note(alice, url="/forums/topic/5/")
    client.force_login(alice)
    response = client.get(f"/notifications/{mine.pk}/")
    assert response.status_code == 302 and response["Location"] == "/forums/topic/5/"
    mine.refresh_from_db()
    assert mine.read


def test_someone_elses_notification_cannot_be_opened_or_marked(client, alice, bob):
    theirs = note(bob)
    client.force_login(alice)
    response = client.get(f"/notifications/{theirs.pk}/")
    assert response.status_code == 302 and response["Location"] == "/notifications/"
    theirs.refresh_from_db()
    assert not theirs.read


def test_a_notification_never_sends_anyone_off_the_site(client, alice):
    outside = note(alice, url="https://evil.example/phish")
    client.force_login(alice)
    assert client.get(f"/notifications/{outside.pk}/")["Location"] == "/notifications/"


def test_the_header_links_the_centre_and_the_matches_waiting(client, alice):
    client.force_login(alice)
    body = client.get("/").content.decode()
    assert 'id="notifications-link"' in body and 'href="/notifications/"' in body
    assert 'id="your-turn-link"' in body and "js/me.js" in body
    client.logout()
    body = client.get("/").content.decode()
    assert "notifications-link" not in body and "js/me.js" not in body


def test_the_centre_costs_three_queries_whatever_the_number_of_notifications(
    client, alice, bob, django_assert_max_num_queries
):
    until_waiting_for(correspondence(alice, bob), alice)
    client.force_login(alice)
    for count in (1, 60):
        while Notification.objects.filter(user=alice).count() < count:
            note(alice)
        # How many there are (the pages), one page of them, the matches waiting.
        with django_assert_max_num_queries(3 + SIGNED_IN):
            assert client.get("/notifications/").status_code == 200
        with django_assert_max_num_queries(2 + SIGNED_IN):
            assert client.get("/notifications/?page=2").status_code == 200


def test_the_profile_page_costs_one_query_more_for_the_notification_settings(
    client, alice, django_assert_max_num_queries
):
    client.force_login(alice)
    with django_assert_max_num_queries(1 + SIGNED_IN):
        assert client.get("/settings/profile/").status_code == 200


# -- the API --------------------------------------------------------------------------


def test_the_api_lists_the_signed_in_persons_notifications_newest_first(alice, bob):
    note(alice, "Older.")
    note(alice, "Newer.", kind="match_finished", url="/matches/1/")
    note(bob, "Not alice's.")
    api = APIClient()
    api.force_authenticate(alice)
    data = api.get("/api/notifications/").json()
    assert data["count"] == 2
    assert [row["text"] for row in data["results"]] == ["Newer.", "Older."]
    assert set(data["results"][0]) == {"id", "kind", "text", "url", "created", "read"}
    assert data["results"][0]["kind"] == "match_finished" and data["results"][0]["read"] is False


def test_the_api_refuses_anonymous_callers(db):
    response = APIClient().get("/api/notifications/")
    assert response.status_code == 403
    assert response.json()["message"] == "Sign in to do that."


def test_the_api_refuses_a_page_that_is_not_a_number(alice):
    api = APIClient()
    api.force_authenticate(alice)
    assert api.get("/api/notifications/?page=x").status_code == 404


def test_reading_marks_the_header_count_down(alice, bob):
    note(alice)
    services.notification_mark_all_read(user=alice)
    from notifications.selectors import unread_count

    assert unread_count(alice) == 0
