"""What every WebSocket meets before its route, against the real server (uvicorn): a path no
route serves is refused cleanly, and one client address holds a bounded number of sockets."""

import json
import logging
from contextlib import ExitStack

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from portal.sockets import TOO_MANY_SOCKETS
from tests.conftest import wait_for
from tests.games.helpers import start_two_player


def open_socket(server, path, forwarded_for=None):
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    ws = connect(server.replace("http", "ws") + path, origin=server, additional_headers=headers, open_timeout=10)
    ws.__enter__()  # closed by the test's ExitStack
    assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
    return ws


def may_open(server, path):
    """An open socket, or None if the server closed it at once."""
    try:
        return open_socket(server, path)
    except ConnectionClosed:
        return None


def refusal(server, path, forwarded_for=None):
    """The close code and reason of a socket the server accepts and closes at once."""
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
    url = server.replace("http", "ws") + path
    with connect(url, origin=server, additional_headers=headers) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=10)
    return closed.value.rcvd.code, closed.value.rcvd.reason


@pytest.fixture
def match_path(alice, bob):
    return f"/ws/matches/{start_two_player('game-of-god', alice, bob).pk}/"


@pytest.mark.parametrize("path", ["/ws/nowhere/", "/ws/matches/abc/", "/", "/ws/matches/1/extra/"])
def test_a_socket_path_no_route_serves_is_refused_at_the_handshake_and_logs_no_error(asgi_server, caplog, path):
    with caplog.at_level(logging.WARNING), pytest.raises(InvalidStatus) as refused:
        connect(asgi_server.replace("http", "ws") + path, origin=asgi_server, open_timeout=10)
    assert refused.value.response.status_code == 403
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_one_address_holds_at_most_the_configured_sockets_and_is_told_why(asgi_server, settings, match_path):
    settings.SOCKETS_PER_ADDRESS = 2
    with ExitStack() as stack:
        first = stack.enter_context(open_socket(asgi_server, match_path))
        stack.enter_context(open_socket(asgi_server, match_path))
        code, reason = refusal(asgi_server, match_path)
        assert code == TOO_MANY_SOCKETS == 4429
        assert "Too many open connections" in reason
        # The open ones still work, and closing one makes room for another.
        first.send(json.dumps({"type": "ping"}))
        assert json.loads(first.recv(timeout=10))["type"] == "pong"
        first.close()
        # The server counts the socket gone once its consumer has stopped, just after the close.
        stack.enter_context(wait_for(lambda: may_open(asgi_server, match_path), timeout=10, message="a free slot"))


def test_a_forged_forwarded_for_header_does_not_get_around_the_cap(asgi_server, settings, match_path):
    settings.SOCKETS_PER_ADDRESS = 2
    settings.TRUSTED_PROXY_COUNT = 0
    with ExitStack() as stack:
        for n in range(2):
            stack.enter_context(open_socket(asgi_server, match_path, forwarded_for=f"10.0.0.{n}"))
        assert refusal(asgi_server, match_path, forwarded_for="10.0.0.9")[0] == TOO_MANY_SOCKETS


def test_behind_a_trusted_proxy_each_client_address_has_its_own_cap(asgi_server, settings, match_path):
    settings.SOCKETS_PER_ADDRESS = 1
    settings.TRUSTED_PROXY_COUNT = 1
    with ExitStack() as stack:
        # What a client wrote left of the proxy's own entry is never read.
        stack.enter_context(open_socket(asgi_server, match_path, forwarded_for="6.6.6.6, 10.0.0.1"))
        stack.enter_context(open_socket(asgi_server, match_path, forwarded_for="10.0.0.2"))
        assert refusal(asgi_server, match_path, forwarded_for="7.7.7.7, 10.0.0.1")[0] == TOO_MANY_SOCKETS
