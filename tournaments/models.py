"""Tournaments: a field of entrants who play rounds of matches of one game, paired by
``tournaments.pairing`` and ranked by ``tournaments.standings``.

A round's tables are ordinary matches (``games.Match``), created through ``games.services``;
a table only points at its match, the match knows nothing of the tournament.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.catalog import game_name
from games.clock import Clock
from games.models import Match, new_invite_token


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Taking entries")
        RUNNING = "running", _("Being played")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    # The clocks a tournament may use: those of matches, less untimed practice.
    class Speed(models.TextChoices):
        LIVE = Match.Speed.LIVE.value, Match.Speed.LIVE.label
        CORRESPONDENCE = Match.Speed.CORRESPONDENCE.value, Match.Speed.CORRESPONDENCE.label

    NAME_MAX = 80

    name = models.CharField(max_length=NAME_MAX)
    game = models.CharField(max_length=32, db_index=True)
    # Players at each table (every match of the tournament seats this many).
    table_size = models.PositiveSmallIntegerField()
    format = models.CharField(max_length=16, choices=Format.choices)
    speed = models.CharField(max_length=16, choices=Speed.choices, default=Speed.LIVE)
    seconds_per_move = models.PositiveIntegerField()
    rated = models.BooleanField(default=True)
    invite_only = models.BooleanField(default=False)
    # Whether a person's bot account may enter (off unless the creator asks for it); the site's
    # bots are added by the creator and unaffected.
    accepts_bots = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True, editable=False)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments")
    registration_opens_at = models.DateTimeField()
    starts_at = models.DateTimeField(db_index=True)
    # Null until the start for a field of unknown size: then recommended for the field.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # The round being played (0 before the first).
    current_round = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION, db_index=True)
    # A round robin's whole schedule, drawn at the start: [{"tables": [[entrant ids]], "byes": [ids]}].
    schedule = models.JSONField(default=list, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_wins"
    )
    # Why it was cancelled, or anything else the page must say about how it ended.
    notice = models.CharField(max_length=300, blank=True)
    forum_topic = models.ForeignKey("forums.Topic", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "game", "starts_at"])]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", args=[self.pk])

    @property
    def game_name(self) -> str:
        try:
            return game_name(self.game)
        except KeyError:
            return self.game

    @property
    def clock(self) -> Clock:
        return Clock(self.speed, self.seconds_per_move)

    @property
    def time_per_move(self) -> str:
        return self.clock.label

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def invite_url(self) -> str:
        return f"{self.get_absolute_url()}?token={self.invite_token}"


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    # A bot may enter more than once (two Random bots); people once. Numbered among the bots
    # of the same kind, so the lists can tell them apart.
    is_bot = models.BooleanField(default=False)
    bot_number = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # The rating in the tournament's game when the tournament started (pairing's seeding).
    seed_rating = models.FloatField(default=1500.0)
    # Written when the tournament finishes: the player page reads them.
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    final_points = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], condition=Q(is_bot=False), name="one_entry_per_person"
            ),
        ]

    def __str__(self):
        return f"{self.name} in {self.tournament_id}"

    @property
    def name(self) -> str:
        if self.is_bot and self.bot_number > 1:
            return f"{self.user.username} {self.bot_number}"
        return self.user.username


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="tournament_table")

    class Meta:
        ordering = ["round", "number"]

    def __str__(self):
        return f"{self.round} table {self.number}"


class TableSeat(models.Model):
    """An entrant at a table, in the match's seat order (seat 0 moves first)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="table_seats")

    class Meta:
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="one_entrant_per_table_seat")]

    def __str__(self):
        return f"{self.table} seat {self.index}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="byes")

    class Meta:
        ordering = ["round", "entrant"]
        constraints = [models.UniqueConstraint(fields=["round", "entrant"], name="one_bye_per_round_entrant")]

    def __str__(self):
        return f"{self.round}: bye"
