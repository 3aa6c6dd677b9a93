"""Forums: one per game plus a general one; topics of posts; a log of what moderators did.

Nothing is ever deleted by a moderator: a topic or a post is hidden, and the reason is kept on
the row and in the moderation log.
"""

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

GENERAL_SLUG = "general"


class Forum(models.Model):
    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=100)
    description = models.CharField(max_length=300, blank=True)
    # The slug of the game this forum is about; empty for the general forum.
    game = models.CharField(max_length=32, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game"], condition=~Q(game=""), name="one_forum_per_game"),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("forum-detail", args=[self.slug])


class Topic(models.Model):
    TITLE_MAX = 150

    forum = models.ForeignKey(Forum, on_delete=models.PROTECT, related_name="topics")
    title = models.CharField(max_length=TITLE_MAX)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="forum_topics"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(db_index=True)
    pinned = models.BooleanField(default=False)
    locked = models.BooleanField(default=False)
    # Set on the topic opened by "Discuss this match".
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="forum_topics"
    )
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-pinned", "-last_activity_at", "-id"]
        indexes = [models.Index(fields=["forum", "-pinned", "-last_activity_at"])]
        constraints = [
            # One visible discussion per match: "Discuss this match" opens it rather than adding another.
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(match__isnull=False, hidden_at__isnull=True),
                name="one_visible_topic_per_match",
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("forum-topic", args=[self.pk])

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class PostManager(models.Manager):
    def get_queryset(self):
        # The search vector is for the database's index only: pages never load it.
        return super().get_queryset().defer("search_vector")


class Post(models.Model):
    BODY_MAX = 20_000

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="posts")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="forum_posts"
    )
    body = models.TextField(help_text="Markdown source, as the author typed it.")
    # portal.markdown.render_markdown(body), stored beside the source: sanitised once, on save.
    body_html = models.TextField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_reason = models.TextField(blank=True)
    # The topic's title (weight A) and the body (weight B) as PostgreSQL full-text search
    # sees them, kept by the database itself (triggers on posts and topic titles) and
    # indexed (GIN): see migration 0003. Null on SQLite, where search matches words instead.
    search_vector = SearchVectorField(null=True, editable=False)

    objects = PostManager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["topic", "created_at"])]

    def __str__(self):
        return f"{self.author} in {self.topic_id}: {self.body[:40]}"

    def get_absolute_url(self):
        return reverse("forum-post", args=[self.pk])

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class ModerationLog(models.Model):
    class Action(models.TextChoices):
        PIN = "pin", _("Pinned the topic")
        UNPIN = "unpin", _("Unpinned the topic")
        LOCK = "lock", _("Locked the topic")
        UNLOCK = "unlock", _("Unlocked the topic")
        MOVE = "move", _("Moved the topic")
        HIDE_TOPIC = "hide_topic", _("Deleted the topic")
        HIDE_POST = "hide_post", _("Deleted a post")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="forum_moderations"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    topic = models.ForeignKey(Topic, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation")
    post = models.ForeignKey(Post, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation")
    reason = models.TextField(blank=True)
    # What changed, in words that outlive renames: "from General to Game of God".
    detail = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.moderator}: {self.get_action_display()} ({self.created_at:%Y-%m-%d %H:%M})"


class PostReport(models.Model):
    """A member's word to the moderators that a post breaks the rules: one per member and
    post, open until a moderator dismisses it or deletes the post."""

    class Outcome(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        POST_DELETED = "post_deleted", _("Post deleted")

    REASON_MAX = 500

    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="forum_reports")
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.OPEN)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["post", "reporter"], name="one_report_per_member_and_post")]
        indexes = [models.Index(fields=["outcome", "created_at"])]

    def __str__(self):
        return f"{self.reporter} reported post {self.post_id}: {self.reason[:40]}"

    def get_absolute_url(self):
        return reverse("forum-reports")

    @property
    def is_open(self) -> bool:
        return self.outcome == self.Outcome.OPEN
