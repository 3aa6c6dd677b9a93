"""Search across posts (full text on PostgreSQL, icontains on SQLite) and the Atom feed per forum."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.conf import settings

from forums import selectors, services
from forums.models import Post

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def posts(alice, bob, moderator, general, game_forum, topic_of):
    castles = topic_of(alice, title="Castles and towns", body="Castles score well next to mountains.", forum=game_forum)
    services.post_create(limited=False, topic_id=castles.pk, user=bob, body="Towns matter more than castles, I think.")
    topic_of(bob, title="Dice luck", body="I rolled six ones in a row.")
    hidden = services.post_create(limited=False, topic_id=castles.pk, user=bob, body="castles spam castles spam")
    services.post_hide(post_id=hidden.pk, moderator=moderator, reason="spam")
    gone = topic_of(alice, title="Deleted castles topic", body="castles castles")
    services.topic_hide(topic_id=gone.pk, moderator=moderator, reason="duplicate")
    return castles


def test_search_finds_posts_by_their_words_and_leaves_out_deleted_ones(client, posts):
    response = client.get("/forum/search/", {"q": "castles"})
    assert response.status_code == 200
    found = set(selectors.post_search("castles").values_list("body", flat=True))
    assert found == {"Castles score well next to mountains.", "Towns matter more than castles, I think."}
    page = response.content.decode()
    assert "2 posts found" in page and "spam" not in page and "Deleted castles topic" not in page


def test_search_needs_every_word_in_the_post_or_its_title(posts):
    assert list(selectors.post_search("mountains castles").values_list("body", flat=True)) == [
        "Castles score well next to mountains."
    ]
    assert list(selectors.post_search("rolled luck").values_list("body", flat=True)) == ["I rolled six ones in a row."]
    assert not selectors.post_search("castles rolled").exists()


def test_search_matches_the_topic_title_too(posts):
    assert set(selectors.post_search("luck").values_list("body", flat=True)) == {"I rolled six ones in a row."}


def test_an_empty_search_shows_the_form_only(client, posts):
    page = client.get("/forum/search/", {"q": "  "}).content.decode()
    assert 'role="search"' in page and "found" not in page


def test_search_results_are_paginated_and_keep_the_query(client, alice, topic_of):
    topic = topic_of(alice, body="pagination word 0")
    for n in range(1, 25):
        services.post_create(limited=False, topic_id=topic.pk, user=alice, body=f"pagination word {n}")
    page = client.get("/forum/search/", {"q": "pagination"}).content.decode()
    assert "25 posts found" in page and 'href="?q=pagination&amp;page=2"' in page
    assert client.get("/forum/search/", {"q": "pagination", "page": 2}).content.decode().count('class="card"') == 5


@pytest.mark.skipif(not settings.USING_POSTGRES, reason="stemming and ranking come with PostgreSQL full-text search")
def test_postgres_search_understands_word_forms_and_ranks_titles_first(posts, alice, bob, topic_of):
    results = list(selectors.post_search("castle"))  # singular finds the plural
    assert {p.body for p in results} == {
        "Castles score well next to mountains.",
        "Towns matter more than castles, I think.",
    }
    services.post_create(limited=False, topic_id=posts.pk, user=bob, body="Farms are underrated.")
    topic_of(alice, title="Farms", body="A topic about them.")
    assert [p.body for p in selectors.post_search("farm")] == ["A topic about them.", "Farms are underrated."]
    assert list(selectors.post_search('"six ones"').values_list("body", flat=True)) == ["I rolled six ones in a row."]
    assert not selectors.post_search("castles -towns").filter(body__startswith="Towns").exists()


def test_the_forum_feed_is_valid_atom_with_the_latest_posts(client, posts, game_forum):
    response = client.get(f"/forum/{game_forum.slug}/feed/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{name}") is not None and root.find(f"{ATOM}{name}").text, name
    assert game_forum.name in root.find(f"{ATOM}title").text
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 2  # the deleted post is left out
    for entry in entries:
        for name in ("id", "title", "updated"):
            assert entry.find(f"{ATOM}{name}").text, name
        assert entry.find(f"{ATOM}link").get("href").startswith("http://testserver/forum/post/")
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert titles == ["Re: Castles and towns", "Castles and towns"]  # newest first
    summary = entries[1].find(f"{ATOM}summary")
    assert summary.get("type") == "html" and summary.text == "<p>Castles score well next to mountains.</p>"


def test_an_empty_forum_has_a_valid_feed_and_the_forum_page_announces_it(client, general):
    root = ET.fromstring(client.get("/forum/general/feed/").content)
    assert root.tag == f"{ATOM}feed" and root.find(f"{ATOM}updated").text
    assert 'type="application/atom+xml"' in client.get("/forum/general/").content.decode()
    assert client.get("/forum/no-such-forum/feed/").status_code == 404


def test_hostile_text_in_the_feed_stays_text(client, alice, general, topic_of):
    topic_of(alice, title="<script>alert(1)</script>", body="<img src=x onerror=alert(1)>")
    root = ET.fromstring(client.get("/forum/general/feed/").content)
    entry = root.find(f"{ATOM}entry")
    assert entry.find(f"{ATOM}title").text == "<script>alert(1)</script>"  # text, escaped in the XML
    assert "<img" not in entry.find(f"{ATOM}summary").text
    assert Post.objects.get().body_html == "<p>&lt;img src=x onerror=alert(1)&gt;</p>"


def test_search_results_show_plain_text_not_markdown(client, alice, topic_of):
    body = "**Corners** are _weak_: see [my notes](https://example.org/notes)\n\n- fence early"
    topic_of(alice, title="Openings", body=body)
    page = client.get("/forum/search/", {"q": "corners"}).content.decode()
    excerpt = re.search(r'<p class="excerpt">(.*?)</p>', page, re.S).group(1)
    assert excerpt == "Corners are weak: see my notes fence early"
