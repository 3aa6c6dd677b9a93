"""A tournament of one person and three bots, as it runs on a quiet site: the bots fill the
tables, the rounds follow one another (the match_finished signal's task, through Celery on
PostgreSQL + Redis) until it finishes, and the tables of bots alone are never played: bots
play only where a person plays."""

import pytest

from games.models import Match
from tests.conftest import drain_worker, wait_for
from tournaments import services
from tournaments.models import Entrant, Tournament

from .helpers import announce, fresh, resign, seated_users, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_person_and_three_bots_play_a_round_robin_to_its_end(alice):
    tournament = announce(alice, name="Bots' cup", rated=False)
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    for bot in ("random", "greedy", "random"):
        services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot=bot)
    services.tournament_start(tournament_id=tournament.pk, user=alice)

    def ended():
        for table in tables_of(tournament):  # alice resigns each table of hers as it comes
            if table.match.status == Match.Status.ACTIVE and alice in seated_users(table):
                resign(table, alice)
        return (t := fresh(tournament)).status == Tournament.Status.FINISHED and t

    done = wait_for(ended, timeout=120, interval=0.2, message="the tournament's end")
    drain_worker()
    assert done.current_round == done.rounds == 3
    matches = Match.objects.filter(tournament_table__round__tournament=done)
    assert matches.count() == 6  # every pairing of four, once
    assert set(matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    bots_alone = matches.exclude(seats__user=alice)
    assert bots_alone.count() == 3
    assert set(bots_alone.values_list("end_reason", flat=True)) == {"no person playing"}
    assert not bots_alone.filter(moves__seat__isnull=False).exists(), "no bot moved at a table of bots alone"
    # Each bot beat alice (who resigned) and drew its two unplayed tables: 2 points apiece.
    rows = services.tournament_standings(done)
    assert [row.played for row in rows] == [3, 3, 3, 3]
    assert sum(row.points for row in rows) == 6  # one point a table
    points = {row.entrant: row.points for row in rows}
    alices = Entrant.objects.get(tournament=done, user=alice)
    assert points.pop(alices.pk) == 0 and set(points.values()) == {2}
    assert alices.final_rank == 4
