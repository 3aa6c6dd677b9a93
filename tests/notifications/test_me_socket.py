"""/ws/me/: the header's counts (matches waiting for your move, unread notifications), live,
through the real ASGI application and channel layer."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from forums import services as forums
from forums.models import Forum
from games import services, state_cache
from games.models import Match
from notifications import selectors as notification_selectors
from notifications.models import NotificationSettings
from portal.asgi import application
from tests.games.test_socket import HOST, patch_auth  # noqa: F401 - a fixture used below

from .helpers import correspondence, waiting_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def me_socket(patch_auth, user):  # noqa: F811
    patch_auth["user"] = user
    communicator = WebsocketCommunicator(application, "/ws/me/", headers=HOST)
    connected, code = await communicator.connect(timeout=10)
    return communicator, connected, code


async def next_frame(ws, kind="counts", timeout=10):
    while True:
        frame = json.loads(await ws.receive_from(timeout=timeout))
        if frame["type"] == kind:
            return frame


def move_for(match_id):
    """The person to move plays their first legal action (until someone else is to move)."""
    from tests.games.helpers import fresh

    match = fresh(match_id)
    mover = waiting_for(match)
    while True:
        state = state_cache.load(match)
        services.match_act(match_id=match.pk, user=mover, action=state.legal_actions()[0], version=match.version)
        match = fresh(match_id)
        if match.status != "active" or waiting_for(match) != mover:
            return match


async def test_an_anonymous_visitor_is_refused(patch_auth):  # noqa: F811
    ws, connected, _ = await me_socket(patch_auth, AnonymousUser())
    assert not connected


async def test_the_counts_arrive_on_connect_and_follow_the_turn(alice, bob, patch_auth):  # noqa: F811
    match = await sync_to_async(correspondence)(alice, bob)
    first = await sync_to_async(waiting_for)(match)
    other = bob if first == alice else alice
    ws_first, ok, _ = await me_socket(patch_auth, first)
    assert ok
    ws_other, ok, _ = await me_socket(patch_auth, other)
    assert ok
    assert await next_frame(ws_first) == {"type": "counts", "your_turn": 1, "unread": 0}
    assert await next_frame(ws_other) == {"type": "counts", "your_turn": 0, "unread": 0}

    await sync_to_async(move_for)(match.pk)  # now it is the other's move
    assert (await next_frame(ws_other))["your_turn"] == 1
    assert (await next_frame(ws_first))["your_turn"] == 0
    await ws_first.disconnect()
    await ws_other.disconnect()


async def test_a_match_that_starts_after_connecting_is_followed(alice, bob, patch_auth):  # noqa: F811
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    assert (await next_frame(ws))["your_turn"] == 0
    match = await sync_to_async(services.match_create)(user=bob, game="game-of-god", num_players=2)
    await sync_to_async(services.match_join)(match_id=match.pk, user=alice)
    from tests.games.helpers import fresh

    match = await sync_to_async(fresh)(match.pk)
    if await sync_to_async(waiting_for)(match) != alice:
        await sync_to_async(move_for)(match.pk)
    assert (await next_frame(ws))["your_turn"] == 1
    await ws.disconnect()


async def test_a_move_made_while_the_socket_reads_its_matches_is_counted(alice, bob, patch_auth, monkeypatch):  # noqa: F811
    """The socket reads the person's matches, then joins each one's players: bob moving in
    between (a bot answers at once) is told to a group it has not joined yet. It still counts
    that it is now alice's turn."""
    match = await sync_to_async(correspondence)(alice, bob)
    if await sync_to_async(waiting_for)(match) == alice:
        match = await sync_to_async(move_for)(match.pk)
    assert await sync_to_async(waiting_for)(match) == bob
    read = notification_selectors.listening_seats
    moved: list[Match] = []

    def bob_moves_after_the_read(user_id, limit):
        seats = read(user_id, limit)
        if not moved:
            moved.append(move_for(match.pk))
        return seats

    monkeypatch.setattr(notification_selectors, "listening_seats", bob_moves_after_the_read)
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    assert (await next_frame(ws))["your_turn"] == 1
    assert moved and await sync_to_async(waiting_for)(moved[0]) == alice
    await ws.disconnect()


async def test_a_new_notification_raises_the_unread_count(alice, bob, patch_auth):  # noqa: F811
    general = await sync_to_async(Forum.objects.get)(slug="general")
    topic = await sync_to_async(forums.topic_create)(forum_id=general.pk, user=alice, title="Hi", body="Hello")
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    assert (await next_frame(ws))["unread"] == 0
    await sync_to_async(forums.post_create)(topic_id=topic.pk, user=bob, body="Hello to you")
    assert (await next_frame(ws))["unread"] == 1
    await ws.disconnect()


async def test_bad_frames_get_an_error_and_the_socket_stays_open(alice, patch_auth):  # noqa: F811
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    await next_frame(ws)
    for raw in ("not json", "[1, 2]", '{"type": "act"}', "[" * 100 + "]" * 100, '"' + "x" * 5000 + '"'):
        await ws.send_to(text_data=raw)
        error = await next_frame(ws, "error")
        assert error["code"] == "bad_request" and error["message"]
    await ws.send_to(text_data='{"type": "ping"}')
    assert await next_frame(ws, "pong") == {"type": "pong"}
    await ws.disconnect()


async def test_an_open_socket_notes_that_its_person_is_on_the_site(alice, patch_auth):  # noqa: F811
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    await next_frame(ws)
    seen = await sync_to_async(lambda: NotificationSettings.objects.get(user=alice).last_seen)()
    assert seen is not None
    await ws.disconnect()


async def test_matches_beyond_those_followed_live_are_still_counted(alice, bob, make_user, patch_auth, monkeypatch):  # noqa: F811
    from notifications import consumers

    from .helpers import until_waiting_for

    monkeypatch.setattr(consumers, "FOLLOW_AT_MOST", 1)
    carol = await sync_to_async(make_user)("carol")
    for opponent in (bob, carol):
        match = await sync_to_async(correspondence)(alice, opponent)
        await sync_to_async(until_waiting_for)(match, alice)
    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    assert (await next_frame(ws))["your_turn"] == 2
    await ws.disconnect()


async def test_resigning_takes_the_match_off_the_count(alice, bob, patch_auth):  # noqa: F811
    match = await sync_to_async(correspondence)(alice, bob)
    first = await sync_to_async(waiting_for)(match)
    ws, ok, _ = await me_socket(patch_auth, first)
    assert ok
    assert (await next_frame(ws))["your_turn"] == 1
    await sync_to_async(services.match_resign)(match_id=match.pk, user=first)
    assert (await next_frame(ws))["your_turn"] == 0
    await ws.disconnect()


async def test_a_table_ready_reaches_the_players_open_pages_as_a_notice(alice, bob, make_user, patch_auth):  # noqa: F811
    from tests.tournaments.helpers import announce, tables_of
    from tournaments import services as tournaments

    def start_a_tournament():
        tournament = announce(make_user("tom"), name="Night cup")
        for user in (alice, bob):
            tournaments.tournament_join(tournament_id=tournament.pk, user=user)
        tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.creator)
        return tables_of(tournament)[0].match_id

    ws, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    assert await next_frame(ws) == {"type": "counts", "your_turn": 0, "unread": 0}
    match_id = await sync_to_async(start_a_tournament)()
    frames: list[dict] = []
    while not any(f["type"] == "notice" for f in frames) or not any(f.get("unread") == 1 for f in frames):
        frames.append(json.loads(await ws.receive_from(timeout=10)))
    assert next(f for f in frames if f["type"] == "notice") == {
        "type": "notice",
        "title": "Your table is ready",
        "text": f"Your table is ready: round 1 of Night cup, Territories #{match_id}.",
        "url": f"/matches/{match_id}/",
    }
    await ws.disconnect()


async def test_a_notice_reaches_each_page_in_its_language(alice, bob, make_user, patch_auth):  # noqa: F811
    from accounts.models import User
    from tests.tournaments.helpers import announce, tables_of
    from tournaments import services as tournaments

    def start_a_tournament():
        tournament = announce(make_user("tom"), name="Night cup")
        for user in (alice, bob):
            tournaments.tournament_join(tournament_id=tournament.pk, user=user)
        tournaments.tournament_start(tournament_id=tournament.pk, user=tournament.creator)
        return tables_of(tournament)[0].match_id

    await sync_to_async(User.objects.filter(pk=alice.pk).update)(language="fr")
    french = await sync_to_async(User.objects.get)(pk=alice.pk)
    ws, ok, _ = await me_socket(patch_auth, french)
    assert ok
    match_id = await sync_to_async(start_a_tournament)()
    notice = await next_frame(ws, "notice")
    assert notice["title"] == "Votre table est prête"
    assert notice["text"] == f"Votre table est prête : ronde 1 de Night cup, Territories n°{match_id}."
    await ws.disconnect()


async def test_a_challenge_answered_reaches_both_sides_open_pages(alice, bob, patch_auth):  # noqa: F811
    from challenges import services as challenges

    terms = {"game": "game-of-god", "num_players": 2, "rated": False, "speed": "live", "seconds_per_move": 30}
    challenge = await sync_to_async(challenges.challenge_create)(user=alice, to=bob, **terms)
    challenger, ok, _ = await me_socket(patch_auth, alice)
    assert ok
    await sync_to_async(challenges.challenge_decline)(challenge_id=challenge.pk, user=bob)
    frame = await next_frame(challenger, "challenge")
    assert frame == {"type": "challenge", "challenge": {"id": challenge.pk, "state": "declined", "match_url": None}}

    second = await sync_to_async(challenges.challenge_create)(user=alice, to=bob, **terms)
    await sync_to_async(challenges.challenge_accept)(challenge_id=second.pk, user=bob)
    frame = await next_frame(challenger, "challenge")
    assert frame["challenge"]["state"] == "accepted"
    assert frame["challenge"]["match_url"].startswith("/matches/")
    await challenger.disconnect()
