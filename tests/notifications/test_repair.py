"""A finished match whose "match finished" notifications were never queued (the broker was
down when it ended) is told by the periodic jobs: Celery beat and ``manage.py run_clocks``
both run the repair, and nobody is told twice."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services as games
from games.models import Match
from notifications import tasks
from notifications.models import Notification
from portal.celery import app
from tests.games.helpers import start_two_player

pytestmark = pytest.mark.django_db


def _finished_while_the_broker_was_down(alice, bob, monkeypatch, commit) -> Match:
    queued = []

    def broker_down(*args, **kwargs):
        queued.append(args)
        raise ConnectionError("Connection refused.")

    monkeypatch.setattr(tasks.notify_match_finished, "delay", broker_down)
    match = start_two_player("territories", alice, bob)
    with commit(execute=True):  # what follows the commit: the signal, and the task it queues
        games.match_resign(match_id=match.pk, user=bob)
    monkeypatch.undo()
    assert queued == [(match.pk,)], "the task was tried and lost"
    assert not Notification.objects.filter(kind=Notification.Kind.MATCH_FINISHED).exists()
    return match


def _ended_a_minute_ago(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(minutes=1))


def _finished_notes(user) -> list[str]:
    return list(
        Notification.objects.filter(user=user, kind=Notification.Kind.MATCH_FINISHED).values_list("text", flat=True)
    )


def test_celery_beat_runs_the_repair_of_untold_finished_matches():
    assert "notifications.tasks.notify_untold_finished_matches" in {
        job["task"] for job in app.conf.beat_schedule.values()
    }


def test_a_match_finished_while_its_task_could_not_be_queued_is_told_by_the_sweep_once(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    match = _finished_while_the_broker_was_down(alice, bob, monkeypatch, django_capture_on_commit_callbacks)

    assert tasks.notify_untold_finished_matches() == 0, "a match that has only just ended is left to its task"
    assert not Notification.objects.exists()

    _ended_a_minute_ago(match)
    assert tasks.notify_untold_finished_matches() == 1
    assert tasks.notify_untold_finished_matches() == 0
    assert _finished_notes(alice) == [f"Territories #{match.pk} is over: you placed 1st."]
    assert _finished_notes(bob) == [f"Territories #{match.pk} is over: you placed 2nd."]

    # Read, then swept again, or told late by the lost task's retry: still once each.
    Notification.objects.update(read=True)
    assert tasks.notify_untold_finished_matches() == 0
    tasks.notify_match_finished(match.pk)
    assert len(_finished_notes(alice)) == 1 and len(_finished_notes(bob)) == 1


def test_a_match_whose_task_ran_is_left_alone_by_the_sweep_even_once_read(alice, bob):
    match = start_two_player("territories", alice, bob)
    games.match_resign(match_id=match.pk, user=bob)
    tasks.notify_match_finished(match.pk)  # told (again, if the worker already did)
    Notification.objects.update(read=True)
    _ended_a_minute_ago(match)
    assert tasks.notify_untold_finished_matches() == 0
    assert len(_finished_notes(alice)) == 1 and len(_finished_notes(bob)) == 1


def test_run_clocks_tells_the_people_of_a_finished_match_left_untold(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    match = _finished_while_the_broker_was_down(alice, bob, monkeypatch, django_capture_on_commit_callbacks)
    _ended_a_minute_ago(match)
    call_command("run_clocks", "--once")
    assert len(_finished_notes(alice)) == 1 and len(_finished_notes(bob)) == 1
