from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ForumsConfig(AppConfig):
    name = "forums"
    verbose_name = "Forums"

    def ready(self):
        from . import receivers

        post_migrate.connect(receivers.ensure_forums, sender=self, dispatch_uid="forums.ensure_for_games")
