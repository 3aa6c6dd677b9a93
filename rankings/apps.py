from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "rankings"

    def ready(self):
        from games.signals import match_finished

        from . import receivers

        # A finished match is rated in a task, off the move that ended it.
        match_finished.connect(receivers.match_finished, dispatch_uid="rankings.enqueue_rating")
