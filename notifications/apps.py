from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"

    def ready(self):
        from challenges.signals import challenge_answered, challenge_received, rematch_closed, rematch_offered
        from forums.signals import post_replied, post_reported
        from games.signals import match_finished, open_matches_changed

        from . import receivers

        match_finished.connect(receivers.match_finished, dispatch_uid="notifications.match_finished")
        challenge_received.connect(receivers.challenge_received, dispatch_uid="notifications.challenge_received")
        challenge_answered.connect(receivers.challenge_answered, dispatch_uid="notifications.challenge_answered")
        rematch_offered.connect(receivers.rematch_offered, dispatch_uid="notifications.rematch_offered")
        rematch_closed.connect(receivers.rematch_closed, dispatch_uid="notifications.rematch_closed")
        open_matches_changed.connect(receivers.seats_changed, dispatch_uid="notifications.seats_changed")
        post_replied.connect(receivers.post_replied, dispatch_uid="notifications.post_replied")
        post_reported.connect(receivers.post_reported, dispatch_uid="notifications.post_reported")
