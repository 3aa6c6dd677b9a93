"""Small constructed positions, one per game, where the right move is plain to see: MCTS
finds the one-step win or the best immediate points on a small budget."""

import random

from games.bots import GreedyBot, MCTSBot
from games.bots.base import margin
from games.engines import CHANCE, get_game
from games.engines.chit_territory import ChitTerritoryState
from games.engines.dice_territory import GAME as DICE
from games.engines.game_of_god import GameOfGodState
from games.engines.gp02a import GP02AState

# A random game of Territories one trunk before its end: e1-f1 closes the last fence and wins.
TERRITORIES_BEFORE_THE_LAST_FENCE = (
    "first:0 farm:g5 farm:e5 farm:f2 farm:b2 farm:d2 farm:h2 farm:c5 farm:a5 trunk:c6-d6 trunk:c5-c6 "
    "trunk:b5-c5 trunk:b4-c4 trunk:b3-b4 trunk:a4-b4 trunk:a4-a5 trunk:a3-b3 trunk:a2-b2 trunk:b1-b2 "
    "trunk:b2-c2 trunk:b3-c3 trunk:c3-c4 trunk:c3-d3 trunk:d2-d3 trunk:d3-e3 trunk:e3-e4 trunk:e4-f4 "
    "trunk:f4-f5 trunk:f4-g4 trunk:f3-g3 trunk:g2-g3 trunk:h2-h3 trunk:d4-e4 trunk:d4-d5 trunk:c5-d5 "
    "trunk:g4-g5 trunk:g5-h5 trunk:g5-g6 trunk:f5-g5 trunk:e2-e3 trunk:e2-f2"
)


def best_immediate(state, seat):
    """The actions that most improve ``seat``'s margin at once (no chance follows them here)."""
    values = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        values[action] = margin(after.scores(), seat)
    top = max(values.values())
    return {a for a, v in values.items() if v == top}, values


def choices(state, seat, bot, seeds=range(3)):
    return {bot.choose(state, seat, random.Random(seed)) for seed in seeds}


def test_game_of_god_mcts_moves_its_last_piece_home_and_wins():
    # North (seat 0) has a8 in South's goal row; d6-d8 brings its second piece in and wins.
    # South threatens the same with e3-e1, so anything else loses next move.
    state = GameOfGodState.from_position(2, {"a8": [0], "d6": [0], "h1": [1], "e3": [1]}, to_move=0)
    assert len(state.legal_actions()) > 10
    assert choices(state, 0, MCTSBot(iterations=300)) == {"move:d6-d8"}
    assert choices(state, 0, GreedyBot()) == {"move:d6-d8"}


def test_chit_territory_mcts_builds_the_third_temple_of_a_row():
    state = ChitTerritoryState.from_position(
        2,
        board={"a1": ("temple", 0), "b1": ("temple", 0), "e5": ("castle", 1)},
        reserves=[{"temple": 1}, {}],
        player=0,
        step="build",
    )
    best, values = best_immediate(state, 0)
    assert best == {"build:temple@c1"} and len(values) > 50
    # About 80 builds to try, each answered by the opponent's draws: a few thousand iterations.
    assert choices(state, 0, MCTSBot(iterations=2500), seeds=range(2)) == {"build:temple@c1"}


def test_gp02a_mcts_puts_its_chip_where_it_grows_a_group_to_five():
    # Blue holds a1-d1 (a group of 4, worth 1); a fifth chip touching it makes it worth 3.
    state = GP02AState.position(3, territory={f: "blue" for f in ("a1", "b1", "c1", "d1")}, main=0)
    for action in ("roll:2", *["draw:blue"] * 2, *["draw:green"] * 4):  # seat 0 plays blue
        state.apply(action)
    deal = next(a for a in state.legal_actions() if a.startswith("deal:1,"))  # seat 0 plays first
    for action in (deal, "chrono:blue", "block:1"):
        state.apply(action)
    assert state.current_player() == 0
    best, values = best_immediate(state, 0)
    assert best and len(best) < len(values)
    assert choices(state, 0, MCTSBot(iterations=400)) <= best


def test_dice_territory_mcts_stops_when_stopping_wins_the_game():
    # Everyone busts to the last turn of the game; seat 2's free rolls claim three spaces.
    # Stopping now wins outright; rolling again risks a bust that would leave nobody ahead.
    state = DICE.new_state(3)
    for action in ("first:0", "card:A"):
        state.apply(action)
    cards = iter("BCDEFGH")
    while not (state.round == state.rounds and state.current_player() == 2):
        if state.current_player() == CHANCE:
            state.apply(f"card:{next(cards)}")
            continue
        legal = state.legal_actions()
        # Roll 2 then repeat it: the turn busts and leaves the board empty.
        state.apply("roll" if "roll" in legal else legal[0])
        state.apply("dice:1,1")
        if state.legal_actions() and state.legal_actions()[0].startswith("claim:"):
            state.apply(state.legal_actions()[0])
    for dice in ("dice:6,6", "dice:5,6", "dice:1,2"):  # claims f6, then an 11, then a 3
        state.apply("roll")
        state.apply(dice)
        state.apply(state.legal_actions()[0])
    assert state.legal_actions() == ["roll", "stop"]
    assert state.scores() == [0, 0, 0]
    assert choices(state, 2, MCTSBot(iterations=400)) == {"stop"}


def test_territories_mcts_closes_the_fence_that_wins():
    game = get_game("territories")
    history = TERRITORIES_BEFORE_THE_LAST_FENCE.split()
    state = game.replay(2, {}, history)
    seat = state.current_player()
    assert len(state.legal_actions()) >= 3
    after = state.clone()
    after.apply("trunk:e1-f1")
    assert after.is_terminal() and after.ranking()[seat] == 1 and after.ranking()[1 - seat] == 2
    assert choices(state, seat, MCTSBot(iterations=300)) == {"trunk:e1-f1"}
