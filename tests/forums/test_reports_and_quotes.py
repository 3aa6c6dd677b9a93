"""Quoting a post keeps its code intact; members report posts to the moderators' queue."""

import pytest
from django.core.cache import cache

from forums import selectors, services
from forums.models import Post, PostReport
from notifications.models import Notification

from .conftest import login
from .test_posting import reply

pytestmark = pytest.mark.django_db(transaction=True)

CODE_POST = "Try this:\n\n```python\ndef corner(board):\n    return board[0]\n\n# end\n```\n\nThen play on."


def test_a_quote_puts_every_line_behind_a_marker_code_fences_included(alice, topic_of):
    post = Post.objects.get(topic=topic_of(alice, body=CODE_POST))
    assert selectors.quote_markdown(post) == (
        "> **alice** wrote:\n>\n> Try this:\n>\n> ```python\n> def corner(board):\n>     return board[0]\n"
        ">\n> # end\n> ```\n>\n> Then play on.\n\n"
    )


def test_a_quoted_code_block_stays_a_code_block_in_the_reply(client, alice, bob, topic_of, clock):
    topic = topic_of(alice, body=CODE_POST)
    quoted = Post.objects.get(topic=topic)
    assert "<pre><code" in quoted.body_html  # the post itself
    login(client, bob)
    reply(client, topic, selectors.quote_markdown(quoted) + "Nice.")
    html = Post.objects.filter(topic=topic).order_by("id").reverse()[0].body_html
    assert html.startswith("<blockquote>") and "<p>Nice.</p>" in html
    quote = html[: html.index("</blockquote>")]
    code = quote[quote.index("<pre><code>") : quote.index("</code></pre>")]
    # The code keeps its lines, its indentation and its blank line, and is not Markdown.
    assert "def corner(board):\n    return board[0]\n\n# end" in code
    assert "```" not in quote
    assert "<p>Then play on.</p>" in quote  # the text after the code is still quoted


def test_a_member_reports_a_post_once_and_the_moderators_are_told(client, alice, bob, moderator, topic_of):
    post = Post.objects.get(topic=topic_of(alice, body="Buy gold at spam.example"))
    login(client, bob)
    page = client.get(post.topic.get_absolute_url()).content.decode()
    assert f'href="/forum/post/{post.pk}/report/"' in page
    response = client.post(f"/forum/post/{post.pk}/report/", {"reason": "Spam"})
    assert response.status_code == 302
    report = PostReport.objects.get()
    assert (report.post, report.reporter, report.reason, report.is_open) == (post, bob, "Spam", True)
    told = Notification.objects.get(user=moderator)
    assert (
        told.kind == "post_reported" and told.url == "/forum/reports/" and "bob reported a post by alice" in told.text
    )
    assert not Notification.objects.filter(user__in=[alice, bob]).exists()

    again = client.post(f"/forum/post/{post.pk}/report/", {"reason": "Still spam"})
    assert again.status_code == 400 and "already reported" in again.content.decode()
    assert PostReport.objects.count() == 1


def test_no_report_button_for_visitors_or_on_ones_own_post(client, alice, topic_of):
    post = Post.objects.get(topic=topic_of(alice))
    assert "/report/" not in client.get(post.topic.get_absolute_url()).content.decode()
    login(client, alice)
    assert "/report/" not in client.get(post.topic.get_absolute_url()).content.decode()
    response = client.post(f"/forum/post/{post.pk}/report/", {"reason": "mine"})
    assert response.status_code == 400 and PostReport.objects.count() == 0


def test_a_report_needs_a_reason(client, alice, bob, topic_of):
    post = Post.objects.get(topic=topic_of(alice))
    login(client, bob)
    assert client.post(f"/forum/post/{post.pk}/report/", {"reason": "  "}).status_code == 400
    assert PostReport.objects.count() == 0


def test_reporting_is_rate_limited(alice, bob, topic_of):
    cache.clear()
    posts = [Post.objects.get(topic=topic_of(alice, title=f"Topic {i}")) for i in range(6)]
    for post in posts[:5]:
        services.post_report(post_id=post.pk, user=bob, reason="rude")
    with pytest.raises(services.ForumError) as refused:
        services.post_report(post_id=posts[5].pk, user=bob, reason="rude")
    assert refused.value.code == "rate_limited" and "reporting too often" in refused.value.message
    assert PostReport.objects.count() == 5


def test_moderators_dismiss_a_report_or_delete_the_post_from_the_queue(client, alice, bob, carol, moderator, topic_of):
    fine = Post.objects.get(topic=topic_of(alice, title="Fine"))
    rude = Post.objects.get(topic=topic_of(alice, title="Rude"))
    services.post_report(post_id=fine.pk, user=bob, reason="I disagree")
    services.post_report(post_id=rude.pk, user=bob, reason="Insults")
    services.post_report(post_id=rude.pk, user=carol, reason="Rude")

    login(client, bob)
    assert client.get("/forum/reports/").status_code == 403  # members do not see the queue
    login(client, moderator)
    queue = client.get("/forum/reports/").content.decode()
    assert "I disagree" in queue and "Insults" in queue and "Rude" in queue

    dismissed = PostReport.objects.get(post=fine)
    assert client.post(f"/forum/reports/{dismissed.pk}/dismiss/").status_code == 302
    dismissed.refresh_from_db()
    assert dismissed.outcome == "dismissed" and dismissed.resolved_by == moderator
    fine.refresh_from_db()
    assert not fine.is_hidden

    client.post(f"/forum/post/{rude.pk}/delete/", {"reason": "Insults"})
    rude.refresh_from_db()
    assert rude.is_hidden
    assert set(PostReport.objects.filter(post=rude).values_list("outcome", flat=True)) == {"post_deleted"}
    assert "No open reports." in client.get("/forum/reports/").content.decode()
