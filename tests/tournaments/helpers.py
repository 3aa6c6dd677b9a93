"""Helpers for tournament tests: announce one, fill it, play its tables to a result."""

from datetime import timedelta

from django.utils import timezone

from games import services as game_services
from games.models import Match
from tests.conftest import drain_worker
from tournaments import services
from tournaments.models import Table, Tournament


def announce(creator, **choices) -> Tournament:
    """A round robin of Territories (two players a table, live) starting in an hour, unless
    ``choices`` say otherwise."""
    defaults = {
        "name": "Autumn cup",
        "game": "territories",
        "table_size": 2,
        "format": Tournament.Format.ROUND_ROBIN,
        "speed": Tournament.Speed.LIVE,
        "seconds_per_move": 90,
        "starts_at": timezone.now() + timedelta(hours=1),
    }
    return services.tournament_create(user=creator, **{**defaults, **choices})


def fresh(tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def tables_of(tournament, number=None) -> list[Table]:
    tournament = fresh(tournament)
    number = tournament.current_round if number is None else number
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("match")
        .prefetch_related("seats__entrant__user", "match__seats")
        .order_by("number")
    )


def seated_users(table) -> list:
    return [seat.entrant.user for seat in table.seats.all()]


def resign(table, user) -> None:
    """``user`` resigns their table's match, and whatever follows (the round's advance, in a
    Celery worker on Redis) is done."""
    game_services.match_resign(match_id=table.match_id, user=user)
    drain_worker()


def let_seat_win(table, winner_index: int = 0) -> None:
    """End a two-player table: every other seat's player resigns."""
    for index, user in enumerate(seated_users(table)):
        if index != winner_index:
            resign(table, user)


def play_round(tournament, winner_by_table=None) -> None:
    """Finish every table of the current round, the first seat winning (or as given)."""
    for table in tables_of(tournament):
        if table.match.status == Match.Status.ACTIVE:
            let_seat_win(table, (winner_by_table or {}).get(table.number, 0))
