"""Compute belongs to people: a tournament needs a person entered (bots fill its tables, they
never make up the field), no table of bots alone is played, one person has only so many
tournaments not yet over, and a cancelled tournament stops the matches it was playing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as game_services
from games.bot_runner import runner
from games.models import ChatMessage, Match
from rankings.models import RatingChange
from tests.conftest import drain_worker
from tournaments import services
from tournaments.models import Tournament

from .helpers import announce, fresh, seated_users, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def with_bots(tournament, creator, bots=("random", "greedy", "random")):
    for bot in bots:
        services.tournament_add_bot(tournament_id=tournament.pk, user=creator, bot=bot)
    return fresh(tournament)


# -- a person entered ------------------------------------------------------------------


def test_the_creator_cannot_start_a_tournament_of_bots_alone(alice):
    tournament = with_bots(announce(alice), alice)
    with pytest.raises(services.TournamentError, match="at least one person entered"):
        services.tournament_start(tournament_id=tournament.pk, user=alice)
    assert fresh(tournament).status == Tournament.Status.REGISTRATION
    assert not Match.objects.exists()


def test_a_tournament_of_bots_alone_is_cancelled_at_its_start_time_with_a_notice(alice):
    tournament = with_bots(announce(alice), alice)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert services.start_due_tournaments() == 1
    cancelled = fresh(tournament)
    assert cancelled.status == Tournament.Status.CANCELLED
    assert cancelled.notice == "Cancelled at its start: nobody but bots entered, and a tournament needs a person."
    assert not Match.objects.exists()


def test_the_start_button_explains_the_refusal(client, alice):
    tournament = with_bots(announce(alice), alice)
    client.force_login(alice)
    page = client.post(f"/tournaments/{tournament.pk}/start/", follow=True).content.decode()
    assert "at least one person entered" in page
    assert fresh(tournament).status == Tournament.Status.REGISTRATION


def test_a_table_of_bots_alone_is_settled_unplayed_and_drawn(alice):
    tournament = with_bots(announce(alice), alice)
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    assert runner.wait_idle(timeout=30)

    tables = tables_of(tournament, 1)
    (bots_only,) = [t for t in tables if alice not in seated_users(t)]
    match = Match.objects.get(pk=bots_only.match_id)
    assert match.status == Match.Status.FINISHED and match.end_reason == "no person playing"
    assert not match.rated
    assert not match.moves.filter(seat__isnull=False).exists(), "no bot moved"
    assert [s.place for s in match.seats.order_by("index")] == [1, 1]
    (alices,) = [t for t in tables if alice in seated_users(t)]
    assert Match.objects.get(pk=alices.match_id).status == Match.Status.ACTIVE
    points = {row.entrant: row.points for row in services.tournament_standings(fresh(tournament))}
    assert [points[seat.entrant_id] for seat in bots_only.seats.all()] == [0.5, 0.5]


def test_a_tournament_ends_when_its_last_person_withdraws(alice):
    tournament = with_bots(announce(alice), alice)
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_start(tournament_id=tournament.pk, user=alice)

    services.tournament_withdraw(tournament_id=tournament.pk, user=alice)
    drain_worker()

    ended = fresh(tournament)
    assert ended.status == Tournament.Status.FINISHED
    assert ended.current_round == 1, "no round of bots alone is paired"
    assert "no person is left playing" in ended.notice
    assert not Match.objects.filter(status__in=[Match.Status.OPEN, Match.Status.ACTIVE]).exists()


def test_a_tournament_table_with_bots_is_seated_past_the_bots_cap(alice, settings):
    settings.MAX_BOT_MATCHES_PER_PERSON = 1
    match = game_services.match_create(user=alice, game="territories", num_players=2)
    game_services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    tournament = with_bots(announce(alice), alice, bots=("random",))
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    (table,) = tables_of(tournament)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.ACTIVE


# -- the cap on tournaments --------------------------------------------------------------


def test_one_person_has_at_most_the_allowed_tournaments_not_yet_over(alice, bob, settings):
    settings.MAX_OPEN_TOURNAMENTS_PER_PERSON = 2
    first = announce(alice, name="One")
    announce(alice, name="Two")
    with pytest.raises(services.TournamentError) as err:
        announce(alice, name="Three")
    assert err.value.code == "too_many_open"
    assert "2 tournaments" in err.value.message
    assert Tournament.objects.filter(creator=alice).count() == 2
    announce(bob, name="Bob's")  # one person's cap, not the site's

    services.tournament_cancel(tournament_id=first.pk, user=alice)  # one is over: room again
    assert announce(alice, name="Three").name == "Three"


def test_the_create_form_explains_the_cap(client, alice, settings):
    from .test_views import form_data

    settings.MAX_OPEN_TOURNAMENTS_PER_PERSON = 1
    announce(alice)
    client.force_login(alice)
    response = client.post("/tournaments/new/", form_data())
    assert response.status_code == 200
    assert "You already have 1 tournament not yet over" in response.content.decode()
    assert Tournament.objects.count() == 1


# -- cancelling stops the matches ----------------------------------------------------------


def test_cancelling_a_running_tournament_calls_off_its_matches_with_a_notice(alice, bob):
    tournament = with_bots(announce(alice, rated=True), alice, bots=("random", "greedy"))
    services.tournament_join(tournament_id=tournament.pk, user=bob)
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    assert runner.wait_idle(timeout=30)
    playing = [t.match_id for t in tables_of(tournament) if t.match.status == Match.Status.ACTIVE]
    assert playing

    services.tournament_cancel(tournament_id=tournament.pk, user=alice)

    assert fresh(tournament).status == Tournament.Status.CANCELLED
    for match_id in playing:
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.ABORTED and match.end_reason == "tournament cancelled"
        notice = ChatMessage.objects.filter(match_id=match_id, user=None).last()
        assert notice is not None and "tournament was cancelled" in notice.text
    assert runner.wait_idle(timeout=30)
    drain_worker()
    assert not Match.objects.filter(status=Match.Status.ACTIVE).exists()
    assert not RatingChange.objects.exists(), "a match called off is not rated"
    rows = services.tournament_standings(fresh(tournament))
    assert sum(row.played for row in rows) == 2 * (2 - len(playing)), "a table called off is nobody's result"
