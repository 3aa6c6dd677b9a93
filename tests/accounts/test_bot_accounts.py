"""Bot accounts: a person registers bots of their own, separate accounts flagged as bots that
play through the API with their token, never sign in to the pages, never play a rated match
against their owner, and are paused after timing out too often in a row."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.services import AccountError
from challenges import services as challenge_services
from challenges.models import Challenge
from games import services as match_services
from games import tasks
from games.models import Match
from tests.games.helpers import fresh, play_turn
from tests.tournaments.helpers import announce
from tournaments import services as tournament_services
from tournaments.services import TournamentError

pytestmark = pytest.mark.django_db

User = get_user_model()


def by_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def token_refused(client) -> bool:
    response = client.get("/api/challenges/")
    return response.status_code == 403 and "token" in response.json()["message"].lower()


def as_person(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def register(owner, name="Clever", description="Plays the corners first.") -> tuple:
    return account_services.bot_account_create(owner=owner, name=name, description=description)


# ---------------------------------------------------------------------------------------
# Creating a bot, the cap, the token


def test_a_person_registers_a_bot_that_is_a_separate_account_owned_by_them(alice):
    bot, token = register(alice)
    bot = User.objects.get(pk=bot.pk)
    assert bot.is_bot and bot.owner == alice and bot.bot_name == ""
    assert bot.is_bot_account and not bot.is_site_bot
    assert not bot.has_usable_password()
    assert bot.bio == "Plays the corners first."
    assert Token.objects.get(user=bot).key == token
    # The token speaks for the bot.
    assert by_token(token).get("/api/challenges/").status_code == 200


def test_a_person_may_register_only_so_many_bots(alice, settings):
    settings.BOT_ACCOUNTS_PER_PERSON = 2
    register(alice, "One")
    register(alice, "Two")
    with pytest.raises(AccountError) as refused:
        register(alice, "Three")
    assert refused.value.code == "too_many_bots"
    assert "2 bots, the most one person may register" in refused.value.message
    assert not User.objects.filter(username="Three").exists()


def test_a_bot_name_must_be_free_and_a_bot_owns_no_bots(alice, bob):
    with pytest.raises(AccountError, match="taken"):
        register(alice, "BOB")
    bot, _token = register(alice)
    with pytest.raises(AccountError, match="cannot own bots"):
        register(bot, "Child")


def test_a_new_token_ends_the_old_one(alice):
    bot, old = register(alice)
    new = account_services.bot_token_reissue(owner=alice, username=bot.username)
    assert new != old
    assert token_refused(by_token(old))
    assert by_token(new).get("/api/challenges/").status_code == 200


def test_nobody_but_the_owner_manages_a_bot(alice, bob):
    bot, _token = register(alice)
    with pytest.raises(AccountError) as refused:
        account_services.bot_token_reissue(owner=bob, username=bot.username)
    assert refused.value.code == "not_found"


# ---------------------------------------------------------------------------------------
# Never signing in


def test_the_log_in_form_refuses_a_bot_account_with_a_clear_message(client, alice):
    bot, _token = register(alice)
    response = client.post(reverse("account_login"), {"login": bot.username, "password": "anything at all"})
    assert response.status_code == 200
    assert "is a bot account" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_session_is_never_opened_for_a_bot_account(rf, alice):
    """Whatever way in reaches allauth's log-in (a reset link that signs in, a confirmation),
    the adapter says no."""
    from allauth.account.adapter import get_adapter
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.db import SessionStore

    bot, _token = register(alice)
    request = rf.get("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    response = get_adapter(request).pre_login(
        request, bot, email_verification="none", signal_kwargs=None, email=None, signup=False, redirect_url=None
    )
    assert response is not None and response.status_code == 302
    assert "is a bot account" in str(list(request._messages)[0])


def test_a_bot_cannot_get_a_token_with_a_password(alice):
    bot, _token = register(alice)
    response = APIClient().post("/api/auth/token/", {"username": bot.username, "password": ""}, format="json")
    assert response.status_code == 400


# ---------------------------------------------------------------------------------------
# Pages


def test_the_settings_page_registers_a_bot_and_shows_its_token_once(client, alice):
    client.force_login(alice)
    page = client.get(reverse("bot-accounts"))
    assert page.status_code == 200 and "Register a bot" in page.content.decode()
    response = client.post(reverse("bot-accounts"), {"name": "Clever", "description": "Corners first."})
    bot = User.objects.get(username="Clever")
    token = Token.objects.get(user=bot).key
    assert token in response.content.decode()
    assert bot.owner == alice
    # Shown once: the list does not show it again.
    assert token not in client.get(reverse("bot-accounts")).content.decode()
    # A new one, from the same page, replaces it.
    renewed = client.post(reverse("bot-token", args=["Clever"]))
    new = Token.objects.get(user=bot).key
    assert new != token and new in renewed.content.decode()


def test_the_settings_page_says_why_a_bot_is_refused(client, alice, settings):
    settings.BOT_ACCOUNTS_PER_PERSON = 1
    register(alice, "One")
    client.force_login(alice)
    response = client.post(reverse("bot-accounts"), {"name": "Two"})
    assert "1 bot, the most one person may register" in response.content.decode()


def test_a_bot_account_page_has_the_badge_and_names_its_owner(client, alice):
    bot, _token = register(alice)
    html = client.get(bot.get_absolute_url()).content.decode()
    assert '<span class="badge">bot</span>' in html
    assert "A bot account of" in html and "/players/alice/" in html
    assert "Plays the corners first." in html


# ---------------------------------------------------------------------------------------
# Playing by token


def test_a_bot_account_joins_an_open_match_and_plays_by_token_while_the_site_never_plays_for_it(
    alice, bob, monkeypatch
):
    queued = []
    monkeypatch.setattr(tasks, "schedule_bot", lambda *args: queued.append(args))
    bot, token = register(alice)
    match = match_services.match_create(
        user=bob, game="territories", num_players=2, rated=True, speed="live", accepts_bots=True
    )
    joined = by_token(token).post(f"/api/matches/{match.pk}/join/")
    assert joined.status_code == 200 and joined.json()["status"] == "active"
    seat_of_bot = joined.json()["seat"]
    assert joined.json()["seats"][seat_of_bot]["is_bot"] and joined.json()["seats"][seat_of_bot]["bot"] is None

    players = {seat_of_bot: by_token(token), 1 - seat_of_bot: as_person(bob)}
    rng = random.Random(7)
    played = {seat_of_bot: 0, 1 - seat_of_bot: 0}
    for _ in range(6):
        match = fresh(match.pk)
        if match.status != Match.Status.ACTIVE:
            break
        mover = match.to_move
        snapshot = players[mover].get(f"/api/matches/{match.pk}/").json()
        action = rng.choice(snapshot["legal_actions"])["action"]
        response = players[mover].post(
            f"/api/matches/{match.pk}/actions/", {"action": action, "version": snapshot["version"]}, format="json"
        )
        assert response.status_code == 200, response.json()
        played[mover] += 1
    assert played[seat_of_bot] >= 2 and played[1 - seat_of_bot] >= 2
    # Every move was one of ours: no task of the site played a turn for the bot account.
    assert queued == []
    assert fresh(match.pk).moves.exclude(seat=None).count() == sum(played.values())


def test_a_bot_account_is_challenged_and_accepts_or_declines_by_token(alice, bob):
    bot, token = register(alice)
    first = challenge_services.challenge_create(
        user=bob, to=bot, game="territories", num_players=2, speed="untimed", rated=False
    )
    assert first.state == "pending"  # a bot account answers for itself, unlike the site's bots
    listed = by_token(token).get("/api/challenges/?state=pending").json()["results"]
    assert [c["id"] for c in listed] == [first.pk]
    accepted = by_token(token).post(f"/api/challenges/{first.pk}/accept/")
    assert accepted.status_code == 200 and accepted.json()["state"] == "accepted"
    assert Match.objects.get(pk=accepted.json()["match"]).seats.filter(user=bot).exists()

    again = challenge_services.challenge_create(
        user=bob, to=bot, game="territories", num_players=2, speed="untimed", rated=False
    )
    declined = by_token(token).post(f"/api/challenges/{again.pk}/decline/")
    assert declined.status_code == 200 and Challenge.objects.get(pk=again.pk).state == "declined"


def test_a_bot_account_resigns_by_token(alice, bob):
    bot, token = register(alice)
    match = match_services.match_create(
        user=bob, game="territories", num_players=2, rated=False, speed="untimed", accepts_bots=True
    )
    match_services.match_join(match_id=match.pk, user=bot)
    response = by_token(token).post(f"/api/matches/{match.pk}/resign/")
    assert response.status_code == 200
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.seats.get(user=bot).resigned


def test_a_bot_account_enters_a_tournament_by_token(alice, bob):
    bot, token = register(alice)
    tournament = announce(bob, name="Open", accepts_bots=True)
    response = by_token(token).post(f"/api/tournaments/{tournament.pk}/join/")
    assert response.status_code in (200, 201), response.json()
    assert tournament.entrants.filter(user=bot).exists()


def test_a_tournament_of_bot_accounts_alone_needs_a_person_to_start(alice, bob, make_user):
    """Bot accounts, like the site's bots, never make up a tournament's whole field."""
    bots = [register(owner, f"Bot{owner.username}")[0] for owner in (alice, bob)]
    tournament = announce(make_user("carol"), name="Bots only", rated=False, accepts_bots=True)
    for bot in bots:
        tournament_services.tournament_join(tournament_id=tournament.pk, user=bot)
    with pytest.raises(TournamentError, match="at least one person"):
        tournament_services.tournament_start(tournament_id=tournament.pk, user=tournament.creator)


# ---------------------------------------------------------------------------------------
# The owner rule


def test_a_bot_never_joins_a_rated_match_of_its_owner(alice):
    bot, token = register(alice)
    match = match_services.match_create(
        user=alice, game="territories", num_players=2, rated=True, speed="live", accepts_bots=True
    )
    response = by_token(token).post(f"/api/matches/{match.pk}/join/")
    assert response.status_code == 403 and response.json()["code"] == "own_bot"
    assert "never plays a rated match against its own owner" in response.json()["message"]
    # Casual is fine.
    casual = match_services.match_create(
        user=alice, game="territories", num_players=2, rated=False, speed="live", accepts_bots=True
    )
    assert by_token(token).post(f"/api/matches/{casual.pk}/join/").status_code == 200


def test_an_owner_never_joins_a_rated_match_of_their_bot(alice):
    bot, _token = register(alice)
    match = match_services.match_create(user=bot, game="territories", num_players=2, rated=True, speed="live")
    with pytest.raises(AccountError) as refused:
        match_services.match_join(match_id=match.pk, user=alice)
    assert refused.value.code == "own_bot"


def test_a_bot_and_its_owner_never_enter_the_same_rated_tournament(alice, bob):
    bot, _token = register(alice)
    rated = announce(bob, name="Rated cup", accepts_bots=True)
    tournament_services.tournament_join(tournament_id=rated.pk, user=alice)
    with pytest.raises(AccountError) as refused:
        tournament_services.tournament_join(tournament_id=rated.pk, user=bot)
    assert refused.value.code == "own_bot"
    casual = announce(bob, name="Casual cup", rated=False, accepts_bots=True)
    tournament_services.tournament_join(tournament_id=casual.pk, user=bot)
    tournament_services.tournament_join(tournament_id=casual.pk, user=alice)


def test_an_owner_never_challenges_their_bot_to_a_rated_match(alice):
    bot, _token = register(alice)
    response = as_person(alice).post(
        "/api/challenges/",
        {"username": bot.username, "game": "territories", "players": 2, "rated": True, "speed": "live"},
        format="json",
    )
    assert response.status_code == 403 and response.json()["code"] == "own_bot"
    casual = challenge_services.challenge_create(
        user=alice, to=bot, game="territories", num_players=2, speed="untimed", rated=False
    )
    assert casual.state == "pending"


# ---------------------------------------------------------------------------------------
# Pausing after timeouts in a row


def _timed_out_match(person, bot, capture):
    """A live match of ``bot`` against ``person`` that the bot lets run out on its turn."""
    match = match_services.match_create(
        user=bot, game="territories", num_players=2, rated=False, speed="live", seconds_per_move=30
    )
    match_services.match_join(match_id=match.pk, user=person)
    play_turn(match.pk, {1: person}, random.Random(1))  # the person moves first, when it is theirs
    match = fresh(match.pk)
    assert match.to_move == 0
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    with capture(execute=True):
        assert match_services.match_timeout(match_id=match.pk, version=match.version)
    return fresh(match.pk)


def test_a_bot_that_times_out_repeatedly_is_paused_until_its_owner_unpauses_it(
    alice, bob, make_user, settings, django_capture_on_commit_callbacks
):
    settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE = 3
    bot, token = register(alice)
    for _ in range(2):
        _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    assert not User.objects.get(pk=bot.pk).bot_paused
    _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    assert User.objects.get(pk=bot.pk).bot_paused

    # Paused: it can neither join nor be challenged.
    carol = make_user("carol")
    match = match_services.match_create(
        user=carol, game="territories", num_players=2, rated=False, speed="untimed", accepts_bots=True
    )
    response = by_token(token).post(f"/api/matches/{match.pk}/join/")
    assert response.status_code == 409 and response.json()["code"] == "bot_paused"
    with pytest.raises(AccountError, match="paused"):
        challenge_services.challenge_create(
            user=carol, to=User.objects.get(pk=bot.pk), game="territories", num_players=2, speed="untimed", rated=False
        )
    # Its page says so, and offers its owner (only) the way back.
    assert "Unpause" not in as_person(carol).get(bot.get_absolute_url()).content.decode()

    response = as_person(bob).post(f"/api/bots/{bot.username}/unpause/")
    assert response.status_code == 404
    response = as_person(alice).post(f"/api/bots/{bot.username}/unpause/")
    assert response.status_code == 200 and response.json()["paused"] is False
    assert by_token(token).post(f"/api/matches/{match.pk}/join/").status_code == 200
    # The timeouts before the unpausing no longer count: one more does not pause it again.
    _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    assert not User.objects.get(pk=bot.pk).bot_paused


def test_a_finished_match_between_timeouts_breaks_the_streak(alice, bob, settings, django_capture_on_commit_callbacks):
    settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE = 2
    bot, _token = register(alice)
    _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    match = match_services.match_create(
        user=bob, game="territories", num_players=2, rated=False, speed="untimed", accepts_bots=True
    )
    match_services.match_join(match_id=match.pk, user=bot)
    match_services.match_resign(match_id=match.pk, user=bob)
    _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    assert not User.objects.get(pk=bot.pk).bot_paused


def test_the_owner_unpauses_from_the_bot_page(client, alice, bob, settings, django_capture_on_commit_callbacks):
    settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE = 1
    bot, _token = register(alice)
    _timed_out_match(bob, bot, django_capture_on_commit_callbacks)
    client.force_login(alice)
    page = client.get(bot.get_absolute_url()).content.decode()
    assert "Paused after timing out 1 times in a row" in page and "Unpause Clever" in page
    response = client.post(reverse("bot-unpause", args=[bot.username]), follow=True)
    assert "may join matches and be challenged again" in response.content.decode()
    assert not User.objects.get(pk=bot.pk).bot_paused


# ---------------------------------------------------------------------------------------
# The API of bot accounts


def test_the_api_registers_lists_and_renews_tokens(alice, bob, settings):
    settings.BOT_ACCOUNTS_PER_PERSON = 1
    created = as_person(alice).post("/api/bots/", {"name": "Clever", "description": "Corners."}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["username"], body["owner"], body["paused"]) == ("Clever", "alice", False)
    assert by_token(body["token"]).get("/api/challenges/").status_code == 200

    listed = as_person(alice).get("/api/bots/").json()
    assert [row["username"] for row in listed["results"]] == ["Clever"] and "token" not in listed["results"][0]
    assert as_person(bob).get("/api/bots/").json()["results"] == []

    over = as_person(alice).post("/api/bots/", {"name": "Other"}, format="json")
    assert over.status_code == 409 and over.json()["code"] == "too_many_bots"

    renewed = as_person(alice).post("/api/bots/Clever/token/")
    assert renewed.status_code == 200
    assert token_refused(by_token(body["token"]))
    assert by_token(renewed.json()["token"]).get("/api/challenges/").status_code == 200
    # A bot's own token manages no bots.
    assert by_token(renewed.json()["token"]).post("/api/bots/", {"name": "Child"}, format="json").status_code == 403


def test_a_bot_account_cannot_set_the_sites_bots_to_work(alice):
    """The site's bots think on its workers for people: a bot account's match gets none."""
    bot, token = register(alice)
    created = by_token(token).post("/api/matches/", {"game": "territories", "players": 2}, format="json")
    assert created.status_code == 201
    response = by_token(token).post(
        f"/api/matches/{created.json()['id']}/seats/1/bot/", {"bot": "random"}, format="json"
    )
    assert response.status_code == 403 and "cannot seat the site's bots" in response.json()["message"]


# ---------------------------------------------------------------------------------------
# "Accepts bots": the creator of an open match or a tournament lets bot accounts in


def test_a_bot_account_takes_a_free_seat_only_where_the_creator_accepts_bots(alice, bob):
    bot, token = register(alice)
    closed = match_services.match_create(user=bob, game="territories", num_players=2, rated=False, speed="untimed")
    refused = by_token(token).post(f"/api/matches/{closed.pk}/join/")
    assert refused.status_code == 403 and refused.json()["code"] == "bots_not_accepted"
    assert "does not accept bot accounts" in refused.json()["message"]
    assert fresh(closed.pk).status == Match.Status.OPEN and not fresh(closed.pk).seats.filter(user=bot).exists()
    # A person still joins it.
    carol = User.objects.create_user("carol", password="x" * 12)
    assert as_person(carol).post(f"/api/matches/{closed.pk}/join/").status_code == 200

    created = as_person(bob).post(
        "/api/matches/",
        {"game": "territories", "players": 2, "rated": False, "speed": "untimed", "accepts_bots": True},
        format="json",
    )
    assert created.status_code == 201
    listed = by_token(token).get("/api/matches/?game=territories").json()["results"]
    assert [(m["id"], m["accepts_bots"]) for m in listed] == [(created.json()["id"], True)]
    assert by_token(token).post(f"/api/matches/{created.json()['id']}/join/").status_code == 200


def test_the_lobby_form_sets_accepts_bots_and_the_lobby_shows_it(client, alice, bob):
    client.force_login(bob)
    response = client.post(
        reverse("match-new"),
        {
            "game": "territories",
            "num_players": 2,
            "time_control": "live-90",
            "rated": "on",
            "visibility": "public",
            "accepts_bots": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:500]
    match = Match.objects.get(creator=bob)
    assert match.accepts_bots
    assert "accepts bots" in client.get(reverse("lobby")).content.decode()
    assert "accepts bots" in client.get(match.get_absolute_url()).content.decode()


def test_a_bot_account_enters_only_a_tournament_that_accepts_bots(client, alice, bob):
    bot, token = register(alice)
    closed = announce(bob, name="People only")
    refused = by_token(token).post(f"/api/tournaments/{closed.pk}/join/")
    assert refused.status_code == 403 and refused.json()["code"] == "bots_not_accepted"
    assert not closed.entrants.filter(user=bot).exists()
    open_cup = announce(bob, name="Bots welcome", accepts_bots=True)
    assert by_token(token).post(f"/api/tournaments/{open_cup.pk}/join/").status_code in (200, 201)
    assert by_token(token).get(f"/api/tournaments/{open_cup.pk}/").json()["accepts_bots"] is True
    assert "accepts bots" in client.get(open_cup.get_absolute_url()).content.decode()
    assert "accepts bots" not in client.get(closed.get_absolute_url()).content.decode()


def test_the_sites_bots_are_seated_whatever_accepts_bots_says(alice):
    match = match_services.match_create(user=alice, game="territories", num_players=2, rated=False, speed="untimed")
    match_services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    assert fresh(match.pk).status == Match.Status.ACTIVE


# ---------------------------------------------------------------------------------------
# Challenges sent by bot accounts


def _challenge(client, username, rated=False):
    return client.post(
        "/api/challenges/",
        {"username": username, "game": "territories", "players": 2, "rated": rated, "speed": "live"},
        format="json",
    )


def test_a_bot_account_challenges_a_person_and_another_bot_by_token(alice, bob):
    bot, token = register(alice)
    other, other_token = register(bob, "Rival")
    to_person = _challenge(by_token(token), "bob", rated=True)
    assert to_person.status_code == 201, to_person.json()
    assert Challenge.objects.get(pk=to_person.json()["id"]).challenger == bot
    to_bot = _challenge(by_token(token), "Rival", rated=True)
    assert to_bot.status_code == 201
    accepted = by_token(other_token).post(f"/api/challenges/{to_bot.json()['id']}/accept/")
    assert accepted.status_code == 200
    match = Match.objects.get(pk=accepted.json()["match"])
    assert {seat.user for seat in match.seats.all()} == {bot, other}


def test_a_bot_account_never_challenges_its_owner_to_a_rated_match(alice):
    bot, token = register(alice)
    refused = _challenge(by_token(token), "alice", rated=True)
    assert refused.status_code == 403 and refused.json()["code"] == "own_bot"
    assert not Challenge.objects.exists()
    assert _challenge(by_token(token), "alice", rated=False).status_code == 201


def test_a_bot_account_has_at_most_so_many_challenges_waiting(alice, make_user, settings):
    settings.BOT_ACCOUNT_PENDING_CHALLENGES = 2
    bot, token = register(alice)
    people = [make_user(f"person{i}") for i in range(3)]
    for person in people[:2]:
        assert _challenge(by_token(token), person.username).status_code == 201
    refused = _challenge(by_token(token), people[2].username)
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_pending"
    assert "at most 2" in refused.json()["message"]
    assert Challenge.objects.filter(challenger=bot).count() == 2


def test_a_paused_bot_account_cannot_challenge(alice, bob):
    bot, token = register(alice)
    User.objects.filter(pk=bot.pk).update(bot_paused_at=timezone.now())
    refused = _challenge(by_token(token), "bob")
    assert refused.status_code == 409 and refused.json()["code"] == "bot_paused"
    assert not Challenge.objects.exists()
