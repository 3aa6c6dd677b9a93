import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import RequestFactory
from django.views.defaults import server_error

from games.engines import all_games, get_game

pytestmark = pytest.mark.django_db


def test_home_lists_the_five_games_with_player_counts(client):
    import html
    import re

    body = client.get("/").content.decode()
    assert len(all_games()) == 5
    cards = {
        html.unescape(name): (html.unescape(players), html.unescape(summary))
        for name, players, summary in re.findall(
            r'<h3><a href="/games/[^"]+/">([^<]+)</a></h3>\s*<p class="players">([^<]+)</p>\s*<p>([^<]+)</p>', body
        )
    }
    assert cards == {
        "GP02A Territory": ("3–4 players", get_game("gp02a").summary),
        "Territory (dice)": ("3–6 players", get_game("dice-territory").summary),
        "Territories": ("2 players", get_game("territories").summary),
        "Territory (chits)": ("2–4 players", get_game("chit-territory").summary),
        "Game of God": ("2 or 4 players", get_game("game-of-god").summary),
    }


def test_navigation_has_the_pages_of_a_game_site(client):
    body = client.get("/").content.decode()
    for label in ["Home", "All games", "Hall of Fame", "Forum", "Stats", "Help", "About", "Sign up", "Sign in"]:
        assert label in body


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_game_has_a_page_with_its_rules(client, slug):
    response = client.get(f"/games/{slug}/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Rules of" in body and "<h2" in body
    assert "Rulings" in body, "the rules page says what the portal decided where the seed was silent"
    assert f'href="/games/{slug}/rules/"' in body
    rules = client.get(f"/games/{slug}/rules/")
    assert rules.status_code == 200 and "Rulings" in rules.content.decode()


def test_unknown_game_is_a_404_in_the_site_style(client):
    response = client.get("/games/chess/")
    assert response.status_code == 404
    assert "We could not find that page" in response.content.decode()
    assert "Hall of Fame" in response.content.decode()  # the site's navigation is there


def test_a_forbidden_page_is_a_403_in_the_site_style_saying_why(client, alice):
    client.force_login(alice)
    response = client.get("/forum/moderation/")  # moderators only
    assert response.status_code == 403
    page = response.content.decode()
    assert "You may not do that here" in page and "Only moderators can do this." in page
    assert "Hall of Fame" in page  # the site's navigation is there
    assert 'href="/"' in page


def test_the_500_page_renders_without_a_request_or_a_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        response = server_error(RequestFactory().get("/"))  # renders 500.html with an empty context
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in page and 'href="/"' in page
    assert "css/site.css" in page  # in the site's look


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


def _production_check(**env_vars: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update({"DJANGO_ENV": "production", "ALLOWED_HOSTS": "games.example.org", **env_vars})
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = _production_check()
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


@pytest.mark.parametrize("key", ["", "short-but-not-empty", "a" * 64, "0123456789abcdefghijklmnopqrstu"])
def test_production_refuses_to_start_with_an_empty_short_or_uniform_secret_key(key):
    result = _production_check(SECRET_KEY=key)
    assert result.returncode != 0, result.stdout
    assert f"Set SECRET_KEY in production to a random value of at least {settings.SECRET_KEY_MIN_LENGTH}" in (
        result.stderr
    )


def test_production_starts_with_a_long_random_secret_key():
    result = _production_check(SECRET_KEY="0123456789abcdefghijklmnopqrstuv")
    assert result.returncode == 0, result.stderr
