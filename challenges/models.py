"""Invitations to play that wait for an answer: a challenge from one person to another, and
a rematch offered to the players of a finished match. Neither is a match: the match is made
through ``games.services`` once everyone asked has accepted."""

from django.conf import settings
from django.db import models
from django.urls import reverse

from games.models import Match


class State(models.TextChoices):
    PENDING = "pending", "Waiting for an answer"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"
    EXPIRED = "expired", "Expired"


class Challenge(models.Model):
    """One person asks another to play a match on given terms (the create form's)."""

    State = State

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    game = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    speed = models.CharField(max_length=16, choices=Match.Speed.choices)
    # As Match.seconds_per_move: 0 when untimed, days times 86400 for correspondence.
    seconds_per_move = models.PositiveIntegerField()
    rated = models.BooleanField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["challenged", "state"]),
            models.Index(fields=["challenger", "state"]),
            models.Index(fields=["state", "expires_at"]),
        ]

    def __str__(self):
        return f"{self.challenger} challenges {self.challenged} to {self.game} ({self.state})"

    def get_absolute_url(self):
        return reverse("challenges")

    @property
    def terms(self) -> Match:
        """An unsaved match on the challenge's terms, for its words (game name, clock, options)."""
        return Match(
            game=self.game,
            num_players=self.num_players,
            options=self.options,
            speed=self.speed,
            seconds_per_move=self.seconds_per_move,
            rated=self.rated,
        )


class RematchOffer(models.Model):
    """A player of a finished match offers the others the same match again: the same game,
    options, clock and rated flag, with the seats rotated by one so another player starts."""

    State = State

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rematch_offers")
    offered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The new match's seats in order: user ids, bots' accounts included.
    seating = models.JSONField()
    rated = models.BooleanField()
    state = models.CharField(max_length=16, choices=State.choices, default=State.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    new_match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(state="pending"), name="one_pending_rematch_offer_per_match"
            )
        ]
        indexes = [models.Index(fields=["state", "expires_at"])]

    def __str__(self):
        return f"Rematch of {self.match_id} by {self.offered_by} ({self.state})"

    def get_absolute_url(self):
        return reverse("match", args=[self.match_id])


class RematchAnswer(models.Model):
    """The answer of one person asked (bots accept at once and have no row; the person who
    offered has one, accepted)."""

    class Answer(models.TextChoices):
        PENDING = "pending", "Not answered yet"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    offer = models.ForeignKey(RematchOffer, on_delete=models.CASCADE, related_name="answers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    answer = models.CharField(max_length=16, choices=Answer.choices, default=Answer.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["offer", "id"]
        constraints = [models.UniqueConstraint(fields=["offer", "user"], name="one_answer_per_person_and_offer")]

    def __str__(self):
        return f"{self.user} on {self.offer_id}: {self.answer}"
