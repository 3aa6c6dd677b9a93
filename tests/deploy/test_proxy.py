"""A move played through the stack's reverse proxy: Caddy, run with deploy/Caddyfile as it is,
in front of the real ASGI application (uvicorn). The page, the socket's upgrade and the move's
broadcast all pass through it. TLS is left out here (the site address is http:// on a free
port of 127.0.0.1); tests/deploy/test_stack.py checks the certificate setting of the same file."""

import json
import os
import subprocess
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from websockets.sync.client import connect

from games.models import Match
from tests.conftest import _free_port, wait_for
from tests.games.helpers import acked, start_two_player
from tests.games.live_servers import session_cookie

from .test_stack import caddy_or_skip

CADDYFILE = Path(settings.BASE_DIR) / "deploy" / "Caddyfile"
WAIT = 20.0


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture
def proxy(asgi_server, tmp_path):
    """Caddy on a free port of 127.0.0.1, forwarding to the test's uvicorn; its address."""
    caddy = caddy_or_skip()
    port, admin = _free_port(), _free_port()
    env = {
        **os.environ,
        "SITE_DOMAIN": f"http://127.0.0.1:{port}",
        "ACME_EMAIL": "ops@example.org",
        "PORTAL_UPSTREAM": urlparse(asgi_server).netloc,
        "CADDY_ADMIN": f"127.0.0.1:{admin}",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    log = (tmp_path / "caddy.log").open("w")
    process = subprocess.Popen(
        [caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: answers(f"{url}/healthz") or process.poll() is not None, timeout=WAIT, message="Caddy")
        assert process.poll() is None, (tmp_path / "caddy.log").read_text()
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def open_socket(stack, proxy, match_id, user):
    url = proxy.replace("http", "ws") + f"/ws/matches/{match_id}/"
    headers = {"Cookie": session_cookie(user)}
    ws = stack.enter_context(connect(url, origin=proxy, additional_headers=headers, open_timeout=WAIT))
    snapshot = json.loads(ws.recv(timeout=WAIT))
    assert snapshot["type"] == "snapshot"
    return ws, snapshot


def next_of(ws, kinds, version=0):
    """The next frame of one of ``kinds`` (at ``version`` or later, for a state frame)."""
    while True:
        frame = json.loads(ws.recv(timeout=WAIT))
        assert frame["type"] != "error", frame
        if (frame["type"] in kinds or ("ack" in kinds and acked(frame))) and frame.get("version", version) >= version:
            return frame


def test_a_move_played_over_a_socket_through_the_proxy_reaches_the_other_player(proxy, alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    # The match page, as a player's browser asks for it through the proxy.
    request = urllib.request.Request(f"{proxy}/matches/{match.pk}/", headers={"Cookie": session_cookie(alice)})
    with urllib.request.urlopen(request, timeout=WAIT) as page:
        assert page.status == 200
        assert f'data-match-id="{match.pk}"' in page.read().decode()  # the page that opens the socket
    played_before = match.moves.count()
    with ExitStack() as stack:
        sockets = {}
        for user in (alice, bob):
            ws, snapshot = open_socket(stack, proxy, match.pk, user)
            sockets[user.username] = (ws, snapshot)
        mover, other = sorted(sockets.values(), key=lambda pair: not pair[1]["legal_actions"])
        assert mover[1]["legal_actions"] and not other[1]["legal_actions"]
        action = mover[1]["legal_actions"][0]["action"]
        mover[0].send(json.dumps({"type": "act", "action": action, "version": match.version}))
        ack = next_of(mover[0], ["ack"])
        assert ack["version"] > match.version
        update = next_of(other[0], ["snapshot", "update"], ack["version"])
        assert update["version"] == ack["version"]
    match.refresh_from_db()
    assert match.version == ack["version"]
    # The move, then whatever the game plays by itself after it (a draw of chance).
    assert list(match.moves.order_by("index").values_list("action", flat=True))[played_before] == action
    assert match.status == Match.Status.ACTIVE
