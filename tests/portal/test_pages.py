import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command

from games.engines import all_games

pytestmark = pytest.mark.django_db


def test_home_lists_the_five_games_with_player_counts(client):
    body = client.get("/").content.decode()
    games = all_games()
    assert len(games) == 5
    for game in games:
        assert game.name in body
        assert f"/games/{game.slug}/" in body


def test_navigation_has_the_pages_of_a_game_site(client):
    body = client.get("/").content.decode()
    for label in ["Home", "All games", "Hall of Fame", "Forum", "Stats", "Help", "About", "Register now!", "Log in"]:
        assert label in body


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_game_has_a_page_with_its_rules(client, slug):
    response = client.get(f"/games/{slug}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Rules of" in body and "<h2" in body
    assert "Rulings" in body, "the rules page says what the portal decided where the seed was silent"


def test_unknown_game_is_a_404_in_the_site_style(client):
    response = client.get("/games/chess/")
    assert response.status_code == 404
    assert "We could not find that page" in response.content.decode()
    assert "Hall of Fame" in response.content.decode()  # the site's navigation is there


@pytest.mark.parametrize("path", ["/help/", "/about/", "/games/", "/play/", "/stats/", "/hall-of-fame/", "/forum/"])
def test_site_pages_render(client, path):
    assert client.get(path).status_code == 200


def test_migrations_are_complete():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_check_deploy_is_clean_under_production_settings():
    env = {
        **os.environ,
        "DJANGO_ENV": "production",
        "SECRET_KEY": "x" * 64 + "-a-production-secret-key-of-sufficient-length",
        "ALLOWED_HOSTS": "games.example.org",
        "PORTAL_TESTING": "0",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "games.example.org"})
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
