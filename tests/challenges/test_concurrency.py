"""Answers at the same moment: of several accepts at once, exactly one makes the match and the
others are told it was accepted already. Row locks need PostgreSQL; on SQLite the write
transactions queue behind each other (BEGIN IMMEDIATE), which proves less."""

import threading

import pytest
from django.conf import settings
from django.db import connection

from challenges import services
from challenges.models import Challenge, RematchOffer
from games.models import Match
from portal.errors import ServiceError

from .helpers import finished_three_player, finished_two_player

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), reason="row locks need PostgreSQL"
    ),
]

THREADS = 8


def at_once(calls):
    """Run every call in its own thread, released together; their outcomes ("ok" or a code)."""
    outcomes = []
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        try:
            call()
            outcomes.append("ok")
        except ServiceError as exc:  # the challenge's refusal, or the match's
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_the_same_challenge_accepted_from_several_tabs_at_once_makes_one_match(alice, bob):
    sent = services.challenge_create(user=alice, to=bob, game="territories", num_players=2)
    outcomes = at_once([lambda: services.challenge_accept(challenge_id=sent.pk, user=bob) for _ in range(THREADS)])
    assert outcomes.count("ok") == 1 and set(outcomes) - {"ok"} == {"closed"}
    assert Match.objects.filter(creator=alice).count() == 1
    assert Challenge.objects.get().match_id == Match.objects.get(creator=alice).pk


def test_a_rematch_accepted_twice_at_once_makes_one_match(alice, bob):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    outcomes = at_once(
        [lambda: services.rematch_answer(offer_id=offer.pk, user=bob, accept=True) for _ in range(THREADS)]
    )
    assert outcomes.count("ok") == 1 and set(outcomes) - {"ok"} == {"closed"}
    assert Match.objects.exclude(pk=original.pk).count() == 1
    assert RematchOffer.objects.get().new_match_id is not None


def test_the_last_two_players_accepting_at_once_start_one_rematch(alice, bob, make_user):
    carol = make_user("carol")
    original = finished_three_player(alice, bob, carol)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    outcomes = at_once(
        [
            lambda: services.rematch_answer(offer_id=offer.pk, user=bob, accept=True),
            lambda: services.rematch_answer(offer_id=offer.pk, user=carol, accept=True),
        ]
    )
    assert outcomes == ["ok", "ok"]
    offer.refresh_from_db()
    assert offer.state == "accepted"
    assert list(Match.objects.exclude(pk=original.pk).values_list("pk", flat=True)) == [offer.new_match_id]


def test_two_players_offering_at_once_leave_one_offer(alice, bob):
    original = finished_two_player(alice, bob)
    outcomes = at_once(
        [
            lambda: services.rematch_offer(match_id=original.pk, user=alice),
            lambda: services.rematch_offer(match_id=original.pk, user=bob),
        ]
    )
    assert sorted(outcomes) == ["already_pending", "ok"]
    assert RematchOffer.objects.filter(state="pending").count() == 1
