from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from games.signals import match_finished

        from . import receivers

        # A round advances when its last match ends (and the periodic sweep, should it not).
        match_finished.connect(receivers.match_finished, dispatch_uid="tournaments.match_finished")
