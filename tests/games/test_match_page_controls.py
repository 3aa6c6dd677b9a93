"""The match page's own controls: what it calls you after you left, who may abort and when,
and that leaving asks first."""

import random
import re

import pytest

from games import services

from .helpers import fresh, play_turn, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def page(client, user, match):
    client.force_login(user)
    return client.get(match.get_absolute_url()).content.decode()


def test_after_resigning_my_own_page_says_i_resigned_not_that_i_watch(client, alice, bob, make_user):
    carol = make_user("carol")
    match = services.match_create(user=alice, game="chit-territory", num_players=3)
    services.match_join(match_id=match.pk, user=bob)
    services.match_join(match_id=match.pk, user=carol)
    services.match_resign(match_id=match.pk, user=alice)
    body = page(client, alice, fresh(match.pk))
    assert "you resigned" in body and 'id="watching"' not in body
    assert 'id="resign-form"' not in body, "nothing left to resign"
    assert 'id="watching"' in page(client, make_user("dave"), match), "a visitor still watches"


def test_abort_shows_only_to_the_creator_before_the_first_move_and_asks_first(client, alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    mine = page(client, alice, match)
    assert re.search(r'id="abort-form"[^>]* data-confirm="Call this match off\?', mine)
    assert 'id="resign-form" data-confirm="Resign this match?"' in mine
    assert 'id="abort-form"' not in page(client, bob, match), "the joiner may not abort"
    play_turn(match.pk, {0: alice, 1: bob}, random.Random(4))
    assert 'id="abort-form"' not in page(client, alice, match), "a move was made: too late"
    assert 'id="resign-form"' in page(client, alice, match)


def test_the_match_page_names_its_clock(client, alice, bob):
    live = start_two_player("game-of-god", alice, bob, speed="live", seconds_per_move=180)
    assert "Live (3 min a move)" in page(client, alice, live)
    untimed = start_two_player("game-of-god", alice, bob, speed="untimed", rated=False)
    assert "Untimed practice · casual" in page(client, alice, untimed)
