"""Topics and replies: who may write, what readers see, how pages split, editing, locking."""

import pytest
from django.core.exceptions import PermissionDenied

from forums import selectors, services
from forums.models import Post, Topic

from .conftest import login

pytestmark = pytest.mark.django_db


def reply(client, topic, body):
    return client.post(f"/forum/topic/{topic.pk}/reply/", {"body": body})


def test_a_topic_and_replies_by_two_users(client, alice, bob, general, clock):
    login(client, alice)
    response = client.post("/forum/general/new/", {"title": "Best opening in GP02A?", "body": "I go **centre** first."})
    topic = Topic.objects.get(title="Best opening in GP02A?")
    assert response.status_code == 302 and response["Location"] == f"/forum/topic/{topic.pk}/"

    login(client, bob)
    response = reply(client, topic, "Corners, *always*.")
    bob_post = Post.objects.get(author=bob)
    assert response.status_code == 302 and response["Location"] == f"/forum/post/{bob_post.pk}/"

    clock.advance(15)
    login(client, alice)
    assert reply(client, topic, "We will see about that.").status_code == 302

    page = client.get(f"/forum/topic/{topic.pk}/").content.decode()
    assert page.index("<strong>centre</strong>") < page.index("<em>always</em>") < page.index("We will see about that.")
    assert page.count('class="forum-post') == 3
    assert ">alice</a>" in page and ">bob</a>" in page
    topic.refresh_from_db()
    assert topic.last_activity_at == Post.objects.filter(topic=topic).latest("created_at").created_at
    forum_page = client.get("/forum/general/").content.decode()
    assert "Best opening in GP02A?" in forum_page and "3 posts" in forum_page


def test_the_permalink_of_a_post_opens_the_page_that_shows_it(client, alice, bob, topic_of):
    topic = topic_of(alice)
    posts = [services.post_create(limited=False, topic_id=topic.pk, user=bob, body=f"reply {n}") for n in range(45)]
    # 46 posts, 20 a page: the 21st post is the first of page 2, the last one on page 3
    url = f"/forum/topic/{topic.pk}/"
    assert client.get(posts[19].get_absolute_url())["Location"] == f"{url}?page=2#post-{posts[19].pk}"
    assert client.get(posts[-1].get_absolute_url())["Location"] == f"{url}?page=3#post-{posts[-1].pk}"
    assert client.get(posts[0].get_absolute_url())["Location"] == f"{url}#post-{posts[0].pk}"


def test_posts_are_paginated_twenty_a_page(client, alice, bob, topic_of):
    topic = topic_of(alice, body="post 0")
    for n in range(1, 45):
        services.post_create(limited=False, topic_id=topic.pk, user=bob, body=f"post {n}")
    first = client.get(f"/forum/topic/{topic.pk}/").content.decode()
    second = client.get(f"/forum/topic/{topic.pk}/?page=2").content.decode()
    third = client.get(f"/forum/topic/{topic.pk}/?page=3").content.decode()
    assert "<p>post 0</p>" in first and "<p>post 19</p>" in first and "<p>post 20</p>" not in first
    assert "<p>post 20</p>" in second and "<p>post 39</p>" in second
    assert "<p>post 44</p>" in third and third.count('class="forum-post') == 5
    assert 'href="?page=3"' in first and 'aria-current="page">1<' in first
    # a page out of range shows the last page rather than an error
    assert "<p>post 44</p>" in client.get(f"/forum/topic/{topic.pk}/?page=99").content.decode()


def test_topics_are_paginated_with_pinned_ones_first(client, alice, moderator, general, topic_of):
    topics = [topic_of(alice, title=f"Topic number {n:02d}") for n in range(30)]
    services.topic_set_pinned(topic_id=topics[0].pk, moderator=moderator, pinned=True)
    first = client.get("/forum/general/").content.decode()
    second = client.get("/forum/general/?page=2").content.decode()
    assert first.index("Topic number 00") < first.index("Topic number 29") < first.index("Topic number 28")
    assert "Topic number 05" not in first and "Topic number 05" in second
    assert first.count('class="topic-row') == 25 and second.count('class="topic-row') == 5


def test_the_author_edits_their_post_and_readers_see_it_was_edited(client, alice, topic_of):
    topic = topic_of(alice, title="Old title", body="Frist post")
    post = Post.objects.get(topic=topic)
    login(client, alice)
    assert client.get(f"/forum/post/{post.pk}/edit/").status_code == 200
    response = client.post(f"/forum/post/{post.pk}/edit/", {"title": "New title", "body": "First post"})
    assert response.status_code == 302
    post.refresh_from_db()
    topic.refresh_from_db()
    assert post.body == "First post" and post.body_html == "<p>First post</p>" and post.edited_at is not None
    assert topic.title == "New title"
    page = client.get(f"/forum/topic/{topic.pk}/").content.decode()
    assert "(edited" in page and "Frist" not in page


def test_another_user_cannot_edit_a_post_and_nothing_changes(client, alice, bob, topic_of):
    topic = topic_of(alice, body="Alice's words")
    post = Post.objects.get(topic=topic)
    login(client, bob)
    assert client.get(f"/forum/post/{post.pk}/edit/").status_code == 403
    assert client.post(f"/forum/post/{post.pk}/edit/", {"body": "Bob was here", "title": "Hacked"}).status_code == 403
    post.refresh_from_db()
    topic.refresh_from_db()
    assert post.body == "Alice's words" and post.edited_at is None and topic.title == "A topic"
    assert f'href="/forum/post/{post.pk}/edit/"' not in client.get(topic.get_absolute_url()).content.decode()
    with pytest.raises(PermissionDenied):  # the service refuses as well
        services.post_edit(post_id=post.pk, user=bob, body="Bob was here")


def test_the_title_is_edited_only_through_the_first_post(client, alice, bob, topic_of):
    topic = topic_of(alice, title="Keep me")
    mine = services.post_create(limited=False, topic_id=topic.pk, user=alice, body="second")
    login(client, alice)
    client.post(f"/forum/post/{mine.pk}/edit/", {"title": "Changed", "body": "second, edited"})
    topic.refresh_from_db()
    mine.refresh_from_db()
    assert topic.title == "Keep me" and mine.body == "second, edited"


def test_an_empty_reply_is_refused_with_a_clear_error(client, alice, topic_of):
    topic = topic_of(alice)
    login(client, alice)
    response = reply(client, topic, "   \n  ")
    assert response.status_code == 400
    assert "This field is required." in response.content.decode() or "empty" in response.content.decode()
    assert Post.objects.filter(topic=topic).count() == 1


def test_a_locked_topic_takes_no_replies(client, alice, bob, moderator, topic_of):
    topic = topic_of(alice)
    services.topic_set_locked(topic_id=topic.pk, moderator=moderator, locked=True)
    login(client, bob)
    page = client.get(topic.get_absolute_url()).content.decode()
    assert "This topic is locked: it takes no new replies." in page and 'id="reply"' not in page
    response = reply(client, topic, "Let me in")
    assert response.status_code == 400
    assert "This topic is locked" in response.content.decode()
    assert Post.objects.filter(topic=topic).count() == 1
    with pytest.raises(services.ForumError):
        services.post_create(limited=False, topic_id=topic.pk, user=bob, body="Let me in")


def test_posts_in_a_locked_topic_can_no_longer_be_edited(client, alice, moderator, topic_of):
    topic = topic_of(alice, body="as it was")
    post = Post.objects.get(topic=topic)
    services.topic_set_locked(topic_id=topic.pk, moderator=moderator, locked=True)
    login(client, alice)
    response = client.post(f"/forum/post/{post.pk}/edit/", {"title": "x", "body": "rewritten"})
    assert response.status_code == 400 and "locked" in response.content.decode()
    post.refresh_from_db()
    assert post.body == "as it was"


def test_anyone_reads_but_anonymous_users_are_sent_to_log_in_to_post(client, alice, general, topic_of):
    topic = topic_of(alice, body="Readable by all")
    post = Post.objects.get(topic=topic)
    assert "Readable by all" in client.get(topic.get_absolute_url()).content.decode()
    assert "Sign in</a> to reply" in client.get(topic.get_absolute_url()).content.decode()
    for method, url, data in [
        ("get", "/forum/general/new/", None),
        ("post", "/forum/general/new/", {"title": "t", "body": "b"}),
        ("post", f"/forum/topic/{topic.pk}/reply/", {"body": "b"}),
        ("get", f"/forum/post/{post.pk}/edit/", None),
        ("post", f"/forum/post/{post.pk}/edit/", {"body": "b"}),
    ]:
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
    assert Post.objects.count() == 1 and Topic.objects.count() == 1


def test_quote_without_javascript_fills_the_reply_box(client, alice, bob, topic_of):
    topic = topic_of(alice, body="Line one\n\nLine **two**")
    post = Post.objects.get(topic=topic)
    login(client, bob)
    page = client.get(f"{topic.get_absolute_url()}?quote={post.pk}").content.decode()
    expected = "&gt; **alice** wrote:\n&gt;\n&gt; Line one\n&gt;\n&gt; Line **two**\n\n"
    assert expected in page
    assert selectors.quote_markdown(post) == "> **alice** wrote:\n>\n> Line one\n>\n> Line **two**\n\n"


def test_a_quoted_reply_renders_as_a_blockquote(client, alice, bob, topic_of, clock):
    topic = topic_of(alice, body="Corners are strong")
    quoted = Post.objects.get(topic=topic)
    login(client, bob)
    reply(client, topic, selectors.quote_markdown(quoted) + "I disagree.")
    page = client.get(topic.get_absolute_url()).content.decode()
    assert "<blockquote>" in page and "<p>Corners are strong</p>\n</blockquote>\n<p>I disagree.</p>" in page


def test_new_topic_keeps_what_was_typed_when_the_title_is_missing(client, alice, general):
    login(client, alice)
    response = client.post("/forum/general/new/", {"title": "", "body": "My long careful text"})
    assert response.status_code == 400
    assert "My long careful text" in response.content.decode()
    assert not Topic.objects.exists()
