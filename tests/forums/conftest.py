"""Fixtures of the forum tests: forums as the migrations leave them, a moderator, a clock."""

import types
import zlib

import pytest

from forums import services
from forums.models import Forum


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """These tests make many users; the real hasher is slow on purpose, which is not tested here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def general(db):
    return Forum.objects.get(slug="general")


@pytest.fixture
def game_forum(db):
    return Forum.objects.get(game="game-of-god")


@pytest.fixture
def moderator(make_user):
    return make_user("mod", is_staff=True)


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def clock(monkeypatch):
    """The rate limiters' clock, frozen; ``clock.advance(seconds)`` moves it on.

    Posting is limited over a sliding window (portal.rate_limits), search by django-ratelimit
    in fixed windows; a frozen clock keeps a test from straddling the edge of one by chance.
    """
    import django_ratelimit.core

    from portal import rate_limits

    state = types.SimpleNamespace(now=1_800_000_000.0)
    state.advance = lambda seconds: setattr(state, "now", state.now + seconds)

    def start_windows_of(user):
        """Set the clock to the first second of ``user``'s windows (each key's windows are offset
        by crc32(key) % period; 15 divides 3600, so one instant starts both)."""
        offset = zlib.crc32(str(user.pk).encode()) % 3600
        state.now = float(1_800_000_000 - 1_800_000_000 % 3600 + offset + 1)

    state.start_windows_of = start_windows_of
    frozen = types.SimpleNamespace(time=lambda: state.now)
    monkeypatch.setattr(django_ratelimit.core, "time", frozen)
    monkeypatch.setattr(rate_limits, "time", frozen)
    return state


@pytest.fixture
def topic_of(general):
    """A topic opened through the services as the demo data is, outside the posting limit
    (tests of the limit open theirs through the pages or the services' default)."""

    def make(user, title="A topic", body="First post.", forum=None):
        return services.topic_create(forum_id=(forum or general).pk, user=user, title=title, body=body, limited=False)

    return make


def login(client, user):
    client.force_login(user)
    return client
