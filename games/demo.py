"""The demo site of ``make run`` (``manage.py seed_demo``): finished rated matches in every
game between the demo players and the bots, and one match being played, all through the
services a browser uses, so ratings, the latest action and the Hall of Fame are filled as
they would be by people playing.

Fast (the Random and Greedy bots choose every move, seconds in all) and idempotent: matches
are seeded once, when no demo player has created one yet.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.contrib.auth import get_user_model

from . import services
from .bot_runner import runner
from .bots import get_bot
from .models import Match

# game, the seats (a demo player's username, or a bot's registry name), the bot that chooses
# the demo players' moves. Every game gets matches; every demo player and both fast bots play.
FINISHED: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("territories", ("alice", "greedy"), "greedy"),
    ("territories", ("bob", "random"), "greedy"),
    ("territories", ("carol", "dave"), "random"),
    ("chit-territory", ("bob", "random"), "random"),  # Greedy weighs every draw here: slower
    ("chit-territory", ("alice", "carol", "random"), "random"),
    ("dice-territory", ("dave", "greedy", "random"), "greedy"),
    ("dice-territory", ("alice", "bob", "greedy"), "random"),
    ("gp02a", ("carol", "dave", "greedy"), "greedy"),
    ("gp02a", ("alice", "bob", "random", "greedy"), "random"),
    ("game-of-god", ("alice", "greedy"), "greedy"),
)
# A match to watch: two demo players, a few moves in, on a correspondence clock so that it
# is still being played when the site is visited days later.
IN_PROGRESS = ("game-of-god", ("bob", "carol"), 6)
BOTS = ("random", "greedy")


def _create(game: str, seats: tuple[str, ...], users: dict, **extra) -> Match:
    creator = users[seats[0]]
    match = services.match_create(user=creator, game=game, num_players=len(seats), rated=True, **extra)
    for index, name in enumerate(seats[1:], start=1):
        if name in BOTS:
            services.match_seat_bot(match_id=match.pk, user=creator, index=index, bot=name)
        else:
            services.match_join(match_id=match.pk, user=users[name])
    return match


def _play(match_id: int, person_bot: str, rng: random.Random, moves: int | None = None) -> None:
    """Play ``moves`` moves (all, when None): a demo player's chosen by ``person_bot``, a
    bot's by the site's bot runner (in the embedded default) or, when no one answers for it,
    here, as a Celery worker would. A move that lost the race to the other reads the match
    again."""
    played = 0
    waited = False
    while moves is None or played < moves:
        try:
            match, seats, state = services.read_position(match_id)
        except services.MatchError as exc:
            if exc.code != "stale":
                raise
            continue  # the bot runner moved between reading the match and its moves
        if match.status != Match.Status.ACTIVE or match.to_move is None:
            return
        seat = next(seat for seat in seats if seat.index == match.to_move)
        bot = seat.bot_name()
        if bot and settings.CELERY_TASK_ALWAYS_EAGER and not waited:
            # The site's bot runner is answering already: let it, rather than race it.
            runner.wait_idle(timeout=30)
            waited = True
            continue
        waited = False
        action = get_bot(bot or person_bot).choose(state, seat.index, rng=rng)
        # A person's move goes in under their account, a bot's the way the bot runner's does.
        who = {"seat_index": seat.index} if bot else {"user": seat.user}
        try:
            services.match_act(match_id=match_id, action=action, version=match.version, **who)
        except services.MatchError as exc:
            if exc.code not in ("stale", "finished"):
                raise
            continue
        played += 1


def seed_matches(demo_users: list[str], *, seed: int = 2024) -> list[Match]:
    """Play the demo matches once; returns those made now (none on a second run)."""
    User = get_user_model()
    users = {u.username: u for u in User.objects.filter(username__in=demo_users)}
    if Match.objects.filter(creator__in=users.values()).exists():
        return []
    rng = random.Random(seed)
    made = []
    for game, seats, person_bot in FINISHED:
        match = _create(game, seats, users)
        _play(match.pk, person_bot, rng)
        made.append(match)
    game, seats, moves = IN_PROGRESS
    live = _create(game, seats, users, speed=Match.Speed.CORRESPONDENCE, days_per_move=7)
    _play(live.pk, "greedy", rng, moves=moves)
    made.append(live)
    return made
