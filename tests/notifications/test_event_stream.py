"""GET /api/stream/events/: what concerns one person, line by line, so that a bot never polls:
challenges waiting and received, matches started, their turn, the end (through the real ASGI
application and channel layer)."""

import random

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from challenges import services as challenges
from games import services
from games.models import Match
from tests.games.helpers import fresh, play_turn, start_two_player
from tests.games.test_match_stream import Stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_events(user=None, token: str | None = None):
    client = AsyncClient()
    headers = {"Authorization": f"Token {token}"} if token else {}
    if user is not None and token is None:
        await sync_to_async(client.force_login)(user)
    response = await client.get("/api/stream/events/", headers=headers)
    return Stream(response) if response.streaming else response


async def token_of(user) -> str:
    return (await sync_to_async(Token.objects.get_or_create)(user=user))[0].key


async def next_of(stream: Stream, kind: str) -> dict:
    while True:
        frame = await stream.frame()
        if frame["type"] == kind:
            return frame


async def test_a_challenge_a_started_match_each_turn_and_the_end_reach_the_challenged_person(alice, bob):
    events = await open_events(token=await token_of(bob))
    challenge = await sync_to_async(challenges.challenge_create)(
        user=alice, to=bob, game="game-of-god", num_players=2, rated=False
    )
    received = await next_of(events, "challenge")
    assert received["challenge"]["id"] == challenge.pk and received["challenge"]["challenger"] == "alice"

    await sync_to_async(challenges.challenge_accept)(challenge_id=challenge.pk, user=bob)
    seen: dict[str, dict] = {}
    while not {"challengeGone", "matchStart"} <= seen.keys():  # in either order
        frame = await events.frame()
        seen[frame["type"]] = frame
    assert seen["challengeGone"]["challenge"] == challenge.pk
    started = seen["matchStart"]
    match = await sync_to_async(fresh)(started["match"])
    bob_seat = await sync_to_async(lambda: match.seats.get(user=bob).index)()
    assert started["game"] == "game-of-god" and started["seat"] == bob_seat

    # Alice plays until it is bob's move: the line says so, with the version to act at.
    rng = random.Random(2)
    users = {bob_seat: bob, 1 - bob_seat: alice}
    while (await sync_to_async(fresh)(match.pk)).to_move != bob_seat:
        await sync_to_async(play_turn)(match.pk, {1 - bob_seat: alice}, rng)
    now = await sync_to_async(fresh)(match.pk)
    turn = seen.get("yourTurn")  # already, if bob was to move from the start
    while turn is None or turn["version"] < now.version:
        turn = await next_of(events, "yourTurn")
    assert turn == {"type": "yourTurn", "match": match.pk, "version": now.version}
    assert await sync_to_async(play_turn)(match.pk, users, rng)

    await sync_to_async(services.match_resign)(match_id=match.pk, user=alice)
    finished = await next_of(events, "matchFinish")
    assert finished == {"type": "matchFinish", "match": match.pk, "status": Match.Status.FINISHED}
    await events.close()


async def test_on_opening_it_lists_the_challenges_waiting_and_the_matches_going_on(alice, bob, make_user):
    carol = await sync_to_async(make_user)("carol")
    waiting = await sync_to_async(challenges.challenge_create)(user=carol, to=bob, game="territories", num_players=2)
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    events = await open_events(bob)
    lines = [await events.frame() for _ in range(2)]  # then, if it is bob's move, yourTurn
    kinds = {frame["type"] for frame in lines}
    assert {"challenge", "matchStart"} <= kinds
    assert next(f for f in lines if f["type"] == "challenge")["challenge"]["id"] == waiting.pk
    assert next(f for f in lines if f["type"] == "matchStart")["match"] == match.pk
    await events.close()


async def test_only_a_signed_in_person_or_a_valid_token_gets_a_stream(alice):
    anonymous = await open_events()
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    assert (await open_events(token="nonsense")).status_code == 401


async def test_a_new_password_ends_it(alice):
    from live.credentials import close_user_sockets

    events = await open_events(token=await token_of(alice))
    await sync_to_async(close_user_sockets)(alice.pk)
    assert await events.ended()


async def test_a_persons_bot_account_hears_its_challenge_and_its_match_by_its_token(alice):
    from accounts.services import bot_account_create

    bot, token = await sync_to_async(bot_account_create)(owner=alice, name="alices-bot")
    events = await open_events(token=token)
    challenge = await sync_to_async(challenges.challenge_create)(
        user=alice, to=bot, game="territories", num_players=2, rated=False
    )
    assert (await next_of(events, "challenge"))["challenge"]["id"] == challenge.pk
    await sync_to_async(challenges.challenge_accept)(challenge_id=challenge.pk, user=bot)
    started = await next_of(events, "matchStart")
    assert started["game"] == "territories" and started["status"] == Match.Status.ACTIVE
    await events.close()
