"""Notifications that stop asking once there is nothing to ask: a rematch offer's once it
closes, a practice game's end for the person who played it; and one whose post was deleted
leads to a kind word instead of a missing page."""

import pytest

from challenges import services as challenges
from forums import services as forums
from forums.models import Forum
from games import services as games
from notifications.models import Notification
from tests.conftest import drain_worker, wait_for
from tests.games.helpers import start_two_player

# Every source is a signal or hook run after commit.
pytestmark = pytest.mark.django_db(transaction=True)


def unread(user, kind):
    drain_worker()
    return Notification.objects.filter(user=user, kind=kind, read=False).count()


def told(user, kind):
    """The notification the worker makes for ``user`` (waited for: the worker tells off the
    request)."""
    wait_for(lambda: Notification.objects.filter(user=user, kind=kind).exists(), message=f"a {kind} notification")
    drain_worker()
    return Notification.objects.get(user=user, kind=kind)


@pytest.fixture
def finished(alice, bob):
    match = start_two_player("territories", alice, bob)
    games.match_resign(match_id=match.pk, user=bob)
    return match


@pytest.mark.parametrize("close", ["declined", "withdrawn", "accepted", "expired"])
def test_a_rematch_offer_that_closes_leaves_its_notification_read(alice, bob, finished, close):
    from django.utils import timezone

    from challenges.models import RematchOffer

    offer = challenges.rematch_offer(match_id=finished.pk, user=alice)
    assert unread(bob, "rematch_offered") == 1
    if close == "declined":
        challenges.rematch_answer(offer_id=offer.pk, user=bob, accept=False)
    elif close == "withdrawn":
        challenges.rematch_cancel(offer_id=offer.pk, user=alice)
    elif close == "accepted":
        challenges.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    else:
        RematchOffer.objects.filter(pk=offer.pk).update(expires_at=timezone.now())
        challenges.expire_due()
    assert unread(bob, "rematch_offered") == 0
    assert Notification.objects.filter(user=bob, kind="rematch_offered").count() == 1  # kept, read


def test_an_untimed_practice_game_against_bots_leaves_no_unread_match_finished(alice):
    match = games.match_create(user=alice, game="territories", num_players=2, rated=False, speed="untimed")
    games.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    games.match_resign(match_id=match.pk, user=alice)
    drain_worker()
    (note,) = Notification.objects.filter(user=alice, kind="match_finished")
    assert note.read and note.text == f"Territories #{match.pk} is over: you placed 2nd."


def test_a_timed_match_against_a_bot_and_a_match_between_people_still_tell_unread(alice, bob, finished):
    assert unread(alice, "match_finished") == 1 and unread(bob, "match_finished") == 1
    match = games.match_create(user=alice, game="territories", num_players=2, rated=False, speed="live")
    games.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    games.match_resign(match_id=match.pk, user=alice)
    assert unread(alice, "match_finished") == 2


def test_a_notification_whose_topic_was_deleted_leads_to_a_kind_word(client, alice, bob, make_user):
    general = Forum.objects.get(slug="general")
    topic = forums.topic_create(limited=False, forum_id=general.pk, user=alice, title="Openings", body="Thoughts?")
    forums.post_create(limited=False, topic_id=topic.pk, user=bob, body="Corners first.")
    note = told(alice, "forum_reply")
    forums.topic_hide(topic_id=topic.pk, moderator=make_user("mo", is_staff=True), reason="Spam")

    client.force_login(alice)
    response = client.get(f"/notifications/{note.pk}/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [("/notifications/", 302)]
    assert "The post this notification was about has been deleted since" in response.content.decode()
    assert Notification.objects.get(pk=note.pk).read


def test_a_notification_whose_post_is_still_there_opens_it(client, alice, bob):
    general = Forum.objects.get(slug="general")
    topic = forums.topic_create(limited=False, forum_id=general.pk, user=alice, title="Openings", body="Thoughts?")
    reply = forums.post_create(limited=False, topic_id=topic.pk, user=bob, body="Corners first.")
    note = told(alice, "forum_reply")
    client.force_login(alice)
    response = client.get(f"/notifications/{note.pk}/")
    assert response.status_code == 302 and response.url == reply.get_absolute_url()
