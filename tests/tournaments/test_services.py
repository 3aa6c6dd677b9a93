"""Tournaments through their services: announcing, entering, starting, rounds that advance
when their last match ends, withdrawals, the end with a winner, and what is refused."""

from datetime import UTC, timedelta

import pytest
from django.utils import timezone, translation

from forums.models import Topic
from games import services as game_services
from games.models import Match
from tests.conftest import drain_worker
from tournaments import pairing, services
from tournaments.models import Bye, Entrant, Round, Table, Tournament

from .helpers import announce, fresh, play_round, resign, seated_users, tables_of

# Rounds advance after commit (the match_finished signal): real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


def entered(tournament, users):
    for user in users:
        services.tournament_join(tournament_id=tournament.pk, user=user)
    return fresh(tournament)


# -- announcing ------------------------------------------------------------------------


def test_a_public_tournament_opens_its_topic_in_its_games_forum(alice):
    tournament = announce(alice, name="Winter open")
    topic = Topic.objects.get(pk=tournament.forum_topic_id)
    assert topic.forum.game == "territories"
    assert topic.title == "Tournament: Winter open"
    assert topic.author == alice
    assert tournament.get_absolute_url() in topic.posts.get().body


def test_an_invitation_only_tournament_is_not_announced_in_the_forum(alice):
    assert announce(alice, invite_only=True).forum_topic is None


@pytest.mark.parametrize(
    ("choices", "field", "message"),
    [
        ({"speed": "untimed"}, "speed", "runs on a clock"),
        ({"name": "   "}, "name", "Give the tournament a name"),
        ({"game": "chess"}, "game", "Choose one of the site's games"),
        ({"table_size": 3}, "table_size", "played by 2 players, not 3"),
        ({"format": "knockout"}, "format", "round robin or Swiss"),
        ({"seconds_per_move": 5}, "seconds_per_move", "10 to 3600 seconds"),
        ({"speed": "correspondence", "days_per_move": 30}, "days_per_move", "1 to 14 days"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "starts_at", "in the future"),
        ({"rounds": 3}, "rounds", "leave the number of rounds empty"),
        ({"format": "swiss", "rounds": 40}, "rounds", "1 to 15 rounds"),
        ({"registration_opens_at": timezone.now() + timedelta(hours=2)}, "registration_opens_at", "before the start"),
    ],
)
def test_a_tournament_that_cannot_run_is_refused_with_the_reason(alice, choices, field, message):
    with pytest.raises(services.TournamentError) as refused:
        announce(alice, **choices)
    assert refused.value.field == field
    assert message in refused.value.message
    assert not Tournament.objects.exists()


def test_a_correspondence_tournament_keeps_its_days_per_move(alice):
    tournament = announce(alice, speed="correspondence", days_per_move=2)
    assert tournament.seconds_per_move == 2 * 86400
    assert tournament.time_per_move == "2 days"


def test_the_creator_edits_the_settings_before_the_start_and_nobody_else_can(alice, bob):
    tournament = announce(alice)
    choices = {
        "name": "Renamed",
        "game": "gp02a",
        "table_size": 3,
        "format": "swiss",
        "speed": "live",
        "seconds_per_move": 30,
        "starts_at": tournament.starts_at,
        "rounds": 4,
    }
    with pytest.raises(services.TournamentError, match="Only the creator"):
        services.tournament_edit(tournament_id=tournament.pk, user=bob, **choices)
    services.tournament_edit(tournament_id=tournament.pk, user=alice, **choices)
    edited = fresh(tournament)
    assert (edited.name, edited.game, edited.table_size, edited.format, edited.rounds) == (
        "Renamed",
        "gp02a",
        3,
        "swiss",
        4,
    )


# -- entering --------------------------------------------------------------------------


def test_a_player_enters_once(alice, bob):
    tournament = announce(alice)
    services.tournament_join(tournament_id=tournament.pk, user=bob)
    with pytest.raises(services.TournamentError, match="already entered"):
        services.tournament_join(tournament_id=tournament.pk, user=bob)
    assert fresh(tournament).entrants.count() == 1


def test_an_invitation_only_tournament_takes_entries_only_with_its_token(alice, bob, make_user):
    tournament = announce(alice, invite_only=True)
    with pytest.raises(services.TournamentError, match="by invitation only"):
        services.tournament_join(tournament_id=tournament.pk, user=bob, token="wrong")
    services.tournament_join(tournament_id=tournament.pk, user=bob, token=tournament.invite_token)
    assert services.can_view(tournament, bob)  # an entrant sees it without the token
    assert not services.can_view(tournament, make_user("stranger"))


def test_entries_wait_for_the_registration_window(alice, bob):
    tournament = announce(alice, registration_opens_at=timezone.now() + timedelta(minutes=30))
    with pytest.raises(services.TournamentError, match="Entries open on") as refused:
        services.tournament_join(tournament_id=tournament.pk, user=bob)
    opens = tournament.registration_opens_at.astimezone(UTC)
    months = [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ]
    with translation.override("de"):
        german = str(refused.value)
    assert german == f"Die Anmeldung öffnet am {opens.day}. {months[opens.month - 1]} {opens.year} {opens:%H:%M} UTC."


def test_a_round_robin_is_full_at_its_largest_field(alice, make_user):
    tournament = announce(alice)
    for _ in range(services.MAX_ROUND_ROBIN_ENTRANTS):
        services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="random")
    with pytest.raises(services.TournamentError, match="full") as refused:
        services.tournament_join(tournament_id=tournament.pk, user=make_user())
    assert refused.value.code == "full"


def test_only_the_creator_enters_bots_and_the_same_bot_may_enter_twice_told_apart(alice, bob):
    tournament = announce(alice)
    with pytest.raises(services.TournamentError, match="Only the creator"):
        services.tournament_add_bot(tournament_id=tournament.pk, user=bob, bot="random")
    first = services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="random")
    second = services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="random")
    assert first.is_bot and second.is_bot
    assert (first.name, second.name) == ("Random", "Random 2")
    with pytest.raises(services.TournamentError, match="no bot called"):
        services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="deep-blue")


def test_withdrawing_before_the_start_removes_the_entry(alice, bob):
    tournament = entered(announce(alice), [bob])
    services.tournament_withdraw(tournament_id=tournament.pk, user=bob)
    assert not fresh(tournament).entrants.exists()


# -- the start -------------------------------------------------------------------------


def test_too_few_entrants_at_the_start_time_cancel_it_with_a_notice(alice, bob):
    tournament = entered(announce(alice), [bob])
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert services.start_due_tournaments() == 1
    cancelled = fresh(tournament)
    assert cancelled.status == Tournament.Status.CANCELLED
    assert cancelled.notice == "Cancelled at its start: only 1 entered, and at least 2 are needed."
    assert not Match.objects.exists()


def test_the_creator_cannot_start_early_without_enough_entrants(alice, bob):
    tournament = entered(announce(alice), [bob])
    with pytest.raises(services.TournamentError, match="At least 2 entrants"):
        services.tournament_start(tournament_id=tournament.pk, user=alice)
    assert fresh(tournament).status == Tournament.Status.REGISTRATION


def test_the_start_seats_round_one_as_the_pairing_says(alice, four):
    tournament = entered(announce(alice, rated=False, seconds_per_move=30), four)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.start_due_tournaments()
    started = fresh(tournament)
    assert started.status == Tournament.Status.RUNNING
    assert started.current_round == 1
    ids = [e.pk for e in sorted(started.entrants.all(), key=lambda e: (-e.seed_rating, e.pk))]
    schedule = pairing.round_robin(ids, 2)
    assert started.rounds == len(schedule) == 3
    tables = tables_of(started)
    assert [tuple(s.entrant_id for s in t.seats.all()) for t in tables] == list(schedule[0].tables)
    for table in tables:
        match = table.match
        assert match.status == Match.Status.ACTIVE
        assert (match.game, match.rated, match.speed, match.seconds_per_move) == ("territories", False, "live", 30)
        # Seat 0 of the match is seat 0 of the pairing: it moves first.
        assert [s.user for s in match.seats.order_by("index")] == seated_users(table)


def test_an_odd_field_gives_a_bye(alice, four):
    tournament = entered(announce(alice), four[:3])
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.tables.count() == 1
    assert first.byes.count() == 1


# -- rounds ----------------------------------------------------------------------------


def test_a_round_advances_when_its_last_match_ends(alice, four):
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    first, second = tables_of(tournament)
    loser = seated_users(first)[1]
    resign(first, loser)
    assert fresh(tournament).current_round == 1  # the other table is still playing
    resign(second, seated_users(second)[1])
    assert fresh(tournament).current_round == 2
    assert len(tables_of(tournament)) == 2


def test_the_advance_happens_once_however_often_it_is_asked(alice, four):
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    play_round(tournament)
    assert fresh(tournament).current_round == 2
    # The signal's task advanced it; the sweep and a late duplicate find nothing to do.
    assert services.tournament_advance(tournament_id=tournament.pk, round_number=1) is False
    assert services.advance_finished_rounds() == 0
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(round__tournament=tournament).count() == 4


def test_a_tournament_match_cannot_be_called_off_by_its_first_player(alice, four, client):
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    first, _ = tables_of(tournament)
    opener = seated_users(first)[0]
    with pytest.raises(game_services.MatchError, match="tournament match cannot be aborted: resign instead"):
        game_services.match_abort(match_id=first.match_id, user=opener)
    assert Match.objects.get(pk=first.match_id).status == Match.Status.ACTIVE
    # The match page offers Resign, never Abort.
    client.force_login(opener)
    page = client.get(f"/matches/{first.match_id}/").content.decode()
    assert 'id="abort-form"' not in page
    assert "Resign" in page


def test_a_whole_round_robin_ends_with_its_winner_and_everyones_place(alice, four):
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    ann = four[0]
    for _ in range(3):
        # ann wins her table every round; elsewhere seat 0 wins.
        winners = {}
        for table in tables_of(tournament):
            users = seated_users(table)
            winners[table.number] = users.index(ann) if ann in users else 0
        play_round(tournament, winners)
    done = fresh(tournament)
    assert done.status == Tournament.Status.FINISHED
    assert done.winner == ann
    assert done.notice == "Won by ann."
    entry = Entrant.objects.get(tournament=done, user=ann)
    assert (entry.final_rank, entry.final_points) == (1, 3.0)
    assert sorted(Entrant.objects.filter(tournament=done).values_list("final_rank", flat=True))[0] == 1
    assert Match.objects.filter(tournament_table__round__tournament=done).count() == 6


def test_first_place_shared_on_points_and_every_tie_break_names_no_single_winner(alice, four):
    ann, ben, cat = four[:3]
    tournament = entered(announce(alice), [ann, ben, cat])
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    beats = {ann: ben, ben: cat, cat: ann}  # a cycle: one win each, and one bye each
    for _ in range(3):
        (table,) = tables_of(tournament)
        first, second = seated_users(table)
        play_round(tournament, {table.number: 0 if beats[first] == second else 1})
    done = fresh(tournament)
    assert done.status == Tournament.Status.FINISHED
    assert done.winner is None
    assert done.notice == "Shared first place: ann, ben and cat."
    assert set(Entrant.objects.filter(tournament=done).values_list("final_rank", flat=True)) == {1}


def test_a_swiss_tournament_plays_its_rounds_without_repeating_a_pairing_it_can_avoid(alice, four, make_user):
    players = [*four, make_user("eve"), make_user("fay")]
    tournament = entered(announce(alice, format="swiss", rounds=3), players)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    met = set()
    for _ in range(3):
        for table in tables_of(tournament):
            pair = frozenset(s.entrant_id for s in table.seats.all())
            assert pair not in met
            met.add(pair)
        play_round(tournament)
    assert fresh(tournament).status == Tournament.Status.FINISHED


def test_a_withdrawn_player_resigns_is_not_paired_again_and_stays_in_the_standings(alice, four):
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    ann = four[0]
    table = next(t for t in tables_of(tournament) if ann in seated_users(t))
    services.tournament_withdraw(tournament_id=tournament.pk, user=ann)
    drain_worker()
    match = Match.objects.get(pk=table.match_id)
    assert match.status == Match.Status.FINISHED
    assert match.seats.get(user=ann).resigned
    play_round(tournament)
    assert fresh(tournament).current_round == 2
    ann_entry = Entrant.objects.get(tournament=tournament, user=ann)
    assert ann_entry.withdrawn
    assert not any(ann in seated_users(t) for t in tables_of(tournament))
    # Her round-2 opponent in the schedule gets a bye instead.
    assert Bye.objects.filter(round__tournament=tournament, round__number=2).exists()
    standing = [row.entrant for row in services.tournament_standings(fresh(tournament))]
    assert ann_entry.pk in standing
    with pytest.raises(services.TournamentError, match="withdrawn already"):
        services.tournament_withdraw(tournament_id=tournament.pk, user=ann)


def test_the_creator_cancels_and_nobody_else_can(alice, bob, four):
    tournament = entered(announce(alice), four)
    with pytest.raises(services.TournamentError, match="Only the creator"):
        services.tournament_cancel(tournament_id=tournament.pk, user=bob)
    services.tournament_cancel(tournament_id=tournament.pk, user=alice)
    cancelled = fresh(tournament)
    assert cancelled.status == Tournament.Status.CANCELLED
    assert cancelled.notice == "Cancelled by alice."
    with pytest.raises(services.TournamentError, match="has ended"):
        services.tournament_join(tournament_id=tournament.pk, user=bob)


def test_a_player_with_many_open_matches_is_still_seated(alice, four, settings):
    settings.MAX_OPEN_MATCHES_PER_PERSON = 1
    game_services.match_create(user=four[0], game="game-of-god", num_players=2)
    tournament = entered(announce(alice), four)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    assert sum(four[0] in seated_users(t) for t in tables_of(tournament)) == 1


def test_the_clock_loop_starts_a_tournament_when_its_time_comes(alice, four):
    from django.core.management import call_command

    tournament = entered(announce(alice), four[:2])
    call_command("run_clocks", "--once")
    assert fresh(tournament).status == Tournament.Status.REGISTRATION  # not yet
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    call_command("run_clocks", "--once")
    assert fresh(tournament).status == Tournament.Status.RUNNING
    assert len(tables_of(tournament)) == 1
