from django.contrib.auth.hashers import make_password
from django.db import migrations


def create_random_bot(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.get_or_create(
        username="Random",
        defaults={
            "is_bot": True,
            "bot_name": "random",
            "password": make_password(None),  # bots never log in
            "bio": "Plays a uniformly random legal move. Good for learning the rules.",
        },
    )


def remove_random_bot(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(is_bot=True, bot_name="random").delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial"), ("accounts", "0001_initial")]

    operations = [migrations.RunPython(create_random_bot, remove_random_bot)]
