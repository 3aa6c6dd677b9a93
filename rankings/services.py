"""Writes to ratings: rate one finished match, or replay every match from scratch.

Both paths compute with the same function (``rating.changes_by_player``) over the same
pre-match numbers in the same order, so a recompute reproduces the incremental ratings
exactly, float for float. Rankings know matches only through the finished-match record
(status, rated flag, finish time, and each seat's user and place), never through engines.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from games.catalog import all_games
from games.models import Match, Seat
from portal import metrics, page_cache

from .models import Rating, RatingChange
from .rating import INITIAL_RATING, changes_by_player

log = logging.getLogger(__name__)

RECOMPUTE_BATCH = 5000
# A finished rated match without ratings this long after it ended lost its rating task (the
# broker was down when it ended): the periodic repair rates it. Within a day; older ones are
# for ``manage.py recompute_ratings``.
RATING_STALL = timedelta(seconds=30)
RATING_LOOKBACK = timedelta(days=1)
RATING_BATCH = 50


@dataclass
class _Standing:
    rating: float = INITIAL_RATING
    rated_games: int = 0
    wins: int = 0


def _rateable_seats(seats: Iterable[tuple[int | None, int | None]]) -> list[tuple[int, int]] | None:
    """(user id, place) per seat in seat order, or None when the record cannot be rated:
    fewer than two seats, an empty seat, or a seat without a place."""
    seats = list(seats)
    if len(seats) < 2 or any(user_id is None or place is None for user_id, place in seats):
        return None
    return seats


def _rate(seats: list[tuple[int, int]], standings: dict[int, _Standing]) -> dict[int, tuple[float, float, int]]:
    """Apply one match to ``standings`` (user id -> standing, updated in place).

    Returns user id -> (before, after, best place) for the RatingChange rows.
    """
    players = [user_id for user_id, _ in seats]
    places = [place for _, place in seats]
    changes = changes_by_player(
        players,
        places,
        {u: standings[u].rating for u in players},
        {u: standings[u].rated_games for u in players},
    )
    result = {}
    for user_id, change in changes.items():
        standing = standings[user_id]
        best = min(place for u, place in seats if u == user_id)
        before = standing.rating
        standing.rating = before + change
        standing.rated_games += 1
        standing.wins += best == 1
        result[user_id] = (before, standing.rating, best)
    return result


def match_rate(*, match_id: int) -> list[RatingChange]:
    """Rate a finished rated match: one transaction, and a second call changes nothing.

    Returns the RatingChange rows written (empty when the match is not finished, not rated,
    has a seat without a player or a place, or was rated already).
    """
    with transaction.atomic():
        match = Match.objects.filter(pk=match_id).only("id", "game", "status", "rated", "finished_at").first()
        if match is None or match.status != Match.Status.FINISHED or not match.rated:
            return []
        seats = _rateable_seats(match.seats.order_by("index").values_list("user_id", "place"))
        if seats is None or RatingChange.objects.filter(match_id=match.pk).exists():
            return []
        user_ids = sorted({user_id for user_id, _ in seats})
        existing = set(Rating.objects.filter(game=match.game, user_id__in=user_ids).values_list("user_id", flat=True))
        missing = [Rating(user_id=u, game=match.game) for u in user_ids if u not in existing]
        if missing:
            # Another match of the same newcomer may insert the same row meanwhile: keep theirs.
            Rating.objects.bulk_create(missing, ignore_conflicts=True)
        # Lock in user id order, the same order everywhere, so two matches sharing players
        # wait for each other instead of deadlocking.
        locked = Rating.objects.select_for_update().filter(game=match.game, user_id__in=user_ids)
        rows = {r.user_id: r for r in locked.order_by("user_id")}
        # Checked again under the locks: a concurrent call for this match may have just finished.
        if RatingChange.objects.filter(match_id=match.pk).exists():
            return []
        standings = {u: _Standing(r.rating, r.rated_games, r.wins) for u, r in rows.items()}
        result = _rate(seats, standings)
        for user_id, row in rows.items():
            standing = standings[user_id]
            row.rating, row.rated_games, row.wins = standing.rating, standing.rated_games, standing.wins
        Rating.objects.bulk_update(list(rows.values()), ["rating", "rated_games", "wins"])
        created = match.finished_at or timezone.now()
        changes = [
            RatingChange(
                match_id=match.pk, user_id=u, game=match.game, before=before, after=after, place=place, created=created
            )
            for u, (before, after, place) in sorted(result.items())
        ]
        RatingChange.objects.bulk_create(changes)
        page_cache.ratings_changed(match.game)  # the Hall of Fame and rankings, once committed
    if match.finished_at is not None:
        metrics.match_rated((timezone.now() - match.finished_at).total_seconds())
    return changes


def unrated_matches_rate(*, now=None) -> int:
    """Rate the finished rated matches left unrated (see ``RATING_STALL``), newest first, at
    most ``RATING_BATCH`` of them; each on its own, one failing does not stop the others.
    Returns the number rated."""
    now = now or timezone.now()
    unrated = Match.objects.filter(
        status=Match.Status.FINISHED,
        rated=True,
        finished_at__gte=now - RATING_LOOKBACK,
        finished_at__lte=now - RATING_STALL,
        rating_changes__isnull=True,
    )
    rated = 0
    for match_id in unrated.order_by("-finished_at").values_list("pk", flat=True)[:RATING_BATCH]:
        try:
            if match_rate(match_id=match_id):
                log.warning("Match %s was left unrated; rated now", match_id)
                rated += 1
        except Exception:
            log.exception("Could not rate match %s", match_id)
    return rated


def ratings_recompute(*, game: str | None = None) -> int:
    """Forget the ratings (of one game, or all) and replay every finished rated match in the
    order it finished (finished_at, then id). Returns the number of matches rated.

    Computed in memory and written with bulk inserts in one transaction: readers see the old
    ratings until the new ones are complete.
    """
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Hold incremental rating off until the replay is written (it locks Rating rows).
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {Rating._meta.db_table} IN EXCLUSIVE MODE")
        ratings = Rating.objects.all()
        changes = RatingChange.objects.all()
        matches = Match.objects.filter(status=Match.Status.FINISHED, rated=True)
        seats = Seat.objects.filter(match__status=Match.Status.FINISHED, match__rated=True)
        if game is not None:
            ratings, changes = ratings.filter(game=game), changes.filter(game=game)
            matches, seats = matches.filter(game=game), seats.filter(match__game=game)
        changes.delete()
        ratings.delete()

        seats_of: dict[int, list[tuple[int | None, int | None]]] = {}
        for match_id, user_id, place in seats.order_by("match_id", "index").values_list("match_id", "user_id", "place"):
            seats_of.setdefault(match_id, []).append((user_id, place))
        order = matches.order_by(F("finished_at").asc(nulls_last=True), "id").values_list("id", "game", "finished_at")

        standings: dict[tuple[str, int], _Standing] = {}
        pending: list[RatingChange] = []
        now = timezone.now()
        rated = 0
        for match_id, slug, finished_at in order.iterator(chunk_size=10_000):
            match_seats = _rateable_seats(seats_of.pop(match_id, ()))
            if match_seats is None:
                continue
            by_user = {}
            for user_id, _ in match_seats:
                by_user[user_id] = standings.setdefault((slug, user_id), _Standing())
            result = _rate(match_seats, by_user)
            created = finished_at or now
            for user_id, (before, after, place) in sorted(result.items()):
                pending.append(
                    RatingChange(
                        match_id=match_id,
                        user_id=user_id,
                        game=slug,
                        before=before,
                        after=after,
                        place=place,
                        created=created,
                    )
                )
            rated += 1
            if len(pending) >= RECOMPUTE_BATCH:
                RatingChange.objects.bulk_create(pending, batch_size=RECOMPUTE_BATCH)
                pending = []
        RatingChange.objects.bulk_create(pending, batch_size=RECOMPUTE_BATCH)
        Rating.objects.bulk_create(
            (
                Rating(user_id=user_id, game=slug, rating=s.rating, rated_games=s.rated_games, wins=s.wins)
                for (slug, user_id), s in standings.items()
            ),
            batch_size=RECOMPUTE_BATCH,
        )
        page_cache.ratings_changed(*([game] if game else [g.slug for g in all_games()]))
    log.info("Recomputed ratings%s from %d matches", f" of {game}" if game else "", rated)
    return rated
