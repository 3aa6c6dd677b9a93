"""The chit game's stall safeguard changed from one round without a build to five in a row.

Every chit match finished before the change was played under the former ruling: its options
now say so (``stall_rounds: 1``), so its record replays to the end it had. Matches still open
or in play go on under the new ruling: no round of theirs has yet gone by without a build,
so their moves so far mean the same under both.
"""

from django.db import migrations

FORMER_STALL_ROUNDS = 1


def mark_former_ruling(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    finished = Match.objects.filter(game="chit-territory", status="finished")
    changed = []
    for match in finished.only("id", "options").iterator(chunk_size=500):
        options = dict(match.options or {})
        if "stall_rounds" not in options:
            options["stall_rounds"] = FORMER_STALL_ROUNDS
            match.options = options
            changed.append(match)
        if len(changed) >= 500:
            Match.objects.bulk_update(changed, ["options"])
            changed = []
    Match.objects.bulk_update(changed, ["options"])


def unmark(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    changed = []
    for match in Match.objects.filter(game="chit-territory").only("id", "options").iterator(chunk_size=500):
        if "stall_rounds" in (match.options or {}):
            match.options = {k: v for k, v in match.options.items() if k != "stall_rounds"}
            changed.append(match)
    Match.objects.bulk_update(changed, ["options"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0007_chat_moderation"),
    ]

    operations = [
        migrations.RunPython(mark_former_ruling, unmark),
    ]
