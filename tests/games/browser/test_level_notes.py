"""Choosing a level in the lobby says, for the game and number of players chosen, which levels
have not been shown to play better than the level below them at that table; the lines follow
a change of game or players (issue 41)."""

import json

import pytest

from games import bot_strength
from games import views as game_views
from games.engines import all_games
from games.services import bot_account

from .pages import log_in

pytestmark = pytest.mark.browser

HARD_UNDECIDED = "At 3 players, MCTS Hard has not been shown to play better than MCTS Medium."
HARD_MISSED_AT_4 = "At 4 players, MCTS Hard plays no better than MCTS Medium (measured)."
GREEDY_MISSED = "At 3 players, Greedy plays no better than MCTS Easy (measured)."


@pytest.fixture
def measured(tmp_path, monkeypatch):
    """Every claim met but Hard over Medium at GP02A's 3 players (undecided), Greedy over Easy
    in the dice game at 3 players and Hard over Medium there at 4 (both missed)."""
    kinds = ("easy-vs-random", "greedy-vs-easy", "medium-vs-greedy", "hard-vs-medium", "hard-vs-greedy")
    claims = {g.slug: {str(n): {kind: "met" for kind in kinds} for n in g.allowed_player_counts()} for g in all_games()}
    claims["gp02a"]["3"]["hard-vs-medium"] = "undecided"
    claims["dice-territory"]["3"]["greedy-vs-easy"] = "missed"
    claims["dice-territory"]["4"]["hard-vs-medium"] = "missed"
    path = tmp_path / "strength.json"
    path.write_text(json.dumps({"fingerprint": "abc", "games": {}, "claims": claims}))
    monkeypatch.setattr(bot_strength, "STRENGTH_FILE", path)
    bot_strength.forget()
    game_views._lobby_forms.cache_clear()
    yield
    bot_strength.forget()
    game_views._lobby_forms.cache_clear()


def test_the_lines_about_the_levels_follow_the_chosen_game_and_players(asgi_server, browser, alice, measured):
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, alice)
    page.goto(f"{asgi_server}/play/")
    game, players = page.locator("#computer_game"), page.locator("#computer_num_players")
    notes = page.locator("#computer_game").locator("xpath=ancestor::form").locator("[data-level-notes] p")

    game.select_option("gp02a")
    assert notes.all_inner_texts() == [HARD_UNDECIDED]
    players.select_option("4")
    assert notes.all_inner_texts() == []
    players.select_option("3")
    assert notes.all_inner_texts() == [HARD_UNDECIDED]

    game.select_option("dice-territory")  # starts again at 3 players
    assert notes.all_inner_texts() == [GREEDY_MISSED]
    players.select_option("4")
    assert notes.all_inner_texts() == [HARD_MISSED_AT_4]
    game.select_option("territories")
    assert notes.all_inner_texts() == []
    page.close()


def test_a_bots_page_says_where_its_level_is_not_shown_better_than_the_one_below(asgi_server, browser, alice, measured):
    hard = bot_account("mcts-hard")
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, alice)
    page.goto(f"{asgi_server}/players/{hard.username}/")
    notes = page.locator(".challenge-box [data-level-notes] p")
    page.locator("#challenge_game").select_option("gp02a")
    assert notes.all_inner_texts() == [HARD_UNDECIDED]
    page.locator("#challenge_game").select_option("dice-territory")
    assert notes.all_inner_texts() == []  # Greedy's line is not Hard's
    page.locator("#challenge_num_players").select_option("4")
    assert notes.all_inner_texts() == [HARD_MISSED_AT_4]
    page.close()
