from django.apps import AppConfig


class PortalConfig(AppConfig):
    name = "portal"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from forums.models import Forum
        from games.signals import match_finished, open_matches_changed

        from . import receivers

        # The cached fragments of pages go stale exactly when what they show changes.
        match_finished.connect(receivers.match_finished, dispatch_uid="page_cache.match_finished")
        open_matches_changed.connect(receivers.open_matches_changed, dispatch_uid="page_cache.open_matches")
        User = get_user_model()
        post_save.connect(receivers.user_saved, sender=User, dispatch_uid="page_cache.user_saved")
        post_delete.connect(receivers.user_deleted, sender=User, dispatch_uid="page_cache.user_deleted")
        post_save.connect(receivers.forum_changed, sender=Forum, dispatch_uid="page_cache.forum_saved")
        post_delete.connect(receivers.forum_changed, sender=Forum, dispatch_uid="page_cache.forum_deleted")
