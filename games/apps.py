from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from . import lobby
        from .signals import open_matches_changed

        # Open lobby pages refresh their list when it changes.
        open_matches_changed.connect(lobby.open_matches_changed, dispatch_uid="games.lobby")
