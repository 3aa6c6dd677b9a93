"""Finished matches leave as records anyone may read (the API's JSON, the text record of
docs/RECORDS.md, NDJSON streams of many), and a text record comes back in only if it replays
through the game's rules: the round trip gives every finished match back exactly."""

import datetime
import io
import json
import random
import urllib.request
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games import exports, records, selectors, services
from games.engines import get_game
from games.models import Match
from games.services import imports
from tests.rankings.helpers import finished_match

from .helpers import fresh, play_turn

pytestmark = pytest.mark.django_db

# Every game, at a number of players it allows: one match played to its end, one resigned
# (with options other than the standard ones, where the game has them).
GAMES = [("gp02a", 3), ("dice-territory", 3), ("territories", 2), ("chit-territory", 2), ("game-of-god", 2)]
OPTIONS = {"gp02a": {"negotiation": True}, "chit-territory": {"mountains_rivers": True}, "game-of-god": {"pieces": 6}}


def play_match(game, users, *, resign_after=None, seed=1, **kwargs) -> Match:
    """A match of ``users`` (seat order) through the services, played with random legal moves
    to its end, or for ``resign_after`` moves, when everyone but the last to move resigns."""
    match = services.match_create(user=users[0], game=game, num_players=len(users), **kwargs)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user, token=match.invite_token)
    by_seat = {fresh(match.pk).seats.get(user=user).index: user for user in users}
    rng = random.Random(seed)
    played = 0
    while play_turn(match.pk, by_seat, rng):
        played += 1
        if played == resign_after:
            last = fresh(match.pk).to_move
            for index in sorted(by_seat, key=lambda i: i == last):
                if index != last:
                    services.match_resign(match_id=match.pk, user=by_seat[index])
            break
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED
    return match


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat")]


def assert_reproduces(match: Match, record: records.Record, state) -> None:
    """The record, replayed, is the match: game, options, seats, every public move, the
    position reached, places, scores, how it ended, and the ratings."""
    seats = list(match.seats.select_related("user").order_by("index"))
    assert (record.game, record.num_players) == (match.game, match.num_players)
    assert record.options == get_game(match.game).normalise_options(match.options, match.num_players)
    public = [(row["seat"], row["action"]) for row in selectors.moves_json(match)]
    assert record.moves == public and len(public) == match.moves.count()
    assert state.view(None) == match.snapshot
    assert [s.name for s in record.seats] == [s.user and s.user.username for s in seats]
    assert record.places == [s.place for s in seats]
    assert record.scores == [s.score for s in seats] == state.scores()
    assert [s.quit for s in record.seats] == [
        "resigned" if s.resigned else "timed out" if s.timed_out else "" for s in seats
    ]
    assert record.end == match.end_reason
    changes: dict[int | None, tuple[float | None, float | None]] = {
        c.user_id: (c.before, c.after) for c in match.rating_changes.all()
    }
    assert [(s.rating_before, s.rating_after) for s in record.seats] == [
        changes.get(s.user_id, (None, None)) for s in seats
    ]
    assert record.headers["Match"] == str(match.pk)


def _by(user):
    api = APIClient()
    api.force_authenticate(user)
    return api


def _same_game(original: records.Record, again: records.Record) -> None:
    """What a record says of the game itself: everything but the site's own number and the
    ratings (an imported match is unrated)."""
    for name in ("game", "num_players", "options", "moves", "places", "scores", "end"):
        assert getattr(again, name) == getattr(original, name), name
    assert [(s.name, s.quit) for s in again.seats] == [(s.name, s.quit) for s in original.seats]
    for key in ("Speed", "Started", "Date"):
        assert again.headers[key] == original.headers[key]


def assert_imported_again(client, importer, match: Match, text: str) -> None:
    """``text`` (the record of ``match``) imported through the API is the same game, kept as
    a finished, unrated, public match that seats no account."""
    answer = importer.post("/api/matches/import/", {"record": text}, format="json")
    assert answer.status_code == 201, answer.json()
    imported = Match.objects.get(pk=answer.json()["id"])
    assert imported.pk != match.pk and imported.imported_from is not None
    assert (imported.status, imported.rated, imported.visibility) == ("finished", False, "public")
    assert not imported.seats.exclude(user=None).exists()  # names, never the site's accounts
    assert not imported.rating_changes.exists()
    assert answer.json()["imported"] and answer.json()["rated"] is False
    again = client.get(f"/api/matches/{imported.pk}/export/").json()
    assert again == answer.json()
    original, _ = records.read(text)
    back, state = records.read(again["record"])
    _same_game(original, back)
    # The stored match is the game: its moves replay to the position it shows.
    assert state.view(None) == imported.snapshot == match.snapshot
    assert [s.score for s in imported.seats.order_by("index")] == [s.score for s in match.seats.order_by("index")]


def _stream(client, url) -> list[int]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return [json.loads(line)["id"] for line in b"".join(response.streaming_content).decode().splitlines()]


def test_the_streams_filter_by_player_game_and_date(client, players, make_user):
    dave = make_user("dave")
    ours = play_match("territories", players[:2], resign_after=3)
    theirs = play_match("territories", [players[2], dave], resign_after=3)
    other_game = play_match("game-of-god", players[:2], resign_after=3)
    Match.objects.filter(pk=ours.pk).update(finished_at=timezone.now() - datetime.timedelta(days=10))
    assert _stream(client, "/api/players/ann/matches/export/") == [ours.pk, other_game.pk]
    assert _stream(client, "/api/players/DAVE/matches/export/") == [theirs.pk]
    assert _stream(client, "/api/matches/export/?game=territories") == [ours.pk, theirs.pk]
    since = (timezone.now() - datetime.timedelta(days=2)).date().isoformat()
    assert _stream(client, f"/api/matches/export/?game=territories&since={since}") == [theirs.pk]
    assert _stream(client, f"/api/players/ann/matches/export/?until={since}") == [ours.pk]
    moment = quote(timezone.now().isoformat())  # a date and time, to the microsecond
    assert _stream(client, f"/api/matches/export/?since={moment}") == []


def test_the_streams_hold_no_match_being_played_nor_an_invite_only_one(client, players):
    private = play_match("territories", players[:2], resign_after=3, visibility="invite")
    running = services.match_create(user=players[0], game="territories", num_players=2)
    services.match_join(match_id=running.pk, user=players[1])
    assert _stream(client, "/api/matches/export/") == []
    assert _stream(client, "/api/players/ann/matches/export/") == []
    assert client.get(f"/api/matches/{running.pk}/export/").status_code == 404
    assert client.get(f"/api/matches/{private.pk}/export/").status_code == 404
    invited = client.get(f"/api/matches/{private.pk}/export/?token={private.invite_token}")
    assert invited.status_code == 200 and invited.json()["id"] == private.pk


@pytest.mark.parametrize(
    "query, message",
    [("since=yesterday", "since is a date"), ("until=2026-13-40", "until is a date"), ("game=chess", "no game")],
)
def test_a_stream_with_a_bad_filter_is_refused_with_a_clear_error(client, query, message):
    response = client.get(f"/api/matches/export/?{query}")
    assert response.status_code == 400 and message in response.json()["message"]
    assert client.get("/api/players/nobody/matches/export/").status_code == 404


# -- the importer refuses what does not replay --------------------------------------------


@pytest.fixture
def record_text(players):
    match = play_match("territories", players[:2], resign_after=6)
    return records.write(records.Record(**_fields(match)))


def _fields(match):
    record = exports.match_record(match)
    return {
        k: getattr(record, k)
        for k in ("game", "num_players", "options", "seats", "moves", "places", "scores", "end", "headers")
    }


def _line_of(text, start):
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def test_a_record_with_an_illegal_move_is_refused_naming_its_line(record_text):
    lines = record_text.splitlines()
    number = next(n for n, line in enumerate(lines, start=1) if line.startswith("1 farm:"))
    lines[number - 1] = "1 farm:z99"
    with pytest.raises(records.RecordError) as refused:
        records.read("\n".join(lines))
    assert refused.value.line == number
    assert f"line {number}: 'farm:z99' is not a legal move for seat 1" in str(refused.value)


def test_a_move_by_the_wrong_seat_is_refused_naming_its_line(record_text):
    number = _line_of(record_text, "2 ")
    lines = record_text.splitlines()
    lines[number - 1] = "1" + lines[number - 1][1:]
    with pytest.raises(records.RecordError, match=rf"^line {number}: seat 1 plays .* but it is seat 2's turn"):
        records.read("\n".join(lines))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace('[Scores "', '[Scores "1'), "The moves give the scores"),
        (lambda t: t.replace('[Game "territories"]', '[Game "chess"]'), "line 2: No game is called 'chess'"),
        (lambda t: t.replace('[Players "2"]', '[Players "5"]'), "line 3: Territories is played by 2 players"),
        (lambda t: t.replace('[Format "TGR 1"]\n', ""), "The record has no Format header"),
        (lambda t: t + '[Seat1 "x"]\n', "is not a header (headers come before the blank line"),
        (lambda t: t + "farm:a1\n", "'farm:a1' is not a move: write the seat"),
        (lambda t: t.replace('[Result "', '[Result "9 '), "Result needs 2 values"),
        (lambda t: t.replace('[Players "2"]', '[Players "2"]\n[Option.nothing "yes"]'), "has no option nothing"),
    ],
)
def test_a_record_that_does_not_read_or_replay_is_refused(record_text, change, message):
    with pytest.raises(records.RecordError, match=message.replace("(", r"\(")):
        records.read(change(record_text))


def test_the_command_refuses_a_record_that_does_not_replay_naming_the_line_in_the_file(record_text, tmp_path):
    lines = record_text.splitlines()
    number = _line_of(record_text, "1 farm:")
    lines[number - 1] = "1 farm:z99"
    bad = "\n".join(lines) + "\n"
    path = tmp_path / "two.tgr"
    path.write_text(record_text + "\n" + bad)
    offset = len((record_text + "\n").splitlines())
    with pytest.raises(CommandError, match=rf"two.tgr, line {number + offset}: 'farm:z99' is not a legal move"):
        call_command("import_record", str(path), stdout=io.StringIO())


def test_the_command_prints_each_replayed_records_result(record_text, tmp_path):
    path = tmp_path / "one.tgr"
    path.write_text(record_text)
    out = io.StringIO()
    call_command("import_record", str(path), stdout=out)
    assert "Territories, match" in out.getvalue() and "resignation" in out.getvalue()
    assert "1 record replayed." in out.getvalue()


def test_a_record_written_by_hand_with_comments_and_defaults_replays(players):
    state = get_game("territories").new_state(2)
    moves = []
    rng = random.Random(5)
    while not state.is_terminal():
        seat = state.current_player()
        action = rng.choice(state.legal_actions()) if seat >= 0 else state.chance_outcomes()[0][0]
        moves.append(("*" if seat < 0 else str(seat + 1)) + " " + action)
        state.apply(action)
    text = '; a friendly game\n[Format "TGR 1"]\n[Game "territories"]\n[Players "2"]\n[Seat1 "A \\"the first\\""]\n\n'
    record, replayed = records.read(text + "\n".join(moves) + "\n")
    assert record.seats[0].name == 'A "the first"' and record.seats[1].name is None
    assert replayed.scores() == state.scores() and record.options == get_game("territories").normalise_options({}, 2)


def _results(count: int, users) -> list[int]:
    """``count`` finished public matches, a minute apart (results made directly, no moves)."""
    start = timezone.now() - datetime.timedelta(days=1)
    return [
        finished_match(users, [1, 2], game="territories", finished_at=start + datetime.timedelta(minutes=i)).pk
        for i in range(count)
    ]


@pytest.mark.parametrize("count", [0, 1, exports.CHUNK, 2 * exports.CHUNK + 1])
def test_a_stream_holds_every_match_across_its_chunks(client, players, count):
    ids = _results(count, players[:2])
    assert _stream(client, "/api/matches/export/") == ids


@pytest.mark.django_db(transaction=True)
def test_the_served_stream_is_read_line_by_line_over_http(asgi_server, make_user):
    ids = _results(exports.CHUNK + 5, [make_user("ann"), make_user("ben")])
    request = urllib.request.Request(f"{asgi_server}/api/matches/export/", headers={"Accept": "application/x-ndjson"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Type"] == "application/x-ndjson"
        assert response.headers.get("Transfer-Encoding") == "chunked"  # streamed, no length known ahead
        lines = [json.loads(line) for line in response]
    assert [line["id"] for line in lines] == ids
    assert all(line["record"].startswith('[Format "TGR 1"]') for line in lines)


# ---------------------------------------------------------------------------------------
# Importing a record: POST /api/matches/import/ and `import_record --save`


def test_a_record_sent_as_text_is_imported_too(record_text, make_user):
    answer = _by(make_user("archivist")).post("/api/matches/import/", record_text, content_type=records.MEDIA_TYPE)
    assert answer.status_code == 201, answer.json()
    assert records.read(answer.json()["record"])[0].moves == records.read(record_text)[0].moves
    # The match's page and snapshot name the record's players (no account of the site).
    snapshot = APIClient().get(f"/api/matches/{answer.json()['id']}/").json()
    named = [seat.name for seat in records.read(record_text)[0].seats]
    assert [(s["username"], s["record_name"]) for s in snapshot["seats"]] == [(None, name) for name in named]


def test_a_record_too_long_is_refused_before_it_is_read(make_user, settings):
    settings.JSON_MAX_BYTES = 1000
    answer = _by(make_user("archivist")).post(
        "/api/matches/import/", '[Format "TGR 1"]\n' + "; x\n" * 400, content_type="text/plain"
    )
    assert answer.status_code == 400 and "at most 1000 bytes" in answer.json()["message"]
    assert not Match.objects.exists()


def test_a_tampered_record_is_refused_naming_the_line_and_nothing_is_kept(record_text, make_user):
    before = Match.objects.count()
    number = _line_of(record_text, "1 farm:")
    lines = record_text.splitlines()
    lines[number - 1] = "1 farm:z99"
    answer = _by(make_user("archivist")).post("/api/matches/import/", {"record": "\n".join(lines)}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_record" and answer.json()["line"] == number
    assert answer.json()["message"].startswith(f"Line {number}: 'farm:z99' is not a legal move for seat 1")
    scores = _by(make_user("forger")).post(
        "/api/matches/import/", {"record": record_text.replace('[Scores "', '[Scores "1')}, format="json"
    )
    assert scores.status_code == 400 and "The moves give the scores" in scores.json()["message"]
    assert Match.objects.count() == before


def test_a_game_that_is_not_over_is_not_imported(make_user):
    state = get_game("territories").new_state(2)
    moves: list[str] = []
    while len(moves) < 4:
        seat = state.current_player()
        action = state.legal_actions()[0] if seat >= 0 else state.chance_outcomes()[0][0]
        moves.append(("*" if seat < 0 else str(seat + 1)) + " " + action)
        state.apply(action)
    text = '[Format "TGR 1"]\n[Game "territories"]\n[Players "2"]\n\n' + "\n".join(moves) + "\n"
    answer = _by(make_user("archivist")).post("/api/matches/import/", {"record": text}, format="json")
    assert answer.status_code == 400 and "not over" in answer.json()["message"]
    assert not Match.objects.exists()


def test_importing_needs_an_account_and_is_limited_per_person(record_text, make_user, client):
    assert client.post(
        "/api/matches/import/", {"record": record_text}, content_type="application/json"
    ).status_code in (
        401,
        403,
    )
    person = _by(make_user("archivist"))
    limit = imports.IMPORTS.rates[0].limit
    for _ in range(limit):
        assert person.post("/api/matches/import/", {"record": record_text}, format="json").status_code == 201
    refused = person.post("/api/matches/import/", {"record": record_text}, format="json")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"


def test_the_command_saves_records_as_matches_imported_by_an_account(record_text, make_user, tmp_path):
    make_user("archivist")
    path = tmp_path / "one.tgr"
    path.write_text(record_text)
    count = Match.objects.count()
    call_command("import_record", str(path), "--save", "archivist", stdout=(out := io.StringIO()))
    imported = Match.objects.order_by("-pk").first()
    assert imported is not None
    assert Match.objects.count() == count + 1 and f"saved as match {imported.pk}" in out.getvalue()
    assert (imported.imported_from or {}).get("names") == [s.name for s in records.read(record_text)[0].seats]
