"""Log lines an operator can follow: time, level, logger, and the request, socket or task
they were written in; JSON in production, text in development; 500s mailed to ADMINS."""

import io
import json
import logging
import os
import subprocess
import sys

import pytest
from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core import mail
from django.test import Client

from live.sockets import JsonSocket
from portal import logs, views
from tests.games.helpers import start_two_player
from tests.games.test_socket import open_socket, patch_auth, receive  # noqa: F401 -- the fixture


@pytest.fixture
def lines():
    """What the site's console handler would write, in the production (JSON) format."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.ContextFilter())
    handler.setFormatter(logs.json_formatter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)


def test_every_response_names_its_request_and_a_sensible_id_from_the_client_is_kept(client):
    assert len(client.get("/healthz")["X-Request-ID"]) == 16
    assert client.get("/healthz", headers={"X-Request-ID": "lb-4f1c.7"})["X-Request-ID"] == "lb-4f1c.7"
    forged = "x\nlevel=ERROR " + "y" * 80
    assert client.get("/healthz", headers={"X-Request-ID": forged})["X-Request-ID"] != forged


@pytest.mark.django_db
def test_a_log_line_of_a_request_is_json_with_time_level_logger_and_the_request_id(client, lines):
    client.get("/no-such-page/", headers={"X-Request-ID": "req-12345"})
    line = next(entry for entry in lines() if entry["logger"] == "django.request")
    assert line["level"] == "WARNING" and line["request_id"] == "req-12345"
    assert line["message"].startswith("Not Found") and line["time"].startswith("20")


def test_the_development_format_is_one_readable_line_with_the_id():
    record = logging.LogRecord("games.tasks", logging.WARNING, __file__, 1, "bot %s stalled", ("random",), None)
    with logs.bound(task_id="abc"):
        logs.ContextFilter().filter(record)
    text = logs.TextFormatter().format(record)
    assert text.endswith(" WARNING games.tasks [task=abc] bot random stalled") and text[:4].isdigit()


def test_a_task_run_inside_another_logs_under_its_own_id_then_the_outer_ones_again(lines, settings):
    # Eager Celery (the embedded default) runs a task that another one starts (a bot's move
    # that finishes a match starts the rating) in the same context.
    from celery import shared_task

    @shared_task
    def inner():
        logging.getLogger("games.tasks").warning("inner at work")

    @shared_task
    def outer():
        inner.apply()
        logging.getLogger("games.tasks").warning("outer at work")

    errors = io.StringIO()
    handler = logging.StreamHandler(errors)
    handler.setLevel(logging.ERROR)
    logging.getLogger("celery").addHandler(handler)
    try:
        run = outer.apply()
    finally:
        logging.getLogger("celery").removeHandler(handler)
    assert errors.getvalue() == "", "no signal handler fails"
    by_message = {entry["message"]: entry.get("task_id") for entry in lines()}
    assert by_message["outer at work"] == run.id
    assert by_message["inner at work"] not in (None, run.id)
    assert logs.current() == {}


def test_the_request_id_middleware_stays_async_under_an_async_server():
    async def get_response(request):
        return None

    assert iscoroutinefunction(logs.RequestIdMiddleware(get_response))
    assert not iscoroutinefunction(logs.RequestIdMiddleware(lambda request: None))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_log_line_written_for_a_socket_carries_its_socket_id(alice, bob, patch_auth, lines, monkeypatch):  # noqa: F811
    async def frame_ping(self, frame):
        logging.getLogger("live.sockets").warning("ping from the page")
        await self.send(text_data='{"type": "pong"}')

    monkeypatch.setattr(JsonSocket, "frame_ping", frame_ping)
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    sockets = []
    for user in (alice, bob):
        ws, ok, _ = await open_socket(patch_auth, match.pk, user)
        assert ok
        await receive(ws, "snapshot")
        await ws.send_to(text_data='{"type": "ping"}')
        await receive(ws, "pong")
        sockets.append(ws)
    for ws in sockets:
        await ws.disconnect()
    ids = [entry.get("socket_id") for entry in lines() if entry["message"] == "ping from the page"]
    assert len(ids) == 2 and all(ids) and ids[0] != ids[1], "each socket its own id"


@pytest.mark.django_db
def test_a_server_error_is_mailed_to_the_admins(settings, monkeypatch):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.DEBUG = False

    def broken(*args, **kwargs):
        raise RuntimeError("the about page broke")

    monkeypatch.setattr(views, "render", broken)  # what the about page draws with
    response = Client(raise_request_exception=False).get("/about/")
    assert response.status_code == 500
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ops@example.org"]
    assert "the about page broke" in mail.outbox[0].body


@pytest.mark.parametrize("dsn, active", [("", False), ("https://key@127.0.0.1:9/1", True)])
def test_error_tracking_starts_only_with_a_sentry_dsn(dsn, active):
    environment = {**os.environ, "SENTRY_DSN": dsn, "PORTAL_TESTING": "1"}
    check = "import django, sentry_sdk; django.setup(); print(sentry_sdk.get_client().is_active())"
    environment["DJANGO_SETTINGS_MODULE"] = "portal.settings"
    out = subprocess.run([sys.executable, "-c", check], env=environment, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == str(active), out.stderr
