"""GET /api/matches/<id>/stream/: a match's updates as NDJSON lines, the same texts the match's
sockets get, for the requester's seat or the public (through the real ASGI application and
channel layer)."""

import asyncio
import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from games import services, state_cache
from games.engine_text import spoken
from games.models import Match

from .helpers import fresh, play_turn, start_two_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


class Stream:
    """The lines of a streamed response, one at a time."""

    def __init__(self, response):
        self.response = response
        self.chunks = response.streaming_content.__aiter__()
        self.buffer = b""

    async def line(self, timeout: float = 10.0) -> bytes:
        while b"\n" not in self.buffer:
            self.buffer += await asyncio.wait_for(self.chunks.__anext__(), timeout)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    async def frame(self, timeout: float = 10.0) -> dict:
        while True:
            line = await self.line(timeout)
            if line:  # blank lines keep the stream alive
                return spoken(json.loads(line))  # the engine's words said, as the page says them

    async def ended(self, timeout: float = 10.0) -> bool:
        try:
            while True:
                self.buffer += await asyncio.wait_for(self.chunks.__anext__(), timeout)
        except StopAsyncIteration:
            return True

    async def close(self):
        await self.chunks.aclose()


async def open_stream(match_id: int, user=None, query: str = "", token: str | None = None) -> Any:
    client = AsyncClient()
    headers = {}
    if token is not None:
        headers["Authorization"] = f"Token {token}"
    elif user is not None:
        await sync_to_async(client.force_login)(user)
    response = await client.get(f"/api/matches/{match_id}/stream/{query}", headers=headers)
    if not response.streaming:
        return response
    assert response["Content-Type"] == "application/x-ndjson"
    return Stream(response)


async def token_of(user) -> str:
    return (await sync_to_async(Token.objects.get_or_create)(user=user))[0].key


async def view_of(match_id: int, seat):
    state = await sync_to_async(lambda: state_cache.load(fresh(match_id)))()
    return json.loads(json.dumps(state.view(seat)))


def start_three_player(game: str, *users) -> Match:
    match = services.match_create(user=users[0], game=game, num_players=3)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, token=match.invite_token)
    return fresh(match.pk)


async def test_a_player_reads_their_seats_view_and_every_update_in_order_a_spectator_the_public_one(
    alice, bob, make_user
):
    # GP02A for three, a game with what only some seats may see: each line is the engine's
    # view for its reader, never more.
    carol = await sync_to_async(make_user)("carol")
    match = await sync_to_async(start_three_player)("gp02a", alice, bob, carol)
    seats = await sync_to_async(lambda: {s.user_id: s.index for s in match.seats.all()})()
    seat = {alice.pk: seats[alice.pk]}
    by_seat = {seats[u.pk]: u for u in (alice, bob, carol)}
    player = await open_stream(match.pk, token=await token_of(alice))
    spectator = await open_stream(match.pk)
    first = await player.frame()
    public = await spectator.frame()
    assert first["type"] == "snapshot" and first["version"] == match.version and first["seat"] == seat[alice.pk]
    assert first["view"] == await view_of(match.pk, seat[alice.pk])
    assert public["seat"] is None and public["view"] == await view_of(match.pk, None)

    rng = random.Random(3)
    for _ in range(4):
        before = (await sync_to_async(fresh)(match.pk)).version
        assert await sync_to_async(play_turn)(match.pk, by_seat, rng)
        mine, theirs = await player.frame(), await spectator.frame()
        assert mine["version"] == theirs["version"] == before + 1  # every version, in order
        assert mine["view"] == await view_of(match.pk, seat[alice.pk])
        assert theirs["view"] == await view_of(match.pk, None)
        assert theirs["legal_actions"] == [] and theirs["seat"] is None
    await player.close()
    await spectator.close()


async def test_a_reconnect_with_the_version_held_starts_with_the_next_update(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    stream = await open_stream(match.pk, alice, query=f"?version={match.version}")
    await sync_to_async(play_turn)(match.pk, {0: alice, 1: bob}, random.Random(1))
    frame = await stream.frame()
    assert frame["version"] == match.version + 1  # no snapshot of what it held first
    await stream.close()


async def test_the_stream_ends_with_the_update_that_ends_the_match(alice, bob):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    stream = await open_stream(match.pk, token=await token_of(bob))
    await stream.frame()
    await sync_to_async(services.match_resign)(match_id=match.pk, user=alice)
    last = await stream.frame()
    assert last["status"] == Match.Status.FINISHED
    assert await stream.ended()


async def test_a_private_match_a_bad_token_and_a_bad_version_are_refused_with_reasons(alice, bob, make_user):
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob, visibility="invite")
    stranger = await sync_to_async(make_user)("stranger")
    refused = await open_stream(match.pk, stranger)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    invited = await open_stream(match.pk, query=f"?token={match.invite_token}")
    assert (await invited.frame())["version"] == match.version
    await invited.close()
    assert (await open_stream(match.pk, token="not-a-token")).status_code == 401
    bad = await open_stream(match.pk, alice, query="?version=latest")
    assert bad.status_code == 400 and "version" in bad.json()["message"]
    assert (await open_stream(987654, alice)).status_code == 404


async def test_a_person_holds_a_bounded_number_of_streams(alice, bob, settings):
    settings.STREAMS_PER_PERSON = 1
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    first = await open_stream(match.pk, alice)
    await first.frame()
    second = await open_stream(match.pk, alice)
    assert second.status_code == 429 and second.json()["code"] == "too_many_streams"
    await first.close()  # closed: its place is free again
    third = await open_stream(match.pk, alice)
    assert (await third.frame())["version"] == match.version
    await third.close()


async def test_a_quiet_stream_sends_blank_lines_to_stay_alive(alice, bob, settings):
    settings.STREAM_KEEP_ALIVE_SECONDS = 0.2
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    stream = await open_stream(match.pk, alice)
    await stream.line()  # the snapshot
    assert await stream.line(timeout=5) == b""
    await stream.close()


async def test_a_new_password_ends_the_persons_streams(alice, bob):
    from live.credentials import close_user_sockets

    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    stream = await open_stream(match.pk, token=await token_of(alice))
    await stream.frame()
    await sync_to_async(close_user_sockets)(alice.pk)  # what a new password does
    assert await stream.ended()
