"""A socket's frames go straight to the server's connection: the session middleware that every
signed-in socket passes through (Channels' ``AuthMiddlewareStack``) is left out of its sends,
since it acts only on an HTTP response and would read the session on every frame."""

from __future__ import annotations

import pytest
from channels.auth import AuthMiddlewareStack

from live.sockets import direct_send

pytestmark = pytest.mark.asyncio


async def _send_seen_by_the_socket(stack_depth: int):
    """The ``send`` a socket is handed inside ``stack_depth`` session stacks, and the server's."""
    sent: list[dict] = []

    async def server_send(message):
        sent.append(message)

    seen = {}

    async def socket(scope, receive, send):
        seen["send"] = send

    app = socket
    for _ in range(stack_depth):
        app = AuthMiddlewareStack(app)
    scope = {"type": "websocket", "path": "/ws/x/", "headers": [(b"cookie", b"sessionid=abc")]}
    await app(scope, None, server_send)
    return seen["send"], server_send, sent


@pytest.mark.parametrize("depth", [1, 2])
async def test_a_frame_reaches_the_connection_past_the_session_middleware(depth):
    send, server_send, sent = await _send_seen_by_the_socket(depth)
    assert send is not server_send  # the stack wraps it
    direct = direct_send(send)
    assert direct is server_send
    await direct({"type": "websocket.send", "text": "{}"})
    assert sent == [{"type": "websocket.send", "text": "{}"}]


async def test_a_send_no_session_middleware_wraps_is_kept():
    async def server_send(message):
        return None

    assert direct_send(server_send) is server_send
