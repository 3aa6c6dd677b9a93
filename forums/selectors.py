"""Reads of the forums, in the shape the pages and the feed use."""

from __future__ import annotations

from contextlib import contextmanager

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import OperationalError, connection, transaction
from django.db.models import BigIntegerField, Count, F, Func, OuterRef, Q, Subquery, Value

from .models import Forum, ModerationLog, Post, PostReport, Topic

TOPICS_PER_PAGE = 25
POSTS_PER_PAGE = 20
FEED_ITEMS = 30

# Readers see neither deleted topics nor deleted posts in counts, lists, search or feeds.
VISIBLE_POST = Q(hidden_at__isnull=True, topic__hidden_at__isnull=True)


def _attach_last_posts(objects, ids_attr: str = "last_post_id") -> None:
    """Give each object a ``last_post`` (with topic and author) from its ``last_post_id``, in one query."""
    ids = [getattr(o, ids_attr) for o in objects if getattr(o, ids_attr)]
    posts = Post.objects.select_related("author", "topic").in_bulk(ids)
    for o in objects:
        o.last_post = posts.get(getattr(o, ids_attr))


def _last_post_subquery(**outer):
    return Subquery(Post.objects.filter(VISIBLE_POST, **outer).order_by("-created_at", "-id").values("id")[:1])


def forum_list():
    """Every forum with its counts of topics and posts and its last post."""
    forums = list(
        Forum.objects.annotate(
            topic_count=Count("topics", filter=Q(topics__hidden_at__isnull=True), distinct=True),
            post_count=Count(
                "topics__posts",
                filter=Q(topics__hidden_at__isnull=True, topics__posts__hidden_at__isnull=True),
                distinct=True,
            ),
            last_post_id=_last_post_subquery(topic__forum=OuterRef("pk")),
        ).order_by("position", "name")  # Meta.ordering does not apply to a query with aggregates
    )
    _attach_last_posts(forums)
    return forums


def forum_by_slug(slug: str):
    return Forum.objects.filter(slug=slug).first()


def forum_url_for_game(game_slug: str) -> str | None:
    """The address of a game's forum, or None when it has none (yet)."""
    forum = Forum.objects.filter(game=game_slug).only("slug").first()
    return forum.get_absolute_url() if forum else None


def forum_topics(forum):
    """The forum's visible topics, pinned first, then by latest activity, with counts."""
    return (
        Topic.objects.filter(forum=forum, hidden_at__isnull=True)
        .select_related("author")
        .annotate(
            post_count=Count("posts", filter=Q(posts__hidden_at__isnull=True)),
            last_post_id=_last_post_subquery(topic=OuterRef("pk")),
        )
        .order_by("-pinned", "-last_activity_at", "-id")
    )


def attach_last_posts(topics) -> None:
    _attach_last_posts(topics)


def can_moderate(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def topic_for(topic_id: int, user) -> Topic | None:
    """The topic if ``user`` may read it: everyone reads visible topics, moderators deleted ones too."""
    topic = Topic.objects.select_related("forum", "author", "hidden_by", "match").filter(pk=topic_id).first()
    if topic is None or (topic.is_hidden and not can_moderate(user)):
        return None
    return topic


def topic_posts(topic):
    """Every post of the topic, deleted ones included (the page shows a placeholder for them)."""
    return Post.objects.filter(topic=topic).select_related("author", "hidden_by").order_by("created_at", "id")


def first_post_id(topic) -> int | None:
    return Post.objects.filter(topic=topic).order_by("created_at", "id").values_list("id", flat=True).first()


def post_page_number(post) -> int:
    """The page of its topic that shows ``post``."""
    before = Post.objects.filter(topic_id=post.topic_id).filter(
        Q(created_at__lt=post.created_at) | Q(created_at=post.created_at, id__lt=post.id)
    )
    return before.count() // POSTS_PER_PAGE + 1


def post_for(post_id: int, user) -> Post | None:
    post = Post.objects.select_related("topic", "topic__forum", "author").filter(pk=post_id).first()
    if post is None or (post.topic.is_hidden and not can_moderate(user)):
        return None
    return post


def quote_markdown(post) -> str:
    """The Markdown that quotes ``post`` in a reply: who wrote it, then every line behind "> "."""
    who = post.author.username if post.author else "A former member"
    lines = [f"> **{who}** wrote:", ">"]
    lines += [f"> {line}" if line else ">" for line in post.body.split("\n")]
    return "\n".join(lines) + "\n\n"


def match_topic(match_id: int) -> Topic | None:
    """The visible topic that discusses a match, if one was opened."""
    return Topic.objects.filter(match_id=match_id, hidden_at__isnull=True).first()


# A search ranks at most the newest this many matching posts: its cost stays bounded however
# common the words are (a word in every post would otherwise rank, and count, every post).
SEARCH_CANDIDATES = 1000
# The newest posts a search looks through one by one before it asks the index for every match.
SEARCH_RECENT = 5000


class SearchTimedOut(Exception):
    """A search ran past ``FORUM_SEARCH_TIMEOUT_MS`` and PostgreSQL stopped it."""


class SearchResults:
    """The posts a search found, best first, for a ``Paginator``: the ranked ids are read
    once, so the count costs no query and a page reads only its own posts."""

    def __init__(self, ids: list[int]):
        self.ids = ids

    def count(self) -> int:
        return len(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, key):
        if not isinstance(key, slice):
            return self[key : key + 1 or None][0]
        ids = self.ids[key]
        posts = Post.objects.select_related("topic", "topic__forum", "author").in_bulk(ids)
        return [posts[i] for i in ids if i in posts]


def search_results(query: str) -> SearchResults:
    """Visible posts matching ``query``, best first, among the newest ``SEARCH_CANDIDATES``
    that match (see ``post_search``), as the search page shows them.

    Raises ``SearchTimedOut`` when PostgreSQL stops a statement of the search after
    ``FORUM_SEARCH_TIMEOUT_MS``."""
    return SearchResults(_ranked_ids((query or "").strip()))


def post_search(query: str):
    """The posts of ``search_results(query)``, in its order, as a query set.

    PostgreSQL: full-text search over the post and its topic's title (English stemming,
    web-search syntax: "quoted phrases", -excluded words, or), on the posts' stored search
    vectors and their GIN index (migration 0003), ranked with the title above the body.
    SQLite: every word must appear in the post or its title, case-insensitively; newest first.
    """
    ids = _ranked_ids((query or "").strip())
    posts = Post.objects.filter(id__in=ids).select_related("topic", "topic__forum", "author")
    if not settings.USING_POSTGRES:
        return posts.order_by("-created_at", "-id")
    position = Func(Value(ids, output_field=ArrayField(BigIntegerField())), F("id"), function="array_position")
    return posts.order_by(position)


def _ranked_ids(query: str) -> list[int]:
    if not query:
        return []
    if not settings.USING_POSTGRES:
        matching = Post.objects.filter(VISIBLE_POST)
        for word in query.split()[:10]:
            matching = matching.filter(Q(body__icontains=word) | Q(topic__title__icontains=word))
        return list(matching.order_by("-created_at", "-id").values_list("id", flat=True)[:SEARCH_CANDIDATES])
    params = {"query": query, "candidates": SEARCH_CANDIDATES, "recent": SEARCH_RECENT}
    with _time_limit(settings.FORUM_SEARCH_TIMEOUT_MS) as cursor:
        cursor.execute(_SEARCH, params)
        return [row[0] for row in cursor.fetchall()]


# The newest SEARCH_CANDIDATES matches, read the cheap way for how common the words are
# (PostgreSQL's estimate of that misleads it, phrases above all). Testing a post against the
# search means reading its vector, so: first the newest SEARCH_RECENT posts, one by one in
# the date index's order, stopping at the SEARCH_CANDIDATES-th match (a common word stops
# early: a word in nine posts of ten, after about 1,100). If they hold fewer, the matches
# are few enough to take every one from the GIN index and keep the newest; that order is by
# an expression, so that PostgreSQL cannot walk the date index instead, testing post after
# post for a rare phrase.
_TSQUERY = "websearch_to_tsquery('english'::regconfig, %(query)s)"  # as SearchQuery(search_type="websearch")
_NEWEST_RECENT = """
    SELECT r.id, r.created_at, r.search_vector
    FROM (
        SELECT id, created_at, search_vector, hidden_at, topic_id FROM forums_post
        ORDER BY created_at DESC, id DESC LIMIT %(recent)s
    ) AS r
    JOIN forums_topic AS t ON t.id = r.topic_id
    WHERE r.hidden_at IS NULL AND t.hidden_at IS NULL AND r.search_vector @@ {tsquery}
    ORDER BY r.created_at DESC, r.id DESC LIMIT %(candidates)s"""
_NEWEST_ANY = """
    SELECT p.id, p.created_at, p.search_vector
    FROM forums_post AS p JOIN forums_topic AS t ON t.id = p.topic_id
    WHERE p.hidden_at IS NULL AND t.hidden_at IS NULL AND p.search_vector @@ {tsquery}
    ORDER BY p.created_at + interval '0' DESC, p.id DESC LIMIT %(candidates)s"""
# Both in one statement (the second runs only when the first found too few), and then only
# those candidates are ranked, from the vectors already read: the title's words (weight A)
# above the body's, then the newest first (as SearchRank's ts_rank).
_RANKED = """
WITH recent AS MATERIALIZED ({recent}),
candidates AS (
    SELECT * FROM recent WHERE (SELECT count(*) FROM recent) = %(candidates)s
    UNION ALL
    SELECT * FROM ({any}) AS every WHERE (SELECT count(*) FROM recent) < %(candidates)s
)
SELECT c.id FROM candidates AS c
ORDER BY ts_rank(c.search_vector, {tsquery}) DESC, c.created_at DESC, c.id DESC"""
_SEARCH = _RANKED.replace("{recent}", _NEWEST_RECENT).replace("{any}", _NEWEST_ANY).replace("{tsquery}", _TSQUERY)


@contextmanager
def _time_limit(milliseconds: int):
    """A cursor in a transaction whose statements PostgreSQL stops after ``milliseconds``
    each (``SearchTimedOut``); the limit ends with the block (SET LOCAL, restored)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "SELECT current_setting('statement_timeout'), set_config('statement_timeout', %s, true)",
                [f"{int(milliseconds)}ms"],
            )
            before = cursor.fetchone()[0]
            yield cursor
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [before])
    except OperationalError as error:
        if getattr(error.__cause__, "sqlstate", None) == QUERY_CANCELED:
            raise SearchTimedOut from error
        raise


QUERY_CANCELED = "57014"  # PostgreSQL's SQLSTATE for a statement stopped by statement_timeout


def forum_feed_posts(forum, limit: int = FEED_ITEMS):
    """The latest visible posts of a forum, newest first."""
    return (
        Post.objects.filter(VISIBLE_POST, topic__forum=forum)
        .select_related("topic", "author")
        .order_by("-created_at", "-id")[:limit]
    )


def open_reports():
    """The moderators' queue: reports not yet dealt with, oldest first, with their posts."""
    return PostReport.objects.filter(outcome=PostReport.Outcome.OPEN).select_related(
        "reporter", "post", "post__author", "post__topic"
    )


def moderation_log():
    return ModerationLog.objects.select_related("moderator", "topic", "post")
