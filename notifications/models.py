from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from portal import phrases


class Notification(models.Model):
    """Something that happened for one person: listed on their notification centre page and
    counted, while unread, in the header."""

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        MATCH_FINISHED = "match_finished", _("Match finished")
        CHALLENGE_RECEIVED = "challenge_received", _("Challenge received")
        CHALLENGE_ANSWERED = "challenge_answered", _("Challenge answered")
        REMATCH_OFFERED = "rematch_offered", _("Rematch offered")
        FORUM_REPLY = "forum_reply", _("Forum reply")
        TABLE_READY = "table_ready", _("Your table is ready")
        POST_REPORTED = "post_reported", _("Post reported")

    TEXT_MAX = 300

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    # The words in English, as written; ``phrase`` says them in the reader's language.
    text = models.CharField(max_length=TEXT_MAX)
    # What ``text`` says as a phrase (``portal.phrases``), said when shown, in the language of
    # whoever reads it; empty for the notifications written before, shown by their ``text``.
    phrase = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=300, blank=True)
    # What the event is about, so the same event is never told twice ("turn:12:<deadline>",
    # "topic:5" while a reply there is unread); blank when every event stands alone.
    key = models.CharField(max_length=80, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            # The header's unread count and the centre's pages.
            models.Index(fields=["user", "read"], name="notification_unread"),
            models.Index(fields=["user", "-created"], name="notification_recent"),
            # The sweep's unread your-turn notifications, whose turns may have been played.
            models.Index(
                fields=["user"], condition=models.Q(kind="your_turn", read=False), name="notification_turns_unread"
            ),
        ]
        constraints = [
            # A finished match is told once per person ("finished:<match>"), read or not:
            # its task, a retry and the sweep that repairs a lost task may all run.
            models.UniqueConstraint(
                fields=["user", "key"], condition=models.Q(kind="match_finished"), name="unique_match_finished_notice"
            ),
        ]

    def __str__(self):
        return f"{self.user_id}: {self.text[:40]}"

    def get_absolute_url(self):
        return self.url or "/notifications/"

    @property
    def shown_text(self) -> str:
        """The words in the active language (the reader's)."""
        return phrases.say(self.phrase)[: self.TEXT_MAX] if self.phrase else self.text


class NotificationSettings(models.Model):
    """One person's choices about being told things, and when they were last on the site
    (any page holds the per-user socket, which notes it): mail goes only to people away."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_your_turn = models.BooleanField(
        "E-mail me when it is my turn in a correspondence match or my tournament table is ready",
        default=True,
        help_text="At most one message per match every few hours, and only while you are away from the site.",
    )
    last_seen = models.DateTimeField(null=True, blank=True)
    # Moves on each time the your-turn mail is turned back on: every unsubscribe link carries
    # the value it was made under, so the links of earlier mails (a used one included) stop
    # working then.
    unsubscribe_generation = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self):
        return f"Notification settings of {self.user_id}"


class TurnMail(models.Model):
    """When a person was last mailed about a match waiting for them: the batching window."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="unique_turn_mail")]

    def __str__(self):
        return f"{self.user_id} mailed about {self.match_id} at {self.sent_at:%Y-%m-%d %H:%M}"
