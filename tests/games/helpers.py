"""Small helpers for match tests: play a match through the services, as people and bots do."""

import random

from games import services, state_cache
from games.engines import CHANCE
from games.models import Match


def fresh(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def play_turn(match_id: int, users_by_seat: dict, rng: random.Random) -> bool:
    """The person to move plays a random legal action. False when nobody of ours is to move."""
    match = fresh(match_id)
    if match.status != Match.Status.ACTIVE or match.to_move not in users_by_seat:
        return False
    state = state_cache.load(match)
    assert state.current_player() not in (CHANCE,)
    action = rng.choice(state.legal_actions())
    services.match_act(match_id=match_id, user=users_by_seat[match.to_move], action=action, version=match.version)
    return True


def start_two_player(game: str, creator, other, **kwargs) -> Match:
    match = services.match_create(user=creator, game=game, num_players=2, **kwargs)
    services.match_join(match_id=match.pk, user=other, token=match.invite_token)
    return fresh(match.pk)


def acked(frame: dict) -> int | None:
    """The version ``frame`` tells the mover their move reached: the update their move made
    carries it (``"ack"``), or an ``ack`` frame of its own when no update of theirs can."""
    if frame.get("type") == "ack":
        return frame["version"]
    return frame.get("ack") if frame.get("type") == "snapshot" else None
