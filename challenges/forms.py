from django.conf import settings

from games.forms import GameForm


class ChallengeForm(GameForm):
    """The terms of a challenge: the create form's game, players, options, clock and rated
    flag, checked by the same rules."""

    field_order = ["game", "num_players", "time_control", "rated"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "challenge_%s")
        super().__init__(*args, **kwargs)
        self.fields["time_control"].initial = f"live-{settings.LIVE_SECONDS_DEFAULT}"
        self.fields["rated"].initial = True
