"""The REST API answers as its published OpenAPI schema says: schemathesis generates requests
for every operation of /api/schema/ and sends them to the live test server, signed in, with a
fixed budget of examples and of time. No 5xx, and every status and body as documented."""

import re
import subprocess
import sys

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

from games import services

from .helpers import start_two_player

EXAMPLES = 8  # per operation and phase: every operation is reached well within MAX_SECONDS
MAX_SECONDS = 30  # the whole run stops by itself past this


@pytest.fixture
def fuzzer_token(asgi_server, alice, bob, make_user):
    """A signed-in caller, and matches, players and a tournament its requests can hit (an open
    match and one under way, a tournament taking entries)."""
    start_two_player("game-of-god", alice, bob)
    services.match_create(user=alice, game="dice-territory", num_players=3)
    from tests.tournaments.helpers import announce

    announce(alice)
    return Token.objects.create(user=make_user("fuzzer")).key


def test_the_api_answers_as_its_published_schema_says(asgi_server, fuzzer_token, tmp_path, monkeypatch):
    # The run's hundreds of requests would mostly meet the throttle (whose 429 is documented).
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "100000/min")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "100000/min")
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{asgi_server}/api/schema/?format=json",
        "--checks",
        "all",
        # A request the schema allows may still break a rule of the game (a dice match for 0
        # players, a wrong password): refusing it with a documented 400 is right, not a fault.
        # And the fixed token below is valid, which the check for ignored auth cannot know.
        "--exclude-checks",
        "positive_data_acceptance,ignored_auth",
        "--max-examples",
        str(EXAMPLES),
        "--max-time",
        str(MAX_SECONDS),
        # The stateful phase, chaining responses into requests, reaches few operations more in
        # the time it takes than the others (the ids it needs are made by the fixture).
        "--phases",
        "examples,coverage,fuzzing",
        "--generation-deterministic",  # the same requests every run
        "--workers",
        "1",
        "--header",
        f"Authorization: Token {fuzzer_token}",
        "--request-timeout",
        "10",
        "--no-color",
        "--report-dir",
        str(tmp_path),
    ]
    run = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=MAX_SECONDS + 60,
        check=False,
        cwd=tmp_path,  # its cache too
    )
    (tmp_path / "schemathesis.txt").write_text(run.stdout)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-2_000:]
    selected = re.search(r"Selected: (\d+)/(\d+)", run.stdout)
    tested = re.search(r"Tested: (\d+)", run.stdout)
    assert selected and tested, run.stdout[-2_000:]
    assert selected[1] == selected[2] == tested[1], "every operation is tried within the time bound"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/83352526538382114816/",
        "/api/matches/-1/moves/",
        "/api/nowhere/",
        "/api/games/gp02a/ranking/?page=",
    ],
)
def test_an_address_with_nothing_there_answers_the_apis_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found" and response.json()["message"]


def test_every_operation_documents_its_errors_in_the_published_schema(client, db):
    schema = client.get("/api/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            documented = set(operation["responses"])
            assert "429" in documented, (method, path)
            assert "{" not in path or "404" in documented, (method, path)
            if method == "post":
                assert "400" in documented, (method, path)
