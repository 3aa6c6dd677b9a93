"""What becomes a notification: a finished match, a challenge, a rematch offer, a reply in a
forum topic you wrote in. Each reaches only the people it concerns, and never twice."""

import pytest

from challenges.signals import challenge_received, rematch_offered
from forums import services as forums
from forums.models import Forum
from games import services as games
from notifications.models import Notification
from tests.conftest import drain_worker

# Every source is a signal or hook run after commit.
pytestmark = pytest.mark.django_db(transaction=True)


def texts(user):
    drain_worker()  # the tasks that write them, when a worker runs them
    return [n.text for n in Notification.objects.filter(user=user)]


def test_a_finished_match_tells_each_of_its_people_their_place(alice, bob):
    from tests.games.helpers import start_two_player

    match = start_two_player("territories", alice, bob)
    games.match_resign(match_id=match.pk, user=bob)
    assert texts(alice) == [f"Territories #{match.pk} is over: you placed 1st."]
    assert texts(bob) == [f"Territories #{match.pk} is over: you placed 2nd."]
    assert Notification.objects.get(user=alice).url == match.get_absolute_url()


def test_a_bot_gets_no_notification_of_a_finished_match(alice):
    match = games.match_create(user=alice, game="territories", num_players=2, rated=False)
    games.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    games.match_resign(match_id=match.pk, user=alice)
    drain_worker()
    assert Notification.objects.exclude(user=alice).count() == 0
    assert len(texts(alice)) == 1


def test_a_challenge_received_is_a_notification_for_the_person_challenged(alice, bob):
    challenge_received.send(
        sender=None, challenge_id=7, user_id=bob.pk, text="alice challenges you to GP02A.", url="/c/7/"
    )
    note = Notification.objects.get()
    assert (note.user, note.kind, note.text, note.url) == (
        bob,
        "challenge_received",
        "alice challenges you to GP02A.",
        "/c/7/",
    )
    challenge_received.send(sender=None, challenge_id=7, user_id=bob.pk, text="again", url="/c/7/")
    assert Notification.objects.count() == 1  # the same challenge, still unread: told once


def test_a_rematch_offer_reaches_every_person_asked_and_no_bot(alice, bob, make_user):
    from django.contrib.auth import get_user_model

    bot = get_user_model().objects.create(username="Greedy bot", is_bot=True, bot_name="greedy")
    carol = make_user("carol")
    rematch_offered.send(
        sender=None, match_id=3, user_ids=[bob.pk, carol.pk, bot.pk], text="alice offers a rematch.", url="/matches/3/"
    )
    assert sorted(n.user.username for n in Notification.objects.all()) == ["bob", "carol"]
    assert set(Notification.objects.values_list("kind", flat=True)) == {"rematch_offered"}


def test_a_reply_tells_the_others_who_wrote_in_the_topic_but_not_its_author(alice, bob, make_user):
    carol, dave = make_user("carol"), make_user("dave")
    general = Forum.objects.get(slug="general")
    topic = forums.topic_create(limited=False, forum_id=general.pk, user=alice, title="Best opening?", body="Thoughts?")
    forums.post_create(limited=False, topic_id=topic.pk, user=bob, body="Corners first.")
    assert texts(alice) == ["bob replied in “Best opening?”."]
    assert texts(bob) == []
    reply = forums.post_create(limited=False, topic_id=topic.pk, user=carol, body="Edges!")
    assert texts(bob) == ["carol replied in “Best opening?”."]
    assert texts(alice) == ["bob replied in “Best opening?”."]  # one unread per topic at a time
    assert texts(dave) == [] and texts(carol) == []
    assert Notification.objects.get(user=bob).url == reply.get_absolute_url()


def test_a_reply_after_reading_is_told_again(alice, bob, client):
    general = Forum.objects.get(slug="general")
    topic = forums.topic_create(limited=False, forum_id=general.pk, user=alice, title="Dice odds", body="Anyone?")
    forums.post_create(limited=False, topic_id=topic.pk, user=bob, body="One in six.")
    drain_worker()
    client.force_login(alice)
    client.post("/notifications/read-all/")
    forums.post_create(limited=False, topic_id=topic.pk, user=bob, body="Unless loaded.")
    drain_worker()
    assert Notification.objects.filter(user=alice, read=False).count() == 1
    assert Notification.objects.filter(user=alice).count() == 2
