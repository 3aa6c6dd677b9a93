from django import forms
from django.conf import settings

from .bots import bot_label, bot_names
from .engines import all_games, get_game
from .models import Match


def game_choices():
    return [(g.slug, g.name) for g in all_games()]


class GamePlayersForm(forms.Form):
    """A game and a number of players that the game allows."""

    game = forms.ChoiceField(choices=game_choices)
    num_players = forms.IntegerField(label="Players", min_value=2, max_value=6, initial=2)

    def clean(self):
        data = super().clean()
        if data.get("game") and data.get("num_players") is not None:
            game = get_game(data["game"])
            if data["num_players"] not in game.allowed_player_counts():
                counts = ", ".join(str(c) for c in game.allowed_player_counts())
                self.add_error("num_players", f"{game.name} is played by {counts} players.")
        return data


class MatchCreateForm(GamePlayersForm):
    speed = forms.ChoiceField(choices=Match.Speed.choices, initial=Match.Speed.LIVE)
    seconds_per_move = forms.IntegerField(
        label="Seconds per move (live)", min_value=10, max_value=3600, initial=settings.LIVE_SECONDS_DEFAULT
    )
    days_per_move = forms.IntegerField(
        label="Days per move (correspondence)", min_value=1, max_value=14, initial=settings.CORRESPONDENCE_DAYS_DEFAULT
    )
    rated = forms.BooleanField(required=False, initial=True, label="Rated")
    visibility = forms.ChoiceField(choices=Match.Visibility.choices, initial=Match.Visibility.PUBLIC)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_fields = []
        for game in all_games():
            for option in game.options:
                name = f"opt_{game.slug}_{option.name}"
                label = f"{game.name}: {option.label}"
                if option.values is None:
                    self.fields[name] = forms.BooleanField(
                        required=False, initial=option.default, label=label, help_text=option.help
                    )
                else:  # a number, checked against the players in clean(); empty: the standard
                    allowed = game.option_values(option)
                    self.fields[name] = forms.IntegerField(
                        required=False, label=label, help_text=option.help,
                        widget=forms.NumberInput(attrs={"min": allowed[0], "max": allowed[-1]}),
                    )
                self.fields[name].game = game.slug  # the form shows it only while this game is chosen
                self.option_fields.append((game.slug, option.name, name))

    def clean(self):
        data = super().clean()
        slug, num_players = data.get("game"), data.get("num_players")
        if slug and num_players is not None and not self.has_error("num_players"):
            for game, opt, field in self.option_fields:
                if game == slug and self._is_number(field) and data.get(field) is not None:
                    try:
                        get_game(slug).normalise_options({opt: data[field]}, num_players)
                    except ValueError as exc:
                        self.add_error(field, str(exc))
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


class PlayComputerForm(GamePlayersForm):
    bot = forms.ChoiceField(
        label="Level", choices=lambda: [(name, bot_label(name)) for name in bot_names()]
    )
