"""A few forum topics with replies for the demo site of ``make run`` (``manage.py
seed_demo``), written through the forum's services. Idempotent: a topic whose title is
already there is left alone."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from . import services
from .models import GENERAL_SLUG, Forum, Topic

# forum (a game's slug, or the general forum), title, then (author, body) for the first post
# and each reply.
TOPICS = (
    (
        GENERAL_SLUG,
        "Welcome! Say hello here",
        (
            ("alice", "Hello everyone! I mostly play **Territories** and the dice game. Who is up for a match?"),
            ("bob", "Hi Alice. I am learning *Game of God*; the challenges are harder than they look."),
            ("carol", "Welcome all. Tip: start against the Random bot, then try Greedy."),
        ),
    ),
    (
        "territories",
        "Where do you put your first farm house?",
        (
            ("dave", "I always open in a corner. Is that a mistake?"),
            ("alice", "Corners are easy to fence in. I prefer the middle of an edge: more room to grow."),
        ),
    ),
    (
        "dice-territory",
        "When to stop rolling?",
        (
            ("bob", "Three free rolls, then I push my luck once more and bust. Any rule of thumb?"),
            ("carol", "Count the spaces still open for your totals: with fewer than three, stop."),
            ("dave", "And watch the card in force: *Cautious* changes everything."),
        ),
    ),
    (
        "gp02a",
        "Yellow chips: friend or foe?",
        (("carol", "Nobody owns yellow, yet it wins blocks. Do you feed it to block a leader?"),),
    ),
)


def seed_topics(demo_users: list[str]) -> list[Topic]:
    """Open the demo topics that are not there yet, with their replies; returns those opened."""
    users = {u.username: u for u in get_user_model().objects.filter(username__in=demo_users)}
    made = []
    for where, title, posts in TOPICS:
        forum = Forum.objects.filter(slug=where).first() or Forum.objects.filter(game=where).first()
        if forum is None or Topic.objects.filter(forum=forum, title=title).exists():
            continue
        (author, body), *replies = posts
        topic = services.topic_create(forum_id=forum.pk, user=users[author], title=title, body=body, limited=False)
        for author, body in replies:
            services.post_create(topic_id=topic.pk, user=users[author], body=body, limited=False)
        made.append(topic)
    return made
