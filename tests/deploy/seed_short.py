"""``manage.py seed_demo`` with only the demo's short matches (territories, finished and rated,
between people and against bots), for the backup test, which needs a site with
results rather than the whole demo: run as ``python -m tests.deploy.seed_short`` against the
database DATABASE_URL names."""

import os

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games import demo

    demo.FINISHED = tuple(entry for entry in demo.FINISHED if entry[0] == "territories")
    call_command("seed_demo")
