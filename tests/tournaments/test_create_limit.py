"""Creating tournaments is limited in the service (so the page and the API meet the same
limit): 5 an hour per person. A public tournament's forum topic counts against the creator's
posting limit like any topic; a tournament the forum refuses a topic for goes without one."""

import types

import pytest

from forums.models import Topic
from portal import rate_limits
from tournaments.services import TournamentError

from .helpers import announce

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    state = types.SimpleNamespace(now=1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", types.SimpleNamespace(time=lambda: state.now))
    return state


def test_five_tournaments_an_hour_then_the_creator_is_told_when_to_try_again(alice, bob, clock, settings):
    settings.MAX_OPEN_TOURNAMENTS_PER_PERSON = 10  # the cap on open ones is another rule
    for n in range(5):
        announce(alice, name=f"Cup {n}")
        clock.now += 60
    with pytest.raises(TournamentError) as refused:
        announce(alice, name="One too many")
    assert refused.value.code == "rate_limited" and refused.value.http_status == 429
    assert "5 tournaments an hour" in refused.value.message and "Try again in 55 minutes" in refused.value.message
    assert announce(bob, name="Bob's cup").name == "Bob's cup", "the limit is per person"
    clock.now += 3300
    assert announce(alice, name="An hour on").name == "An hour on"


def test_a_tournament_topic_counts_against_the_creators_posting_limit(alice, clock):
    first = announce(alice, name="First cup")
    second = announce(alice, name="Second cup")  # at once: the forum takes a post every 15 s
    assert first.forum_topic is not None and second.forum_topic is None
    assert Topic.objects.filter(author=alice).count() == 1
    clock.now += 15
    assert announce(alice, name="Third cup").forum_topic is not None
