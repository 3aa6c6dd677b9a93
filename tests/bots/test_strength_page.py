"""Each bot's player page shows how strong it is in each game, from the tournament's Elo fit."""

import json

import pytest
from django.urls import reverse

from games import bot_strength
from games.services import bot_account


@pytest.fixture
def measured(tmp_path, monkeypatch):
    """A strength file as ``python -m bench.bots --report`` writes it."""
    path = tmp_path / "strength.json"
    path.write_text(
        json.dumps(
            {
                "fingerprint": "abc",
                "anchor": "random",
                "games": {
                    "territories": {
                        "mcts-hard": {"elo": 1234, "plus_minus": 56},
                        "random": {"elo": 0, "plus_minus": 0},
                    },
                    "game-of-god": {"mcts-hard": {"elo": 612, "plus_minus": 80}},
                },
            }
        )
    )
    monkeypatch.setattr(bot_strength, "STRENGTH_FILE", path)
    bot_strength.forget()
    yield
    bot_strength.forget()


def test_a_bots_page_shows_its_strength_per_game_with_the_way_it_is_measured(client, db, measured):
    hard = bot_account("mcts-hard")
    page = client.get(reverse("player", args=[hard.username])).content.decode()
    assert "Strength in Territories: 1234 ± 56 Elo (Random = 0)" in page
    assert "Strength in Game of God: 612 ± 80 Elo (Random = 0)" in page
    assert page.index("Territories: 1234") < page.index("Game of God: 612")  # the site's order of games
    assert reverse("help") + "#bot-strength" in page
    help_page = client.get(reverse("help")).content.decode()
    assert 'id="bot-strength"' in help_page


def test_a_person_and_an_unmeasured_bot_show_no_strength(client, make_user, measured):
    person = make_user("alice")
    assert "Elo (Random = 0)" not in client.get(reverse("player", args=[person.username])).content.decode()
    greedy = bot_account("greedy")  # not in the file
    assert "Elo (Random = 0)" not in client.get(reverse("player", args=[greedy.username])).content.decode()


def test_a_missing_strength_file_shows_nothing_rather_than_failing(client, db, tmp_path, monkeypatch):
    monkeypatch.setattr(bot_strength, "STRENGTH_FILE", tmp_path / "absent.json")
    bot_strength.forget()
    try:
        response = client.get(reverse("player", args=[bot_account("mcts-hard").username]))
    finally:
        bot_strength.forget()
    assert response.status_code == 200
    assert "Elo (Random = 0)" not in response.content.decode()
