"""Every finished match of every game goes out as a record and comes back the same game: the
text record, the API's export, the bulk stream and the import (docs/RECORDS.md), on matches
played once for the whole module."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction

from games import records, selectors
from games.models import Match
from rankings.services import match_rate

from .test_records import GAMES, OPTIONS, _by, assert_imported_again, assert_reproduces, play_match

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def finished_matches(django_db_setup, django_db_blocker):
    """Two finished matches of every game, played once for the module (in a transaction
    rolled back after it; each test's own changes are rolled back after the test)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            User = get_user_model()
            players = [User.objects.create_user(name, f"{name}@example.com") for name in ("abe", "bea", "cy")]
            matches: list[Match] = []
            for game, count in GAMES:
                matches.append(play_match(game, players[:count], seed=len(matches)))
                options = OPTIONS.get(game, {})
                matches.append(
                    play_match(game, players[:count], resign_after=7, seed=len(matches), rated=False, options=options)
                )
            for match in matches:
                match_rate(match_id=match.pk)  # as the rating task does once a match is over
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield matches
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


def test_every_finished_match_survives_the_round_trip_through_the_text_record(
    client, finished_matches, tmp_path, make_user
):
    finished = list(Match.objects.filter(status=Match.Status.FINISHED).order_by("pk"))
    assert len(finished) == 2 * len(GAMES)
    assert any(m.rating_changes.exists() for m in finished)  # ratings are in the round trip
    texts = []
    for match in finished:
        exported = client.get(f"/api/matches/{match.pk}/export/").json()
        downloaded = client.get(f"/matches/{match.pk}/record.tgr").content.decode()
        assert downloaded == exported["record"]
        record, state = records.read(exported["record"])
        assert_reproduces(match, record, state)
        texts.append(downloaded)
    # The same records, one file, read back by the command.
    path = tmp_path / "all.tgr"
    path.write_text("; every finished match of the site\n\n" + "\n".join(texts))
    call_command("import_record", str(path), stdout=(out := io.StringIO()))
    assert f"{len(finished)} records replayed." in out.getvalue()
    # And each comes back through the API's import as the same game.
    importer = _by(make_user("archivist"))
    for match, text in zip(finished, texts, strict=True):
        assert_imported_again(client, importer, match, text)
    # Imported matches stay out of the lobby's latest results.
    assert all(not m.imported_from for m in selectors.latest_finished(limit=50))


def test_the_bulk_stream_holds_every_finished_public_match_once_and_each_line_round_trips(client, finished_matches):
    response = client.get("/api/matches/export/")
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    lines = b"".join(response.streaming_content).decode().splitlines()
    exported = [json.loads(line) for line in lines]
    assert [e["id"] for e in exported] == [m.pk for m in sorted(finished_matches, key=lambda m: m.finished_at)]
    for line in exported:
        match = Match.objects.get(pk=line["id"])
        assert line == client.get(f"/api/matches/{match.pk}/export/").json()
        assert_reproduces(match, *records.read(line["record"]))


def test_a_secret_chance_outcome_stays_masked_in_every_export(client, finished_matches):
    match = next(
        m for m in finished_matches if m.game == "dice-territory" and not m.seats.filter(resigned=True).exists()
    )
    stored = list(match.moves.values_list("action", flat=True))
    secret = next(a for a in stored if a.startswith("card:"))
    assert secret != "card:?"
    exported = client.get(f"/api/matches/{match.pk}/export/").json()
    assert "card:?" in [m["action"] for m in exported["moves"]] and "\n* card:?\n" in exported["record"]
    streamed = b"".join(client.get("/api/matches/export/?game=dice-territory").streaming_content).decode()
    for text in (json.dumps(exported), exported["record"], streamed):
        assert secret not in text
