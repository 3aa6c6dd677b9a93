"""Under load, one ASGI process holds no more PostgreSQL connections than its pools' max_size
(Django's, for the threads, and the event loop's own, ``live.pg``), and every caller is
served: the pools make callers wait, they do not fail them."""

import asyncio
import itertools
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
import websockets
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from .helpers import acked, start_two_player
from .live_servers import http, session_cookie, uvicorn_server

pytestmark = pytest.mark.skipif(
    not settings.USING_POSTGRES, reason="Django's connection pool is PostgreSQL's; set DATABASE_URL to a PostgreSQL"
)

APPLICATION_NAME = "portal-under-test"
POOL_MAX_SIZE = 4
LIVE_POOL_MAX_SIZE = 2  # the event loop's own (the sockets' moves on PostgreSQL)
MATCHES = 10  # two players and one spectator each: 30 sockets
MOVES_PER_MATCH = 6
HTTP_REQUESTS = 200
HTTP_CLIENTS = 10  # at once: more than twice the pool
WAIT = 30.0  # seconds any one frame or request may take, loaded CI machines included


@pytest.fixture
def pooled_server(transactional_db):
    """A process with a small pool (and the default DB_POOL_TIMEOUT, so callers wait as long
    as they would in production)."""
    pool = {
        "DB_POOL_MAX_SIZE": str(POOL_MAX_SIZE),
        "DB_POOL_MIN_SIZE": "1",
        "DB_THREADS": "2",
        "LIVE_DB_POOL_MAX_SIZE": str(LIVE_POOL_MAX_SIZE),
    }
    with uvicorn_server(APPLICATION_NAME, **pool) as server:
        yield server


class ConnectionSampler(threading.Thread):
    """Counts the server's sessions in pg_stat_activity, over and over, on a connection of its
    own (autocommit: inside a transaction pg_stat_activity would be one frozen snapshot)."""

    def __init__(self):
        super().__init__(daemon=True)
        s = connection.settings_dict
        self.conninfo = {
            "dbname": s["NAME"],
            "user": s["USER"] or None,
            "password": s["PASSWORD"] or None,
            "host": s["HOST"] or None,
            "port": s["PORT"] or None,
        }
        self.samples = []
        self.stopping = threading.Event()

    def run(self):
        with psycopg.connect(**{k: v for k, v in self.conninfo.items() if v}, autocommit=True) as db:
            while not self.stopping.is_set():
                row = db.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                    [self.conninfo["dbname"], APPLICATION_NAME],
                ).fetchone()
                self.samples.append(row[0])
                self.stopping.wait(0.01)

    def stop(self):
        self.stopping.set()
        self.join(timeout=10)


def test_the_pool_bounds_the_connections_of_a_loaded_process_and_fails_no_caller(pooled_server, make_user):
    server = pooled_server
    matches, players, spectators, tokens = [], {}, [], []
    for n in range(MATCHES):
        first, second = make_user(f"first{n}"), make_user(f"second{n}")
        match = start_two_player("game-of-god", first, second)
        matches.append(match)
        players[match.pk] = [session_cookie(first), session_cookie(second)]
        # Spectators: every other one signed in, the rest anonymous.
        spectators.append(session_cookie(make_user(f"watcher{n}")) if n % 2 else "")
        tokens += [Token.objects.create(user=first).key, Token.objects.create(user=second).key]
    start = {m.pk: m.version for m in matches}
    paths = itertools.cycle(
        [("/", None), ("/play/", None), ("/hall-of-fame/", None)]
        + [(f"/matches/{m.pk}/", None) for m in matches]
        + [(f"/api/matches/{m.pk}/", t) for m, t in zip(matches, tokens, strict=False)]
        + [(f"/api/matches/{m.pk}/moves/", t) for m, t in zip(matches, tokens[MATCHES:], strict=False)]
    )
    requests = [next(paths) for _ in range(HTTP_REQUESTS)]

    def get(request):
        path, token = request
        headers = {"Authorization": f"Token {token}"} if token else {}
        return path, http("GET", server.url + path, headers=headers, timeout=WAIT)[0]

    def http_load():
        with ThreadPoolExecutor(HTTP_CLIENTS) as pool:
            return list(pool.map(get, requests))

    async def watch(match_id, cookie, play):
        """One socket: it plays its seat's first legal action on its turns when ``play``, until
        the match is MOVES_PER_MATCH versions on. Returns (match id, acks, last version seen)."""
        ws = await websockets.connect(
            server.ws_url(f"/ws/matches/{match_id}/"),
            origin=server.url,
            additional_headers={"Cookie": cookie} if cookie else {},
            open_timeout=WAIT,
            close_timeout=5,
        )
        target, acted, acks, sent, seen = start[match_id] + MOVES_PER_MATCH, -1, 0, 0, -1
        try:
            # The mover's own update may come before its ack: wait for both.
            while seen < target or acks < sent:
                frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
                assert frame["type"] != "error", f"match {match_id}: {frame}"
                acks += bool(acked(frame))
                if frame["type"] in ("snapshot", "update"):
                    seen = max(seen, frame["version"])
                    if play and frame["legal_actions"] and frame["version"] > acted and seen < target:
                        action = frame["legal_actions"][0]["action"]
                        await ws.send(json.dumps({"type": "act", "action": action, "version": frame["version"]}))
                        acted = frame["version"]
                        sent += 1
            return match_id, acks, seen
        finally:
            await ws.close()

    async def load():
        sockets = []
        for match, spectator in zip(matches, spectators, strict=True):
            sockets += [watch(match.pk, cookie, play=True) for cookie in players[match.pk]]
            sockets.append(watch(match.pk, spectator, play=False))
        return await asyncio.gather(asyncio.to_thread(http_load), *sockets)

    sampler = ConnectionSampler()
    sampler.start()
    try:
        answers, *outcomes = asyncio.run(asyncio.wait_for(load(), 4 * WAIT))
    finally:
        sampler.stop()

    # Every caller was served...
    failed = [(path, status) for path, status in answers if status != 200]
    assert len(answers) == HTTP_REQUESTS and failed == []
    assert len(outcomes) == 3 * MATCHES
    assert sum(acks for _, acks, _ in outcomes) == MATCHES * MOVES_PER_MATCH
    assert all(seen == start[match_id] + MOVES_PER_MATCH for match_id, _, seen in outcomes)
    for match in matches:
        match.refresh_from_db()
        assert match.version == start[match.pk] + MOVES_PER_MATCH
    # ...by no more connections than the pool holds (and the sampler did see them).
    assert sampler.samples, "the sampler took no sample"
    assert max(sampler.samples) <= POOL_MAX_SIZE + LIVE_POOL_MAX_SIZE, f"peak {max(sampler.samples)} connections"
    assert max(sampler.samples) >= 1, f"no session named {APPLICATION_NAME!r}: is application_name passed on?"
