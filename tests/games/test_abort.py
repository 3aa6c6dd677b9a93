"""Aborting: only the creator calls a match off, and only before the first move; anyone else
leaves (an open match) or resigns (a started one)."""

import random

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Match
from games.services import MatchError

from .helpers import fresh, play_turn, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_joiner_cannot_abort_an_open_match(alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    services.match_join(match_id=match.pk, user=bob)
    with pytest.raises(MatchError, match="Only the creator of the match can abort it: leave it instead") as refused:
        services.match_abort(match_id=match.pk, user=bob)
    assert refused.value.code == "forbidden"
    assert fresh(match.pk).status == Match.Status.OPEN
    assert [s.user for s in fresh(match.pk).seats.order_by("index")] == [alice, bob, None]


def test_a_joiner_cannot_abort_a_started_match_and_is_told_to_resign(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    with pytest.raises(MatchError, match="resign instead"):
        services.match_abort(match_id=match.pk, user=bob)
    assert fresh(match.pk).status == Match.Status.ACTIVE


def test_the_creator_aborts_an_open_match_and_a_started_one_before_the_first_move(alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    services.match_abort(match_id=match.pk, user=alice)
    assert fresh(match.pk).status == Match.Status.ABORTED

    match = start_two_player("game-of-god", alice, bob)
    services.match_abort(match_id=match.pk, user=alice)
    assert fresh(match.pk).status == Match.Status.ABORTED


def test_a_stranger_is_told_they_have_no_seat(alice, bob, make_user):
    match = start_two_player("game-of-god", alice, bob)
    with pytest.raises(MatchError, match="You have no seat") as refused:
        services.match_abort(match_id=match.pk, user=make_user("carol"))
    assert refused.value.code == "not_seated"


def test_joining_then_posting_abort_over_the_page_or_the_api_changes_nothing(client, alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    client.force_login(bob)
    client.post(f"/matches/{match.pk}/join/")
    response = client.post(f"/matches/{match.pk}/abort/", follow=True)
    assert "Only the creator of the match can abort it" in response.content.decode()
    assert fresh(match.pk).status == Match.Status.OPEN

    api = APIClient()
    api.force_authenticate(bob)
    answer = api.post(f"/api/matches/{match.pk}/abort/")
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert fresh(match.pk).status == Match.Status.OPEN


def test_the_page_offers_abort_to_the_creator_only_and_only_before_the_first_move(client, alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    client.force_login(bob)
    assert 'id="abort-form"' not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(alice)
    assert 'id="abort-form"' in client.get(f"/matches/{match.pk}/").content.decode()

    play_turn(match.pk, {0: alice, 1: bob}, random.Random(0))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="abort-form"' not in page and 'id="resign-form"' in page
