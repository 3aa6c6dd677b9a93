"""A round advances exactly once, even when its last two matches end at the same moment:
two threads on PostgreSQL, each with its own connection, race for it."""

import threading
import time

import pytest
from django.db import connection, connections

from games import services as game_services
from games.signals import match_finished
from tests.conftest import drain_worker, wait_for
from tournaments import receivers, services
from tournaments.models import Round, Table, Tournament

from .helpers import announce, fresh, seated_users, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks across connections: PostgreSQL (DATABASE_URL) only")


@pytest.fixture
def round_one(alice, make_user):
    """A round robin of four, started: round 1 has two tables being played."""
    tournament = announce(alice)
    for name in ("ann", "ben", "cat", "dan"):
        services.tournament_join(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    return fresh(tournament)


def at_once(*calls):
    """Run each call in a thread of its own, released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)
    errors = []

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # reported below, not lost in the thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


def test_two_last_matches_ending_at_once_advance_the_round_exactly_once(round_one):
    first, second = tables_of(round_one)
    at_once(
        lambda: game_services.match_resign(match_id=first.match_id, user=seated_users(first)[1]),
        lambda: game_services.match_resign(match_id=second.match_id, user=seated_users(second)[1]),
    )
    wait_for(lambda: fresh(round_one).current_round == 2, message="round 2")
    drain_worker()
    assert Round.objects.filter(tournament=round_one).count() == 2
    assert Table.objects.filter(round__tournament=round_one, round__number=2).count() == 2
    # Each entrant sits at exactly one table of round 2.
    seated = [s.entrant_id for t in tables_of(round_one) for s in t.seats.all()]
    assert sorted(seated) == sorted(round_one.entrants.values_list("pk", flat=True))


def test_two_advances_racing_for_the_same_round_pair_the_next_one_once(round_one, monkeypatch):
    # Only the race itself: the signal's own advance is held back while both matches end.
    match_finished.disconnect(dispatch_uid="tournaments.match_finished")
    try:
        for table in tables_of(round_one):
            game_services.match_resign(match_id=table.match_id, user=seated_users(table)[1])
    finally:
        match_finished.connect(receivers.match_finished, dispatch_uid="tournaments.match_finished")
    assert fresh(round_one).current_round == 1

    # The first to get the lock dawdles while pairing, so the other surely waits on it.
    pair_round = services._play_round

    def slow_pairing(tournament, number):
        time.sleep(0.5)
        return pair_round(tournament, number)

    monkeypatch.setattr(services, "_play_round", slow_pairing)
    advanced = at_once(
        lambda: services.tournament_advance(tournament_id=round_one.pk, round_number=1),
        lambda: services.tournament_advance(tournament_id=round_one.pk, round_number=1),
    )
    assert sorted(advanced) == [False, True]
    assert fresh(round_one).current_round == 2
    assert Round.objects.filter(tournament=round_one, number=2).count() == 1
    assert Table.objects.filter(round__tournament=round_one, round__number=2).count() == 2
    assert fresh(round_one).status == Tournament.Status.RUNNING
