"""A rematch offer reaches the sockets of the finished match live, players' and spectators'."""

import pytest
from asgiref.sync import sync_to_async

from challenges import services
from tests.games.test_socket import open_socket, patch_auth, receive  # noqa: F401  (patch_auth: a fixture)

from .helpers import finished_two_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_offer_and_its_answer_reach_the_match_page_live(alice, bob, make_user, patch_auth):  # noqa: F811
    watcher = await sync_to_async(make_user)("watcher")
    match = await sync_to_async(finished_two_player)(alice, bob)
    bob_socket, ok, _ = await open_socket(patch_auth, match.pk, bob)
    assert ok
    await receive(bob_socket, "snapshot")
    watcher_socket, ok, _ = await open_socket(patch_auth, match.pk, watcher)
    assert ok
    await receive(watcher_socket, "snapshot")

    offer = await sync_to_async(services.rematch_offer)(match_id=match.pk, user=alice)

    frame = await receive(bob_socket, "rematch")
    assert frame["offer"]["id"] == offer.pk and frame["offer"]["state"] == "pending"
    assert frame["offer"]["offered_by"] == "alice"
    assert {a["username"]: a["answer"] for a in frame["offer"]["answers"]} == {"alice": "accepted", "bob": "pending"}
    seen = await receive(watcher_socket, "rematch")
    assert seen["offer"]["id"] == offer.pk  # watchers see it; only the people asked may answer

    alice_socket, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    await receive(alice_socket, "snapshot")
    accepted = await sync_to_async(services.rematch_answer)(offer_id=offer.pk, user=bob, accept=True)

    frame = await receive(alice_socket, "rematch")
    assert frame["offer"]["state"] == "accepted"
    assert frame["offer"]["new_match_url"] == f"/matches/{accepted.new_match_id}/"
    for socket in (bob_socket, watcher_socket, alice_socket):
        await socket.disconnect()
