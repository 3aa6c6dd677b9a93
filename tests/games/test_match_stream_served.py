"""The match stream served for real: uvicorn processes on PostgreSQL and Redis, a bot reading
its stream over plain HTTP from one process while a person plays over a socket on another."""

import http.client
import json
import time

import pytest
import websockets.sync.client
from django.conf import settings
from rest_framework.authtoken.models import Token

from .helpers import fresh, start_two_player
from .live_servers import session_cookie, uvicorn_servers

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: the processes meet on Redis"),
    pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs DATABASE_URL on PostgreSQL: shared by the servers"),
]
WAIT = 20.0


class LineReader:
    """An NDJSON response read line by line over a raw HTTP connection."""

    def __init__(self, port: int, path: str, token: str):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=WAIT)
        self.connection.request("GET", path, headers={"Authorization": f"Token {token}"})
        self.response = self.connection.getresponse()

    def frame(self) -> dict:
        while True:
            line = self.response.readline()
            assert line, "the stream ended"
            if line.strip():
                return json.loads(line)

    def close(self):
        self.connection.close()


def test_a_bot_reads_every_move_of_a_person_playing_over_a_socket_on_another_process(transactional_db, alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    token = Token.objects.create(user=bob).key
    with uvicorn_servers(["portal-stream-a", "portal-stream-b"], STREAMS_PER_PERSON="1") as (a, b):
        stream = LineReader(b.port, f"/api/matches/{match.pk}/stream/", token)
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type") == "application/x-ndjson"
        first = stream.frame()
        assert first["type"] == "snapshot" and first["version"] == match.version and first["seat"] == 1
        with websockets.sync.client.connect(
            a.ws_url(f"/ws/matches/{match.pk}/"), origin=a.url, additional_headers={"Cookie": session_cookie(alice)}
        ) as ws:
            snapshot = json.loads(ws.recv(timeout=WAIT))
            version = snapshot["version"]
            for _ in range(3):
                if not snapshot["legal_actions"]:
                    break  # the dice gave bob the turn: alice's moves are over
                ws.send(
                    json.dumps({"type": "act", "action": snapshot["legal_actions"][0]["action"], "version": version})
                )
                snapshot = json.loads(ws.recv(timeout=WAIT))  # alice's own update
                seen = stream.frame()
                assert seen["version"] == snapshot["version"] == version + 1, "every move reaches the stream, in order"
                assert seen["seat"] == 1 and seen["view"] != {}  # bob's own view
                version = snapshot["version"]
        refused = LineReader(b.port, f"/api/matches/{match.pk}/stream/", token)
        assert refused.response.status == 429
        refused.close()
        stream.close()
        # One stream a person here: the closed one has given its place back.
        deadline = time.monotonic() + WAIT
        while True:
            again = LineReader(b.port, f"/api/matches/{match.pk}/stream/", token)
            if again.response.status == 200 or time.monotonic() > deadline:
                break
            again.close()
            time.sleep(0.2)
        assert again.response.status == 200
        assert again.frame()["version"] == fresh(match.pk).version
        again.close()
