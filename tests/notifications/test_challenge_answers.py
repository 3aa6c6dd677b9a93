"""What became of a challenge reaches the other side: the challenger hears that it was
accepted (with the match to go to), declined or left to expire; the person challenged hears
that it was withdrawn. Once a challenge waits for nobody, its "challenge received" is read."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from challenges import services
from challenges.models import Challenge
from challenges.services import ChallengeError
from notifications.models import Notification

# The notifications are written after commit.
pytestmark = pytest.mark.django_db(transaction=True)

TERMS = {"game": "game-of-god", "num_players": 2, "rated": False, "speed": "live", "seconds_per_move": 30}
WORDS = "Game of God (2 players, live, 30 s a move, casual)"


def challenge(by, to):
    return services.challenge_create(user=by, to=to, **TERMS)


def told(user):
    return [(n.kind, n.text, n.url, n.read) for n in Notification.objects.filter(user=user).order_by("pk")]


def received(read):
    return ("challenge_received", f"alice challenges you to {WORDS}.", "/challenges/", read)


def test_an_accepted_challenge_tells_the_challenger_and_links_the_match(alice, bob):
    sent = challenge(alice, bob)
    accepted = services.challenge_accept(challenge_id=sent.pk, user=bob)

    assert told(alice) == [
        (
            "challenge_answered",
            f"bob accepted your challenge to {WORDS}: the match is on.",
            accepted.match.get_absolute_url(),
            False,
        )
    ]
    assert told(bob) == [received(read=True)], "bob answered it: nothing waits for him"


def test_a_declined_challenge_tells_the_challenger(alice, bob):
    sent = challenge(alice, bob)
    services.challenge_decline(challenge_id=sent.pk, user=bob)

    assert told(alice) == [("challenge_answered", f"bob declined your challenge to {WORDS}.", "/challenges/", False)]
    assert told(bob) == [received(read=True)]


def test_a_withdrawn_challenge_tells_the_person_challenged_and_settles_their_notification(alice, bob):
    sent = challenge(alice, bob)
    services.challenge_cancel(challenge_id=sent.pk, user=alice)

    assert told(bob) == [
        received(read=True),
        ("challenge_answered", f"alice withdrew their challenge to {WORDS}.", "/challenges/", False),
    ]
    assert told(alice) == []


def test_a_challenge_left_a_day_tells_the_challenger_once(alice, bob):
    sent = challenge(alice, bob)
    Challenge.objects.filter(pk=sent.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    call_command("run_clocks", "--once")
    call_command("run_clocks", "--once")  # the sweep again: nothing more to tell

    expired = ("challenge_answered", f"Your challenge to bob to {WORDS} expired unanswered.", "/challenges/", False)
    assert told(alice) == [expired]
    assert told(bob) == [received(read=True)]


def test_an_answer_that_finds_the_challenge_expired_tells_the_challenger_too(alice, bob):
    sent = challenge(alice, bob)
    Challenge.objects.filter(pk=sent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ChallengeError, match="expired"):
        services.challenge_accept(challenge_id=sent.pk, user=bob)

    assert [kind_text[1] for kind_text in told(alice)] == [f"Your challenge to bob to {WORDS} expired unanswered."]


def test_a_refused_answer_tells_nobody(alice, bob, make_user):
    sent = challenge(alice, bob)
    with pytest.raises(ChallengeError):
        services.challenge_decline(challenge_id=sent.pk, user=alice)  # only bob may decline
    with pytest.raises(ChallengeError):
        services.challenge_accept(challenge_id=sent.pk, user=make_user("carol"))

    assert told(alice) == []
    assert told(bob) == [received(read=False)]


def test_an_answered_challenge_says_what_became_of_it_and_when_not_when_it_expires(client, alice, bob):
    declined = challenge(alice, bob)
    services.challenge_decline(challenge_id=declined.pk, user=bob)
    client.force_login(alice)
    page = client.get("/challenges/").content.decode()
    row = page[page.index(f'data-challenge="{declined.pk}"') :]
    row = row[: row.index("</li>")]
    assert '<span class="badge">declined</span>' in row and "ago</time>" in row
    assert "expires in" not in row
