"""Bots in GP02A Territory's Negotiation variant: they answer exchange offers by what the
exchange does to their hand, and as Main Player may propose one their partner would take."""

import random

import pytest

from games.bots import GreedyBot, MCTSBot, RandomBot
from games.bots.base import resolve_chance
from games.bots.negotiation import exchange_gain, hand_worth, negotiation_move
from games.engines import CHANCE
from games.engines.gp02a import GAME, GP02AState, parse_offer

ANSWERING_BOTS = [GreedyBot(leaf_budget=60), MCTSBot(iterations=40)]


def make_deal_position():
    """Four players; blue (the Main Player) drew blue, red, red; red drew blue, blue, red;
    green and yellow drew yellow x3 and green x3."""
    state = GP02AState.position(4, main=0, negotiation=True)
    state.apply("roll:3")
    for colour in ["blue", "red", "red", "blue", "blue", "red"] + ["yellow"] * 3 + ["green"] * 3:
        state.apply(f"draw:{colour}")
    assert state.view(None)["step"] == "deal"
    return state


@pytest.mark.parametrize("bot", ANSWERING_BOTS, ids=["greedy", "mcts"])
def test_a_bot_accepts_an_exchange_its_evaluation_prefers_and_declines_the_other(bot):
    # Red is offered its own colour for blue's colour: its hand gets better.
    good = make_deal_position()
    good.apply("offer:1@2red>2blue")
    assert good.current_player() == 1
    assert bot.choose(good, 1, random.Random(1)) == "accept"
    # Red is asked for its own red chip against a rival's blue one: worse.
    bad = make_deal_position()
    bad.apply("offer:1@blue>red")
    assert bot.choose(bad, 1, random.Random(1)) == "decline"


def test_the_hand_worth_prefers_own_chips_and_the_purple_chip_to_rivals_chips():
    state = make_deal_position()
    worth = [hand_worth(state, 1, hand) for hand in ([0, 2, 0, 0, 0], [1, 1, 0, 0, 0], [2, 0, 0, 0, 0])]
    assert worth[0] > worth[1] > worth[2]
    assert hand_worth(state, 1, [0, 0, 0, 0, 1]) > hand_worth(state, 1, [1, 0, 0, 0, 0])
    assert exchange_gain(state, 1, (0, 2, 0, 0, 0), (2, 0, 0, 0, 0)) > 0


@pytest.mark.parametrize("bot", ANSWERING_BOTS, ids=["greedy", "mcts"])
def test_a_main_player_bot_proposes_an_exchange_its_partner_would_accept_once_a_round(bot):
    state = make_deal_position()
    offer = bot.choose(state, 0, random.Random(3))
    assert offer.startswith("offer:")
    partner, give, take = parse_offer(offer)
    assert exchange_gain(state, 0, take, give) > 0 and exchange_gain(state, partner, give, take) > 0
    state.apply(offer)
    answer = bot.choose(state, partner, random.Random(3))
    assert answer == "accept"
    state.apply(answer)
    # One proposal a round is enough for the bots: now they deal.
    assert bot.choose(state, 0, random.Random(3)).startswith("deal:")


def test_without_the_variant_bots_never_see_an_offer():
    state = GP02AState.position(4, main=0)
    state.apply("roll:3")
    for colour in ["blue", "red", "red", "blue", "blue", "red"] + ["yellow"] * 3 + ["green"] * 3:
        state.apply(f"draw:{colour}")
    assert negotiation_move(state, 0) is None
    assert GreedyBot(leaf_budget=60).choose(state, 0, random.Random(1)).startswith("deal:")


def test_bots_play_whole_negotiation_games_to_the_end():
    rng = random.Random(4)
    bots = [GreedyBot(leaf_budget=30), MCTSBot(iterations=20), RandomBot(), GreedyBot(leaf_budget=30)]
    offers = answers = 0
    for _ in range(3):
        state = GAME.new_state(4, {"negotiation": True})
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                resolve_chance(state, rng)
                continue
            seat = state.current_player()
            action = bots[seat].choose(state, seat, rng)
            offers += action.startswith("offer:")
            answers += action in ("accept", "decline")
            state.apply(action)
    assert offers > 0 and answers == offers
