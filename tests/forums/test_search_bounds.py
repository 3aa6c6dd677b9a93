"""Forum search under load: a few searches at once per process (the rest wait briefly, then
get a 429 with Retry-After), a time limit on PostgreSQL with a clear message, and a page that
ranks its candidates once and counts nothing more."""

import threading

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from forums import ratelimits, services

pytestmark = pytest.mark.django_db

postgres_only = pytest.mark.skipif(not django_settings.USING_POSTGRES, reason="the statement timeout is PostgreSQL's")


@pytest.fixture
def castles(alice, topic_of):
    return topic_of(alice, title="Castles", body="castles by the river")


def test_a_search_past_the_places_of_the_process_gets_a_429_with_retry_after(client, castles, settings):
    settings.FORUM_SEARCHES_AT_ONCE = 2
    settings.FORUM_SEARCH_WAIT_SECONDS = 0
    with ratelimits.search_place() as first, ratelimits.search_place() as second:
        assert first and second  # two searches running: every place is taken
        refused = client.get("/forum/search/", {"q": "castles"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    page = refused.content.decode()
    assert "many searches" in page and "Try again in a few seconds" in page
    assert 'role="search"' in page and "found for" not in page  # the form, kept, and no results
    # The places are given back: the same search goes through.
    answered = client.get("/forum/search/", {"q": "castles"})
    assert answered.status_code == 200 and "1 post found" in answered.content.decode()
    assert not answered.has_header("Retry-After")


def test_a_search_waits_for_a_place_that_comes_free_instead_of_being_refused(client, castles, settings):
    settings.FORUM_SEARCHES_AT_ONCE = 1
    settings.FORUM_SEARCH_WAIT_SECONDS = 30  # far longer than the other search takes
    holding, release = threading.Event(), threading.Event()

    def other_search():
        with ratelimits.search_place() as held:
            assert held
            holding.set()
            release.wait(5)

    other = threading.Thread(target=other_search)
    other.start()
    assert holding.wait(5), "the other search holds the one place"
    threading.Timer(0.05, release.set).start()  # the other search ends while this one waits
    response = client.get("/forum/search/", {"q": "castles"})
    other.join()
    assert response.status_code == 200 and "1 post found" in response.content.decode()


def test_the_search_page_ranks_its_candidates_once_and_counts_them_without_a_query(client, alice, topic_of):
    topic = topic_of(alice, body="pagination word 0")
    for n in range(1, 25):
        services.post_create(topic_id=topic.pk, user=alice, body=f"pagination word {n}", limited=False)
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
