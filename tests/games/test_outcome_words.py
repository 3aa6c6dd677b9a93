"""A finished match says who won and why, in one sentence, in every game."""

from pathlib import Path

import pytest

from games import selectors, state_cache
from games.engines import get_game
from games.outcome import outcome_words
from tests.games.helpers import finished_by_random_play, random_playout

NAMES = ["alice (red)", "bob (blue)", "carol (green)"]


def seat(index, place, score, **flags):
    return {"index": index, "place": place, "score": score, "resigned": False, "timed_out": False, **flags}


def test_the_winner_their_score_the_others_and_why():
    seats = [seat(0, 2, 31), seat(1, 1, 40), seat(2, 3, 12)]
    words = outcome_words(NAMES, seats, "game over", "red could neither place nor move its chips")
    assert words == "bob (blue) wins with 40 points to 31 and 12: red could neither place nor move its chips."


def test_a_shared_first_place():
    seats = [seat(0, 1, 30), seat(1, 1, 30), seat(2, 3, 12)]
    assert outcome_words(NAMES, seats, "game over") == "alice (red) and bob (blue) share first place with 30 points."


def test_a_resignation_and_a_timeout_say_who_left():
    seats = [seat(0, 1, 3), seat(1, 2, 9, resigned=True)]
    assert outcome_words(NAMES, seats, "resignation") == "alice (red) wins: bob (blue) resigned."
    seats = [seat(0, 2, 3, timed_out=True), seat(1, 1, 9)]
    assert outcome_words(NAMES, seats, "timeout") == "bob (blue) wins: alice (red) ran out of time."


@pytest.mark.parametrize(
    "game,players", [("gp02a", 3), ("dice-territory", 3), ("territories", 2), ("chit-territory", 2), ("game-of-god", 2)]
)
def test_every_game_says_why_it_ended(game, players):
    _, state, _ = random_playout(game, players, seed=3)
    why = state.end_words()
    assert why and not why[0].isupper() and not why.endswith(".")  # follows "…wins: "
    assert "game over" not in why.lower()
    assert get_game(game).new_state(players).end_words() == ""  # nothing while the game goes on


@pytest.mark.django_db
def test_a_finished_matchs_page_and_snapshot_say_who_won_and_why(client, alice, bob, make_user):
    carol = make_user("carol")
    match = finished_by_random_play("gp02a", [alice, bob, carol], seed=5)
    payload = selectors.match_payload(match, alice)
    winner = match.seats.get(place=1)
    assert payload["outcome"].startswith(selectors.match_seat_names(match)[winner.index] + " wins with ")
    assert payload["outcome"].endswith(": " + state_cache.load(match).end_words() + ".")
    page = client.get(match.get_absolute_url()).content.decode()
    assert payload["outcome"] in page and "The match is over (game over)" not in page


def test_the_chit_game_never_shows_its_safety_cap_as_its_length():
    """60 rounds is a safety cap, not the chit game's length: its board says "Round 3", never
    "Round 3 of 60"; the cap is named only if it ends a game."""
    board = (Path(__file__).resolve().parents[2] / "static" / "games" / "chit-territory.js").read_text()
    assert "max_rounds" not in board and 'gettext("Round %(round)s · %(who)s · %(phase)s")' in board
    state = get_game("chit-territory").new_state(2)
    assert "60" not in state.prompt() and "60" not in state.prompt_others()
