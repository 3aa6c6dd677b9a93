"""The forms that start a match follow the chosen game and work as they are: every "Play"
button of a game page lands on forms whose defaults are valid for that game."""

import json
import re

import pytest

from games.engines import all_games
from games.models import Match

from .forms_html import form_defaults

pytestmark = pytest.mark.django_db(transaction=True)

SLUGS = [g.slug for g in all_games()]


def play_button(client, slug) -> str:
    """Where the game page's "Play" button leads."""
    body = client.get(f"/games/{slug}/").content.decode()
    return re.search(r'href="([^"]+)">Play ', body).group(1).replace("&amp;", "&")


@pytest.mark.parametrize("slug", SLUGS)
def test_play_against_the_computer_from_a_game_page_works_as_it_is(client, alice, slug):
    client.force_login(alice)
    page = client.get(play_button(client, slug)).content.decode()
    response = client.post("/play/computer/", form_defaults(page, "/play/computer/"))
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get(creator=alice)
    assert match.game == slug
    # Against the computer the default is untimed practice, casual.
    assert match.speed == Match.Speed.UNTIMED and match.deadline is None and not match.rated
    assert [s.user.is_bot for s in match.seats.order_by("index")][1:] == [True] * (match.num_players - 1)


@pytest.mark.parametrize("slug", SLUGS)
def test_creating_a_match_from_a_game_page_works_as_it_is(client, alice, slug):
    client.force_login(alice)
    page = client.get(play_button(client, slug)).content.decode()
    response = client.post("/play/new/", form_defaults(page, "/play/new/"))
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get(creator=alice)
    assert match.game == slug and match.speed == Match.Speed.LIVE and match.rated


@pytest.mark.parametrize("path", ["/play/", "/play/computer/", "/play/new/"])
def test_the_forms_without_a_game_chosen_are_valid_as_they_are(client, alice, path):
    client.force_login(alice)
    page = client.get(path).content.decode()
    for action in ("/play/computer/", "/play/new/"):
        if f'action="{action}"' in page:
            assert client.post(action, form_defaults(page, action)).status_code == 302
    assert Match.objects.filter(creator=alice).exists()


def test_the_players_menu_offers_only_what_the_chosen_game_allows(client, alice):
    client.force_login(alice)
    page = client.get("/play/computer/?game=gp02a").content.decode()
    menu = re.search(r'<select name="num_players"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'value="(\d+)"', menu) == ["3", "4"]
    assert form_defaults(page, "/play/computer/")["num_players"] == "3"


def test_only_the_chosen_games_options_show(client, alice):
    client.force_login(alice)
    for slug, shown in (("gp02a", False), ("chit-territory", True)):
        page = client.get(f"/play/new/?game={slug}").content.decode()
        wrapper = re.search(r'<div class="field"[^>]*data-game="chit-territory"[^>]*>', page).group(0)
        assert ("hidden" not in wrapper) == shown, wrapper
    # The page's script gets every game's player counts and options as data, not as code.
    assert '<script id="id_games" type="application/json">' in page
    assert "onclick=" not in page and "onsubmit=" not in page


def test_a_rated_untimed_match_is_refused_with_a_reason(client, alice):
    client.force_login(alice)
    response = client.post(
        "/play/computer/",
        {"game": "game-of-god", "num_players": 2, "bot": "random", "time_control": "untimed", "rated": "on"},
    )
    assert response.status_code == 200
    assert "Untimed practice is casual" in response.content.decode()
    assert not Match.objects.exists()


def test_rated_play_against_a_bot_is_a_visible_choice(client, alice):
    client.force_login(alice)
    page = client.get("/play/computer/?game=game-of-god").content.decode()
    assert 'name="rated"' in page and "Bots carry a rating" in page
    response = client.post(
        "/play/computer/",
        {"game": "game-of-god", "num_players": 2, "bot": "greedy", "time_control": "live-180", "rated": "on"},
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert match.rated and match.speed == Match.Speed.LIVE and match.seconds_per_move == 180


# A number of players the chosen game is not played by, through each form that takes one: the
# form comes back with the reason by the field, and nothing is made.
REFUSED_COUNTS = [
    (
        "/play/new/",
        {"game": "territories", "num_players": 3, "time_control": "live-90", "rated": "on", "visibility": "public"},
        "Territories is played by 2 players.",
    ),
    (
        "/play/computer/",
        {"game": "gp02a", "num_players": 2, "bot": "random", "time_control": "untimed"},
        "GP02A Territory is played by 3, 4 players.",
    ),
    (
        "/players/bob/challenge/",
        {"game": "game-of-god", "num_players": 5, "time_control": "live-90", "rated": "on"},
        "Game of God is played by 2, 4 players.",
    ),
    (
        "/tournaments/new/",
        {
            "name": "Cup",
            "game": "gp02a",
            "table_size": 2,
            "format": "swiss",
            "speed": "live",
            "seconds_per_move": 90,
            "rated": "on",
            "starts_at": "2099-01-01T12:00",
        },
        "GP02A Territory is played by 3, 4 players, not 2.",
    ),
]


@pytest.mark.parametrize("path, post, reason", REFUSED_COUNTS, ids=["lobby", "computer", "challenge", "tournament"])
def test_a_number_of_players_the_game_is_not_played_by_is_refused_with_the_reason(
    client, alice, bob, path, post, reason
):
    from challenges.models import Challenge
    from tournaments.models import Tournament

    client.force_login(alice)
    response = client.post(path, post)
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert not Match.objects.exists() and not Challenge.objects.exists() and not Tournament.objects.exists()


def test_the_tournament_form_tells_its_script_each_games_table_sizes(client, alice):
    client.force_login(alice)
    page = client.get("/tournaments/new/").content.decode()
    found = re.search(r'<script id="tournament-games" type="application/json">(.*?)</script>', page)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["gp02a"] == {"counts": [3, 4], "default": 3, "options": []}
    assert data["territories"] == {"counts": [2], "default": 2, "options": []}
    assert 'data-games-data="tournament-games"' in page
