"""Takeback requests make the other players' news (a request to answer) and, once taken
back, a notice in the match's public chat: three requests a minute per person in a match at
most, so asking again and again of a bot that accepts at once cannot flood the chat."""

import random
import types

import pytest
from django.utils import translation

from games import services, tasks
from games.models import ChatMessage
from games.services import MatchError
from games.services.takebacks import takeback_request
from portal import rate_limits

from .helpers import fresh
from .test_takebacks import move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clock(monkeypatch):
    state = types.SimpleNamespace(now=1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", types.SimpleNamespace(time=lambda: state.now))
    return state


@pytest.fixture
def against_a_slow_bot(alice, monkeypatch):
    """Untimed practice against a bot that never gets round to moving: every takeback alice
    asks is accepted at once."""
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: None)
    match = services.match_create(user=alice, game="territories", num_players=2, rated=False, speed="untimed")
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    match = fresh(match.pk)
    alice_seat = match.seats.get(user=alice).index
    while match.to_move != alice_seat:  # the draw for the first move gave it to the bot
        tasks.bot_act(match.pk, match.version)
        match = fresh(match.pk)
    return match


def hand_over(match, alice, rng):
    """Alice moves until the bot is to move; the match as it then is."""
    seat = match.seats.get(user=alice).index
    for _ in range(50):
        match = fresh(match.pk)
        if match.to_move != seat:
            return match
        move(match.pk, {seat: alice}, rng)
    raise AssertionError("alice never handed over")


def notices(match) -> int:
    return ChatMessage.objects.filter(match=match, user__isnull=True).count()


def test_three_takebacks_a_minute_then_the_player_is_told_when_to_ask_again(against_a_slow_bot, alice, clock):
    match, rng = against_a_slow_bot, random.Random(5)
    for _ in range(3):
        match = hand_over(match, alice, rng)
        assert takeback_request(match_id=match.pk, user=alice, version=match.version).outcome == "taken_back"
        clock.now += 10
    match = hand_over(match, alice, rng)
    with pytest.raises(MatchError) as refused:
        takeback_request(match_id=match.pk, user=alice, version=match.version)
    assert refused.value.code == "rate_limited" and refused.value.http_status == 429
    assert "3 takeback requests a minute" in refused.value.message
    assert "Try again in 30 seconds" in refused.value.message
    with translation.override("es"):  # read by a player of the Spanish pages: the limit and the wait in Spanish too
        assert str(refused.value) == (
            "Estás pidiendo deshacer jugadas demasiado rápido: el sitio admite como máximo 3 peticiones de "
            "deshacer jugada por minuto en una partida de una misma persona. Vuelve a intentarlo en 30 segundos."
        )
    assert notices(match) == 3, "the chat has one notice per takeback let through"

    clock.now += 30
    assert takeback_request(match_id=match.pk, user=alice, version=match.version).outcome == "taken_back"


def test_thirty_quick_takebacks_put_at_most_three_notices_in_the_chat(against_a_slow_bot, alice, clock):
    match, rng = against_a_slow_bot, random.Random(7)
    for _ in range(30):
        match = hand_over(match, alice, rng)
        try:
            takeback_request(match_id=match.pk, user=alice, version=match.version)
        except MatchError as refused:
            assert refused.code == "rate_limited"
        clock.now += 0.5
    assert notices(match) == 3
