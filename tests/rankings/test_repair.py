"""A finished rated match whose rating task was lost is rated by the periodic jobs: Celery
beat and ``manage.py run_clocks`` both run the repair."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Match
from portal.celery import app
from rankings import tasks as rating_tasks
from rankings.models import RatingChange
from tests.games.helpers import start_two_player

pytestmark = pytest.mark.django_db


def test_celery_beat_runs_the_repair_of_unrated_matches():
    tasks = {job["task"] for job in app.conf.beat_schedule.values()}
    assert "rankings.tasks.rate_unrated" in tasks


def test_run_clocks_rates_a_finished_match_left_unrated(alice, bob, monkeypatch):
    def broker_down(*args, **kwargs):
        raise ConnectionError("Connection refused.")

    monkeypatch.setattr(rating_tasks.rate_match, "delay", broker_down)
    match = start_two_player("game-of-god", alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    monkeypatch.undo()
    assert not RatingChange.objects.filter(match=match).exists(), "the rating task was lost"

    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    call_command("run_clocks", "--once")
    assert RatingChange.objects.filter(match=match).count() == 2
