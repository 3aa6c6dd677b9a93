from django.contrib.auth.hashers import make_password
from django.db import migrations

# username, registry name (games.bots.get_bot), bio. The texts are frozen here on purpose: a
# migration must not change meaning when the bots' code changes later.
BOTS = (
    (
        "Greedy",
        "greedy",
        "Looks one move ahead and plays the move that most improves its lead on points, "
        "averaging over the dice and draws that follow. It never plans further, so it grabs "
        "points at once and walks into traps.",
    ),
    (
        "MCTS Easy",
        "mcts-easy",
        "Monte Carlo tree search on a small budget (150 simulated lines of play, at most 0.2 s "
        "a move). It looks a little further than Greedy but is easily misled.",
    ),
    (
        "MCTS Medium",
        "mcts-medium",
        "Monte Carlo tree search with 1,500 simulated lines of play a move (at most half a "
        "second). It plans a turn or two ahead and weighs the dice.",
    ),
    (
        "MCTS Hard",
        "mcts-hard",
        "Monte Carlo tree search thinking up to two seconds a move (up to 20,000 simulated "
        "lines of play). The strongest bot on the site.",
    ),
)


def create_bots(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for username, bot_name, bio in BOTS:
        if User.objects.filter(is_bot=True, bot_name=bot_name).exists():
            continue
        if User.objects.filter(username=username).exists():  # a person took the name first
            username = f"{username} (bot)"
        User.objects.create(
            username=username,
            is_bot=True,
            bot_name=bot_name,
            password=make_password(None),  # bots never log in
            bio=bio,
        )


def remove_bots(apps, schema_editor):
    names = [bot_name for _, bot_name, _ in BOTS]
    apps.get_model("accounts", "User").objects.filter(is_bot=True, bot_name__in=names).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0002_random_bot"), ("accounts", "0001_initial")]

    operations = [migrations.RunPython(create_bots, remove_bots)]
