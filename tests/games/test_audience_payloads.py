"""The update a move sends each audience (each seat, the spectators) is serialised from shared
parts; it must say exactly what that audience's own snapshot says, and nothing more."""

import json
import random

import pytest
from django.contrib.auth import get_user_model

from games import selectors
from games.engines import CHANCE, all_games, get_game
from games.models import Match, Seat

PLAYERS = {"territories": 2, "game-of-god": 2, "chit-territory": 2, "dice-territory": 3, "gp02a": 3}


def positions(slug: str, seed: int):
    """Positions along a random playout of ``slug``, its end included."""
    rng = random.Random(seed)
    state = get_game(slug).new_state(PLAYERS[slug])
    while True:
        yield state
        if state.is_terminal():
            return
        for _ in range(rng.randint(1, 25)):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply(rng.choices(outcomes, weights)[0])
            else:
                state.apply(rng.choice(state.legal_actions()))


def match_at(slug: str, state) -> tuple[Match, list[Seat]]:
    over = state.is_terminal()
    match = Match(
        pk=7,
        game=slug,
        num_players=state.num_players,
        status=Match.Status.FINISHED if over else Match.Status.ACTIVE,
        end_reason="game over" if over else "",
        version=len(state.history) + 1,
        to_move=None if over else state.current_player(),
    )
    user = get_user_model()
    seats = []
    for i in range(state.num_players):
        seat = Seat(match=match, index=i, user=user(pk=100 + i, username=f"player{i}"))
        seats.append(seat)
    return match, seats


@pytest.mark.parametrize("slug", sorted(game.slug for game in all_games()))
def test_each_audience_gets_its_own_snapshot_and_no_other(slug):
    assert slug in PLAYERS
    for seed in range(3):
        for state in positions(slug, seed):
            match, seats = match_at(slug, state)
            part = selectors.seats_json(match, seats)
            sent = selectors.audience_payloads(match, seats, state, seats_part=part, spectator_view=state.view(None))
            clocks = selectors.clock_json(match)
            expected = {
                "type": "snapshot",
                **selectors.wired_payload(selectors._payload(match, state, None, part, clocks)),
            }
            assert json.loads(sent["spectator"]) == expected
            for seat in seats:
                expected = {
                    "type": "snapshot",
                    **selectors.wired_payload(selectors._payload(match, state, seat.index, part, clocks)),
                }
                assert json.loads(sent["seats"][seat.index]) == expected, (slug, seed, len(state.history), seat.index)
