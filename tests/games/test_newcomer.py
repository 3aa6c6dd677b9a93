"""What a newcomer trips over first: seats that look alike, engine codes, long names, nothing
to watch, a chat with no word on how to join it, unstyled account pages."""

import json
import random
import re

import pytest

from accounts.models import USERNAME_MAX_LENGTH
from games import selectors, services
from games.engine_text import spoken
from games.engines import get_game
from games.models import Match
from games.seat_names import seat_names

from .helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def three_greedy(alice):
    """alice and two Greedy bots in a dice game of three."""
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="greedy")
    return match


# --------------------------------------------------------------------------------------
# Seats told apart


def test_a_seat_is_named_by_its_player_and_its_colour():
    assert seat_names(["alice", "Greedy", "Greedy"], ["blue", "red", "green"]) == [
        "alice (blue)",
        "Greedy (red)",
        "Greedy (green)",
    ]


def test_without_colours_only_repeated_names_carry_their_seat_number():
    assert seat_names(["Greedy", "Greedy"], None) == ["Greedy (seat 1)", "Greedy (seat 2)"]
    assert seat_names(["alice", None], None) == ["alice", "Open seat"]


def test_every_snapshot_names_the_seats_apart(client, alice):
    match = three_greedy(alice)
    payload = selectors.match_payload(selectors.match_with_seats(match.pk), alice)
    assert payload["seat_names"] == ["alice (blue)", "Greedy (red)", "Greedy (green)"]
    # The update every socket forwards carries the same names.
    payloads = selectors.audience_payloads(
        fresh(match.pk),
        list(fresh(match.pk).seats.select_related("user").order_by("index")),
        selectors.state_cache.load(fresh(match.pk)),
    )
    assert spoken(json.loads(payloads["spectator"])["seat_names"]) == payload["seat_names"]


def test_the_game_record_names_the_seats_apart(client, alice):
    match = three_greedy(alice)
    services.match_resign(match_id=match.pk, user=alice)  # the bots play on to the end
    from tests.conftest import wait_for

    wait_for(lambda: fresh(match.pk).status == Match.Status.FINISHED, timeout=120, message="the end")
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert record["players"] == ["alice", "Greedy", "Greedy"]
    assert record["seat_names"] == ["alice (blue)", "Greedy (red)", "Greedy (green)"]


def test_the_lists_of_matches_name_seats_of_one_bot_apart(client, alice):
    match = services.match_create(user=alice, game="gp02a", num_players=4)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="greedy")
    body = client.get("/play/").content.decode()
    for name in ("Greedy (red)", "Greedy (green)", "Greedy (yellow)"):
        assert f">{name}<" in body


def test_the_set_up_moves_count_seats_from_one_as_the_page_does():
    assert get_game("dice-territory").action_label("first:0") == "Seat 1 plays first"
    assert get_game("game-of-god").action_label("first:1") == "Seat 2 moves first"
    assert get_game("game-of-god").action_label("chooser:0") == "Seat 1 chooses the empty goal square"


# --------------------------------------------------------------------------------------
# Long names


def test_sign_up_refuses_a_username_longer_than_the_limit(client):
    long = "n" * (USERNAME_MAX_LENGTH + 1)
    response = client.post(
        "/accounts/signup/",
        {
            "username": long,
            "email": "long@example.com",
            "password1": "Correct-Horse-42",
            "password2": "Correct-Horse-42",
        },
    )
    assert response.status_code == 200
    assert f"at most {USERNAME_MAX_LENGTH} characters" in response.content.decode()
    assert f'maxlength="{USERNAME_MAX_LENGTH}"' in response.content.decode()
    ok = client.post(
        "/accounts/signup/",
        {
            "username": long[:-1],
            "email": "ok@example.com",
            "password1": "Correct-Horse-42",
            "password2": "Correct-Horse-42",
        },
    )
    assert ok.status_code == 302


def test_an_older_long_name_is_cut_on_the_pages_and_shown_whole_on_hover(client, make_user):
    long = make_user("x" * 150)
    services.match_create(user=long, game="gp02a", num_players=3)
    body = client.get("/play/").content.decode()
    assert f'<span class="name" title="{"x" * 150} (blue)">' in body


# --------------------------------------------------------------------------------------
# Watching


def test_the_play_page_and_the_game_page_list_public_matches_being_played(client, alice, bob):
    public = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=public.pk, user=bob)
    secret = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    services.match_join(match_id=secret.pk, user=bob, token=secret.invite_token)
    other = services.match_create(user=alice, game="territories", num_players=2)
    services.match_join(match_id=other.pk, user=bob)
    play = client.get("/play/").content.decode()
    game = client.get("/games/game-of-god/").content.decode()
    for body in (play, game):
        assert f'aria-label="Watch Game of God #{public.pk}"' in body
        assert f"#{secret.pk}" not in body  # never an invite-only match
    assert f'aria-label="Watch Territories #{other.pk}"' in play
    assert f"Watch Territories #{other.pk}" not in game  # the game page lists its own game


def test_a_called_off_match_leaves_the_watch_list_at_once(client, alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob)
    assert f"Watch Game of God #{match.pk}" in client.get("/play/").content.decode()
    services.match_abort(match_id=match.pk, user=alice)
    assert f"Watch Game of God #{match.pk}" not in client.get("/play/").content.decode()


def test_a_visitor_is_told_how_to_join_the_chat(client, alice, bob, make_user):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_join(match_id=match.pk, user=bob)
    body = client.get(match.get_absolute_url()).content.decode()
    assert 'id="chat-form"' not in body
    assert "to join the chat: every signed-in visitor may write here." in body
    client.force_login(make_user("carol"))
    assert 'id="chat-form"' in client.get(match.get_absolute_url()).content.decode()


def test_an_invite_only_match_tells_a_watcher_only_the_players_chat(client, alice, bob, make_user):
    match = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    carol = make_user("carol")
    client.force_login(carol)
    client.get(f"/i/{match.invite_token}/")
    body = client.get(match.get_absolute_url()).content.decode()
    assert 'id="chat-form"' not in body
    assert "Only the players chat in an invite-only match." in body


# --------------------------------------------------------------------------------------
# Wording and page furniture


def test_the_bots_are_named_the_same_everywhere(client, alice):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    client.force_login(alice)
    body = client.get(match.get_absolute_url()).content.decode()
    assert ">MCTS Easy<" in body and "Mcts" not in body


def test_the_invite_link_has_a_copy_button_and_no_inline_script(client, alice):
    match = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    client.force_login(alice)
    body = client.get(match.get_absolute_url()).content.decode()
    assert 'id="invite-copy"' in body
    assert not re.search(r"<[^>]+\son[a-z]+=", body.split('id="chat-heading"')[0].split('id="waiting-heading"')[1])


def test_the_account_pages_use_the_site_buttons(client):
    for url in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"):
        body = client.get(url).content.decode()
        assert re.search(r'<button class="button primary"[^>]*type="submit"', body), url


def test_prompts_count_one_chip_in_the_singular():
    game, rng = get_game("gp02a"), random.Random(3)
    seen = set()
    for _ in range(60):  # random games until a player must place a single chip
        state = game.new_state(3)
        while not state.is_terminal():
            prompt = state.prompt()
            found = re.search(r"your (\d+) chips?\b", prompt)
            if found:
                seen.add(found.group(0))
            state.apply(rng.choice(state.legal_actions()))
        if "your 1 chip" in seen:
            break
    assert "your 1 chip" in seen and "your 1 chips" not in seen


def test_the_territories_prompt_names_the_open_end_by_the_squares_that_meet_there():
    from games.engines.territories import STRIDE, point_name

    assert point_name(2 * STRIDE + 4) == "the corner where d2, e2, d3 and e3 meet"
    assert point_name(0) == "the outer corner of a1"
    assert point_name(3 * STRIDE) == "the point on the border between a3 and a4"
