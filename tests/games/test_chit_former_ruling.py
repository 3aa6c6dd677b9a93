"""A chit game finished under the former stall safeguard (one round without a build ended it)
still replays to its recorded end once the safeguard is five rounds: the change of ruling marks
those records, and a match made now plays the new ruling."""

import importlib

import pytest
from django.apps import apps

from games import services, state_cache
from games.engines import get_game
from games.models import Match, Move

pytestmark = pytest.mark.django_db

# Round 1, armies only: the former ruling ended this game 0-0 after five actions.
RECORD = ["first:0", "draw:army", "draw:army", "draw:army", "draw:army"]
migration = importlib.import_module("games.migrations.0008_chit_former_stall_ruling")


def recorded_match(user, status, moves):
    engine = get_game("chit-territory")
    played = engine.replay(2, {"mountains_rivers": False, "stall_rounds": 1}, moves)
    match = Match.objects.create(
        game="chit-territory",
        num_players=2,
        options={"mountains_rivers": False},  # as stored before the change
        status=status,
        creator=user,
        version=len(moves),
        snapshot=played.view(None),
    )
    Move.objects.bulk_create(Move(match=match, index=i, action=a) for i, a in enumerate(moves))
    return match


def test_a_game_ended_by_the_former_safeguard_replays_to_its_end_once_marked(alice):
    ended = recorded_match(alice, Match.Status.FINISHED, RECORD)
    going = recorded_match(alice, Match.Status.ACTIVE, RECORD[:3])
    assert not state_cache.replay(ended).is_terminal()  # unmarked, the new ruling plays on

    migration.mark_former_ruling(apps, None)

    ended.refresh_from_db()
    going.refresh_from_db()
    assert ended.options == {"mountains_rivers": False, "stall_rounds": 1}
    state = state_cache.replay(ended)
    assert state.is_terminal() and state.scores() == [0, 0]
    assert state.view(None) == ended.snapshot
    assert ended.options_text == "Rounds without a build that end the game: 1"
    assert going.options == {"mountains_rivers": False}  # a game in play goes on by the new ruling


def test_a_match_made_now_plays_the_new_safeguard_and_cannot_ask_for_the_former(alice):
    match = services.match_create(user=alice, game="chit-territory", num_players=2)
    assert match.options == {"mountains_rivers": False}
    assert match.engine.new_state(2, match.options).view(None)["stall_rounds"] == 5
    with pytest.raises(services.MatchError, match="no option stall_rounds"):
        services.match_create(user=alice, game="chit-territory", num_players=2, options={"stall_rounds": 1})
    assert Match.objects.count() == 1


def test_a_rematch_of_a_game_played_under_the_former_ruling_plays_the_new_one(alice, bob):
    from challenges import services as challenges

    old = recorded_match(alice, Match.Status.FINISHED, RECORD)
    old.seats.create(index=0, user=alice)
    old.seats.create(index=1, user=bob)
    migration.mark_former_ruling(apps, None)
    old.refresh_from_db()
    assert old.chosen_options == {"mountains_rivers": False}

    offer = challenges.rematch_offer(match_id=old.pk, user=alice)
    offer = challenges.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    rematch = offer.new_match
    assert rematch is not None and rematch.options == {"mountains_rivers": False}
    assert rematch.engine.new_state(2, rematch.options).view(None)["stall_rounds"] == 5
