"""The posting limit (one post every 15 seconds, 30 an hour) is the services': every topic
and reply counts, whoever opens it (the forum's pages, a match's discussion, a tournament's
announcement), and the pages still say it the same way."""

import pytest

from forums import services
from forums.models import Post, Topic
from forums.services import ForumError
from games import services as game_services
from games.models import Match

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_match(alice, bob):
    match = game_services.match_create(user=alice, game="game-of-god", num_players=2)
    game_services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    game_services.match_resign(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def rate_limited(call, **kwargs) -> ForumError:
    with pytest.raises(ForumError) as refused:
        call(**kwargs)
    assert refused.value.code == "rate_limited" and refused.value.http_status == 429
    return refused.value


def test_a_topic_opened_through_the_service_counts_against_the_posting_limit(alice, general, clock):
    clock.start_windows_of(alice)
    services.topic_create(forum_id=general.pk, user=alice, title="One", body="first")
    clock.advance(5)
    error = rate_limited(services.topic_create, forum_id=general.pk, user=alice, title="Two", body="second")
    assert error.message == (
        "You are posting too quickly: the forum takes one post every 15 seconds. Try again in 10 seconds."
    )
    clock.advance(10)
    assert services.topic_create(forum_id=general.pk, user=alice, title="Two", body="second").title == "Two"


def test_a_reply_through_the_service_counts_too(alice, bob, topic_of, clock):
    topic = topic_of(bob)
    services.post_create(topic_id=topic.pk, user=alice, body="first")
    rate_limited(services.post_create, topic_id=topic.pk, user=alice, body="second")
    assert Post.objects.filter(author=alice).count() == 1


def test_a_match_discussion_opened_through_the_service_counts(alice, general, finished_match, clock):
    services.topic_create(forum_id=general.pk, user=alice, title="Hello", body="first")
    rate_limited(services.topic_discuss_match, match_id=finished_match.pk, user=alice, title="Ours", body="text")
    assert not Topic.objects.filter(match=finished_match).exists()


def test_the_page_still_says_it_with_the_text_kept_and_answers_429(client, alice, general, clock):
    clock.start_windows_of(alice)
    services.topic_create(forum_id=general.pk, user=alice, title="Through a service", body="first")
    login(client, alice)
    response = client.post("/forum/general/new/", {"title": "Two", "body": "second text"})
    assert response.status_code == 429
    body = response.content.decode()
    assert "one post every 15 seconds. Try again in 15 seconds; your text is kept below." in body
    assert 'value="Two"' in body and "second text</textarea>" in body
