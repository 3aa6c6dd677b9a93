"""One post every 15 seconds and 30 an hour per user; a refused post keeps its text."""

import pytest

from forums import services
from forums.models import Post, Topic

from .conftest import login

pytestmark = pytest.mark.django_db


def test_a_second_reply_within_15_seconds_is_refused_and_keeps_the_text(client, alice, bob, topic_of, clock):
    topic = topic_of(bob)
    clock.start_windows_of(alice)
    login(client, alice)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "first thought"}).status_code == 302
    clock.advance(5)
    response = client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "my second, *carefully typed* thought"})
    assert response.status_code == 429
    body = response.content.decode()
    assert "You are posting too quickly" in body and "one post every 15 seconds" in body
    assert "my second, *carefully typed* thought</textarea>" in body
    assert Post.objects.filter(author=alice).count() == 1

    clock.advance(15)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "my second thought"}).status_code == 302
    assert Post.objects.filter(author=alice).count() == 2


def test_a_new_topic_counts_too_and_keeps_title_and_text_when_refused(client, alice, general, clock):
    clock.start_windows_of(alice)
    login(client, alice)
    client.post("/forum/general/new/", {"title": "One", "body": "first"})
    response = client.post("/forum/general/new/", {"title": "Two", "body": "second text"})
    assert response.status_code == 429
    body = response.content.decode()
    assert 'value="Two"' in body and "second text</textarea>" in body
    assert list(Topic.objects.values_list("title", flat=True)) == ["One"]


def test_the_limit_is_per_user(client, alice, bob, topic_of, clock):
    topic = topic_of(alice)
    login(client, alice)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "alice"}).status_code == 302
    login(client, bob)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "bob"}).status_code == 302


def test_thirty_posts_an_hour_at_most(client, alice, bob, topic_of, clock):
    topic = topic_of(bob)
    clock.start_windows_of(alice)  # django-ratelimit counts per clock hour (offset per user)
    login(client, alice)
    for n in range(30):
        assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": f"post {n}"}).status_code == 302, n
        clock.advance(16)
    response = client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "one too many"})
    assert response.status_code == 429 and "30 posts an hour" in response.content.decode()
    assert Post.objects.filter(author=alice).count() == 30
    clock.advance(3600)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "an hour later"}).status_code == 302


def test_a_refused_or_invalid_attempt_does_not_use_up_the_allowance(client, alice, bob, topic_of, clock):
    topic = topic_of(bob)
    login(client, alice)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": ""}).status_code == 400
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "counted"}).status_code == 302


def test_the_sites_own_scripts_post_outside_the_limit(alice, topic_of):
    topic = topic_of(alice)
    for n in range(3):
        services.post_create(topic_id=topic.pk, user=alice, body=f"{n}", limited=False)
    assert Post.objects.filter(topic=topic).count() == 4


def test_two_posts_sent_at_the_same_moment_cannot_both_pass(client, alice, bob, topic_of, clock):
    """The check and the count are two steps; between them the user holds a claim, so a
    second post arriving in that gap is refused instead of slipping through."""
    from forums import ratelimits

    topic = topic_of(bob)
    clock.start_windows_of(alice)
    login(client, alice)
    with ratelimits.posting(alice) as slot:
        assert slot.refusal is None  # the first post is being written...
        response = client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "sent twice"})
        assert response.status_code == 429 and "still being saved" in response.content.decode()
        slot.count()  # ...and is counted
    assert Post.objects.filter(author=alice).count() == 0
    clock.advance(16)
    assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": "sent once"}).status_code == 302


def test_a_post_that_fails_gives_the_claim_back(client, alice, bob, topic_of, clock):
    """A reply refused for another reason (a locked topic) neither counts nor blocks the next
    post with "still being saved"."""
    locked = topic_of(bob)
    Topic.objects.filter(pk=locked.pk).update(locked=True)
    other = topic_of(bob)
    clock.start_windows_of(alice)
    login(client, alice)
    refused = client.post(f"/forum/topic/{locked.pk}/reply/", {"body": "too late"})
    assert refused.status_code == 400 and "This topic is locked" in refused.content.decode()
    response = client.post(f"/forum/topic/{other.pk}/reply/", {"body": "right away"})
    assert response.status_code == 302


def test_two_posts_less_than_15_seconds_apart_are_never_both_accepted(client, alice, bob, topic_of, clock):
    """Whatever second of a 15-second stretch the first post lands on, a second one 4.5 s
    later is refused: the window slides with the posts and has no edge to post either side of."""
    topic = topic_of(bob)
    login(client, alice)
    start = clock.now
    for i in range(15):
        clock.now = start + 31 * i  # 31 s apart: every second of a 15-second cycle once
        assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": f"first {i}"}).status_code == 302
        clock.advance(4.5)
        response = client.post(f"/forum/topic/{topic.pk}/reply/", {"body": f"second {i}"})
        assert response.status_code == 429, f"two posts 4.5 s apart were both accepted ({i} s into the cycle)"
        assert "Try again in 11 seconds" in response.content.decode()
    assert Post.objects.filter(author=alice).count() == 15


def test_posting_still_works_when_the_cache_is_unreachable(client, alice, bob, topic_of, monkeypatch):
    from portal import rate_limits

    class Unreachable:
        def __getattr__(self, name):
            raise ConnectionError("the cache is down")

    topic = topic_of(bob)
    monkeypatch.setattr(rate_limits, "cache", Unreachable())
    login(client, alice)
    for n in range(2):
        assert client.post(f"/forum/topic/{topic.pk}/reply/", {"body": f"still here {n}"}).status_code == 302
    assert Post.objects.filter(author=alice).count() == 2
