"""Forum search is bounded: on PostgreSQL it reads a full-text index (GIN) the database
keeps current, and every visitor has a throttle (per account, or per client address)."""

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from forums import selectors, services
from forums.models import Post, Topic

from .conftest import login

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(
    not settings.USING_POSTGRES, reason="full-text search needs PostgreSQL (DATABASE_URL)"
)


def found(query) -> set[str]:
    return set(selectors.post_search(query).values_list("body", flat=True))


# --------------------------------------------------------------------------------------
# The throttle


def test_an_anonymous_visitor_gets_twenty_searches_a_minute_then_a_clear_refusal(client, alice, topic_of, clock):
    topic_of(alice, body="castles by the river")
    clock.start_windows_of(alice)  # the first second of a minute for every key: no edge to cross
    for n in range(20):
        response = client.get("/forum/search/", {"q": f"castles {n}"})
        assert response.status_code == 200, n
    refused = client.get("/forum/search/", {"q": "castles"})
    assert refused.status_code == 429
    body = refused.content.decode()
    assert "You are searching too quickly" in body and "Try again in" in body and "found for" not in body
    # Retry-After says when the minute's window ends, as the page does.
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60 and f"Try again in {wait} second" in body
    # Another address is not held back; the form alone (no words) is not a search.
    assert Client(REMOTE_ADDR="192.0.2.7").get("/forum/search/", {"q": "castles"}).status_code == 200
    assert client.get("/forum/search/").status_code == 200
    clock.advance(60)
    assert client.get("/forum/search/", {"q": "castles"}).status_code == 200


def test_signed_in_searches_are_counted_per_account(client, alice, bob, topic_of, clock):
    topic_of(alice, body="towns and castles")
    clock.start_windows_of(alice)
    login(client, alice)
    for _ in range(20):
        client.get("/forum/search/", {"q": "towns"})
    assert client.get("/forum/search/", {"q": "towns"}).status_code == 429
    login(client, bob)  # the same address, another account
    assert client.get("/forum/search/", {"q": "towns"}).status_code == 200


# --------------------------------------------------------------------------------------
# The index (PostgreSQL)


@postgres_only
def test_a_rare_word_is_found_through_the_gin_index_of_stored_vectors(alice, topic_of):
    topic_of(alice, body="A post about rivers.")
    with CaptureQueriesContext(connection) as ran:
        assert found("rivers") == {"A post about rivers."}
    index_reads = []
    for query in ran.captured_queries:
        if not query["sql"].lstrip().upper().startswith(("SELECT", "WITH")):
            continue  # the savepoint around the search's time limit
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table: ask what the planner can use
            cursor.execute(f"EXPLAIN {query['sql']}")
            plan = "\n".join(row[0] for row in cursor.fetchall())
        index_reads.append("forums_post_search_vector_gin" in plan)
        assert "to_tsvector" not in plan, "the vectors are read from their column, never computed per post"
    assert any(index_reads), "no query read the index"


@postgres_only
def test_the_database_keeps_every_posts_vector_current(alice, bob, topic_of):
    topic = topic_of(alice, title="Harbour tactics", body="Block the harbour early.")
    reply = services.post_create(limited=False, topic_id=topic.pk, user=bob, body="Mountains are worth more.")
    assert found("mountains") == {"Mountains are worth more."}
    assert found("harbour") == {"Block the harbour early.", "Mountains are worth more."}  # by the title

    services.post_edit(post_id=reply.pk, user=bob, body="Rivers are worth more.")
    assert found("mountains") == set() and found("rivers") == {"Rivers are worth more."}

    Topic.objects.filter(pk=topic.pk).update(title="Lighthouse tactics")
    assert found("lighthouse") == {"Block the harbour early.", "Rivers are worth more."}
    assert found("tactics harbour") == {"Block the harbour early."}  # still in that post's body

    # Posts written in bulk (an import) are indexed too, with the title ranked above the body.
    Post.objects.bulk_create([Post(topic=topic, author=alice, body="Lighthouses again.", body_html="")])
    ranked = list(selectors.post_search("lighthouse").values_list("body", flat=True))
    assert set(ranked) == {"Block the harbour early.", "Rivers are worth more.", "Lighthouses again."}


@postgres_only
def test_hidden_posts_stay_out_of_indexed_search(alice, moderator, topic_of):
    topic = topic_of(alice, title="Spam", body="buy cheap chips")
    post = services.post_create(limited=False, topic_id=topic.pk, user=alice, body="cheap chips again")
    services.post_hide(post_id=post.pk, moderator=moderator, reason="spam")
    assert found("cheap") == {"buy cheap chips"}


def test_a_search_ranks_at_most_the_newest_thousand_matches_and_says_so(client, alice, topic_of, monkeypatch):
    monkeypatch.setattr(selectors, "SEARCH_CANDIDATES", 30)
    topic = topic_of(alice, title="Counting", body="tally 0")
    Post.objects.bulk_create([Post(topic=topic, author=alice, body=f"tally {n}", body_html="") for n in range(1, 40)])
    results = selectors.post_search("tally")
    assert results.count() == 30
    assert "tally 0" not in set(results.values_list("body", flat=True))  # the oldest fall out
    body = client.get("/forum/search/", {"q": "tally"}).content.decode()
    assert "Over 30 posts found" in body and "The best of the newest 30" in body
