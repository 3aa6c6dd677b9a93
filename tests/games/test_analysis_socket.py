"""The analysis of a finished match is followed live on the match's sockets, to its end."""

import pytest
from asgiref.sync import sync_to_async

from games import services
from tests.games.test_socket import open_socket, patch_auth, receive  # noqa: F401  (patch_auth: a fixture)

from .helpers import finished_by_random_play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_page_of_the_match_hears_the_analysis_move_on_to_done(alice, bob, patch_auth):  # noqa: F811
    match = await sync_to_async(finished_by_random_play)("territories", [alice, bob], 3)
    socket, ok, _ = await open_socket(patch_auth, match.pk, bob)
    assert ok
    await receive(socket, "snapshot")
    await sync_to_async(services.analysis_request)(user=alice, match_id=match.pk)
    frames = [await receive(socket, "analysis")]
    while frames[-1]["status"] != "done":
        frames.append(await receive(socket, "analysis"))
    progress = [frame["progress"] for frame in frames]
    assert progress == sorted(progress) and progress[-1] == 100
    await socket.disconnect()
