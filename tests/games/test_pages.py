"""The lobby, match pages and game pages as a person uses them."""

import json
import random
import re

import pytest

from games import services
from games.models import Match

from .helpers import fresh, play_turn, replay_frames, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_anyone_sees_the_open_matches_in_the_lobby_but_must_log_in_to_create(client, alice):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    body = client.get("/play/").content.decode()
    assert f"/matches/{match.pk}/" in body and "Sign in" in body
    response = client.post("/play/new/", {"game": "gp02a", "num_players": 3})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_creating_a_match_from_the_form(client, alice):
    client.force_login(alice)
    response = client.post(
        "/play/new/",
        {
            "game": "chit-territory",
            "num_players": 2,
            "time_control": "correspondence-7",
            "rated": "on",
            "visibility": "invite",
            "opt_chit-territory_mountains_rivers": "on",
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.options == {"mountains_rivers": True}
    assert match.speed == "correspondence" and match.seconds_per_move == 7 * 86400
    assert match.visibility == "invite" and match.rated


def test_the_form_explains_a_wrong_number_of_players_and_keeps_the_choices(client, alice):
    client.force_login(alice)
    response = client.post(
        "/play/new/",
        {
            "game": "game-of-god",
            "num_players": 3,
            "time_control": "live-30",
            "visibility": "public",
        },
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "Game of God is played by 2, 4 players." in body
    assert '<option value="live-30" selected>' in body
    assert not Match.objects.exists()


GAME_OF_GOD_FORM = {
    "game": "game-of-god",
    "time_control": "live-30",
    "visibility": "public",
}


def test_the_form_offers_game_of_god_another_number_of_pieces(client, alice):
    # The seed: "If less or more than a standard number of pieces per player is to be used,
    # then each player must be assigned the same number of colored pieces ..."
    client.force_login(alice)
    field = re.search(r'<input[^>]*name="opt_game-of-god_pieces"[^>]*>', client.get("/play/new/").content.decode())
    assert field and 'min="2"' in field.group() and 'max="16"' in field.group()
    response = client.post("/play/new/", {**GAME_OF_GOD_FORM, "num_players": 4, "opt_game-of-god_pieces": 8})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.options == {"pieces": 8}
    # Whoever looks at the match, or at the open matches before joining, sees the variant.
    header = "4 players · Live (30 s a move) · casual · Pieces per player: 8"
    assert header in client.get(f"/matches/{match.pk}/").content.decode()
    assert "Pieces per player: 8" in client.get("/play/").content.decode()
    client.post("/play/new/", {**GAME_OF_GOD_FORM, "num_players": 2, "opt_game-of-god_pieces": ""})
    standard = Match.objects.latest("pk")
    assert standard.options == {"pieces": None}  # the standard game
    assert "Pieces per player" not in client.get(f"/matches/{standard.pk}/").content.decode()
    other_game = {**GAME_OF_GOD_FORM, "game": "territories", "num_players": 2, "opt_game-of-god_pieces": 99}
    client.post("/play/new/", other_game)
    assert Match.objects.latest("pk").options == {}  # another game's option is not applied


@pytest.mark.parametrize(
    ("num_players", "pieces", "message"),
    [
        (4, 14, "Pieces per player with 4 players: an even number from 2 to 12, not 14."),
        (2, 7, "Pieces per player with 2 players: an even number from 2 to 16, not 7."),
    ],
)
def test_the_form_explains_a_number_of_pieces_that_does_not_fit(client, alice, num_players, pieces, message):
    client.force_login(alice)
    response = client.post(
        "/play/new/", {**GAME_OF_GOD_FORM, "num_players": num_players, "opt_game-of-god_pieces": pieces}
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_join_leave_and_fill_with_bots_from_the_match_page(client, alice, bob):
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    client.force_login(bob)
    assert "Take a seat" in client.get(f"/matches/{match.pk}/").content.decode()
    client.post(f"/matches/{match.pk}/join/")
    assert fresh(match.pk).seats.filter(user=bob).exists()
    client.post(f"/matches/{match.pk}/leave/")
    assert not fresh(match.pk).seats.filter(user=bob).exists()
    client.post(f"/matches/{match.pk}/bots/", {"bot": "random"})
    assert fresh(match.pk).status == Match.Status.OPEN, "only the creator seats bots"
    client.force_login(alice)
    page = client.post(f"/matches/{match.pk}/bots/", {"bot": "random"}, follow=True)
    assert "Bots took the empty seats." in page.content.decode()
    assert fresh(match.pk).status in (Match.Status.ACTIVE, Match.Status.FINISHED)


def test_play_against_the_computer_is_one_click(client, alice):
    client.force_login(alice)
    response = client.post("/play/computer/", {"game": "game-of-god", "num_players": 2, "bot": "random"})
    match = Match.objects.get()
    assert response["Location"] == f"/matches/{match.pk}/"
    assert not match.rated
    assert [s.user.is_bot for s in match.seats.order_by("index")] == [False, True]


def test_my_matches_lists_the_ones_where_it_is_my_move_first(client, alice, bob):
    waiting = services.match_create(user=alice, game="gp02a", num_players=3)
    playing = start_two_player("game-of-god", alice, bob)
    client.force_login(alice if playing.to_move == 0 else bob)
    body = client.get("/play/mine/").content.decode()
    assert "your move" in body
    if playing.to_move == 0:
        assert body.index(f"#{playing.pk}") < body.index(f"#{waiting.pk}")


def test_invite_only_match_is_a_404_without_the_link_and_opens_with_it(client, alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    client.force_login(bob)
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    response = client.get(f"/i/{match.invite_token}/", follow=True)
    assert response.status_code == 200 and "Take a seat" in response.content.decode()
    client.post(f"/matches/{match.pk}/join/")
    assert fresh(match.pk).status == Match.Status.ACTIVE


def finish(match, users):
    """Played to its end through the services by random moves (a Territories match: some 40
    moves, where a Game of God match played at random runs to hundreds)."""
    rng = random.Random(3)
    while play_turn(match.pk, users, rng):
        pass
    return fresh(match.pk)


def test_finished_matches_show_on_the_home_page_and_the_game_page(client, alice, bob):
    match = finish(start_two_player("territories", alice, bob), {0: alice, 1: bob})
    assert match.status == Match.Status.FINISHED
    seats = list(match.seats.order_by("place", "index"))  # a draw would share a place: seat order
    for path in ("/", "/games/territories/"):
        body = client.get(path).content.decode()
        assert f"/matches/{match.pk}/" in body and "alice" in body and "bob" in body
        # Each player's place, name and score, in the order of the result.
        row = r"<tr><td>(\d+)\.</td><td><a [^>]*>(\w+)</a>[^<]*</td><td class=\"num\">(-?\d+)</td></tr>"
        rows = re.findall(row, body)
        assert [(int(p), u, int(s)) for p, u, s in rows[:2]] == [(s.place, s.user.username, s.score) for s in seats]
    assert f"/matches/{match.pk}/" not in client.get("/games/gp02a/").content.decode()


def test_the_game_record_replays_with_the_management_command(client, alice, bob, tmp_path, capsys):
    from django.core.management import call_command

    match = finish(start_two_player("territories", alice, bob), {0: alice, 1: bob})
    response = client.get(f"/matches/{match.pk}/record.json")
    record = json.loads(response.content)
    assert record["game"] == "territories" and record["players"] == ["alice", "bob"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    call_command("replay_record", str(path))
    out = capsys.readouterr().out
    assert "finished" in out
    # Every seat's place and score as the match recorded them (a drawn game shares first place).
    for seat in match.seats.select_related("user"):
        assert f"{seat.place}. {seat.user.username}: {seat.score} points" in out


def test_the_record_of_a_resigned_match_replays_with_its_places(client, alice, bob, tmp_path, capsys):
    from django.core.management import call_command

    match = start_two_player("game-of-god", alice, bob)
    services.match_resign(match_id=match.pk, user=alice)
    path = tmp_path / "record.json"
    path.write_bytes(client.get(f"/matches/{match.pk}/record.json").content)
    call_command("replay_record", str(path))
    out = capsys.readouterr().out
    assert "ended before the last move (resignation)" in out
    assert "1. bob:" in out and "2. alice:" in out


def test_the_record_and_replay_of_a_running_match_are_not_published(client, alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob)
    assert client.get(f"/matches/{match.pk}/record.json").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay.json").status_code == 404


def test_the_replay_serves_every_position_from_the_start(client, alice, bob):
    match = finish(start_two_player("territories", alice, bob), {0: alice, 1: bob})
    frames = replay_frames(client.get(f"/matches/{match.pk}/replay.json").json())
    assert len(frames) == match.moves.count() + 1
    assert frames[0]["action"] is None
    assert frames[-1]["view"] == match.snapshot


@pytest.mark.parametrize("suffix", ["", "record.json", "replay.json"])
def test_a_match_number_too_long_for_any_row_is_no_such_match(client, suffix):
    response = client.get(f"/matches/{'9' * 20}/{suffix}")
    assert response.status_code == 404
