"""The page of a match being played is kept for each visitor (portal.page_cache.whole_page) until
the match changes: every message its sockets are sent (a move, a chat line, a takeback, a seat
given up) moves its generation on, after the commit. Each seat's page belongs to that seat's
session alone: no other seat, and no spectator, is ever served it."""

import json
import random
import re
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from django.test.signals import template_rendered
from django.utils import timezone

import live
from games import selectors, services
from games.engine_text import spoken
from games.models import ChatMessage, Match
from games.services.takebacks import takeback_answer, takeback_request
from games.views import MATCH_PAGE_SECONDS
from live.events import CHAT_MESSAGE, MATCH_UPDATED
from live.groups import match_group, match_players_group, user_group
from portal import page_cache

from .helpers import fresh, play_turn, start_two_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def renders():
    names: list[str] = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    yield names
    template_rendered.disconnect(seen)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a write and what follows its commit (the broadcast, and with it the page's new generation)."""

    def run(call, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **kwargs)

    return run


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(match) -> str:
    return f"/matches/{match.pk}/"


def payload_of(body: str) -> dict:
    found = re.search(r'<script id="match-payload" type="application/json">(.*?)</script>', body, re.S)
    assert found, "the page carries its snapshot"
    return spoken(json.loads(found.group(1)))  # the engine's words said, as the page says them


def kept_page(client: Client, match, renders: list) -> str:
    """The page as ``client`` sees it once kept: asked until it comes without being rendered
    (a first page sets the CSRF cookie or draws the match's generation, and is not kept)."""
    for _ in range(3):
        renders.clear()
        response = client.get(url(match))
        assert response.status_code == 200
        body = response.content.decode()
    assert renders == [], "served as kept, not rendered again"
    return body


def blank_tokens(body: str) -> str:
    """A page with its CSRF tokens blanked: a page kept for visitors who bring nothing gets
    each one's own token in its forms (the footer's language switcher) as it is served."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', body)


def generation(match) -> str:
    return page_cache.generations([page_cache.live_area(match_group(match.pk))])[0]


def started(committed, alice, bob, **terms) -> Match:
    return committed(start_two_player, "territories", alice, bob, **terms)


def just_moved(committed, alice, bob) -> tuple[Match, object, object]:
    """A casual match in which a person has just moved and the other is to move: the match,
    the one who may ask to take that move back, and the other."""
    match = started(committed, alice, bob, rated=False)
    users = {0: alice, 1: bob}
    rng = random.Random(3)
    while True:
        assert committed(play_turn, match.pk, users, rng)
        match = fresh(match.pk)
        last = match.moves.filter(seat__isnull=False).order_by("-index").first()
        to_move = match.to_move
        if last is not None and last.seat is not None and to_move is not None and to_move != last.seat:
            return match, users[last.seat], users[to_move]


def without_clock_reading(payload: dict) -> dict:
    """The snapshot less what is read from the clock at the moment of making it."""
    return {**payload, "clocks": {**payload["clocks"], "seconds_left": None}}


# -- each visitor their own page ---------------------------------------------------------------


def test_each_seat_and_each_spectator_gets_their_own_kept_page_and_never_another_seats(
    committed, renders, alice, bob, carol
):
    match = started(committed, alice, bob, rated=False)
    mover, waiter = (alice, bob) if match.to_move == 0 else (bob, alice)
    visitors = {"mover": signed_in(mover), "waiter": signed_in(waiter), "spectator": signed_in(carol)}
    visitors["anonymous"] = Client()
    pages = {}
    for name, client in visitors.items():  # the mover's page kept first, then each other's
        pages[name] = kept_page(client, match, renders)
    for name, client in visitors.items():  # and each again, from where it was kept
        renders.clear()
        assert blank_tokens(client.get(url(match)).content.decode()) == blank_tokens(pages[name])
        assert renders == []

    mover_seat = match.to_move
    assert mover_seat is not None
    mine = payload_of(pages["mover"])
    assert mine["seat"] == mover_seat and mine["legal_actions"], "the mover sees the moves they may make"
    for name in ("waiter", "spectator", "anonymous"):
        theirs = payload_of(pages[name])
        assert theirs["seat"] == (1 - mover_seat if name == "waiter" else None)
        assert theirs["legal_actions"] == [], f"the mover's moves reached the {name}"
        for choice in mine["legal_actions"]:
            assert json.dumps(choice["label"])[1:-1] not in json.dumps(theirs)
    # Each page says what the snapshot of its own visitor says.
    for name, user in (("mover", mover), ("waiter", waiter), ("spectator", carol)):
        expected = json.loads(json.dumps(selectors.match_payload(fresh(match.pk), user)))
        assert without_clock_reading(payload_of(pages[name])) == without_clock_reading(expected)
    assert 'id="resign-form"' in pages["mover"] and 'id="resign-form"' in pages["waiter"]
    assert 'id="resign-form"' not in pages["spectator"] and 'id="resign-form"' not in pages["anonymous"]
    assert "carol" in pages["spectator"] and "carol" not in pages["mover"] + pages["waiter"] + pages["anonymous"]


def test_another_session_of_the_same_player_gets_a_page_of_its_own(committed, renders, alice, bob):
    match = started(committed, alice, bob)
    kept_page(signed_in(alice), match, renders)
    renders.clear()
    other = signed_in(alice)
    assert other.get(url(match)).status_code == 200
    assert renders, "rendered for the new session"


# -- the page moves on with the match ----------------------------------------------------------


def test_a_move_shows_on_every_kept_page_at_once(committed, renders, alice, bob, carol):
    match = started(committed, alice, bob)
    players, spectator = signed_in(alice), signed_in(carol)
    before = {c: payload_of(kept_page(c, match, renders)) for c in (players, spectator, Client())}
    assert committed(play_turn, match.pk, {0: alice, 1: bob}, random.Random(4))
    version = fresh(match.pk).version
    for client, old in before.items():
        now = payload_of(client.get(url(match)).content.decode())
        assert old["version"] < version == now["version"]
        assert now["moves"] > old["moves"]


def test_a_chat_line_and_its_hiding_show_on_the_kept_pages(committed, renders, alice, bob, carol, make_user):
    match = started(committed, alice, bob)
    spectator, anonymous = signed_in(carol), Client()
    for client in (spectator, anonymous):
        kept_page(client, match, renders)
    line = committed(services.chat_post, match_id=match.pk, user=bob, text="well played so far")
    for client in (spectator, anonymous):
        assert [m["text"] for m in payload_of(client.get(url(match)).content.decode())["chat"]] == [
            "well played so far"
        ]
        kept_page(client, match, renders)
    moderator = make_user("moderator", is_staff=True)
    committed(services.chat_hide, message_id=line.pk, moderator=moderator)
    assert ChatMessage.objects.get(pk=line.pk).is_hidden
    for client in (spectator, anonymous):
        assert payload_of(client.get(url(match)).content.decode())["chat"] == []


def test_a_takeback_asked_shows_on_the_kept_pages(committed, renders, alice, bob):
    match, asker, other = just_moved(committed, alice, bob)
    page = signed_in(other)
    assert payload_of(kept_page(page, match, renders))["takeback"] is None
    committed(takeback_request, match_id=match.pk, user=asker, version=match.version)
    assert payload_of(page.get(url(match)).content.decode())["takeback"] is not None


def test_a_renamed_player_shows_under_the_new_name_on_the_kept_page(committed, renders, alice, bob, carol):
    match = started(committed, alice, bob)
    spectator = signed_in(carol)
    kept_page(spectator, match, renders)
    bob.username = "roberta"
    committed(bob.save, update_fields=["username"])
    names = [s["username"] for s in payload_of(spectator.get(url(match)).content.decode())["seats"]]
    assert "roberta" in names and "bob" not in names


def test_a_timed_matchs_page_is_kept_no_longer_than_the_move_is_due(committed, renders, alice, bob):
    match = started(committed, alice, bob, speed="live", seconds_per_move=20)
    deadline = fresh(match.pk).deadline
    assert deadline is not None
    body = blank_tokens(kept_page(Client(), match, renders))
    left = (deadline - timezone.now()).total_seconds()
    (until,) = [until for content, _, until in page_cache._pages.values() if blank_tokens(content.decode()) == body]
    assert until is not None
    assert until - time.monotonic() <= left + 0.5 < MATCH_PAGE_SECONDS


def test_the_page_of_a_match_not_being_played_is_made_afresh_each_time(committed, renders, alice, bob):
    match = started(committed, alice, bob)
    committed(services.match_resign, match_id=match.pk, user=alice)
    client = signed_in(bob)
    for _ in range(3):
        renders.clear()
        assert client.get(url(match)).status_code == 200
        assert renders, "rendered each time"


def test_the_page_of_no_match_leaves_no_generation_behind(client):
    assert client.get("/matches/987654/").status_code == 404
    found = page_cache.shared_cache().get_many([page_cache.GENERATION_KEY.format("live:match-987654")])
    assert found == {}


# -- every change of a match moves its page on -------------------------------------------------


def _move(match, users):
    assert play_turn(match.pk, users, random.Random(5))


def _chat(match, users):
    services.chat_post(match_id=match.pk, user=users[0], text="hello")


def _resign(match, users):
    services.match_resign(match_id=match.pk, user=users[1])


def _time_out(match, users):
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)


def _abort(match, users):
    services.match_abort(match_id=match.pk, user=match.creator)


@pytest.mark.parametrize("change", [_move, _chat, _resign, _time_out, _abort], ids=lambda f: f.__name__[1:])
def test_every_change_to_a_match_being_played_moves_its_page_on(committed, alice, bob, change):
    match = started(committed, alice, bob, speed="live", seconds_per_move=60)
    before = generation(match)
    committed(change, fresh(match.pk), {0: alice, 1: bob})
    assert generation(match) != before


def test_a_takeback_asked_and_answered_each_move_the_page_on(committed, alice, bob):
    match, asker, other = just_moved(committed, alice, bob)
    before = generation(match)
    committed(takeback_request, match_id=match.pk, user=asker, version=match.version)
    asked = generation(match)
    assert asked != before
    committed(takeback_answer, match_id=match.pk, user=other, accept=False, version=match.version)
    assert generation(match) != asked


def test_seats_taken_left_and_given_to_bots_move_the_open_matchs_page_on(committed, alice, bob, carol):
    match = committed(services.match_create, user=alice, game="gp02a", num_players=3)
    steps = [
        lambda: services.match_join(match_id=match.pk, user=bob),
        lambda: services.match_leave(match_id=match.pk, user=bob),
        lambda: services.match_join(match_id=match.pk, user=carol),
        lambda: services.match_seat_bot(match_id=match.pk, user=alice),
    ]
    for step in steps:
        before = generation(match)
        committed(step)
        assert generation(match) != before
    assert fresh(match.pk).status == Match.Status.ACTIVE


def test_the_live_room_moves_a_matchs_page_on_with_each_message_it_sends_from_the_event_loop(committed, alice, bob):
    """The socket's own move path: publish on the event loop, once for the match however many
    messages it carries for it, and nothing for groups no kept page shows."""
    match = started(committed, alice, bob)
    other = started(committed, bob, alice)
    before, untouched = generation(match), generation(other)
    outbox = live.Outbox()
    outbox.send(match_group(match.pk), {"type": MATCH_UPDATED, "version": 0})
    outbox.send(match_players_group(match.pk), {"type": CHAT_MESSAGE, "message": {}})
    outbox.send(user_group(alice.pk), {"type": "notify", "count": 1})
    async_to_sync(live.publish)(outbox)
    assert generation(match) != before
    assert generation(other) == untouched


def test_the_live_room_leaves_the_pages_alone_while_it_knows_redis_down(committed, alice, bob, monkeypatch):
    from live import reach

    match = started(committed, alice, bob)
    before = generation(match)
    monkeypatch.setattr(reach, "down", lambda: True)
    outbox = live.Outbox()
    outbox.send(match_group(match.pk), {"type": MATCH_UPDATED, "version": 0})
    monkeypatch.setattr(reach, "send_failed", lambda redis_down: None)
    live.publish_now(outbox)
    assert generation(match) == before


def test_on_redis_the_message_and_the_new_generation_go_in_one_command(committed, alice, bob, monkeypatch):
    from channels.layers import get_channel_layer

    from live.layer import TieredRedisPubSubChannelLayer

    if not isinstance(get_channel_layer(), TieredRedisPubSubChannelLayer):
        pytest.skip("the embedded default has no Redis: the process's own cache is moved on after the send")
    match = started(committed, alice, bob)
    before = generation(match)

    async def no_second_command(*areas):
        raise AssertionError("a second command on the move path")

    monkeypatch.setattr(page_cache, "abump", no_second_command)
    outbox = live.Outbox()
    outbox.send(match_group(match.pk), {"type": MATCH_UPDATED, "version": 0})
    assert async_to_sync(live.publish)(outbox)
    assert generation(match) != before
