"""A tournament calls its players to their tables: a notification, said at once on their open
pages (``/ws/me/``) and e-mailed to those away with the e-mail setting on; a table's match page
links back to its tournament, counts down the first move's clock, and offers no rematch outside
the tournament; the tournament page's live part carries its status, winner and buttons."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from challenges import services as challenge_services
from challenges.services import ChallengeError
from games import services as game_services
from games.models import Match
from notifications.models import Notification, NotificationSettings
from tests.notifications.helpers import last_seen
from tournaments import services

from .helpers import announce, fresh, play_round, seated_users, tables_of

# Rounds advance after commit (the match_finished signal): real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tasks_in_process(monkeypatch):
    """The notice mail's task runs here (its mail lands in ``mailoutbox``), even with a worker."""
    from portal.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture
def four(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


def started(creator, people, **choices):
    tournament = announce(creator, name="Night cup", **choices)
    for user in people:
        services.tournament_join(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, user=creator)
    return fresh(tournament)


def table_calls(user):
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.TABLE_READY).order_by("id"))


def test_every_person_at_a_new_table_is_told_their_table_is_ready(alice, four):
    tournament = started(alice, four)
    for table in tables_of(tournament):
        for user in seated_users(table):
            (call,) = table_calls(user)
            assert call.text == f"Your table is ready: round 1 of Night cup, Territories #{table.match_id}."
            assert call.url == f"/matches/{table.match_id}/"
            assert not call.read


def test_the_next_rounds_tables_call_their_players_again(alice, four):
    tournament = started(alice, four)
    play_round(tournament)
    tournament = fresh(tournament)
    assert tournament.current_round == 2
    for table in tables_of(tournament):
        for user in seated_users(table):
            assert [call.url for call in table_calls(user)][-1] == f"/matches/{table.match_id}/"
            assert table_calls(user)[-1].text.startswith("Your table is ready: round 2 of Night cup")


def test_a_table_mail_that_cannot_be_queued_leaves_the_start_and_its_calls_in_place(alice, four, monkeypatch):
    """Redis down for a moment as the tables are made: the e-mails are not queued (the failure
    is logged), and the tournament starts with every call on the site all the same."""
    from notifications import tasks as notification_tasks
    from portal.redis_pool import RedisDown

    def broker_down(*args, **kwargs):
        raise RedisDown("Redis is down: notifications.tasks.send_notice_mail not queued")

    monkeypatch.setattr(notification_tasks.send_notice_mail, "delay", broker_down)
    tournament = started(alice, four)
    assert tournament.status == "running" and tables_of(tournament)
    assert all(table_calls(user) for table in tables_of(tournament) for user in seated_users(table))


def test_bots_are_not_called(alice, four):
    tournament = announce(alice, name="Night cup")
    services.tournament_join(tournament_id=tournament.pk, user=four[0])
    services.tournament_add_bot(tournament_id=tournament.pk, user=alice, bot="random")
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    (table,) = tables_of(tournament)
    bot = next(user for user in seated_users(table) if user.is_bot)
    assert table_calls(four[0]) and not Notification.objects.filter(user=bot).exists()


def test_a_player_away_with_the_mail_on_is_mailed_the_call(alice, four, tasks_in_process, mailoutbox):
    for user in four:
        last_seen(user, timedelta(hours=1))
    NotificationSettings.objects.filter(user=four[1]).update(email_your_turn=False)
    started(alice, four)
    mailed = sorted(address for mail in mailoutbox for address in mail.to)
    assert mailed == sorted(user.email for user in four if user != four[1])
    mail = next(mail for mail in mailoutbox if mail.to == [four[0].email])
    assert mail.subject == "Your table is ready"
    assert "round 1 of Night cup" in mail.body and "/matches/" in mail.body


def test_the_call_states_the_first_moves_deadline_in_the_players_zone(alice, four, tasks_in_process, mailoutbox):
    for user in four:
        last_seen(user, timedelta(hours=1))
    four[0].time_zone = "America/Sao_Paulo"
    four[0].save(update_fields=["time_zone"])
    started(alice, four, speed="correspondence", seconds_per_move=None, days_per_move=2)
    match = Match.objects.get(seats__user=four[0])
    mail = next(mail for mail in mailoutbox if mail.to == [four[0].email])
    assert match.deadline is not None
    due = match.deadline.astimezone(ZoneInfo("America/Sao_Paulo"))
    assert f"Your first move is due by {due:%a %d %b %Y, %H:%M} (America/Sao_Paulo)." in mail.body


def test_a_player_on_the_site_is_not_mailed_the_call(alice, four, tasks_in_process, mailoutbox):
    for user in four:
        last_seen(user, timedelta(minutes=1))
    started(alice, four)
    assert mailoutbox == []


def test_a_tables_match_links_back_to_its_tournament_and_counts_down_its_first_move(client, alice, four):
    tournament = started(alice, four)
    table = tables_of(tournament)[0]
    client.force_login(seated_users(table)[0])
    page = client.get(f"/matches/{table.match_id}/").content.decode()
    assert f'Round 1, table 1 of <a href="/tournaments/{tournament.pk}/">Night cup</a>' in page
    assert 'id="table-ready"' in page and "Your table is ready" in page


def test_a_table_whose_first_move_was_made_has_no_countdown(client, alice, four):
    from tests.notifications.helpers import play_one_move

    tournament = started(alice, four)
    table = tables_of(tournament)[0]
    play_one_move(table.match)
    client.force_login(seated_users(table)[0])
    page = client.get(f"/matches/{table.match_id}/").content.decode()
    assert "Night cup" in page and 'id="table-ready"' not in page


def test_a_finished_table_offers_no_rematch_and_the_service_refuses_one(client, alice, four):
    tournament = started(alice, four)
    table = tables_of(tournament)[0]
    first, second = seated_users(table)
    game_services.match_resign(match_id=table.match_id, user=second)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    client.force_login(first)
    page = client.get(f"/matches/{table.match_id}/").content.decode()
    assert 'id="rematch"' not in page and "rematch-data" not in page
    with pytest.raises(ChallengeError) as refused:
        challenge_services.rematch_offer(match_id=table.match_id, user=first)
    assert refused.value.code == "forbidden"
    assert str(refused.value.message) == (
        "This match was a table of the tournament “Night cup”: "
        "its players meet again only as the tournament pairs them."
    )


def test_the_live_part_carries_the_status_the_winner_and_the_buttons(client, alice, bob, four):
    tournament = announce(alice, name="Night cup")  # two entrants: one round, one table
    client.force_login(bob)
    part = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    assert "Taking entries" in part and "Enter this tournament" in part

    for user in four[:2]:
        services.tournament_join(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    part = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    assert "Being played" in part and "round 1 of 1" in part and "Enter this tournament" not in part

    play_round(tournament)
    tournament = fresh(tournament)
    assert tournament.status == "finished" and tournament.winner is not None
    part = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    assert "Finished" in part and "Winner: <a" in part and tournament.winner.username in part
    assert "Enter this tournament" not in part and "Withdraw" not in part


def test_the_call_is_mailed_in_each_players_own_language(alice, four, tasks_in_process, mailoutbox):
    for user in four:
        last_seen(user, timedelta(hours=1))
    four[0].language = "de"
    four[0].save(update_fields=["language"])
    started(alice, four, speed="correspondence", seconds_per_move=None, days_per_move=2)
    german = next(mail for mail in mailoutbox if mail.to == [four[0].email])
    match = Match.objects.get(seats__user=four[0])
    assert german.subject == "Dein Tisch ist bereit"
    assert german.body.startswith(
        f"Hallo {four[0].username},\n\nDein Tisch ist bereit: Runde 1 von Night cup, Territories #{match.pk}.\n"
        "Dein erster Zug ist fällig bis "
    )
    assert "Your table" not in german.body and "Stop these e-mails" not in german.body
    english = next(mail for mail in mailoutbox if mail.to == [four[1].email])
    assert english.subject == "Your table is ready"
    assert english.body.startswith(f"Hello {four[1].username},\n\nYour table is ready: round 1 of Night cup")
    assert "Dein" not in english.body
