from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from .rating import INITIAL_RATING, is_provisional


class Rating(models.Model):
    """One player's Elo rating in one game. Rows exist only for players with a rated match."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=32)
    # A float, rounded only for display: replaying every match must give the same numbers.
    rating = models.FloatField(default=INITIAL_RATING)
    rated_games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Rated matches finished in first place.")

    class Meta:
        ordering = ["game", "-rating", "user_id"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="unique_rating_per_game")]
        # The ranking of a game: highest rating first, ties by user id (a stable order for pages).
        indexes = [models.Index(fields=["game", "-rating", "user"], name="rating_ranking_idx")]

    def __str__(self):
        return f"{self.user} in {self.game}: {self.display}"

    def get_absolute_url(self):
        return reverse("game-ranking", args=[self.game])

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rated_games)

    @property
    def rounded(self) -> int:
        return round(self.rating)

    @property
    def display(self) -> str:
        """The rating as people see it: a whole number, with "?" while provisional."""
        return f"{self.rounded}{'?' if self.provisional else ''}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating. Unique per (match, user): rating a
    match twice is refused by the database, which makes the rating task safe to retry."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=32)
    before = models.FloatField()
    after = models.FloatField()
    place = models.PositiveSmallIntegerField(help_text="The player's final place in the match.")
    # When the match finished (not when the rating ran), so a recompute writes the same value.
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="unique_rating_change")]
        indexes = [models.Index(fields=["user", "game", "created"], name="rating_history_idx")]

    def __str__(self):
        return f"{self.user} {self.before:.0f} -> {self.after:.0f} (match {self.match_id})"

    @property
    def change(self) -> float:
        return self.after - self.before

    @property
    def before_rounded(self) -> int:
        return round(self.before)

    @property
    def after_rounded(self) -> int:
        return round(self.after)
