"""Reads of the forums, in the shape the pages and the feed use."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import Count, DateTimeField, ExpressionWrapper, F, OuterRef, Q, Subquery

from .models import Forum, ModerationLog, Post, Topic

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


def post_search(query: str):
    """Visible posts matching ``query``, best first, among the newest ``SEARCH_CANDIDATES``
    that match.

    PostgreSQL: full-text search over the post and its topic's title (English stemming,
    web-search syntax: "quoted phrases", -excluded words, or), on the posts' stored search
    vectors and their GIN index (migration 0003), ranked with the title above the body.
    SQLite: every word must appear in the post or its title, case-insensitively; newest first.
    """
    query = (query or "").strip()
    posts = Post.objects.filter(VISIBLE_POST).select_related("topic", "topic__forum", "author")
    if not query:
        return posts.none()
    matching = Post.objects.filter(VISIBLE_POST)
    if settings.USING_POSTGRES:
        search = SearchQuery(query, search_type="websearch", config="english")
        return (
            posts.filter(id__in=_newest_matches(matching.filter(search_vector=search)))
            .annotate(rank=SearchRank(F("search_vector"), search))
            .order_by("-rank", "-created_at", "-id")
        )
    for word in query.split()[:10]:
        matching = matching.filter(Q(body__icontains=word) | Q(topic__title__icontains=word))
    newest = matching.order_by("-created_at", "-id").values("id")[:SEARCH_CANDIDATES]
    return posts.filter(id__in=newest).order_by("-created_at", "-id")


def _newest_matches(matching) -> list[int]:
    """The ids of the newest ``SEARCH_CANDIDATES`` posts of ``matching``, read the cheap way
    for how common the words are (PostgreSQL's estimate of that misleads it, phrases above all).

    Testing a post against the search means reading its vector, so: first the newest
    ``SEARCH_RECENT`` posts, one by one; if they hold enough matches (a common word), those
    are the answer. Otherwise the matches are few enough to take every one from the index
    and keep the newest; the order is by an expression, so that PostgreSQL cannot walk the
    date index instead, testing post after post for a rare phrase."""
    newest = ("-created_at", "-id")
    recent = Post.objects.order_by(*newest).values("id")[:SEARCH_RECENT]
    found = list(matching.filter(id__in=recent).order_by(*newest).values_list("id", flat=True)[:SEARCH_CANDIDATES])
    if len(found) == SEARCH_CANDIDATES:
        return found
    by_date = ExpressionWrapper(F("created_at") + timedelta(0), output_field=DateTimeField())
    return list(matching.order_by(by_date.desc(), F("id").desc()).values_list("id", flat=True)[:SEARCH_CANDIDATES])


def forum_feed_posts(forum, limit: int = FEED_ITEMS):
    """The latest visible posts of a forum, newest first."""
    return (
        Post.objects.filter(VISIBLE_POST, topic__forum=forum)
        .select_related("topic", "author")
        .order_by("-created_at", "-id")[:limit]
    )


def moderation_log():
    return ModerationLog.objects.select_related("moderator", "topic", "post")
