"""Every list of the API comes in pages of one shape, as its published schema says: ``count``,
``next``, ``previous`` and ``results``, no bare array and no cap, and the whole of a list
longer than a page is reached by following ``next``."""

import random

import pytest
from django.urls import resolve
from rest_framework.pagination import PageNumberPagination
from rest_framework.test import APIClient

from accounts.services import bot_account_create
from challenges import services as challenge_services
from games import services
from rankings.services import match_rate
from tests.games.helpers import play_turn, start_two_player
from tests.rankings.helpers import finished_match
from tests.tournaments.helpers import announce
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

PAGE = 2  # every list's page, for this test: three rows of anything make two pages
ROWS = PAGE + 1
GAMES = ["territories", "chit-territory", "game-of-god"]


def _every_pagination_class():
    classes, todo = [], [PageNumberPagination]
    while todo:
        cls = todo.pop()
        classes.append(cls)
        todo.extend(cls.__subclasses__())
    return classes


@pytest.fixture
def small_pages(monkeypatch):
    for cls in _every_pagination_class():
        monkeypatch.setattr(cls, "page_size", PAGE)


@pytest.fixture
def schema(client):
    return client.get("/api/schema/?format=json").json()


def list_operations(schema) -> list[str]:
    """The paths whose GET answers a list in JSON: a bare array, or an object with results."""
    found = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        content = get and get["responses"].get("200", {}).get("content", {}).get("application/json")
        if not content:
            continue  # no JSON body: the NDJSON streams (read to their end, never paged)
        body = content["schema"]
        if "$ref" in body:
            body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
        if body.get("type") == "array" or "results" in body.get("properties", {}):
            found.append(path)
    return found


def test_every_list_in_the_schema_is_published_as_pages_of_one_shape(schema):
    paths = list_operations(schema)
    for expected in ("/api/games/", "/api/matches/", "/api/challenges/", "/api/tournaments/{tournament_id}/standings/"):
        assert expected in paths
    for path in paths:
        get = schema["paths"][path]["get"]
        ref = get["responses"]["200"]["content"]["application/json"]["schema"].get("$ref")
        assert ref, f"{path} answers a bare array"
        body = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
        assert set(body["required"]) >= {"count", "results"}, path
        assert body["properties"]["next"] == {
            "type": "string",
            "nullable": True,
            "format": "uri",
            "example": body["properties"]["next"]["example"],
        }, path
        assert body["properties"]["results"]["type"] == "array", path
        page = next((p for p in get.get("parameters", []) if p["name"] == "page"), None)
        assert page is not None and page["in"] == "query" and page["schema"]["type"] == "integer", path


@pytest.fixture
def lists(make_user, django_capture_on_commit_callbacks):
    """Three and more of everything each list holds, around alice: open matches, the moves and
    chat of a match, rated players and matches in three games, challenges sent to her (and the
    notifications they bring), tournaments taking entries, and one under way, her bot accounts."""
    alice, bob, carol, dave = (make_user(name) for name in ("alice", "bob", "carol", "dave"))
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(ROWS):
            services.match_create(user=bob, game="territories", num_players=2)
        match = start_two_player("territories", alice, bob)
        rng = random.Random(2)
        for _ in range(ROWS):
            play_turn(match.pk, {0: alice, 1: bob}, rng)
        for text in ("hello", "good luck", "thanks"):
            services.chat_post(match_id=match.pk, user=alice, text=text)
        for game in GAMES:
            for other in (bob, carol, bob):
                match_rate(match_id=finished_match([alice, other], [1, 2], game=game).pk)
        for by in (bob, carol, dave):
            challenge_services.challenge_create(user=by, to=alice, game="territories", num_players=2)
        for i in range(ROWS):
            announce(bob, name=f"Cup {i}")
            bot_account_create(owner=alice, name=f"Bot{i}")
        running = announce(carol, name="Running cup")
        for user in (alice, bob, dave):
            tournament_services.tournament_join(tournament_id=running.pk, user=user)
        tournament_services.tournament_start(tournament_id=running.pk, user=carol)
    arguments = {
        "match_id": match.pk,
        "slug": "territories",
        "username": "alice",
        "tournament_id": running.pk,
    }
    return alice, arguments


def test_every_list_longer_than_a_page_is_reached_whole_through_next(schema, lists, small_pages):
    alice, arguments = lists
    client = APIClient()
    client.force_authenticate(alice)
    paths = list_operations(schema)
    assert len(paths) >= 11  # every list the API has (a new one must page its fixture rows too)
    for path in paths:
        url = path.format(**arguments)
        resolve(url)  # a path of the site
        first = client.get(url)
        assert first.status_code == 200, (url, first.content)
        body = first.json()
        assert set(body) == {"count", "next", "previous", "results"}, url
        assert body["previous"] is None and len(body["results"]) == PAGE, url
        assert body["count"] >= ROWS, f"{url}: the fixture holds too few rows to page"
        rows, pages, following = list(body["results"]), 1, body["next"]
        while following:
            page = client.get(following).json()
            assert page["count"] == body["count"] and page["previous"], url
            rows.extend(page["results"])
            pages, following = pages + 1, page["next"]
        assert len(rows) == body["count"] and pages == -(-body["count"] // PAGE), url
        assert len({repr(sorted(row.items())) for row in rows}) == len(rows), f"{url}: a row came twice"
