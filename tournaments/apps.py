from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self):
        from challenges.signals import rematch_refused
        from games.signals import match_finished

        from . import receivers

        # A round advances when its last match ends (and the periodic sweep, should it not).
        match_finished.connect(receivers.match_finished, dispatch_uid="tournaments.match_finished")
        # A table has no rematch outside its tournament.
        rematch_refused.connect(receivers.rematch_refused, dispatch_uid="tournaments.rematch_refused")
