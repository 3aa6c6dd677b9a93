from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from live.reach import live_down

        from . import receivers
        from .signals import analysis_requested, bot_to_move, open_matches_changed

        # Open lobby pages refresh their list when it changes.
        open_matches_changed.connect(receivers.tell_lobby, dispatch_uid="games.lobby")
        bot_to_move.connect(receivers.queue_bot, dispatch_uid="games.queue_bot")
        analysis_requested.connect(receivers.queue_analysis, dispatch_uid="games.queue_analysis")
        live_down.connect(receivers.note_outage, dispatch_uid="games.note_outage")
