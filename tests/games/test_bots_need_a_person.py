"""Compute belongs to people: bots play only while a person is seated and playing, and one
person has only so many matches against bots going at once."""

import random
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Match
from games.services import MatchError
from tests.conftest import drain_worker, wait_for

from .helpers import fresh, play_turn

pytestmark = pytest.mark.django_db(transaction=True)


def against_bots(user, game="dice-territory", num_players=3) -> Match:
    match = services.match_create(user=user, game=game, num_players=num_players, rated=False, speed="untimed")
    services.match_seat_bot(match_id=match.pk, user=user, bot="random")
    drain_worker()
    return fresh(match.pk)


def test_the_last_person_resigning_ends_the_match_at_once_instead_of_the_bots_playing_on(alice):
    match = against_bots(alice)
    moves_before = match.moves.count()

    services.match_resign(match_id=match.pk, user=alice)

    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "resignation"
    seats = {s.index: s for s in match.seats.all()}
    assert seats[0].resigned and not seats[0].bot_takeover, "no bot takes the seat over"
    assert seats[0].place == 3, "the person who left is last"
    assert 1 in {s.place for i, s in seats.items() if i}
    drain_worker()
    assert fresh(match.pk).moves.count() == moves_before, "no bot moved after the person left"


def test_the_last_person_running_out_of_time_ends_the_match(alice):
    match = services.match_create(user=alice, game="dice-territory", num_players=3, seconds_per_move=60)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    drain_worker()  # the bots may open
    match = wait_for(lambda: (m := fresh(match.pk)).to_move == 0 and m, message="the person to move")
    assert match.deadline is not None
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    services.match_check_clock(match=fresh(match.pk))

    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "time out"
    assert match.seats.get(index=0).place == 3


def test_the_bots_play_on_while_another_person_is_still_playing_and_stop_when_they_leave(alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=4, rated=False, speed="untimed")
    services.match_join(match_id=match.pk, user=bob)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")

    services.match_resign(match_id=match.pk, user=alice)
    match = fresh(match.pk)
    assert match.status == Match.Status.ACTIVE, "bob is still playing"
    assert match.seats.get(index=0).bot_takeover == services.TAKEOVER_BOT
    rng = random.Random(3)
    for _ in range(3):
        play_turn(match.pk, {1: bob}, rng)
        drain_worker()

    services.match_resign(match_id=match.pk, user=bob)
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "resignation"
    places = {s.index: s.place for s in match.seats.all()}
    assert places[0] == places[1] == 3, "both who left share last place"
    assert 1 in (places[2], places[3])


def test_a_match_with_nobody_but_bots_is_not_played(alice):
    """How a tournament's table of bots alone comes out: settled at once, drawn and unrated."""
    bot = services.bot_account("greedy")
    match = services.match_create(user=bot, game="territories", num_players=2, waits_for_players=False)
    services.match_seat_bot(match_id=match.pk, user=bot, index=1, bot="random")

    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "no person playing"
    assert not match.rated
    assert [s.place for s in match.seats.order_by("index")] == [1, 1]
    drain_worker()
    assert not fresh(match.pk).moves.filter(seat__isnull=False).exists(), "no bot moved"


# --- The cap on matches against bots ---------------------------------------------------------


def test_one_person_has_at_most_the_allowed_matches_against_bots_going(alice, settings):
    settings.MAX_BOT_MATCHES_PER_PERSON = 2
    first = against_bots(alice)
    against_bots(alice, game="territories", num_players=2)
    third = services.match_create(user=alice, game="territories", num_players=2, rated=False, speed="untimed")

    with pytest.raises(MatchError) as err:
        services.match_seat_bot(match_id=third.pk, user=alice, bot="random")
    assert err.value.code == "too_many_bot_matches"
    assert "2 matches against bots" in err.value.message
    assert fresh(third.pk).seats.filter(user__is_bot=True).count() == 0

    services.match_resign(match_id=first.pk, user=alice)  # one ends: room for another
    services.match_seat_bot(match_id=third.pk, user=alice, bot="random")
    assert fresh(third.pk).status == Match.Status.ACTIVE


def test_playing_the_computer_past_the_cap_is_refused_on_the_form_and_opens_nothing(client, alice, settings):
    settings.MAX_BOT_MATCHES_PER_PERSON = 1
    against_bots(alice)
    client.force_login(alice)

    response = client.post(reverse("play-computer"), {"game": "territories", "num_players": 2, "bot": "random"})

    assert response.status_code == 200
    assert "1 match against bots" in response.content.decode()
    assert Match.objects.filter(creator=alice).count() == 1, "the refused match is not left open"


def test_seating_a_bot_past_the_cap_over_the_api_is_a_conflict(alice, settings):
    settings.MAX_BOT_MATCHES_PER_PERSON = 1
    against_bots(alice)
    client = APIClient()
    client.force_authenticate(alice)
    match_id = client.post("/api/matches/", {"game": "territories", "players": 2}, format="json").json()["id"]

    response = client.post(f"/api/matches/{match_id}/seats/1/bot/", {"bot": "random"}, format="json")

    assert response.status_code == 409
    assert response.json()["code"] == "too_many_bot_matches"
