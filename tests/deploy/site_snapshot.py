"""What the site serves of its finished matches and ratings, as JSON on standard output: run as
``python -m tests.deploy.site_snapshot`` against the database DATABASE_URL names (the backup
test compares it before a backup and after the restore)."""

import json
import os
import re
import sys


def snapshot() -> dict:
    from django.test import Client

    from games.catalog import all_games
    from games.models import Match

    client = Client()
    matches = {}
    for match_id in Match.objects.filter(status=Match.Status.FINISHED).order_by("pk").values_list("pk", flat=True):
        page = client.get(f"/matches/{match_id}/")
        record = client.get(f"/matches/{match_id}/record.json")
        matches[match_id] = {
            "page": page.status_code,
            "page_title": re.findall(r"<title>(.*?)</title>", page.text),
            "page_seats": re.findall(r'"url": "/players/([^/"]+)/"', page.text),
            "record": record.json() if record.status_code == 200 else record.status_code,
        }
    rankings = {}
    for game in all_games():
        response = client.get(f"/api/games/{game.slug}/ranking/")
        rankings[game.slug] = response.json() if response.status_code == 200 else response.status_code
    return {"matches": matches, "rankings": rankings}


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    import django

    django.setup()
    json.dump(snapshot(), sys.stdout, sort_keys=True)
