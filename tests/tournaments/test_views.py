"""The tournament pages: the list, the create form and its errors, the tournament page with
its buttons, standings and rounds, and the sections on the game and player pages."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match
from tests.conftest import drain_worker
from tournaments import services
from tournaments.models import Tournament

from .helpers import announce, fresh, play_round, tables_of

pytestmark = pytest.mark.django_db(transaction=True)


def form_data(**overrides):
    data = {
        "name": "Friday night",
        "game": "territories",
        "table_size": "2",
        "format": "round_robin",
        "speed": "live",
        "seconds_per_move": "90",
        "days_per_move": "3",
        "rated": "on",
        "starts_at": (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"),
        "rounds": "",
    }
    data.update(overrides)
    return data


def started_with_bots(creator, bots=("random", "greedy", "random", "greedy"), **choices):
    tournament = announce(creator, **choices)
    for bot in bots:
        services.tournament_add_bot(tournament_id=tournament.pk, user=creator, bot=bot)
    return tournament


# -- creating --------------------------------------------------------------------------


def test_creating_needs_an_account(client):
    response = client.get("/tournaments/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_signed_in_player_creates_a_tournament_from_the_form(client, alice):
    client.force_login(alice)
    response = client.post("/tournaments/new/", form_data())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.pk}/"
    assert (tournament.name, tournament.creator, tournament.seconds_per_move) == ("Friday night", alice, 90)
    page = client.get(response["Location"]).content.decode()
    assert "Your tournament is announced" in page
    assert "Discuss this tournament" in page


def test_the_form_lets_bot_accounts_in_only_when_accepts_bots_is_ticked(client, alice):
    client.force_login(alice)
    client.post("/tournaments/new/", form_data(name="People only"))
    client.post("/tournaments/new/", form_data(name="Bots welcome", accepts_bots="on"))
    assert dict(Tournament.objects.values_list("name", "accepts_bots")) == {"People only": False, "Bots welcome": True}
    listing = client.get("/tournaments/").content.decode()
    assert listing.count("accepts bots") == 1


@pytest.mark.parametrize(
    ("overrides", "error"),
    [
        ({"name": ""}, "This field is required."),
        ({"table_size": "4"}, "Territories is played by 2 players, not 4."),
        ({"starts_at": "2001-01-01T10:00"}, "The start must be in the future."),
        ({"starts_at": "tomorrow"}, "Enter a valid date/time."),
        ({"rounds": "3"}, "A round robin plays every pairing once: leave the number of rounds empty."),
        ({"speed": "untimed"}, "Select a valid choice."),
        ({"speed": "correspondence", "days_per_move": ""}, None),
    ],
)
def test_the_form_says_what_is_wrong_and_creates_nothing(client, alice, overrides, error):
    client.force_login(alice)
    response = client.post("/tournaments/new/", form_data(**overrides))
    if error is None:  # an empty days per move takes the default
        assert response.status_code == 302
        assert Tournament.objects.get().seconds_per_move == 3 * 86400
        return
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_creator_edits_before_the_start(client, alice, bob):
    tournament = announce(alice)
    client.force_login(bob)
    refused = client.post(f"/tournaments/{tournament.pk}/edit/", form_data(name="Hijacked"), follow=True)
    assert "Only the creator of the tournament can edit it." in refused.content.decode()
    assert fresh(tournament).name == "Autumn cup"
    client.force_login(alice)
    assert 'value="Autumn cup"' in client.get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    response = client.post(f"/tournaments/{tournament.pk}/edit/", form_data(name="Spring cup"))
    assert response.status_code == 302
    assert fresh(tournament).name == "Spring cup"


# -- the tournament page ---------------------------------------------------------------


def test_a_visitor_enters_and_withdraws_with_the_buttons(client, alice, bob):
    tournament = announce(alice)
    url = f"/tournaments/{tournament.pk}/"
    assert "Sign in</a> to enter" in client.get(url).content.decode()
    client.force_login(bob)
    assert "Enter this tournament" in client.get(url).content.decode()
    client.post(f"{url}join/")
    page = client.get(url).content.decode()
    assert "You are in." in page and "Withdraw my entry" in page
    assert fresh(tournament).entrants.filter(user=bob).exists()
    client.post(f"{url}withdraw/")
    assert not fresh(tournament).entrants.exists()


def test_a_refused_entry_is_explained(client, alice, bob):
    tournament = announce(alice)
    services.tournament_cancel(tournament_id=tournament.pk, user=alice)
    client.force_login(bob)
    page = client.post(f"/tournaments/{tournament.pk}/join/", follow=True).content.decode()
    assert "This tournament has ended." in page
    assert "Cancelled by alice." in page


def test_the_creator_enters_bots_and_starts_early_and_the_page_shows_the_round(client, alice):
    tournament = announce(alice)
    url = f"/tournaments/{tournament.pk}/"
    client.force_login(alice)
    client.post(f"{url}join/")  # bots fill the tables of a tournament a person plays in
    for bot in ("random", "greedy"):
        client.post(f"{url}bots/", {"bot": bot})
    page = client.get(url).content.decode()
    assert page.count('<span class="badge">bot</span>') == 2
    client.post(f"{url}start/")
    started = fresh(tournament)
    assert started.status == Tournament.Status.RUNNING
    (table,) = tables_of(started)
    page = client.get(url).content.decode()
    assert f'href="/matches/{table.match_id}/">Table 1: match #{table.match_id}</a>' in page
    assert "Round 1" in page


def test_a_reader_of_spanish_reads_the_tournaments_in_spanish(client, alice):
    tournament = announce(alice)
    spanish = {"Accept-Language": "es"}
    listing = client.get("/tournaments/", headers=spanish).content.decode()
    assert "Inscripción abierta" in listing and "Autumn cup" in listing and "Taking entries" not in listing
    client.force_login(alice)
    page = client.get(f"/tournaments/{tournament.pk}/", headers=spanish).content.decode()
    assert "Todos contra todos de" in page and "Dirige tu torneo" in page and "Run your tournament" not in page


def test_only_the_creator_sees_the_organiser_buttons(client, alice, bob):
    tournament = announce(alice)
    client.force_login(bob)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Run your tournament" not in page
    client.post(f"/tournaments/{tournament.pk}/start/")
    assert fresh(tournament).status == Tournament.Status.REGISTRATION


def test_the_standings_name_their_tie_breaks_and_show_byes(client, alice):
    tournament = started_with_bots(alice, bots=("random", "greedy"))
    services.tournament_join(tournament_id=tournament.pk, user=alice)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    from tests.conftest import wait_for

    from .helpers import resign, seated_users

    def ended():
        for table in tables_of(tournament):  # alice resigns each table of hers
            if table.match.status == Match.Status.ACTIVE and alice in seated_users(table):
                resign(table, alice)
        return fresh(tournament).status == Tournament.Status.FINISHED

    wait_for(ended, timeout=120, message="the end")
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Ties are broken by Buchholz, then Sonneborn-Berger, then Wins." in page
    assert '<th scope="col" class="num">Buchholz</th>' in page
    assert page.count("Bye: ") == 3  # one a round, each entrant once
    if fresh(tournament).winner is not None:
        assert "Winner:" in page
    else:  # three bots that beat one another in a cycle share first place, and are named
        assert "Winner:" not in page and "Shared first place: " in page


def test_an_invitation_only_tournament_is_hidden_without_its_link(client, alice, bob):
    tournament = announce(alice, invite_only=True)
    url = f"/tournaments/{tournament.pk}/"
    assert client.get(url).status_code == 404
    assert tournament.name not in client.get("/tournaments/").content.decode()
    client.force_login(bob)
    response = client.get(f"{url}?token={tournament.invite_token}")
    assert response.status_code == 200
    client.post(f"{url}join/", {"token": tournament.invite_token})
    assert fresh(tournament).entrants.filter(user=bob).exists()
    assert client.get(url).status_code == 200  # an entrant needs no link any more


def test_the_live_part_is_the_standings_and_rounds_alone(client, alice, make_user):
    tournament = announce(alice)
    for name in ("ann", "ben"):
        services.tournament_join(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    part = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    assert part.startswith('<div id="tournament-live-part">')
    assert "<html" not in part and "Standings" in part


# -- the lists -------------------------------------------------------------------------


def test_the_list_shows_upcoming_running_and_finished_tournaments(client, alice):
    announce(alice, name="Next week")
    running = started_with_bots(alice, name="Going on", bots=("random",))
    services.tournament_join(tournament_id=running.pk, user=alice)
    services.tournament_start(tournament_id=running.pk, user=alice)
    cancelled = announce(alice, name="Called off")
    services.tournament_cancel(tournament_id=cancelled.pk, user=alice)
    page = client.get("/tournaments/").content.decode()
    taking, playing, finished = (page.index(h) for h in ("Taking entries</h2>", "Being played</h2>", "Finished</h2>"))
    assert taking < page.index("Next week") < playing < page.index("Going on") < finished < page.index("Called off")


def test_the_list_is_paged(client, make_user, settings):
    settings.MAX_OPEN_TOURNAMENTS_PER_PERSON = 25
    creators = [make_user() for _ in range(5)]  # 5 tournaments an hour per person at most
    for n in range(25):
        announce(creators[n % 5], name=f"Cup {n:02d}", starts_at=timezone.now() + timedelta(hours=1, minutes=n))
    first = client.get("/tournaments/").content.decode()
    assert "Cup 09" in first and "Cup 10" not in first and "All taking entries" in first
    page_two = client.get("/tournaments/?status=upcoming&page=2").content.decode()
    assert "Cup 20" in page_two and "Cup 19" not in page_two


def test_the_game_page_shows_its_tournaments_and_catches_up_with_changes(client, alice):
    before = client.get("/games/territories/").content.decode()
    assert "No Territories tournament yet." in before
    announce(alice, name="Territory weekend")
    assert "Territory weekend" in client.get("/games/territories/").content.decode()
    assert "Territory weekend" not in client.get("/games/game-of-god/").content.decode()


def test_the_player_page_shows_the_places_in_tournaments(client, alice, make_user):
    tournament = announce(alice)
    ann, ben = make_user("ann"), make_user("ben")
    for user in (ann, ben):
        services.tournament_join(tournament_id=tournament.pk, user=user)
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    (table,) = tables_of(tournament)
    first = table.seats.all()[0].entrant.user
    play_round(tournament)
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED
    winner_page = client.get(f"/players/{first.username}/").content.decode()
    assert (
        "1 tournament won." in winner_page
        and "<strong>Won</strong> <a href=" in winner_page
        and "</a> against 1 other <span" in winner_page
    )
    loser = ben if first == ann else ann
    assert "Place 2 of 2 in" in client.get(f"/players/{loser.username}/").content.decode()


# -- the socket ------------------------------------------------------------------------


def test_the_socket_tells_anyone_watching_when_a_table_finishes_and_refuses_bad_frames(alice, make_user, monkeypatch):
    import asyncio
    import json

    from asgiref.sync import sync_to_async
    from channels import auth
    from channels.testing import WebsocketCommunicator
    from django.contrib.auth.models import AnonymousUser

    from games import services as game_services
    from portal.asgi import application

    from .helpers import seated_users

    async def anonymous(self, scope):
        scope["user"]._wrapped = AnonymousUser()

    monkeypatch.setattr(auth.AuthMiddleware, "resolve_scope", anonymous)
    tournament = announce(alice)
    secret = announce(alice, invite_only=True)
    for name in ("ann", "ben"):
        services.tournament_join(tournament_id=tournament.pk, user=make_user(name))
    services.tournament_start(tournament_id=tournament.pk, user=alice)
    (table,) = tables_of(tournament)
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost")]

    async def watch():
        refused = WebsocketCommunicator(application, f"/ws/tournaments/{secret.pk}/", headers=headers)
        connected, code = await refused.connect(timeout=10)
        assert not connected and code == 4403
        invited = WebsocketCommunicator(
            application, f"/ws/tournaments/{secret.pk}/?token={secret.invite_token}", headers=headers
        )
        assert (await invited.connect(timeout=10))[0]
        await invited.disconnect()

        ws = WebsocketCommunicator(application, f"/ws/tournaments/{tournament.pk}/", headers=headers)
        assert (await ws.connect(timeout=10))[0]
        await ws.send_to(text_data="[" * 50)
        error = json.loads(await ws.receive_from(timeout=10))
        assert error == {"type": "error", "code": "bad_request", "message": "JSON may nest at most 20 levels deep."}
        await ws.send_to(text_data=json.dumps({"type": "act"}))
        assert json.loads(await ws.receive_from(timeout=10))["code"] == "bad_request"
        await ws.send_to(text_data=json.dumps({"type": "ping"}))
        assert json.loads(await ws.receive_from(timeout=10)) == {"type": "pong"}
        loser = seated_users(table)[1]
        await sync_to_async(game_services.match_resign)(match_id=table.match_id, user=loser)
        assert json.loads(await ws.receive_from(timeout=10)) == {"type": "changed"}
        await ws.disconnect()

    asyncio.run(watch())
    drain_worker()
    assert fresh(tournament).status == Tournament.Status.FINISHED  # one table, one round
