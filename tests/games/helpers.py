"""Small helpers for match tests: play a match through the services, as people and bots do."""

import random

from django.utils import timezone

from games import replays, services, state_cache
from games.engine_text import spoken
from games.engines import CHANCE, get_game
from games.models import Match, Move, Seat


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


def random_playout(game: str, num_players: int, seed: int):
    """A game of ``game`` played to its end by random moves and chance drawn from ``seed``:
    (its options, the final state, each move as (seat, action), None the seat for chance)."""
    engine = get_game(game)
    options = engine.normalise_options({}, num_players)
    state = engine.new_state(num_players, options)
    rng = random.Random(seed)
    stored = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        stored.append((None if seat == CHANCE else seat, action))
    return options, state, stored


def finished_by_random_play(game: str, users: list, seed: int) -> Match:
    """A finished match of ``users`` played to its end by ``random_playout``, written straight
    to the database: a long match in a blink (a 2-player chit game runs to about 475 moves)."""
    options, state, stored = random_playout(game, len(users), seed)
    return finished_from(game, users, options, state, stored)


def finished_from(game: str, users: list, options: dict, state, stored: list) -> Match:
    """A finished match of ``users`` whose moves are ``stored`` ((seat or None, action) each)
    and final position ``state``, written straight to the database."""
    now = timezone.now()
    match = Match.objects.create(
        game=game,
        num_players=len(users),
        options=options,
        status=Match.Status.FINISHED,
        version=len(stored) + 1,
        creator=users[0],
        started_at=now,
        finished_at=now,
        end_reason="game over",
        snapshot=state.view(None),
    )
    places, scores = state.ranking(), state.scores()
    Seat.objects.bulk_create(
        Seat(match=match, index=i, user=user, joined_at=now, place=places[i], score=scores[i])
        for i, user in enumerate(users)
    )
    Move.objects.bulk_create(
        Move(match=match, index=i, seat=seat, action=action) for i, (seat, action) in enumerate(stored)
    )
    return match


def replay_frames(replay: dict) -> list[dict]:
    """The positions of a replay as the match page rebuilds them (``games.replays``): each
    step's view with the seat that moved and the action as shown (the engine's words said in
    English, as an English page says them)."""
    replay = spoken(replay)
    view = replay["start"]
    frames = [{"seat": None, "action": None, "view": view}]
    for seat, action, patch in zip(replay["seats"], replay["actions"], replay["patches"], strict=True):
        view = replays.patched(view, patch)
        frames.append({"seat": seat, "action": action, "view": view})
    return frames
