from django import forms
from django.conf import settings
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from . import bot_strength, engine_text
from .bots import bot_label, bot_names
from .engines import all_games, get_game
from .models import Match


def game_choices():
    return [(g.slug, g.name) for g in all_games()]


def _all_player_counts() -> list[int]:
    return sorted({n for g in all_games() for n in g.allowed_player_counts()})


# The clocks people know, as (value, label): untimed practice, live seconds per move, and
# correspondence days per move. ``time_control`` below turns a value into match_create's terms.
LIVE_CHOICES = (30, 90, 180)
CORRESPONDENCE_CHOICES = (1, 3, 7, 14)
UNTIMED = Match.Speed.UNTIMED


def _seconds_label(seconds: int) -> str:
    if seconds % 60 == 0 and seconds >= 120:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def time_control_choices() -> list[tuple[str, str]]:
    """In the language of the request (the choices are read when a form is made)."""
    choices = [(UNTIMED, gettext("Untimed practice: no clock, casual"))]
    choices += [(f"live-{s}", gettext("Live: %(time)s a move") % {"time": _seconds_label(s)}) for s in LIVE_CHOICES]
    choices += [
        (
            f"correspondence-{d}",
            ngettext("Correspondence: %(count)d day a move", "Correspondence: %(count)d days a move", d) % {"count": d},
        )
        for d in CORRESPONDENCE_CHOICES
    ]
    return choices


def time_control(value: str) -> dict:
    """match_create's speed, seconds_per_move and days_per_move for a time-control choice."""
    if value == UNTIMED:
        return {"speed": Match.Speed.UNTIMED, "seconds_per_move": None, "days_per_move": None}
    speed, amount = value.rsplit("-", 1)
    if speed == Match.Speed.LIVE:
        return {"speed": speed, "seconds_per_move": int(amount), "days_per_move": None}
    return {"speed": speed, "seconds_per_move": None, "days_per_move": int(amount)}


class GameForm(forms.Form):
    """A game, a number of players that the game allows, that game's options, a clock and
    whether the match is rated. The page shows only the chosen game's player counts and
    options (static/js/game-forms.js follows a change of game; without script, the server
    still explains a wrong choice)."""

    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    num_players = forms.TypedChoiceField(label=_("Players"), coerce=int, choices=())
    # Left out of a post, the form's default clock (untimed against the computer).
    time_control = forms.ChoiceField(label=_("Time control"), choices=time_control_choices, required=False)
    rated = forms.BooleanField(required=False, label=_("Rated"))

    default_players = min  # of the chosen game's counts
    # The levels whose standing at the chosen table the form tells (``bot_strength.level_notes``),
    # shown under the field ``notes_after``; None: no such lines.
    note_levels: list[str] | None = None
    notes_after = "num_players"

    def __init__(self, *args, note_levels: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if note_levels is not None:
            self.note_levels = note_levels
        self.chosen_game = self._chosen_game()
        counts = self.chosen_game.allowed_player_counts()
        players = self.fields["num_players"]
        players.choices = [(n, str(n)) for n in _all_player_counts()]  # what the server accepts
        players.widget.choices = [(n, str(n)) for n in counts]  # what the chosen game allows
        self.initial["game"] = self.chosen_game.slug  # also when asked for no game, or an unknown one
        if self.initial.get("num_players") not in counts:
            self.initial["num_players"] = self.default_players(counts)
        self.option_fields = []
        for game in all_games():
            for option in game.options:
                name = f"opt_{game.slug}_{option.name}"
                label = f"{game.name}: {gettext(option.label)}"  # the engine's words, marked there
                if option.values is None:
                    field = forms.BooleanField(
                        required=False, initial=option.default, label=label, help_text=gettext(option.help)
                    )
                else:  # a number, checked against the players in clean(); empty: the standard
                    allowed = game.option_values(option)
                    field = forms.IntegerField(
                        required=False,
                        label=label,
                        help_text=gettext(option.help),
                        widget=forms.NumberInput(attrs={"min": allowed[0], "max": allowed[-1]}),
                    )
                field.game = game.slug  # the form shows it only while this game is chosen
                self.fields[name] = field
                self.option_fields.append((game.slug, option.name, name))

    def _chosen_game(self):
        slug = self.data.get("game") if self.is_bound else None
        slug = slug or self.initial.get("game")
        try:
            return get_game(slug)
        except (KeyError, TypeError):
            return all_games()[0]

    def games_data(self) -> dict:
        """For the page's script: each game's player counts and option fields, and, in a form
        that chooses a level or plays one, the lines about the levels at each of its tables."""
        notes = bot_strength.level_notes_by_table(self.note_levels) if self.note_levels is not None else {}
        return {
            g.slug: {
                "counts": list(g.allowed_player_counts()),
                "default": self.default_players(g.allowed_player_counts()),
                "options": [field for slug, _, field in self.option_fields if slug == g.slug],
                **({"notes": notes[g.slug]} if self.note_levels is not None else {}),
            }
            for g in all_games()
        }

    def chosen_players(self) -> int:
        """The player count the form shows chosen: the one posted if the game allows it."""
        counts = self.chosen_game.allowed_player_counts()
        posted = str(self.data.get("num_players", "")) if self.is_bound else ""
        if posted.isdigit() and int(posted) in counts:
            return int(posted)
        return int(self.initial["num_players"])

    def level_notes(self) -> list[dict]:
        """The lines about the levels at the table the form shows chosen (for the page as
        served; the script follows a change of game or players)."""
        if self.note_levels is None:
            return []
        return bot_strength.level_notes(self.chosen_game.slug, self.chosen_players(), self.note_levels)

    def clean_time_control(self):
        return self.cleaned_data.get("time_control") or self.fields["time_control"].initial

    def clean(self):
        data = super().clean()
        if data.get("game") and data.get("num_players") is not None:
            game = get_game(data["game"])
            if data["num_players"] not in game.allowed_player_counts():
                counts = ", ".join(str(c) for c in game.allowed_player_counts())
                self.add_error(
                    "num_players",
                    gettext("%(game)s is played by %(counts)s players.") % {"game": game.name, "counts": counts},
                )
        slug, num_players = data.get("game"), data.get("num_players")
        if slug and num_players is not None and not self.has_error("num_players"):
            for game, opt, field in self.option_fields:
                if game == slug and self._is_number(field) and data.get(field) is not None:
                    try:
                        get_game(slug).normalise_options({opt: data[field]}, num_players)
                    except ValueError as exc:  # the engine's words, in the page's language
                        self.add_error(field, engine_text.refusal(exc))
        if data.get("time_control") == UNTIMED and data.get("rated"):
            self.add_error("rated", gettext("Untimed practice is casual: choose a clock to play a rated match."))
        return data

    def options_for(self, slug: str) -> dict:
        """The chosen game's options; the other games' fields are ignored."""
        data = self.cleaned_data
        return {
            opt: data.get(field) if self._is_number(field) else bool(data.get(field))
            for game, opt, field in self.option_fields
            if game == slug
        }

    def _is_number(self, field: str) -> bool:
        return isinstance(self.fields[field], forms.IntegerField)

    def match_terms(self) -> dict:
        """match_create's keyword arguments from the cleaned form (less the user)."""
        data = self.cleaned_data
        return {
            "game": data["game"],
            "num_players": data["num_players"],
            "options": self.options_for(data["game"]),
            "rated": data["rated"],
            **time_control(data["time_control"]),
        }


class MatchCreateForm(GameForm):
    visibility = forms.ChoiceField(
        label=_("Visibility"), choices=Match.Visibility.choices, initial=Match.Visibility.PUBLIC
    )
    accepts_bots = forms.BooleanField(
        required=False, label=_("Accepts bots (people's bot accounts may take a free seat)")
    )

    field_order = ["game", "num_players", "time_control", "rated", "visibility", "accepts_bots"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_control"].initial = f"live-{settings.LIVE_SECONDS_DEFAULT}"
        self.fields["rated"].initial = True

    def match_terms(self) -> dict:
        data = self.cleaned_data
        return {**super().match_terms(), "visibility": data["visibility"], "accepts_bots": data["accepts_bots"]}


def _computer_default_players(counts) -> int:
    return 2 if 2 in counts else min(counts)


class PlayComputerForm(GameForm):
    """You against bots of one level. Untimed by default; rated only if you say so (bots carry
    ratings per game like players, so beating a weak bot is worth little)."""

    bot = forms.ChoiceField(label=_("Level"), choices=lambda: [(name, bot_label(name)) for name in bot_names()])

    field_order = ["game", "num_players", "bot", "time_control", "rated"]
    default_players = staticmethod(_computer_default_players)
    notes_after = "bot"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "computer_%s")  # the lobby shows it beside the other form
        kwargs.setdefault("note_levels", bot_names())
        super().__init__(*args, **kwargs)
        self.fields["time_control"].initial = UNTIMED
        self.fields["rated"].initial = False
        self.fields["rated"].help_text = gettext(
            "Bots carry a rating in each game like players do: beating a weak bot gains little, "
            "losing to it costs a lot. Untimed practice is never rated."
        )
