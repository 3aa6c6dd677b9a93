"""Fault suite: a Redis of the test's own (never the shared one) is killed and restarted under
two live uvicorn servers and a Celery worker, all in processes of their own on the test
database; and a Celery worker is killed with SIGKILL in the middle of a bot's move.

What must hold: no 500 on reads, pages or log-ins while Redis is down; a committed move is
acknowledged and its player told the others cannot see it yet; nobody loses on time; once
Redis is back the first write of a process that sat out the outage succeeds, the clocks move
on with a notice to the players, the bot moves and the match that ended meanwhile is rated,
by the periodic check (``manage.py run_clocks``); and a bot move whose worker died is played
exactly once. Everything is bounded in time and stops by itself."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
import redis
import websockets
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games import services, state_cache
from games.models import ChatMessage, LiveOutage, Match, Move
from rankings.models import RatingChange
from tests.conftest import DEMO_PASSWORD, drain_worker, wait_for

from .helpers import acked, fresh, start_two_player
from .live_servers import database_url, free_port, http, server_sessions, session_cookie, uvicorn_servers

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it): the fault is a Redis that dies"),
    pytest.mark.skipif(
        not settings.USING_POSTGRES, reason="needs DATABASE_URL on PostgreSQL: the processes share the test database"
    ),
]

WAIT = 30.0  # seconds any one step may take, loaded CI machines included
PREFIX = "fault"


# -- processes of the test's own -----------------------------------------------------------


class RedisServer:
    """``redis-server`` on a free loopback port, without persistence: killed, it comes back empty."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--daemonize", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        wait_for(lambda: _answers(client), timeout=WAIT, interval=0.05, message="redis-server to answer")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def hang(self) -> None:
        """Stopped (SIGSTOP): connections are still accepted by the system, nothing is answered."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


def _answers(client) -> bool:
    try:
        return client.ping()
    except redis.exceptions.ConnectionError:
        return False


@contextlib.contextmanager
def redis_server():
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.kill()


def _environment(redis_url: str, application_name: str) -> dict:
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(application_name),
        "REDIS_URL": redis_url,
        "CHANNEL_PREFIX": PREFIX,
        "SECRET_KEY": settings.SECRET_KEY,
        "PORTAL_TESTING": "1",
    }
    environment.pop("DJANGO_ENV", None)
    return environment


class Worker:
    """A Celery worker in a process of its own (by default the solo pool: the task runs in that
    very process, so killing it kills the task; ``pool`` gives others, ``make worker``'s
    ``["prefork", "--concurrency", "2"]``)."""

    def __init__(self, redis_url: str, application_name: str, pool: tuple[str, ...] = ("solo",)):
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop)
        command = [sys.executable, "-m", "celery", "-A", "portal", "worker", "--pool", *pool, "--loglevel", "info"]
        command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
        command += ["--hostname", f"{application_name}@%h"]
        self.application_name = application_name
        self.process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=_environment(redis_url, application_name),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_for(lambda: "ready." in self.output() or self.process.poll() is not None, timeout=60, message="worker")
        assert self.process.poll() is None, self.output()

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=WAIT)
        self.log.close()
        wait_for(lambda: server_sessions(self.application_name) == 0, timeout=WAIT, message="worker's sessions gone")


@contextlib.contextmanager
def worker(redis_url: str, application_name: str = "fault-worker", pool: tuple[str, ...] = ("solo",)):
    process = Worker(redis_url, application_name, pool)
    try:
        yield process
    finally:
        print(f"--- worker ---\n{process.output()[-4000:]}")  # shown by pytest on failure
        process.stop()


def run_periodic_check(redis_url: str) -> None:
    """The periodic check once, as Celery beat or ``make run`` run it."""
    command = [sys.executable, "manage.py", "run_clocks", "--once"]
    done = subprocess.run(
        command,
        cwd=settings.BASE_DIR,
        env=_environment(redis_url, "fault-clocks"),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-4000:]


# -- the players ---------------------------------------------------------------------------


def token_of(user) -> dict:
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


def to_move(match: Match, *users):
    """The user of ``users`` whose seat is to move."""
    seats = {seat.index: seat.user for seat in match.seats.select_related("user")}
    return next(user for user in users if seats[match.to_move].pk == user.pk)


def act_over_rest(server, match: Match, user) -> tuple[int, object]:
    action = state_cache.load(match).legal_actions()[0]
    return http(
        "POST",
        f"{server.url}/api/matches/{match.pk}/actions/",
        body={"action": action, "version": match.version},
        headers=token_of(user),
    )


def log_in(server, login: str, password: str) -> int:
    """The site's log-in form, as a browser fills it: its CSRF cookie and token, then the post."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(), NoRedirect())
    with opener.open(f"{server.url}/accounts/login/", timeout=WAIT) as response:
        assert response.status == 200
        page = response.read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode({"login": login, "password": password, "csrfmiddlewaretoken": csrf}).encode()
    try:
        with opener.open(f"{server.url}/accounts/login/", data=data, timeout=WAIT) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


async def next_frame(ws, kind: str, version: int | None = None) -> dict:
    """The next frame of ``kind`` (at ``version`` if given); the others are skipped."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        if (frame["type"] == kind or (kind == "ack" and acked(frame))) and (
            version is None or frame["version"] == version
        ):
            return frame


def subscriptions(client) -> set[bytes]:
    """The channel layer's subscriptions in this Redis (every process's, every socket's)."""
    return set(client.pubsub_channels(f"{PREFIX}*"))


# -- the outage ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_redis_outage_harms_nobody_and_what_it_held_up_happens_once_it_is_back(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    live = start_two_player("game-of-god", alice, bob)  # moved over a socket during the outage
    ending = start_two_player("game-of-god", alice, bob)  # resigned during the outage: to be rated
    against_bot = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=against_bot.pk, user=alice, bot="random")
    wait_for(lambda: fresh(against_bot.pk).to_move == 0, message="alice to move against the bot")
    drain_worker()

    with (
        redis_server() as own_redis,
        worker(own_redis.url),
        uvicorn_servers(["fault-a", "fault-b"], REDIS_URL=own_redis.url, CHANNEL_PREFIX=PREFIX) as (a, b),
    ):
        # Server B serves a write before the outage, then sits it out: its pooled Redis
        # connections (cache, channel layer) are the ones Redis drops.
        status, body = http("POST", f"{b.url}/api/matches/{live.pk}/chat/", body={"text": "gl"}, headers=token_of(bob))
        assert status == 201, body

        cookie = session_cookie(to_move(fresh(live.pk), alice, bob))

        client = redis.Redis.from_url(own_redis.url, socket_connect_timeout=1)

        async def outage():
            # The player to move on server A, a spectator on server B.
            ws = await websockets.connect(
                a.ws_url(f"/ws/matches/{live.pk}/"),
                origin=a.url,
                additional_headers={"Cookie": cookie},
                open_timeout=WAIT,
            )
            watcher = await websockets.connect(b.ws_url(f"/ws/matches/{live.pk}/"), origin=b.url, open_timeout=WAIT)
            try:
                snapshot = await next_frame(ws, "snapshot")
                await next_frame(watcher, "snapshot")
                subscribed = subscriptions(client)
                own_redis.kill()

                # Reads, pages and the log-in form answer.
                for path in ("/api/games/", "/api/matches/", "/", "/accounts/login/", f"/matches/{live.pk}/"):
                    status, body = await asyncio.to_thread(http, "GET", f"{a.url}{path}")
                    assert status == 200, (path, status, str(body)[:300])
                assert await asyncio.to_thread(log_in, a, "alice", DEMO_PASSWORD) == 302

                # A move over the socket commits, is acknowledged, and its player is told.
                action = snapshot["legal_actions"][0]["action"]
                await ws.send(json.dumps({"type": "act", "action": action, "version": snapshot["version"]}))
                ack = await next_frame(ws, "ack")
                told = await next_frame(ws, "error")
                assert ack["version"] == snapshot["version"] + 1
                assert told["code"] == "unavailable"
                assert (await next_frame(ws, "snapshot"))["version"] == ack["version"]
                return ws, watcher, subscribed
            except BaseException:
                await ws.close()
                await watcher.close()
                raise

        loop = asyncio.new_event_loop()  # one loop for the socket, from before the outage to after
        ws, watcher, subscribed = loop.run_until_complete(asyncio.wait_for(outage(), 4 * WAIT))
        try:
            assert fresh(live.pk).version == live.version + 1
            assert LiveOutage.objects.filter(ended_at=None).exists(), "the outage is noted"

            # The time of the player to move runs out meanwhile: nobody is forfeited, on a read
            # or by the periodic check.
            Match.objects.filter(pk=live.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            status, body = http("GET", f"{a.url}/api/matches/{live.pk}/")
            assert status == 200 and body["status"] == "active", body
            run_periodic_check(own_redis.url)
            assert fresh(live.pk).status == Match.Status.ACTIVE

            # A match ends (its rating cannot be queued); alice plays until the bot is to move
            # (its move cannot be queued).
            status, body = http("POST", f"{a.url}/api/matches/{ending.pk}/resign/", headers=token_of(bob))
            assert status == 200, body
            bot_match = fresh(against_bot.pk)
            bot_from = bot_match.moves.count()
            while bot_match.to_move == 0:
                status, body = act_over_rest(a, bot_match, alice)
                assert status == 200, body
                bot_match = fresh(against_bot.pk)

            own_redis.start()  # back, on the same port, empty
            wait_for(lambda: subscriptions(client) >= subscribed, timeout=WAIT, message="the sockets subscribed again")

            # The first write of the process that sat the outage out goes through, and out to
            # its sockets (its pooled connection to Redis died with Redis).
            match = fresh(live.pk)
            status, body = act_over_rest(b, match, to_move(match, alice, bob))
            assert status == 200, body
            loop.run_until_complete(next_frame(watcher, "snapshot", body["version"]))
            assert not fresh(live.pk).seats.filter(timed_out=True).exists()

            # The periodic check, once the losses it repairs are old enough to be losses.
            Match.objects.filter(pk=against_bot.pk).update(updated_at=timezone.now() - timedelta(minutes=1))
            Match.objects.filter(pk=ending.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
            run_periodic_check(own_redis.url)

            assert RatingChange.objects.filter(match=ending).count() == 2, "the match that ended is rated"
            match = fresh(live.pk)
            assert match.status == Match.Status.ACTIVE and match.deadline > timezone.now() + timedelta(seconds=60)
            notice = ChatMessage.objects.get(match=live, user=None)
            assert "clocks were stopped" in notice.text
            assert not LiveOutage.objects.filter(ended_at=None).exists()

            def bot_answered():
                m = fresh(against_bot.pk)
                return Move.objects.filter(match=m, seat=1, index__gte=bot_from).exists() and m.to_move == 0

            wait_for(bot_answered, timeout=60, message="the bot's move, queued again")

            # The socket opened before the outage hears the news again.
            async def heard():
                frame = await next_frame(ws, "chat")
                await ws.close()
                return frame

            assert loop.run_until_complete(heard())["message"]["notice"] is True
        finally:
            loop.run_until_complete(ws.close())
            loop.run_until_complete(watcher.close())
            loop.close()


# -- a worker killed in the middle of a bot's move ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_bot_move_whose_worker_is_killed_mid_task_is_played_exactly_once(make_user, monkeypatch):
    from games import tasks
    from portal.celery import app

    alice = make_user("alice")
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    wait_for(lambda: fresh(match.pk).to_move == 0, message="alice to move")
    drain_worker()
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: None)  # queued below instead
    match = fresh(match.pk)
    while match.to_move == 0:
        action = state_cache.load(match).legal_actions()[0]
        services.match_act(match_id=match.pk, user=alice, action=action, version=match.version)
        match = fresh(match.pk)
    monkeypatch.undo()
    stuck_version, bot_from = match.version, match.moves.count()

    with redis_server() as own_redis:
        with worker(own_redis.url, "fault-worker-1") as doomed:
            with transaction.atomic():
                # Hold the match row: the bot's move blocks in its write, mid-task.
                Match.objects.select_for_update().get(pk=match.pk)
                with app.connection_for_write(own_redis.url) as connection:
                    tasks.bot_act.apply_async(args=(match.pk, stuck_version), connection=connection)
                wait_for(lambda: _waiting_on_a_lock("fault-worker-1"), timeout=60, message="the bot's write to block")
                doomed.kill()
            # The killed worker's session may still finish its one statement now, or not: either
            # way exactly one bot move must result.
            wait_for(lambda: server_sessions("fault-worker-1") == 0, timeout=WAIT, message="the killed session gone")

        # The task is lost whether or not its move landed, and a bot may act more than once in a
        # row: the match looks untouched for a minute, as the periodic check would find it.
        Match.objects.filter(pk=match.pk, status=Match.Status.ACTIVE).update(
            updated_at=timezone.now() - timedelta(minutes=1)
        )
        with worker(own_redis.url, "fault-worker-2"):
            run_periodic_check(own_redis.url)
            run_periodic_check(own_redis.url)  # twice: a duplicate is harmless

            def bot_answered():
                m = fresh(match.pk)
                return m.version > stuck_version and (m.to_move == 0 or m.is_over)

            wait_for(bot_answered, timeout=60, message="the bot's move")
            queue = redis.Redis.from_url(own_redis.url)
            wait_for(lambda: queue.llen("celery") == 0, timeout=60, message="the queue drained")

    match = fresh(match.pk)
    bot_actions = [s for s in match.moves.filter(index__gte=bot_from).values_list("seat", flat=True) if s is not None]
    assert bot_actions and set(bot_actions) == {1}
    assert match.version - stuck_version == len(bot_actions), "each bot action applied once"
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    assert match.engine.replay(2, match.options, actions).view(None) == match.snapshot


def _waiting_on_a_lock(application_name: str) -> bool:
    from django.db import connections

    # A connection of its own: the test's is inside the transaction holding the lock.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND application_name = %s AND wait_event_type = 'Lock'",
                [application_name],
            )
            return cursor.fetchone()[0] > 0
    finally:
        other.close()


# -- a Redis that hangs instead of refusing -------------------------------------------------

ANSWER_WITHIN = 2.0  # seconds: a move or a page while Redis hangs, as the site promises


def timed(call, *args, **kwargs):
    started = time.monotonic()
    result = call(*args, **kwargs)
    return result, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_a_redis_that_hangs_holds_up_no_move_no_page_and_no_new_socket(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    live = start_two_player("game-of-god", alice, bob)
    cookie = session_cookie(alice)

    with (
        redis_server() as own_redis,
        uvicorn_servers(["hung-a"], REDIS_URL=own_redis.url, CHANNEL_PREFIX=PREFIX) as (a,),
    ):
        # Served once with Redis up: the server's pooled connections are the ones that hang.
        status, body = http("GET", f"{a.url}/api/matches/{live.pk}/", headers=token_of(alice))
        assert status == 200, body
        own_redis.hang()
        try:
            # A move over REST answers, committed, though nobody can be told of it yet.
            match = fresh(live.pk)
            (status, body), took = timed(act_over_rest, a, match, to_move(match, alice, bob))
            assert status == 200, body
            assert took < ANSWER_WITHIN, f"the move took {took:.1f} s"
            assert fresh(live.pk).version == match.version + 1

            # A new socket is accepted and closed with the code that sends the page to the API.
            async def open_socket():
                ws = await websockets.connect(
                    a.ws_url(f"/ws/matches/{live.pk}/"),
                    origin=a.url,
                    additional_headers={"Cookie": cookie},
                    open_timeout=WAIT,
                )
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), WAIT)
                assert closed.value.rcvd is not None, "closed by the server, with a code"
                return closed.value.rcvd.code

            assert asyncio.run(open_socket()) == 4503

            # Pages, the anonymous and the signed-in, answer too.
            for path, headers in (
                ("/", {}),
                (f"/matches/{live.pk}/", {"Cookie": cookie}),
                ("/api/matches/", {}),
                ("/", {"Cookie": cookie}),
            ):
                (status, body), took = timed(http, "GET", f"{a.url}{path}", headers=headers)
                assert status == 200, (path, status, str(body)[:300])
                assert took < ANSWER_WITHIN, f"{path} took {took:.1f} s"
        finally:
            own_redis.resume()

        # Once Redis answers again, the next trial finds it back; the outage was logged as two
        # lines, its start and its end, and no traceback.
        down, back = f"Redis at 127.0.0.1:{own_redis.port} is down", f"Redis at 127.0.0.1:{own_redis.port} is back"

        def found_back() -> bool:
            http("GET", f"{a.url}/api/matches/", headers=token_of(alice))
            return back in a.output()

        wait_for(found_back, timeout=WAIT, interval=0.5, message="Redis found back")
        output = a.output()
        assert "Traceback" not in output, output
        assert output.count(down) == 1 and output.count(back) == 1, output
