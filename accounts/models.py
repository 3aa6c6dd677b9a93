from django.contrib.auth.models import AbstractUser
from django.db import models
from django.urls import reverse

# The longest username a new account may take (the column keeps Django's 150 for older ones).
USERNAME_MAX_LENGTH = 30


class User(AbstractUser):
    """A player. Bots are users too (``is_bot``), so they sit in seats and get ratings."""

    is_bot = models.BooleanField(default=False, help_text="A computer player run by the site.")
    bot_name = models.CharField(
        max_length=32, blank=True, help_text="Which bot plays for this account (games.bots registry)."
    )
    bio = models.TextField(max_length=1000, blank=True)

    class Meta:
        ordering = ["username"]

    def __str__(self):
        return self.username

    def get_absolute_url(self):
        return reverse("player", args=[self.username])
