from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse

from .time_zones import validate_time_zone

# The longest username a new account may take (the column keeps Django's 150 for older ones).
USERNAME_MAX_LENGTH = 30


class User(AbstractUser):
    """A player. Bots are users too (``is_bot``), so they sit in seats and get ratings.

    A bot is either the site's (``bot_name`` names the games.bots player the site runs for it)
    or a person's own bot account (``owner`` set, ``bot_name`` empty): a program of its owner's
    that plays through the API with its token, like a person, and never signs in to the pages.
    """

    is_bot = models.BooleanField(
        default=False, help_text="A computer player: run by the site (bot name) or by its owner through the API."
    )
    bot_name = models.CharField(
        max_length=32, blank=True, help_text="Which bot plays for this account (games.bots registry)."
    )
    bio = models.TextField(max_length=1000, blank=True)
    owner = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="bot_accounts",
        help_text="The person whose bot account this is (it plays through the API with its token).",
    )
    # A bot account that timed out too often in a row is paused until its owner unpauses it;
    # only the timeouts after its last unpausing count towards the next pause.
    bot_paused_at = models.DateTimeField(null=True, blank=True)
    bot_unpaused_at = models.DateTimeField(null=True, blank=True)
    # The zone the pages and mails show times in (an IANA name); empty until the person or
    # their browser chooses one (accounts.time_zones).
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text="The time zone times are shown in, such as Europe/Paris; empty: the browser's, else UTC.",
    )
    # The language of the pages (a code of settings.LANGUAGES); empty: the browser's, else
    # English (accounts.middleware.LanguageMiddleware).
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text="The language of the pages; empty: the browser's, else English.",
    )

    class Meta:
        ordering = ["username"]

    def __str__(self):
        return self.username

    def get_absolute_url(self):
        return reverse("player", args=[self.username])

    @property
    def is_site_bot(self) -> bool:
        """A bot the site runs itself (games.tasks plays its turns)."""
        return self.is_bot and bool(self.bot_name)

    @property
    def is_bot_account(self) -> bool:
        """A person's own bot: it acts through the API with its token, the site never plays for it."""
        return self.is_bot and self.owner_id is not None

    @property
    def bot_paused(self) -> bool:
        return self.bot_paused_at is not None
