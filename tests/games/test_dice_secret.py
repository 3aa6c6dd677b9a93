"""The dice game's face-down round-1 card: nobody ever learns it, not even after the match.

The move list, the socket's updates, the replay and the downloaded record show ``card:?`` in
its place for good; only the server's stored moves keep the card, so the server replays the
match exactly, and the public record still replays to the same result anywhere."""

import json
import random

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import services
from games.engines import get_game
from games.models import Match

from .helpers import fresh, play_turn

pytestmark = pytest.mark.django_db(transaction=True)


def start_dice_match(alice, bob, carol) -> Match:
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    services.match_join(match_id=match.pk, user=bob)
    services.match_join(match_id=match.pk, user=carol)
    return fresh(match.pk)


def face_down_card(match) -> str:
    return match.moves.get(index=1).action


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_the_finished_matchs_move_list_replay_and_record_keep_the_card_masked(client, alice, bob, carol, tmp_path):
    match = start_dice_match(alice, bob, carol)
    hidden = face_down_card(match)
    rng = random.Random(7)
    while play_turn(match.pk, {0: alice, 1: bob, 2: carol}, rng):
        pass
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED

    moves = APIClient().get(f"/api/matches/{match.pk}/moves/").json()["results"]
    assert moves[1]["action"] == "card:?" and moves[1]["label"] == "A card is drawn"
    replay = client.get(f"/matches/{match.pk}/replay.json").content.decode()
    record = client.get(f"/matches/{match.pk}/record.json").content.decode()
    for published in (json.dumps(moves), replay, record):
        assert hidden not in published
    assert json.loads(replay)["actions"][1] == "card:?"
    actions = json.loads(record)["actions"]
    assert actions[1] == "card:?" and len(actions) == match.moves.count()

    # The server keeps the real card, so its replay is exact ...
    stored = list(match.moves.order_by("index").values_list("action", flat=True))
    assert stored[1] == hidden
    assert get_game("dice-territory").replay(3, match.options, stored).view(None) == match.snapshot
    # ... and the public record replays to the same position and result anywhere.
    assert get_game("dice-territory").replay(3, match.options, actions).view(None) == match.snapshot
    path = tmp_path / "record.json"
    path.write_text(record)
    call_command("replay_record", str(path))


def test_the_rules_page_says_nobody_ever_learns_the_face_down_card(client):
    body = client.get("/games/dice-territory/rules/").content.decode()
    assert "nobody ever learns which card it was" in body
    assert "card:?" in body
