"""A form that starts a match or a tournament starts again from the chosen game's defaults when
the game changes: nothing chosen for the game looked at before (GP02A's 3 or 4 players) is sent
along unseen with another game."""

import pytest

from challenges.models import Challenge

from .pages import log_in

pytestmark = pytest.mark.browser

# (page, the form's id prefix, the players field, the players a change to the chit game gives)
FORMS = [
    ("/play/", "id_", "num_players", "2"),  # the lobby's "create a match"
    ("/play/", "computer_", "num_players", "2"),  # the lobby's "play the computer"
    ("/players/bob/", "challenge_", "num_players", "2"),
    ("/tournaments/new/", "id_", "table_size", "2"),
]


@pytest.mark.parametrize(
    "path, prefix, field, chit_default", FORMS, ids=["create", "computer", "challenge", "tournament"]
)
def test_changing_the_game_resets_the_players_to_that_games_default(
    asgi_server, browser, alice, bob, path, prefix, field, chit_default
):
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, alice)
    page.goto(f"{asgi_server}{path}")
    game, players = page.locator(f"#{prefix}game"), page.locator(f"#{prefix}{field}")
    game.select_option("gp02a")
    assert players.locator("option").all_inner_texts() == ["3", "4"]
    players.select_option("3")

    game.select_option("chit-territory")
    assert players.input_value() == chit_default
    assert players.locator("option").all_inner_texts() == ["2", "3", "4"]
    game.select_option("territories")
    assert players.input_value() == "2" and players.locator("option").all_inner_texts() == ["2"]
    page.close()


def test_a_challenge_to_the_chit_game_after_looking_at_gp02a_is_for_two(asgi_server, browser, alice, bob):
    page = log_in(browser.new_page(viewport={"width": 1280, "height": 900}), asgi_server, alice)
    page.goto(f"{asgi_server}/players/bob/")
    page.locator("#challenge_game").select_option("gp02a")
    page.locator("#challenge_num_players").select_option("4")
    page.locator("#challenge_game").select_option("chit-territory")
    page.get_by_role("button", name="Send the challenge").click()
    page.wait_for_url(f"{asgi_server}/challenges/")
    challenge = Challenge.objects.get(challenger=alice)
    assert (challenge.game, challenge.num_players) == ("chit-territory", 2)
    page.close()
