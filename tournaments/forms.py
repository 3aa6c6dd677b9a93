"""The form that creates (or, before the start, edits) a tournament. Every check is the
service's (``services.tournament_settings``); the form puts its message by the field at fault."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from games.catalog import all_games, bot_choices, game_choices
from portal import refusals

from . import services
from .models import Tournament

SECONDS_CHOICES = [(30, "30 seconds"), (90, "90 seconds"), (180, "3 minutes"), (600, "10 minutes")]
DAYS_CHOICES = [(1, "1 day"), (2, "2 days"), (3, "3 days"), (5, "5 days"), (7, "7 days"), (14, "14 days")]
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=Tournament.NAME_MAX)
    game = forms.ChoiceField(choices=[])
    table_size = forms.TypedChoiceField(
        label="Players a table", coerce=int, choices=[(n, str(n)) for n in range(2, 7)], initial=2
    )
    format = forms.ChoiceField(
        choices=Tournament.Format.choices,
        help_text=f"Round robin: everyone meets everyone (at most {services.MAX_ROUND_ROBIN_ENTRANTS} entrants). "
        "Swiss: players with the same score meet each round.",
    )
    speed = forms.ChoiceField(label="Clock", choices=Tournament.Speed.choices)
    seconds_per_move = forms.TypedChoiceField(
        label="Time per move (live)", coerce=int, choices=SECONDS_CHOICES, initial=90, required=False, empty_value=None
    )
    days_per_move = forms.TypedChoiceField(
        label="Time per move (correspondence)",
        coerce=int,
        choices=DAYS_CHOICES,
        initial=3,
        required=False,
        empty_value=None,
    )
    rated = forms.BooleanField(required=False, initial=True, label="Rated (the results change the players' ratings)")
    invite_only = forms.BooleanField(required=False, label="By invitation only (entry through the invite link)")
    accepts_bots = forms.BooleanField(required=False, label="Accepts bots (people's bot accounts may enter)")
    registration_opens_at = forms.DateTimeField(
        label="Entries open", required=False, widget=DATETIME, help_text="Empty: at once."
    )
    starts_at = forms.DateTimeField(label="First round starts", widget=DATETIME)
    rounds = forms.IntegerField(
        label="Rounds (Swiss)",
        required=False,
        min_value=1,
        max_value=services.MAX_ROUNDS,
        help_text="Empty: as many as the field needs, decided at the start. A round robin plays every pairing.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        # Read and shown in the viewer's zone (Django's date-time fields use the active one).
        zone = timezone.get_current_timezone_name()
        for name in ("registration_opens_at", "starts_at"):
            self.fields[name].label = f"{self.fields[name].label} ({zone})"

    def games_data(self) -> dict:
        """For the page's script (``static/js/game-forms.js``): each game's table sizes, and the
        one a change of game starts from."""
        counts = {game.slug: list(game.allowed_player_counts()) for game in all_games()}
        return {slug: {"counts": sizes, "default": min(sizes), "options": []} for slug, sizes in counts.items()}

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        with refusals.on_form(self):
            self.checked = services.tournament_settings(**self.choices())
        return data

    def choices(self) -> dict:
        data = self.cleaned_data
        return {name: data.get(name) for name in self.fields}

    @classmethod
    def initial_from(cls, tournament: Tournament) -> dict:
        clock = tournament.clock
        live = clock.speed == Tournament.Speed.LIVE
        return {
            "name": tournament.name,
            "game": tournament.game,
            "table_size": tournament.table_size,
            "format": tournament.format,
            "speed": tournament.speed,
            "seconds_per_move": tournament.seconds_per_move if live else 90,
            "days_per_move": 3 if live else clock.days,
            "rated": tournament.rated,
            "invite_only": tournament.invite_only,
            "accepts_bots": tournament.accepts_bots,
            "registration_opens_at": tournament.registration_opens_at,
            "starts_at": tournament.starts_at,
            "rounds": tournament.rounds,
        }


class AddBotForm(forms.Form):
    bot = forms.ChoiceField(choices=[])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bot"].choices = bot_choices()
