from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_forums(sender, using="default", apps=None, **kwargs):
    """After every migrate: a game added to the registry gets its forum."""
    try:
        if apps is not None:
            apps.get_model("forums", "Forum")  # absent when migrating the forums app backwards
    except LookupError:
        return
    from .services import forum_ensure_for_games

    forum_ensure_for_games(using=using)


class ForumsConfig(AppConfig):
    name = "forums"
    verbose_name = "Forums"

    def ready(self):
        post_migrate.connect(_ensure_forums, sender=self, dispatch_uid="forums.ensure_for_games")
