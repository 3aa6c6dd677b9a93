from django.db import migrations, models
from django.db.models import Count, Min


def keep_the_first_of_each_repeat(apps, schema_editor):
    """A task run twice after its notification was read told the person again: keep the
    first of each, so the constraint can hold."""
    Notification = apps.get_model("notifications", "Notification")
    finished = Notification.objects.filter(kind="match_finished")
    repeats = finished.values("user_id", "key").annotate(first=Min("id"), count=Count("id")).filter(count__gt=1)
    for repeat in repeats.iterator():
        finished.filter(user_id=repeat["user_id"], key=repeat["key"]).exclude(pk=repeat["first"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0003_unsubscribe_generation"),
    ]

    operations = [
        migrations.RunPython(keep_the_first_of_each_repeat, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="notification",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "match_finished")),
                fields=("user", "key"),
                name="unique_match_finished_notice",
            ),
        ),
    ]
