"""``make run``'s demo data: a site that looks alive on the first visit."""

import os
import secrets
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from forums.models import Post, Topic
from games.engines import all_games
from games.models import Match
from portal.management.commands import seed_demo
from rankings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_site_has_rated_results_in_every_game_a_match_to_watch_and_forum_talk(client):
    call_command("seed_demo")
    finished = Match.objects.filter(status=Match.Status.FINISHED, rated=True, visibility="public")
    for game in all_games():
        assert finished.filter(game=game.slug).exists(), game.slug
        # Rated through the real path: the players of each game have ratings, bots included.
        assert Rating.objects.filter(game=game.slug, user__is_bot=True).exists(), game.slug
        assert Rating.objects.filter(game=game.slug, user__is_bot=False).exists(), game.slug
    assert RatingChange.objects.count() == sum(m.num_players for m in finished)
    live = Match.objects.get(status=Match.Status.ACTIVE, visibility="public")
    assert live.moves.filter(seat__isnull=False).exists()
    assert Topic.objects.count() >= 3 and Post.objects.count() > Topic.objects.count()

    # What a first visitor sees.
    home = client.get("/").content.decode()
    assert "No finished match yet" not in home
    play = client.get("/play/").content.decode()
    assert f'aria-label="Watch {live.game_name} #{live.pk}"' in play
    fame = client.get("/hall-of-fame/").content.decode()
    assert ">alice<" in fame or ">bob<" in fame

    # A second run adds nothing.
    counts = (Match.objects.count(), Topic.objects.count(), Post.objects.count(), RatingChange.objects.count())
    call_command("seed_demo")
    assert (Match.objects.count(), Topic.objects.count(), Post.objects.count(), RatingChange.objects.count()) == counts


def _without_demo_play(monkeypatch):
    """The accounts only: the demo matches and topics are not what these tests are about."""
    monkeypatch.setattr(seed_demo, "seed_matches", lambda names: [])
    monkeypatch.setattr(seed_demo, "seed_topics", lambda names: [])


def test_seed_demo_is_refused_in_production_and_makes_nobody(settings, monkeypatch):
    _without_demo_play(monkeypatch)
    settings.PRODUCTION = True
    with pytest.raises(CommandError, match="refused with DJANGO_ENV=production.*createsuperuser"):
        call_command("seed_demo")
    assert not get_user_model().objects.filter(is_bot=False).exists()


def test_seed_demo_in_production_exits_non_zero_with_its_reason(settings, tmp_path):
    env = {
        **os.environ,
        "DJANGO_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "games.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'never-made.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "seed_demo"], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "seed_demo makes accounts with a published password and is refused with DJANGO_ENV=production" in (
        result.stderr
    )
    assert "created" not in result.stdout


def test_the_demo_admin_with_the_published_password_is_made_only_on_the_embedded_database(
    settings, monkeypatch, capsys
):
    _without_demo_play(monkeypatch)
    settings.EMBEDDED_DATABASE = False
    call_command("seed_demo")
    User = get_user_model()
    assert not User.objects.filter(is_staff=True).exists()
    assert not User.objects.filter(username="admin").exists()
    assert "run manage.py createsuperuser" in capsys.readouterr().out
    assert User.objects.get(username="alice").check_password(seed_demo.DEMO_PASSWORD), "demo players are no staff"

    settings.EMBEDDED_DATABASE = True  # `make run` on its own SQLite file
    call_command("seed_demo")
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password(seed_demo.DEMO_PASSWORD)
