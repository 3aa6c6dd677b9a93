"""Reads of ratings: the Hall of Fame, rankings, a player's ratings and history, site stats.

The ranking of a game is its Rating rows ordered by rating (highest first), ties by user id;
a player's place is their row number in that order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Avg, Count, F, IntegerField, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from games.catalog import all_games
from games.models import Match, Move, Seat

from .models import Rating, RatingChange

OVERALL_MIN_GAMES = 5
RANKING_PAGE_SIZE = 50
HISTORY_POINTS = 200


def ranking(game: str):
    """Every rated player of ``game``, best first."""
    return Rating.objects.filter(game=game).select_related("user").order_by("-rating", "user_id")


class RankingList:
    """The ranking of a game as a Paginator sees it (``count()`` and slices), fast at any depth.

    An OFFSET over the joined rows makes PostgreSQL sort every player to show the last page.
    Instead, the first row of the slice is found by an OFFSET over the ranking index alone
    (an index-only scan), and the page is read from there on: first the players tied with it
    at the same rating, then those rated below. Both are index range scans.
    """

    def __init__(self, game: str):
        self.game = game
        self.rows = Rating.objects.filter(game=game)

    def count(self) -> int:
        return self.rows.count()

    def __getitem__(self, index: slice) -> list[Rating]:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("A ranking is read by slices.")
        start, stop = index.start or 0, index.stop
        limit = stop - start
        if limit <= 0:
            return []
        if start == 0:
            return list(ranking(self.game)[:limit])
        first = self.rows.order_by("-rating", "user_id").values_list("rating", "user_id")[start : start + 1]
        if not first:
            return []
        [(rating, user_id)] = first
        page = list(ranking(self.game).filter(rating=rating, user_id__gte=user_id)[:limit])
        if len(page) < limit:
            page += list(ranking(self.game).filter(rating__lt=rating)[: limit - len(page)])
        return page


def hall_of_fame(game: str, limit: int = 10) -> list[Rating]:
    """The top ``limit`` of ``game``, each with ``place`` set."""
    rows = list(ranking(game)[:limit])
    for place, row in enumerate(rows, start=1):
        row.place = place
    return rows


class _Count(Subquery):
    """How many rows a subquery finds: 0, not NULL, when it finds none."""

    template = "(SELECT COUNT(*) FROM (%(subquery)s) counted)"
    output_field = IntegerField()


def with_place(ratings):
    """``ratings`` with the counts that make each one's place, computed by the database in
    the same query: ``rated_above`` (higher ratings) and ``tied_above`` (the same rating, a
    lower user id). Both are counts over the ranking index."""
    same_game = Rating.objects.filter(game=OuterRef("game")).order_by().values("user_id")
    return ratings.annotate(
        rated_above=_Count(same_game.filter(rating__gt=OuterRef("rating"))),
        tied_above=_Count(same_game.filter(rating=OuterRef("rating"), user_id__lt=OuterRef("user_id"))),
    )


def _set_place(row: Rating) -> Rating:
    row.place = row.rated_above + row.tied_above + 1
    return row


def find_in_ranking(game: str, name: str) -> Rating | None:
    """The rated player of ``game`` called ``name`` (any case), with ``place`` set, or None."""
    name = name.strip()
    users = get_user_model().objects
    # The exact name first: it is indexed, where a case-blind match reads every account.
    user_id = users.filter(username=name).values_list("pk", flat=True).first()
    if user_id is None:
        user_id = users.filter(username__iexact=name).values_list("pk", flat=True).first()
    if user_id is None:
        return None
    row = with_place(Rating.objects.filter(game=game, user_id=user_id)).select_related("user").first()
    return _set_place(row) if row is not None else None


def similar_names(game: str, name: str, limit: int = 10) -> list[str]:
    """Rated players of ``game`` whose name contains ``name``: suggestions when none matches exactly."""
    return list(
        Rating.objects.filter(game=game, user__username__icontains=name.strip())
        .order_by("-rating", "user_id")
        .values_list("user__username", flat=True)[:limit]
    )


def page_of_place(place: int, per_page: int = RANKING_PAGE_SIZE) -> int:
    return (place - 1) // per_page + 1


def player_ratings(user) -> list[Rating]:
    """``user``'s ratings in registry order of the games, each with ``place``, ``players`` (how
    many rated players the game has) and ``game_name``: one query, whatever the number of games."""
    names = {g.slug: g.name for g in all_games()}
    order = list(names)
    everyone = Rating.objects.filter(game=OuterRef("game")).order_by().values("user_id")
    rows = sorted(
        with_place(Rating.objects.filter(user=user)).annotate(players=_Count(everyone)),
        key=lambda r: (order.index(r.game) if r.game in names else len(order), r.game),
    )
    for row in rows:
        _set_place(row)
        row.game_name = names.get(row.game, row.game)
    return rows


def rating_of(user, game: str, *, placed: bool = False) -> Rating | None:
    """``user``'s rating in ``game`` (None when signed out or unrated), with ``place`` if ``placed``."""
    if user is None or not user.is_authenticated:
        return None
    if not placed:
        return Rating.objects.filter(user=user, game=game).first()
    row = with_place(Rating.objects.filter(user=user, game=game)).first()
    return _set_place(row) if row is not None else None


def rating_history(user, game: str, limit: int | None = None):
    """``user``'s RatingChange rows in ``game``, oldest first (the last ``limit`` if given),
    each with ``match_visibility``: an invite-only match's id is not for everyone."""
    qs = RatingChange.objects.filter(user=user, game=game).annotate(match_visibility=F("match__visibility"))
    if limit is None:
        return qs.order_by("created", "id")
    return list(reversed(qs.order_by("-created", "-id")[:limit]))


def rating_histories(user, limit: int) -> dict[str, list[RatingChange]]:
    """The last ``limit`` RatingChange rows of ``user`` in each game, oldest first: one query."""
    newest_first = [F("created").desc(), F("id").desc()]
    rows = (
        RatingChange.objects.filter(user=user)
        .annotate(newness=Window(RowNumber(), partition_by=[F("game")], order_by=newest_first))
        .filter(newness__lte=limit)
        .order_by("game", "created", "id")
    )
    histories: dict[str, list[RatingChange]] = {}
    for row in rows:
        histories.setdefault(row.game, []).append(row)
    return histories


def changes_for_matches(user, match_ids) -> dict[int, RatingChange]:
    return {c.match_id: c for c in RatingChange.objects.filter(user=user, match_id__in=list(match_ids))}


@dataclass
class OverallRow:
    place: int
    user: object
    rating: float
    games: int

    @property
    def display(self) -> str:
        return str(round(self.rating))


def overall_top(limit: int = 20, min_games: int = OVERALL_MIN_GAMES) -> list[OverallRow]:
    """Players by the average of their ratings in the games where they have at least
    ``min_games`` rated matches (``games`` says how many games that average covers)."""
    top = list(
        Rating.objects.filter(rated_games__gte=min_games)
        .values("user_id")
        .annotate(average=Avg("rating"), games=Count("id"))
        .order_by("-average", "user_id")[:limit]
    )
    users = get_user_model().objects.in_bulk([row["user_id"] for row in top])
    return [
        OverallRow(place=i, user=users[row["user_id"]], rating=row["average"], games=row["games"])
        for i, row in enumerate(top, start=1)
    ]


def site_stats(now=None) -> dict:
    """The numbers of the stats page."""
    now = now or timezone.now()
    today = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    names = {g.slug: g.name for g in all_games()}
    finished = dict(
        Match.objects.filter(status=Match.Status.FINISHED).values_list("game").annotate(n=Count("id")).order_by()
    )
    per_game = [{"slug": slug, "name": name, "matches": finished.get(slug, 0)} for slug, name in names.items()]
    # Moves of today belong to matches being played or finished today: both are indexed.
    live_today = Match.objects.filter(Q(status=Match.Status.ACTIVE) | Q(finished_at__gte=today))
    moves_today = Move.objects.filter(match__in=live_today, created_at__gte=today, seat__isnull=False).count()
    since = now - timedelta(days=30)
    active_players = list(
        Seat.objects.filter(
            match__status=Match.Status.FINISHED, match__finished_at__gte=since, user__is_bot=False, user__isnull=False
        )
        .values("user__username")
        .annotate(matches=Count("id"))
        .order_by("-matches", "user__username")[:10]
    )
    return {
        "players": get_user_model().objects.filter(is_bot=False, is_active=True).count(),
        "per_game": per_game,
        "finished_total": sum(row["matches"] for row in per_game),
        "active": Match.objects.filter(status=Match.Status.ACTIVE).count(),
        "moves_today": moves_today,
        "most_active": [{"username": r["user__username"], "matches": r["matches"]} for r in active_players],
    }
