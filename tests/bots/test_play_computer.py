"""Playing against the computer: one form, bots of the chosen level in every other seat."""

import pytest
from django.urls import reverse

from games import bots
from games.bot_runner import runner
from games.bots import MCTSBot
from games.models import Match
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

LABELS = ("Random", "Greedy", "MCTS Easy", "MCTS Medium", "MCTS Hard")


def test_the_level_menu_reads_like_the_bots_names(client, alice):
    client.force_login(alice)
    page = client.get(reverse("play-computer")).content.decode()
    for label in LABELS:
        assert f">{label}</option>" in page


def test_a_match_against_the_computer_ends_when_the_person_resigns(client, alice, monkeypatch):
    game, num_players = "dice-territory", 3
    # The level's real budget is for people; a few iterations keep the test quick.
    monkeypatch.setitem(bots._BOTS, "mcts-easy", MCTSBot(name="mcts-easy", label="MCTS Easy", iterations=25))
    client.force_login(alice)
    response = client.post(reverse("play-computer"), {"game": game, "num_players": num_players, "bot": "mcts-easy"})
    match = Match.objects.get(creator=alice)
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    seats = list(match.seats.order_by("index").select_related("user"))
    assert seats[0].user == alice
    assert all(s.user.is_bot and s.user.bot_name == "mcts-easy" for s in seats[1:])
    assert not match.rated

    wait_for(
        lambda: Match.objects.get(pk=match.pk).to_move == 0 or Match.objects.get(pk=match.pk).is_over,
        timeout=60,
        message="alice's turn",
    )
    moves = match.moves.count()
    response = client.post(reverse("match-resign", args=[match.pk]))
    assert response.status_code == 302

    # Compute belongs to people: with nobody left playing, the bots do not play on alone.
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "resignation"
    places = {s.index: s for s in match.seats.all()}
    assert places[0].resigned and places[0].place == num_players  # the person who left is last
    assert not places[0].bot_takeover
    assert sorted(s.place for i, s in places.items() if i)[0] == 1
    assert runner.wait_idle(timeout=60)
    assert match.moves.count() == moves  # no bot moved after the resignation
