"""The lobby shows one page of open matches at a time, filtered by game and number of
players, however many are waiting."""

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.views import LOBBY_PAGE_SIZE
from portal.asgi import application

from .helpers import play_turn, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def open_many(creators, game="gp02a", num_players=3, count=50):
    """``count`` public open matches of ``game``, made directly (as years of use would leave them)."""
    matches = Match.objects.bulk_create(
        Match(game=game, num_players=num_players, creator=creators[i % len(creators)]) for i in range(count)
    )
    Seat.objects.bulk_create(
        Seat(match=m, index=i, user=m.creator if i == 0 else None, joined_at=timezone.now() if i == 0 else None)
        for m in matches
        for i in range(num_players)
    )
    return matches


def listed(body) -> list[int]:
    return [int(n) for n in re.findall(r'<a href="/matches/(\d+)/">#\d+</a>', body)]


def test_the_lobby_shows_one_page_of_open_matches_however_many_wait(client, make_user):
    people = [make_user() for _ in range(5)]
    matches = open_many(people, count=3 * LOBBY_PAGE_SIZE + 5)
    newest_first = sorted((m.pk for m in matches), reverse=True)

    first = client.get("/play/").content.decode()
    assert listed(first) == newest_first[:LOBBY_PAGE_SIZE]
    assert f"{len(matches)} open matches" in first and "page 1 of 4" in first
    assert 'href="?page=2" rel="next"' in first

    second = client.get("/play/?page=2").content.decode()
    assert listed(second) == newest_first[LOBBY_PAGE_SIZE : 2 * LOBBY_PAGE_SIZE]
    last = client.get("/play/?page=4").content.decode()
    assert listed(last) == newest_first[3 * LOBBY_PAGE_SIZE :]


def test_a_page_past_the_end_or_not_a_number_shows_a_page_that_exists(client, make_user):
    matches = open_many([make_user()], count=LOBBY_PAGE_SIZE + 3)
    newest_first = sorted((m.pk for m in matches), reverse=True)
    for url in ("/play/?page=99", "/play/?page=99"):  # twice: never kept as page 99
        assert listed(client.get(url).content.decode()) == newest_first[LOBBY_PAGE_SIZE:]
    assert listed(client.get("/play/?page=last").content.decode()) == newest_first[:LOBBY_PAGE_SIZE]


def test_the_lobby_filters_by_game_and_number_of_players(client, alice, bob):
    gp02a_three = services.match_create(user=alice, game="gp02a", num_players=3)
    gp02a_four = services.match_create(user=alice, game="gp02a", num_players=4)
    god = services.match_create(user=bob, game="game-of-god", num_players=2)

    assert set(listed(client.get("/play/").content.decode())) == {gp02a_three.pk, gp02a_four.pk, god.pk}
    body = client.get("/play/?game=gp02a").content.decode()
    assert set(listed(body)) == {gp02a_three.pk, gp02a_four.pk}
    assert '<option value="gp02a" selected>' in body
    assert set(listed(client.get("/play/?game=gp02a&players=4").content.decode())) == {gp02a_four.pk}
    assert set(listed(client.get("/play/?players=2").content.decode())) == {god.pk}
    assert "No open match" in client.get("/play/?game=territories").content.decode()
    # Nonsense filters are ignored, not an error.
    assert len(listed(client.get("/play/?game=chess&players=99").content.decode())) == 3


def test_the_page_links_keep_the_filters(client, make_user):
    open_many([make_user()], game="gp02a", num_players=4, count=LOBBY_PAGE_SIZE + 1)
    body = client.get("/play/?game=gp02a&players=4").content.decode()
    assert 'href="?game=gp02a&amp;players=4&amp;page=2" rel="next"' in body


def test_the_list_alone_is_served_for_the_page_to_refresh_itself(client, alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    client.force_login(bob)
    part = client.get("/play/?game=gp02a&part=open").content.decode()
    assert part.lstrip().startswith('<section aria-labelledby="open-heading"')
    assert f"Join #{match.pk}" in part and "csrfmiddlewaretoken" in part
    assert "<html" not in part and "Create a match" not in part


# The lobby updates itself: its socket says when the open matches changed.

LOBBY_HOST = [(b"host", b"localhost"), (b"origin", b"http://localhost")]


@pytest.mark.asyncio
async def test_an_open_lobby_is_told_when_a_match_opens_fills_or_closes_but_not_on_moves(alice, bob):
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=LOBBY_HOST)
    connected, _ = await lobby.connect(timeout=10)
    assert connected

    match = await sync_to_async(services.match_create)(user=alice, game="gp02a", num_players=3)
    assert json.loads(await lobby.receive_from(timeout=10)) == {"type": "changed"}
    await sync_to_async(services.match_join)(match_id=match.pk, user=bob)
    assert json.loads(await lobby.receive_from(timeout=10)) == {"type": "changed"}
    await sync_to_async(services.match_leave)(match_id=match.pk, user=alice)
    assert json.loads(await lobby.receive_from(timeout=10)) == {"type": "changed"}

    playing = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    for _ in range(2):  # opened, then started: two changes
        assert json.loads(await lobby.receive_from(timeout=10)) == {"type": "changed"}
    await sync_to_async(play_turn)(playing.pk, {0: alice, 1: bob}, random.Random(1))
    assert await lobby.receive_nothing(timeout=0.5), "a move is no change to the lobby"
    await lobby.disconnect()
