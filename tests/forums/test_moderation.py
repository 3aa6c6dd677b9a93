"""Staff pin, lock, move and delete; deletions hide with a reason kept; others may not."""

import pytest

from forums import services
from forums.models import Forum, ModerationLog, Post, Topic

from .conftest import login

pytestmark = pytest.mark.django_db


def moderate(client, topic, action):
    return client.post(f"/forum/topic/{topic.pk}/moderate/", {"action": action})


def test_staff_pin_and_unpin_a_topic_and_the_log_says_so(client, alice, moderator, topic_of):
    topic = topic_of(alice)
    login(client, moderator)
    assert "Moderation" in client.get(topic.get_absolute_url()).content.decode()
    assert moderate(client, topic, "pin").status_code == 302
    topic.refresh_from_db()
    assert topic.pinned
    assert 'class="badge">Pinned<' in client.get(topic.get_absolute_url()).content.decode()
    moderate(client, topic, "unpin")
    topic.refresh_from_db()
    assert not topic.pinned
    log = list(ModerationLog.objects.order_by("id").values_list("action", "moderator__username", "topic_id"))
    assert log == [("pin", "mod", topic.pk), ("unpin", "mod", topic.pk)]


def test_staff_lock_and_unlock_a_topic(client, alice, bob, moderator, topic_of, clock):
    topic = topic_of(alice)
    login(client, moderator)
    moderate(client, topic, "lock")
    topic.refresh_from_db()
    assert topic.locked
    moderate(client, topic, "unlock")
    topic.refresh_from_db()
    assert not topic.locked
    login(client, bob)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "open again"}).status_code == 302


def test_pinning_a_pinned_topic_is_a_clear_error_and_logs_nothing(alice, moderator, topic_of):
    topic = topic_of(alice)
    services.topic_set_pinned(topic_id=topic.pk, moderator=moderator, pinned=True)
    with pytest.raises(services.ForumError, match="already pinned"):
        services.topic_set_pinned(topic_id=topic.pk, moderator=moderator, pinned=True)
    assert ModerationLog.objects.count() == 1


def test_staff_move_a_topic_to_another_forum(client, alice, moderator, general, game_forum, topic_of):
    topic = topic_of(alice, title="Misplaced question")
    login(client, moderator)
    assert client.get(f"/forum/topic/{topic.pk}/move/").status_code == 200
    response = client.post(f"/forum/topic/{topic.pk}/move/", {"forum": game_forum.pk, "reason": "about that game"})
    assert response.status_code == 302
    topic.refresh_from_db()
    assert topic.forum == game_forum
    assert "Misplaced question" in client.get(game_forum.get_absolute_url()).content.decode()
    assert "Misplaced question" not in client.get(general.get_absolute_url()).content.decode()
    entry = ModerationLog.objects.get()
    assert entry.action == "move" and entry.reason == "about that game"
    assert entry.detail == f"Misplaced question: from General to {game_forum.name}"


def test_staff_delete_a_post_with_a_reason_and_it_is_hidden_not_gone(client, alice, bob, moderator, topic_of):
    topic = topic_of(alice)
    post = services.post_create(limited=False, topic_id=topic.pk, user=bob, body="Buy cheap dice at spam.example")
    login(client, moderator)
    response = client.post(f"/forum/post/{post.pk}/delete/", {"reason": "advertising"})
    assert response.status_code == 302
    post.refresh_from_db()
    assert post.is_hidden and post.hidden_reason == "advertising" and post.hidden_by == moderator
    assert Post.objects.filter(pk=post.pk).exists()
    entry = ModerationLog.objects.get()
    assert (entry.action, entry.reason, entry.post_id) == ("hide_post", "advertising", post.pk)
    assert entry.moderator == moderator

    staff_page = client.get(topic.get_absolute_url()).content.decode()
    assert "advertising" in staff_page and "spam.example" in staff_page  # moderators still see it
    client.logout()
    page = client.get(topic.get_absolute_url()).content.decode()
    assert "This post was removed by a moderator." in page
    assert "spam.example" not in page and "advertising" not in page


def test_staff_delete_a_topic_with_a_reason(client, alice, moderator, general, topic_of):
    topic = topic_of(alice, title="Flame war")
    login(client, moderator)
    assert client.post(f"/forum/topic/{topic.pk}/delete/", {"reason": ""}).status_code == 200  # reason required
    topic.refresh_from_db()
    assert not topic.is_hidden
    assert client.post(f"/forum/topic/{topic.pk}/delete/", {"reason": "off topic"}).status_code == 302
    topic.refresh_from_db()
    assert topic.is_hidden and topic.hidden_reason == "off topic"
    assert Topic.objects.filter(pk=topic.pk).exists()
    assert client.get(topic.get_absolute_url()).status_code == 200  # moderators still open it
    client.logout()
    assert client.get(topic.get_absolute_url()).status_code == 404
    assert "Flame war" not in client.get(general.get_absolute_url()).content.decode()


def test_a_reason_is_required_to_delete(alice, moderator, topic_of):
    topic = topic_of(alice)
    with pytest.raises(services.ForumError, match="reason"):
        services.topic_hide(topic_id=topic.pk, moderator=moderator, reason="  ")
    topic.refresh_from_db()
    assert not topic.is_hidden and not ModerationLog.objects.exists()


def test_other_users_may_not_moderate_and_nothing_changes(client, alice, bob, general, game_forum, topic_of):
    topic = topic_of(alice)
    post = Post.objects.get(topic=topic)
    login(client, bob)
    assert "Moderation" not in client.get(topic.get_absolute_url()).content.decode()
    for action in ("pin", "lock"):
        assert moderate(client, topic, action).status_code == 403
    assert client.get(f"/forum/topic/{topic.pk}/move/").status_code == 403
    assert client.post(f"/forum/topic/{topic.pk}/move/", {"forum": game_forum.pk}).status_code == 403
    assert client.post(f"/forum/topic/{topic.pk}/delete/", {"reason": "mine now"}).status_code == 403
    assert client.post(f"/forum/post/{post.pk}/delete/", {"reason": "mine now"}).status_code == 403
    assert client.get("/forum/moderation/").status_code == 403
    # even the author of the topic is no moderator
    login(client, alice)
    assert moderate(client, topic, "lock").status_code == 403
    topic.refresh_from_db()
    post.refresh_from_db()
    assert (topic.pinned, topic.locked, topic.forum, topic.is_hidden, post.is_hidden) == (
        False,
        False,
        general,
        False,
        False,
    )
    assert not ModerationLog.objects.exists()
    client.logout()
    assert moderate(client, topic, "pin")["Location"].startswith("/accounts/login/")


def test_the_moderation_log_shows_who_did_what_and_why(client, alice, moderator, topic_of):
    topic = topic_of(alice, title="Heated thread")
    services.topic_set_locked(topic_id=topic.pk, moderator=moderator, locked=True, reason="cooling off")
    login(client, moderator)
    page = client.get("/forum/moderation/").content.decode()
    assert "Locked the topic" in page and "Heated thread" in page and "cooling off" in page and ">mod</a>" in page


def test_forums_are_listed_for_moving_except_the_current_one(client, alice, moderator, general, topic_of):
    topic = topic_of(alice)
    login(client, moderator)
    page = client.get(f"/forum/topic/{topic.pk}/move/").content.decode()
    assert f'value="{general.pk}"' not in page
    assert all(f'value="{f.pk}"' in page for f in Forum.objects.exclude(pk=general.pk))
