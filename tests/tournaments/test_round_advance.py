"""A round advances exactly once, even when its last two matches end at the same moment:
two threads on PostgreSQL, each with its own connection, race for it.

The race is made to happen, not hoped for: the advance that holds the tournament's lock pairs
the next round only once PostgreSQL shows the other advance waiting for that lock, and the two
advances of the first test set off only once both matches have ended. No test sleeps for it."""

import threading

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


def someone_waits_for_my_lock():
    """Whether another connection is waiting for a lock this thread's connection holds."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))"
        )
        return cursor.fetchone()[0] > 0


@pytest.fixture
def pairing_held_for_a_rival(monkeypatch):
    """The advance that got the lock pairs the next round only once another advance waits for
    that lock. The rounds paired are listed."""
    paired = []
    pair_round = services._play_round

    def held_pairing(tournament, number):
        wait_for(someone_waits_for_my_lock, timeout=30, message="the other advance waiting for the lock")
        paired.append(number)
        return pair_round(tournament, number)

    monkeypatch.setattr(services, "_play_round", held_pairing)
    return paired


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


def test_two_last_matches_ending_at_once_advance_the_round_exactly_once(
    round_one, monkeypatch, pairing_held_for_a_rival
):
    first, second = tables_of(round_one)
    # Each match's end asks for the advance (a task of the worker); both set off together once
    # both matches have ended, so each finds the round over and they race for it.
    both_ended = threading.Barrier(2, timeout=30)
    advanced, refused = [], []
    advance = services.tournament_advance

    def advance_once_both_ended(**kwargs):
        try:
            both_ended.wait()
        except threading.BrokenBarrierError as exc:
            refused.append(exc)
            raise
        result = advance(**kwargs)
        advanced.append(result)
        return result

    monkeypatch.setattr(services, "tournament_advance", advance_once_both_ended)
    at_once(
        lambda: game_services.match_resign(match_id=first.match_id, user=seated_users(first)[1]),
        lambda: game_services.match_resign(match_id=second.match_id, user=seated_users(second)[1]),
    )
    wait_for(lambda: fresh(round_one).current_round == 2, message="round 2")
    drain_worker()
    assert refused == [], "both matches' ends asked for the advance"
    assert sorted(advanced) == [False, True]
    assert pairing_held_for_a_rival == [2]
    assert Round.objects.filter(tournament=round_one).count() == 2
    assert Table.objects.filter(round__tournament=round_one, round__number=2).count() == 2
    # Each entrant sits at exactly one table of round 2.
    seated = [s.entrant_id for t in tables_of(round_one) for s in t.seats.all()]
    assert sorted(seated) == sorted(round_one.entrants.values_list("pk", flat=True))


def test_two_advances_racing_for_the_same_round_pair_the_next_one_once(round_one, pairing_held_for_a_rival):
    # Only the race itself: the signal's own advance is held back while both matches end.
    match_finished.disconnect(dispatch_uid="tournaments.match_finished")
    try:
        for table in tables_of(round_one):
            game_services.match_resign(match_id=table.match_id, user=seated_users(table)[1])
    finally:
        match_finished.connect(receivers.match_finished, dispatch_uid="tournaments.match_finished")
    assert fresh(round_one).current_round == 1

    # The first to get the lock pairs only once the other waits on it (the fixture).
    advanced = at_once(
        lambda: services.tournament_advance(tournament_id=round_one.pk, round_number=1),
        lambda: services.tournament_advance(tournament_id=round_one.pk, round_number=1),
    )
    assert sorted(advanced) == [False, True]
    assert pairing_held_for_a_rival == [2]
    assert fresh(round_one).current_round == 2
    assert Round.objects.filter(tournament=round_one, number=2).count() == 1
    assert Table.objects.filter(round__tournament=round_one, round__number=2).count() == 2
    assert fresh(round_one).status == Tournament.Status.RUNNING
