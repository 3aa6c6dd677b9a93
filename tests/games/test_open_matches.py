"""Open matches are bounded: a few per person at a time, and none left waiting for ever."""

from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games import services
from games.models import Match
from games.services import MatchError
from games.tasks import expire_open_matches

from .helpers import fresh, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)

FORM = {
    "game": "gp02a",
    "num_players": 3,
    "speed": "live",
    "seconds_per_move": 90,
    "days_per_move": 3,
    "visibility": "public",
}


def open_matches(user, count):
    return [services.match_create(user=user, game="gp02a", num_players=3) for _ in range(count)]


def test_a_person_may_have_at_most_five_open_matches(alice, bob, settings):
    assert settings.MAX_OPEN_MATCHES_PER_PERSON == 5
    mine = open_matches(alice, 5)
    with pytest.raises(MatchError, match="You already have 5 matches waiting for players") as refused:
        services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    assert refused.value.code == "too_many_open"
    assert Match.objects.filter(creator=alice).count() == 5
    # Somebody else is not held back by alice's matches.
    services.match_create(user=bob, game="gp02a", num_players=3)

    # A match that starts or is cancelled no longer counts.
    services.match_leave(match_id=mine[0].pk, user=alice)
    services.match_seat_bot(match_id=mine[1].pk, user=alice, bot="random")
    assert fresh(mine[1].pk).status == Match.Status.ACTIVE
    open_matches(alice, 2)
    with pytest.raises(MatchError, match="the most one person may open"):
        services.match_create(user=alice, game="gp02a", num_players=3)


def test_the_form_and_the_api_explain_the_cap_and_open_nothing(client, alice):
    open_matches(alice, 5)
    client.force_login(alice)
    response = client.post("/play/new/", FORM)
    assert response.status_code == 200
    assert "You already have 5 matches waiting for players" in response.content.decode()

    api = APIClient()
    api.force_authenticate(alice)
    answer = api.post("/api/matches/", {"game": "gp02a", "players": 3}, format="json")
    assert answer.status_code == 409
    assert answer.json()["code"] == "too_many_open" and "start, fill or cancel" in answer.json()["message"]
    assert Match.objects.filter(creator=alice).count() == 5


def age(match, hours):
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(hours=hours))


def test_an_open_match_untouched_for_a_day_is_called_off_and_its_players_told(client, alice, bob, make_user):
    stale = services.match_create(user=alice, game="gp02a", num_players=3)
    services.match_join(match_id=stale.pk, user=bob)
    age(stale, 25)
    recent = services.match_create(user=alice, game="gp02a", num_players=3)
    age(recent, 23)
    playing = start_two_player("game-of-god", make_user("carol"), make_user("dave"))
    age(playing, 48)
    assert f"#{stale.pk}" in client.get("/play/").content.decode()

    assert expire_open_matches() == 1
    stale = fresh(stale.pk)
    assert stale.status == Match.Status.ABORTED and stale.end_reason == "expired"
    assert fresh(recent.pk).status == Match.Status.OPEN
    assert fresh(playing.pk).status == Match.Status.ACTIVE
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert "was called off" in mail.outbox[0].subject and "for a day" in mail.outbox[0].body
    assert f"#{stale.pk}" not in client.get("/play/").content.decode()
    # Its creator may open another in its place; running the task again changes nothing.
    assert expire_open_matches() == 0 and len(mail.outbox) == 2


def test_a_seat_taken_counts_as_a_touch(alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    age(match, 30)
    services.match_join(match_id=match.pk, user=bob)
    assert expire_open_matches() == 0 and fresh(match.pk).status == Match.Status.OPEN


def test_an_expired_match_no_longer_counts_toward_the_cap(alice):
    for match in open_matches(alice, 5):
        age(match, 25)
    call_command("run_clocks", "--once")  # what `make run` runs in the background
    assert not Match.objects.filter(creator=alice, status=Match.Status.OPEN).exists()
    services.match_create(user=alice, game="gp02a", num_players=3)


def test_an_expired_match_says_why_it_was_called_off(client, alice):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    age(match, 25)
    expire_open_matches()
    client.force_login(alice)
    payload = client.get(f"/api/matches/{match.pk}/").json()
    assert payload["status"] == "aborted" and payload["end_reason"] == "expired"
