"""'Discuss this match': one topic per match, in its game's forum, opened from the match page."""

import html

import pytest

from forums.models import Post, Topic
from games import services as game_services
from games.models import Match

from .conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_match(alice, bob):
    match = game_services.match_create(user=alice, game="game-of-god", num_players=2)
    game_services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    game_services.match_resign(match_id=match.pk, user=bob)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    return match


def test_the_match_page_of_a_finished_match_offers_to_discuss_it(client, alice, finished_match):
    login(client, alice)
    page = client.get(f"/matches/{finished_match.pk}/").content.decode()
    assert f'href="/forum/discuss/{finished_match.pk}/">Discuss this match</a>' in page


def draft(client, match):
    """The form "Discuss this match" opens, as proposed (its title and message)."""
    form = client.get(f"/forum/discuss/{match.pk}/").context["form"]
    return {"title": form.initial["title"], "body": form.initial["body"]}


def test_discuss_this_match_opens_a_prefilled_form_and_posts_nothing_by_itself(client, alice, finished_match):
    login(client, alice)
    response = client.get(f"/forum/discuss/{finished_match.pk}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert f"Game of God match #{finished_match.pk}: alice, bob" in body
    assert "nothing is posted until you start the topic" in body
    assert not Topic.objects.exists() and not Post.objects.exists()
    # Sent with the person's own words, the topic opens with them.
    response = client.post(
        f"/forum/discuss/{finished_match.pk}/", {"title": "What a resignation", "body": "Why did bob give up?"}
    )
    topic = Topic.objects.get()
    assert response["Location"] == topic.get_absolute_url()
    assert topic.title == "What a resignation" and topic.match_id == finished_match.pk
    assert Post.objects.get().body == "Why did bob give up?"


def test_discussing_a_match_opens_one_topic_in_its_game_forum(client, alice, bob, game_forum, finished_match, clock):
    login(client, bob)
    response = client.post(f"/forum/discuss/{finished_match.pk}/", draft(client, finished_match))
    topic = Topic.objects.get()
    assert response["Location"] == topic.get_absolute_url()
    assert topic.forum == game_forum and topic.match_id == finished_match.pk and topic.author == bob
    first = Post.objects.get(topic=topic)
    assert f'href="/matches/{finished_match.pk}/"' in first.body_html
    assert "alice" in first.body and "bob" in first.body

    # the second click, by anyone, opens the same topic
    clock.advance(60)
    login(client, alice)
    assert client.get(f"/forum/discuss/{finished_match.pk}/")["Location"] == topic.get_absolute_url()
    posted = client.post(f"/forum/discuss/{finished_match.pk}/", {"title": "Again", "body": "again"})
    assert posted["Location"] == topic.get_absolute_url()
    assert Topic.objects.count() == 1 and Post.objects.count() == 1
    page = client.get(topic.get_absolute_url()).content.decode()
    assert f'<a href="/matches/{finished_match.pk}/">match #{finished_match.pk}</a>' in page


def test_a_deleted_discussion_can_be_opened_again(client, alice, moderator, finished_match, clock):
    from forums import services

    words = {"title": "About this match", "body": "Well played."}
    topic, created = services.topic_discuss_match(match_id=finished_match.pk, user=alice, **words)
    assert created
    services.topic_hide(topic_id=topic.pk, moderator=moderator, reason="spoilers")
    clock.advance(15)  # a post every 15 seconds at most
    again, created = services.topic_discuss_match(match_id=finished_match.pk, user=alice, **words)
    assert created and again.pk != topic.pk


def assert_refused(response, match, message):
    """Refused: sent back to the match page (a player of it sees it), told why, and no form."""
    assert response.redirect_chain == [(f"/matches/{match.pk}/", 302)]
    assert response.status_code == 200
    page = response.content.decode()
    assert html.escape(message) in page
    assert 'name="title"' not in page


def test_a_match_still_being_played_is_not_discussed_in_the_forum(client, alice, bob):
    match = game_services.match_create(user=alice, game="game-of-god", num_players=2)
    game_services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    login(client, alice)
    response = client.get(f"/forum/discuss/{match.pk}/", follow=True)
    assert "once it is over" in response.content.decode()
    response = client.post(f"/forum/discuss/{match.pk}/", {"title": "Live", "body": "tips"}, follow=True)
    assert_refused(response, match, "A match is discussed in the forum once it is over; use the match chat meanwhile.")
    assert not Topic.objects.exists()


def test_an_invite_only_match_is_not_discussed_in_the_open(client, alice, bob):
    match = game_services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    game_services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    game_services.match_resign(match_id=match.pk, user=bob)
    login(client, alice)
    for response in (
        client.get(f"/forum/discuss/{match.pk}/", follow=True),
        client.post(f"/forum/discuss/{match.pk}/", {"title": "Secret", "body": "tips"}, follow=True),
    ):
        assert_refused(response, match, "That match does not exist or is not public.")
    assert not Topic.objects.exists()


def test_discussing_needs_a_logged_in_user(client, finished_match):
    response = client.post(f"/forum/discuss/{finished_match.pk}/", {"title": "Anonymous", "body": "hi"})
    assert response["Location"].startswith("/accounts/login/?next=")
    assert not Topic.objects.exists()


def test_an_unknown_match_changes_nothing(client, alice):
    login(client, alice)
    response = client.post("/forum/discuss/987654/", {"title": "Nothing", "body": "here"}, follow=True)
    assert "does not exist" in response.content.decode()
    assert not Topic.objects.exists()


def test_opening_a_discussion_counts_as_a_post_for_the_rate_limit(client, alice, bob, finished_match, clock):
    login(client, alice)  # alice posts somewhere, then at once asks to discuss the match
    clock.start_windows_of(alice)
    client.post("/forum/general/new/", {"title": "Hello", "body": "first"})
    response = client.post(f"/forum/discuss/{finished_match.pk}/", draft(client, finished_match))
    assert "You are posting too quickly" in response.content.decode()
    assert not Topic.objects.filter(match=finished_match).exists()
    clock.advance(15)
    client.post(f"/forum/discuss/{finished_match.pk}/", draft(client, finished_match))
    assert Topic.objects.filter(match=finished_match).count() == 1
