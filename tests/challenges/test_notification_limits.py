"""Every way one person makes another's notification is limited in the services (so the
pages, the API and the sockets all meet the same limit): challenges sent and withdrawn,
rematch offers. Repeated "withdrew their challenge" notifications collapse into one unread."""

import types

import pytest

from challenges import services
from challenges.services import ChallengeError
from notifications.models import Notification
from portal import rate_limits

from .helpers import finished_two_player

# The notifications are written after commit.
pytestmark = pytest.mark.django_db(transaction=True)

TERMS = {"game": "game-of-god", "num_players": 2, "rated": False, "speed": "untimed"}


@pytest.fixture
def clock(monkeypatch):
    """The rate limiters' clock, frozen; ``clock.now += seconds`` moves it on."""
    state = types.SimpleNamespace(now=1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", types.SimpleNamespace(time=lambda: state.now))
    return state


def rate_limited(call, **kwargs) -> ChallengeError:
    with pytest.raises(ChallengeError) as refused:
        call(**kwargs)
    assert refused.value.code == "rate_limited" and refused.value.http_status == 429
    return refused.value


def test_twenty_challenges_in_ten_minutes_then_the_challenger_is_told_when_to_try_again(alice, bob, make_user, clock):
    sent = services.challenge_create(user=alice, to=bob, **TERMS)
    for _ in range(12):
        with pytest.raises(ChallengeError, match="already challenged"):  # refused: not counted
            services.challenge_create(user=alice, to=bob, **TERMS)
    services.challenge_cancel(challenge_id=sent.pk, user=alice)
    for _ in range(19):
        clock.now += 15
        sent = services.challenge_create(user=alice, to=bob, **TERMS)
        services.challenge_cancel(challenge_id=sent.pk, user=alice)
    clock.now += 15  # 5 minutes after the first challenge
    error = rate_limited(services.challenge_create, user=alice, to=bob, **TERMS)
    assert "20 challenges in 10 minutes" in error.message and "Try again in 5 minutes" in error.message
    carol = make_user("carol")
    assert services.challenge_create(user=carol, to=bob, **TERMS).state == "pending", "the limit is per challenger"
    clock.now += 300
    assert services.challenge_create(user=alice, to=bob, **TERMS).state == "pending"


def test_withdrawing_is_limited_too(alice, make_user, clock):
    people = [make_user(f"player{n}") for n in range(10)]
    for _ in range(2):
        waiting = [services.challenge_create(user=alice, to=person, **TERMS) for person in people]
        clock.now += 250
        for sent in waiting:
            services.challenge_cancel(challenge_id=sent.pk, user=alice)
    clock.now += 100  # the challenges' window has moved on, the withdrawals' has not
    sent = services.challenge_create(user=alice, to=people[0], **TERMS)
    error = rate_limited(services.challenge_cancel, challenge_id=sent.pk, user=alice)
    assert "20 withdrawn challenges in 10 minutes" in error.message and "Try again in 4 minutes" in error.message


def test_thirty_challenge_and_withdraw_cycles_leave_the_person_challenged_one_unread_notification(
    alice, bob, make_user, clock
):
    def cycle(challenger):
        sent = services.challenge_create(user=challenger, to=bob, **TERMS)
        services.challenge_cancel(challenge_id=sent.pk, user=challenger)

    for _ in range(30):
        try:
            cycle(alice)
        except ChallengeError as refused:
            assert refused.code == "rate_limited"
        clock.now += 5  # the 30 cycles take two and a half minutes
    unread = Notification.objects.filter(user=bob, read=False)
    assert list(unread.values_list("kind", flat=True)) == [Notification.Kind.CHALLENGE_ANSWERED]

    cycle(make_user("carol"))  # another challenger's withdrawal is told apart
    Notification.objects.filter(user=bob, text__startswith="alice").update(read=True)
    clock.now += 600
    cycle(alice)  # once read, the next withdrawal is told again
    texts = sorted(unread.values_list("text", flat=True))
    assert [text.split()[:2] for text in texts] == [["alice", "withdrew"], ["carol", "withdrew"]]


def test_ten_rematch_offers_in_ten_minutes_at_most(alice, bob, clock):
    match = finished_two_player(alice, bob)
    for _ in range(10):
        offer = services.rematch_offer(match_id=match.pk, user=alice)
        services.rematch_cancel(offer_id=offer.pk, user=alice)
        clock.now += 10
    error = rate_limited(services.rematch_offer, match_id=match.pk, user=alice)
    assert "10 rematch offers in 10 minutes" in error.message and "Try again in" in error.message
    assert services.rematch_offer(match_id=match.pk, user=bob).state == "pending"


def test_the_api_answers_a_challenge_over_the_limit_with_429(alice, bob, clock):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(alice)
    for _ in range(20):
        sent = services.challenge_create(user=alice, to=bob, **TERMS)
        services.challenge_cancel(challenge_id=sent.pk, user=alice)
    body = {"username": "bob", "game": "game-of-god", "players": 2, "rated": False, "speed": "untimed"}
    response = api.post("/api/challenges/", body, format="json")
    assert response.status_code == 429, response.content
    assert response.json()["code"] == "rate_limited" and "Try again in" in response.json()["message"]
