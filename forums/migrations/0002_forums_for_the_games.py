"""The general forum and one forum per game of the portal at the time of writing.

Games added later get their forum from forums.services.forum_ensure_for_games (post_migrate).
The names are written out here: a migration must not depend on today's registry.
"""

from django.db import migrations

GENERAL = ("general", "General", "The portal, the community, and anything that is not about one game.")
GAMES = [
    ("gp02a", "GP02A Territory"),
    ("dice-territory", "Territory (dice)"),
    ("territories", "Territories"),
    ("chit-territory", "Territory (chits)"),
    ("game-of-god", "Game of God"),
]


def create_forums(apps, schema_editor):
    Forum = apps.get_model("forums", "Forum")
    db = schema_editor.connection.alias
    slug, name, description = GENERAL
    Forum.objects.using(db).get_or_create(slug=slug, defaults={"name": name, "description": description, "position": 0})
    for position, (game, name) in enumerate(GAMES, start=1):
        Forum.objects.using(db).get_or_create(
            game=game,
            defaults={
                "slug": game,
                "name": name,
                "description": f"Everything about {name}: rules questions, strategy, memorable matches.",
                "position": position,
            },
        )


def remove_empty_forums(apps, schema_editor):
    Forum = apps.get_model("forums", "Forum")
    db = schema_editor.connection.alias
    Forum.objects.using(db).filter(slug__in=[GENERAL[0]] + [g for g, _ in GAMES], topics__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("forums", "0001_initial")]

    operations = [migrations.RunPython(create_forums, remove_empty_forums)]
