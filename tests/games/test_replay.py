"""The replay of a finished match: one compact answer (the first position, then each step's
patch) from which the page rebuilds every position a spectator saw, nothing more."""

import gzip
import json
from typing import Any

import pytest

from games import replays
from games.engine_text import spoken
from games.engines import get_game
from games.engines.dice_territory import CARDS

from .helpers import finished_by_random_play, replay_frames

pytestmark = pytest.mark.django_db


def onlookers_views(match) -> list[dict]:
    """Every position of ``match`` as a spectator saw it, headline in an onlooker's words."""
    state = get_game(match.game).new_state(match.num_players, match.options)
    views = []
    for action in [None, *match.moves.order_by("index").values_list("action", flat=True)]:
        if action is not None:
            state.apply(action)
        views.append({**state.view(None), "prompt": state.prompt_others()})
    return views


@pytest.fixture
def players(make_user):
    return [make_user("ann"), make_user("ben"), make_user("cat")]


def test_a_long_chit_game_replays_every_position_a_spectator_saw(client, players):
    match = finished_by_random_play("chit-territory", players[:2], seed=0)
    assert match.moves.count() > 400
    replay = client.get(f"/matches/{match.pk}/replay.json").json()
    frames = replay_frames(replay)
    assert [frame["view"] for frame in frames] == onlookers_views(match)
    assert [frame["seat"] for frame in frames[1:]] == list(match.moves.order_by("index").values_list("seat", flat=True))
    assert spoken(replay["labels"][0]) == get_game("chit-territory").action_label(replay["actions"][0])


def test_a_long_chit_game_replay_travels_compressed_in_a_small_answer(client, players):
    match = finished_by_random_play("chit-territory", players[:2], seed=0)
    response = client.get(f"/matches/{match.pk}/replay.json", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) < 300_000
    every_view = json.dumps(onlookers_views(match))
    assert len(gzip.decompress(response.content)) < len(every_view) / 5


def test_the_dice_games_face_down_card_is_nowhere_in_the_replay(client, players):
    match = finished_by_random_play("dice-territory", players, seed=5)
    face_down = match.moves.get(index=1).action
    letter, name, text = CARDS["ABCDEFGHIJ".index(face_down.removeprefix("card:"))]
    published = client.get(f"/matches/{match.pk}/replay.json").content.decode()
    assert face_down not in published and text not in published
    assert json.loads(published)["actions"][1] == "card:?"
    # The cards drawn face up do show, in the views of the rounds they rule.
    shown = [a for a in match.moves.values_list("action", flat=True) if a.startswith("card:")][1:]
    assert shown and all(str(CARDS["ABCDEFGHIJ".index(a[5:])][2]) in published for a in shown)


def test_a_patch_says_only_what_changed_and_rebuilds_the_new_value():
    old: dict[str, Any] = {
        "board": [{"owner": None}, {"owner": 1}, {"owner": None}],
        "round": 3,
        "offer": {"give": 2},
        "log": [1],
    }
    new = {"board": [{"owner": 0}, {"owner": 1}, {"owner": None}], "round": 4, "log": [1, 2, 3], "card": "Calm"}
    patch = replays.diff(old, new)
    assert patch == {
        "board": [2, 3, 0, {"owner": [0, 0]}],
        "round": [0, 4],
        "log": [2, 3, 1, [0, 2], 2, [0, 3]],
        "card": [0, "Calm"],
        "offer": [1],
    }
    assert replays.patched(old, patch) == new
    assert old["board"][0] == {"owner": None} and "offer" in old  # the old value is left as it was
    assert replays.patched(new, replays.diff(new, old)) == old  # a list cut short too
