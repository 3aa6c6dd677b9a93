"""Reads of tournaments for the pages and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from games.models import Match, Move

from . import services
from .models import Bye, Entrant, Round, Table, TableSeat, Tournament

FINISHED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def listed(status: str, game: str | None = None) -> QuerySet:
    """The public tournaments in one part of the lists: ``upcoming`` (taking entries, soonest
    first), ``running``, or ``finished`` (cancelled ones too, latest first)."""
    qs = Tournament.objects.filter(invite_only=False).annotate(
        entrant_count=Count("entrants", filter=Q(entrants__withdrawn=False))
    )
    if game:
        qs = qs.filter(game=game)
    if status == "upcoming":
        return qs.filter(status=Tournament.Status.REGISTRATION).order_by("starts_at", "id")
    if status == "running":
        return qs.filter(status=Tournament.Status.RUNNING).order_by("-started_at", "-id")
    return qs.filter(status__in=FINISHED).select_related("winner").order_by("-finished_at", "-id")


def current(game: str) -> QuerySet:
    """A game's public tournaments being played or taking entries: the running first."""
    statuses = [Tournament.Status.RUNNING, Tournament.Status.REGISTRATION]
    return (
        Tournament.objects.filter(invite_only=False, game=game, status__in=statuses)
        .annotate(entrant_count=Count("entrants", filter=Q(entrants__withdrawn=False)))
        .order_by("-status", "starts_at", "id")  # "running" sorts after "registration"
    )


@dataclass
class StandingRow:
    rank: int
    entrant: Entrant
    points: float
    tie_breaks: tuple[tuple[str, float], ...]
    played: int
    byes: int


def entrants_of(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.select_related("user").order_by("joined_at", "id"))


def standing_rows(tournament: Tournament, entrants: list[Entrant]) -> list[StandingRow]:
    """The standings with their entrants, best first (before the start: nobody has played)."""
    by_id = {e.pk: e for e in entrants}
    if tournament.status == Tournament.Status.REGISTRATION or tournament.current_round == 0:
        return []
    return [
        StandingRow(row.rank, by_id[row.entrant], row.points, row.tie_breaks, row.played, row.byes)
        for row in services.tournament_standings(tournament)
        if row.entrant in by_id
    ]


def rounds_of(tournament: Tournament) -> list[Round]:
    """Every round, latest first, with its tables (their matches and seated entrants) and byes."""
    seats = TableSeat.objects.select_related("entrant__user").order_by("index")
    tables = Table.objects.select_related("match").prefetch_related(Prefetch("seats", queryset=seats), "match__seats")
    byes = Bye.objects.select_related("entrant__user")
    return list(
        tournament.round_set.order_by("-number").prefetch_related(
            Prefetch("tables", queryset=tables), Prefetch("byes", queryset=byes)
        )
    )


PLAYER_RESULTS = 20


def player_results(user) -> list[Entrant]:
    """A player's places in finished public tournaments, latest first."""
    return list(
        Entrant.objects.filter(user=user, tournament__status=Tournament.Status.FINISHED, tournament__invite_only=False)
        .select_related("tournament")
        .annotate(field_size=Count("tournament__entrants"))
        .order_by("-tournament__finished_at")[:PLAYER_RESULTS]
    )


def player_wins(user) -> int:
    """Finished public tournaments the player ended in first place."""
    return Entrant.objects.filter(
        user=user, final_rank=1, tournament__status=Tournament.Status.FINISHED, tournament__invite_only=False
    ).count()


def table_of_match(match_id: int) -> Table | None:
    """The tournament table a match is, with its round and tournament (None for any other)."""
    return Table.objects.select_related("round__tournament").filter(match_id=match_id).first()


def first_move_due(match: Match) -> bool:
    """Whether a match's first move is still to be made, its clock running."""
    return (
        match.status == Match.Status.ACTIVE
        and match.deadline is not None
        and not Move.objects.filter(match_id=match.pk, seat__isnull=False).exists()
    )
