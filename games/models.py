import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import clock as clock_rules
from .clock import Clock
from .engine_text import translated
from .engines import get_game


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Match(models.Model):
    """One game being played. Its truth is (game, num_players, options, the Move rows)."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        ACTIVE = "active", "Being played"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        INVITE = "invite", _("Invite link only")

    class Speed(models.TextChoices):
        UNTIMED = clock_rules.UNTIMED, _("Untimed practice")
        LIVE = clock_rules.LIVE, _("Live")
        CORRESPONDENCE = clock_rules.CORRESPONDENCE, _("Correspondence")

    game = models.CharField(max_length=32, db_index=True)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    version = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=True)
    visibility = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True, editable=False)
    speed = models.CharField(max_length=16, choices=Speed.choices, default=Speed.LIVE)
    # The time a seat has for each move (0 when untimed: no clock runs).
    seconds_per_move = models.PositiveIntegerField(default=90)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Whose turn it is (a seat index) while a person or bot must act; null otherwise.
    to_move = models.SmallIntegerField(null=True, blank=True)
    # When the seat to move runs out of time; null when no clock runs (a bot to move, finished).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # A cache of the public position (the spectator's view), rebuilt from the moves on demand.
    snapshot = models.JSONField(default=dict, blank=True)
    end_reason = models.CharField(max_length=32, blank=True)
    # A request to take back a move in a casual match (games.services.takebacks): the asking seat, the
    # version it was asked at, the seats that accepted, and whether it was declined. It holds
    # only while the match is still at that version: any move lapses it without a write.
    takeback = models.JSONField(null=True, blank=True)
    # The latest version at which moves were taken back: an engine state remembered from
    # before it cannot be brought up to date by appending moves (games.state_cache).
    rewound_version = models.PositiveIntegerField(default=0)
    # Whether a person's bot account may take a free seat from the lobby (the creator's choice,
    # off unless asked for). A challenge's, a rematch's or a tournament table's match seats
    # exactly the players chosen, and the site's bots are seated by the creator: neither asks.
    accepts_bots = models.BooleanField(default=False)
    # A match imported from a game record (games.services.imports): the players the record
    # named ({"names": [...]}: it seats no account) and its other headers; null for a match
    # played here.
    imported_from = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "game", "-finished_at"])]

    def __str__(self):
        return f"{self.game_name} #{self.pk}"

    def get_absolute_url(self):
        return reverse("match", args=[self.pk])

    @property
    def engine(self):
        return get_game(self.game)

    @property
    def game_name(self) -> str:
        try:
            return self.engine.name
        except KeyError:
            return self.game

    @property
    def chosen_options(self) -> dict:
        """The options its players chose, for a new match on the same terms (a rematch): a
        former ruling the record was played under is left out, the new match plays today's."""
        return self.engine.chosen_options(self.options)

    @property
    def options_text(self) -> str:
        """The match's departures from the standard game, in words in the active language ("" for
        the standard)."""
        try:
            return " · ".join(translated(words) for words in self.engine.options_text(self.options))
        except KeyError:
            return ""

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    @property
    def clock(self) -> Clock:
        return Clock(self.speed, self.seconds_per_move)

    @property
    def timed(self) -> bool:
        return self.clock.timed

    @property
    def time_per_move(self) -> str:
        """The clock in words: "90 s", "3 min", "2 days" ("" when untimed)."""
        return self.clock.label

    def invite_url(self) -> str:
        return reverse("match-invite", args=[self.invite_token])


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    # A bot plays this seat for a person who timed out or resigned in a game of 3 or more.
    bot_takeover = models.CharField(max_length=32, blank=True)
    resigned = models.BooleanField(default=False)
    timed_out = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="unique_seat_index")]

    def __str__(self):
        return f"{self.match} seat {self.index}: {self.user or 'empty'}"

    @property
    def quit(self) -> bool:
        return self.resigned or self.timed_out

    def bot_name(self) -> str:
        """The bot that acts for this seat, or '' when a person does."""
        if self.bot_takeover:
            return self.bot_takeover
        if self.user is not None and self.user.is_bot:
            return self.user.bot_name
        return ""


class Move(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    index = models.PositiveIntegerField()
    seat = models.SmallIntegerField(null=True, blank=True, help_text="Null for a chance outcome.")
    action = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="unique_move_index")]

    def __str__(self):
        return f"{self.match_id}#{self.index} {self.action}"


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    # Null for the site's own notices to the players (the clocks stopped during an outage).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    # A moderator hid it (games.services.chat_hide): kept, never shown again. Who and when is
    # here and in the ModerationLog.
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.user or settings.SITE_NAME}: {self.text[:30]}"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class ModerationLog(models.Model):
    """What staff did to matches and their chat, and when: a record, never edited."""

    class Action(models.TextChoices):
        HIDE_CHAT = "hide_chat", "Hid a chat message"
        SHOW_CHAT = "show_chat", "Showed a hidden chat message again"
        END_MATCH = "end_match", "Ended a match as aborted"

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="match_moderations"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    match = models.ForeignKey(Match, null=True, on_delete=models.SET_NULL, related_name="moderation")
    chat_message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # What was acted on, in words, so the record outlives the row (the message's author and text).
    detail = models.CharField(max_length=600, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.moderator}: {self.get_action_display()} ({self.created_at:%Y-%m-%d %H:%M})"


class LiveOutage(models.Model):
    """A time the live path (the channel layer) could not be reached: nobody saw the moves,
    so no clock forfeited anyone. Noted by whatever first found it down; ended by the first
    clock check that finds it back, which moves the running live matches' deadlines on."""

    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]

    def __str__(self):
        return f"Live path down from {self.started_at:%Y-%m-%d %H:%M:%S} to {self.ended_at or 'now'}"


class MatchAnalysis(models.Model):
    """The analysis of a finished match at one budget (``budget``, e.g. ``mcts200-seed0-f1``):
    asked for once, computed once by a worker of the ``analysis`` queue, kept for everyone who
    asks again (games.services.analysis)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    budget = models.CharField(max_length=64)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True)
    # Positions judged so far, in percent of the match's.
    progress = models.PositiveSmallIntegerField(default=0)
    # games.bots.analysis.analyse's answer, once done.
    result = models.JSONField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="match_analyses"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["match", "budget"], name="unique_match_analysis")]

    def __str__(self):
        return f"Analysis of {self.match_id} ({self.budget}): {self.status}"
