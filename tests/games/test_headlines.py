"""The line above the board speaks to the seat to move ("You rolled 6: place a marker...") and
about it, by its colour, to everyone else: the other seats and the spectators ("Blue rolled 6
and places a marker...")."""

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser

from games import selectors, services
from games.engines import CHANCE, get_game

from .helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)

# Per game: a position reached by random play whose words to the mover match the first
# pattern, and the words about the mover that follow, {name} its colour, {1} the pattern's group.
SAID = [
    (
        "dice-territory",
        3,
        r"You rolled (\d+): place a marker on a space marked \d+\.",
        "{name} rolled {1} and places a marker on a space marked {1}.",
    ),
    ("dice-territory", 3, r"Roll again or stop\?", "{name}: roll again or stop?"),
    (
        "chit-territory",
        2,
        r"War or peace\? Spend an army to remove an opponent's structure, or make peace\.",
        "{name}: war or peace? {name} may spend an army to remove an opponent's structure, or make peace.",
    ),
    (
        "chit-territory",
        2,
        r"Build one structure from your reserve on an empty plot\.",
        "{name} builds one structure from their reserve on an empty plot.",
    ),
    (
        "game-of-god",
        2,
        r"Move the top piece of one of your stacks\.",
        "{name} moves the top piece of one of their stacks.",
    ),
    (
        "game-of-god",
        2,
        r"You won the challenge: trap the challenger's piece or spare it\?",
        "{name} won the challenge: trap the challenger's piece or spare it?",
    ),
    (
        "gp02a",
        3,
        r"\w+: put a chip from your hand on the chronology\.",
        "{name} puts a chip from their hand on the chronology.",
    ),
    (
        "territories",
        2,
        r"\w+: place a farm house on a free spot \((\d) to place\)\.",
        "{name} places a farm house on a free spot ({1} to place).",
    ),
]


def first_state_saying(game: str, players: int, pattern: str):
    """The first position of a random game (seed 1, 2, ...) whose words to the mover match."""
    engine = get_game(game)
    for seed in range(1, 40):
        rng = random.Random(seed)
        state = engine.new_state(players, engine.normalise_options({}, players))
        while not state.is_terminal():
            found = re.fullmatch(pattern, state.prompt())
            if found and state.current_player() >= 0:
                return state, found
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {game} game came to {pattern!r}")


@pytest.mark.parametrize("game,players,to_mover,about_mover", SAID)
def test_the_words_about_the_seat_to_move_name_its_colour(game, players, to_mover, about_mover):
    state, found = first_state_saying(game, players, to_mover)
    name = state.view(None)["seat_colours"][state.current_player()].capitalize()
    assert state.prompt_others() == about_mover.format(None, *found.groups(), name=name)


def seated(game: str, users: list):
    match = services.match_create(user=users[0], game=game, num_players=len(users))
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, token=match.invite_token)
    return fresh(match.pk)


@pytest.mark.parametrize(
    "game,players", [("dice-territory", 3), ("chit-territory", 2), ("game-of-god", 2), ("gp02a", 3), ("territories", 2)]
)
def test_the_seat_to_move_is_spoken_to_and_the_others_and_spectators_read_its_colour(game, players, make_user, client):
    users = [make_user(f"player{i}") for i in range(players)]
    match = seated(game, users)
    mover = match.to_move
    other = (mover + 1) % players
    said = {
        who: selectors.headline(selectors.match_payload(match, user, chat=False))
        for who, user in (("mover", users[mover]), ("other", users[other]), ("spectator", AnonymousUser()))
    }
    view = selectors.match_payload(match, None, chat=False)["view"]
    name = view["seat_colours"][mover].capitalize()
    assert said["mover"] == view["prompt"]
    assert said["other"] == said["spectator"] != said["mover"]
    assert said["other"].startswith(name) and not said["other"].startswith("You")
    # The first page says the same before its script runs.
    client.force_login(users[other])
    assert f'<p id="prompt" class="prompt" aria-live="polite">{said["other"]}</p>' in client.get(
        f"/matches/{match.pk}/"
    ).content.decode().replace("&#x27;", "'")
