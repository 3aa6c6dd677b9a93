"""Forum search under load: a time limit on PostgreSQL with a clear message, and a page that
ranks its candidates once and counts nothing more."""

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from forums import services

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(not django_settings.USING_POSTGRES, reason="the statement timeout is PostgreSQL's")


@pytest.fixture
def castles(alice, topic_of):
    return topic_of(alice, title="Castles", body="castles by the river")


def test_the_search_page_ranks_its_candidates_once_and_counts_them_without_a_query(client, alice, topic_of):
    topic = topic_of(alice, body="pagination word 0")
    for n in range(1, 25):
        services.post_create(topic_id=topic.pk, user=alice, body=f"pagination word {n}")
    with CaptureQueriesContext(connection) as ran:
        page = client.get("/forum/search/", {"q": "pagination", "page": 2}).content.decode()
    assert "25 posts found" in page and page.count('class="card"') == 5
    searched = [q["sql"] for q in ran.captured_queries if "forums_post" in q["sql"]]
    assert not [sql for sql in searched if '"__count"' in sql]  # no QuerySet.count() of the results
    if django_settings.USING_POSTGRES:
        assert sum("ts_rank" in sql for sql in searched) == 1


@postgres_only
def test_a_search_past_the_time_limit_is_stopped_with_a_clear_message(client, castles, settings):
    settings.FORUM_SEARCH_TIMEOUT_MS = 50

    def slow_searches(execute, sql, params, many, context):
        if "search_vector" in sql:  # every statement that reads the index takes a second longer
            execute("SELECT pg_sleep(1)", None, many, context)
        return execute(sql, params, many, context)

    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        timeout_before = cursor.fetchone()[0]
    with connection.execute_wrapper(slow_searches):
        stopped = client.get("/forum/search/", {"q": "castles"})
    assert stopped.status_code == 503
    page = stopped.content.decode()
    assert "This search took too long and was stopped" in page and "Try again" in page
    assert 'role="search"' in page and "found for" not in page
    # The limit ends with the search: the connection works on, without it.
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == timeout_before
    assert client.get("/forum/search/", {"q": "castles"}).status_code == 200
