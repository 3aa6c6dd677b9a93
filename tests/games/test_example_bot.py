"""The example bot of docs/BOTS_API.md (docs/examples/random_bot.py), run as its author would:
a separate process with its bot account's token, against the site served for real, accepting
a person's challenge from its event stream and playing the whole match against that person's
socket."""

import json
import os
import subprocess
import sys
import time

import pytest
import websockets.sync.client
from django.conf import settings

from accounts.services import bot_account_create
from challenges import services as challenges
from games.models import Match
from tests.conftest import wait_for

from .live_servers import session_cookie, uvicorn_server

pytestmark = [
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL: the bot and the person meet on Redis"),
    pytest.mark.skipif(not settings.USING_POSTGRES, reason="needs DATABASE_URL on PostgreSQL: shared with the server"),
]
EXAMPLE = settings.BASE_DIR / "docs" / "examples" / "random_bot.py"
WAIT = 30.0


def test_the_example_bot_accepts_a_challenge_and_plays_a_whole_match_against_a_person(transactional_db, alice, bob):
    bot, token = bot_account_create(owner=alice, name="example-bot")
    challenge = challenges.challenge_create(user=bob, to=bot, game="territories", num_players=2, rated=False)
    with uvicorn_server("portal-example-bot") as server:
        process = subprocess.Popen(
            [sys.executable, str(EXAMPLE), "--url", server.url, "--matches", "1"],
            env={**os.environ, "BOT_TOKEN": token},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            match = wait_for(
                lambda: Match.objects.filter(pk=challenges_match(challenge.pk), status=Match.Status.ACTIVE).first(),
                timeout=WAIT,
                message="the bot to accept the challenge",
            )
            ws = websockets.sync.client.connect(
                server.ws_url(f"/ws/matches/{match.pk}/"),
                origin=server.url,
                additional_headers={"Cookie": session_cookie(bob)},
            )
            acted, status, moves = -1, "active", 0
            seen: list = []  # what bob's socket got, for the message of a failure
            with ws:
                while status == "active":
                    try:
                        frame = json.loads(ws.recv(timeout=WAIT))
                    except TimeoutError:
                        process.kill()
                        said = process.communicate()[0]
                        raise AssertionError(
                            f"no move for {WAIT:.0f} s after {seen[-8:]}; the bot said:\n{said}"
                        ) from None
                    seen.append(frame if frame.get("type") == "error" else frame.get("version", frame.get("type")))
                    if frame.get("type") == "error":
                        # Refused: the position moved on (its snapshot follows), or too many
                        # moves a second against a bot that answers at once (the socket's
                        # flood limit): after a pause, ask for the position and answer it.
                        acted = -1
                        if frame["code"] == "bad_request":
                            time.sleep(1.0)
                            ws.send(json.dumps({"type": "snapshot"}))
                        continue
                    if frame.get("type") != "snapshot":
                        continue
                    status = frame["status"]
                    if status == "active" and frame["legal_actions"] and frame["version"] > acted:
                        acted = frame["version"]
                        action = frame["legal_actions"][0]["action"]
                        ws.send(json.dumps({"type": "act", "action": action, "version": frame["version"]}))
                        moves += 1
            output, _ = process.communicate(timeout=WAIT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, output
    assert f"playing match {match.pk} (territories)" in output
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    bot_seat = match.seats.get(user=bot).index
    assert match.moves.filter(seat=bot_seat).exists() and moves > 0, "both sides played"


def challenges_match(challenge_id: int):
    from challenges.models import Challenge

    return Challenge.objects.filter(pk=challenge_id).values_list("match_id", flat=True).first()
