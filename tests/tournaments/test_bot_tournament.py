"""A whole tournament played by bots, as it runs on a quiet site: the creator enters four
bots, starts it, and the rounds follow one another (the match_finished signal's task, through
Celery on PostgreSQL + Redis) until it finishes with a winner."""

import pytest

from games.models import Match
from tests.conftest import drain_worker, wait_for
from tournaments import services
from tournaments.models import Entrant, Tournament

from .helpers import announce, fresh

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_bots_play_a_round_robin_to_its_end(alice):
    tournament = announce(alice, name="Bots' cup", rated=False)
    for bot in ("random", "greedy", "random", "greedy"):
        services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot=bot)
    services.tournament_start(tournament_id=tournament.pk, user=alice)

    done = wait_for(
        lambda: (t := fresh(tournament)).status == Tournament.Status.FINISHED and t,
        timeout=120,
        interval=0.2,
        message="the tournament's end",
    )
    drain_worker()
    assert done.current_round == done.rounds == 3
    matches = Match.objects.filter(tournament_table__round__tournament=done)
    assert matches.count() == 6  # every pairing of four, once
    assert set(matches.values_list("status", flat=True)) == {Match.Status.FINISHED}
    ranks = dict(Entrant.objects.filter(tournament=done).values_list("pk", "final_rank"))
    first = list(Entrant.objects.filter(tournament=done, final_rank=1))
    assert first and all(entrant.is_bot for entrant in first)
    if len(first) == 1:  # the two Greedy bots may share first place: then nobody alone won
        assert done.winner == first[0].user and done.notice == f"Won by {first[0].name}."
    else:
        assert done.winner is None and done.notice.startswith("Shared first place: ")
    assert sorted(ranks.values())[0] == 1 and None not in ranks.values()
    # Each bot played each other bot once: three tables apiece.
    rows = services.tournament_standings(done)
    assert [row.played for row in rows] == [3, 3, 3, 3]
    assert sum(row.points for row in rows) == 6  # one point a table
