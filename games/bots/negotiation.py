"""GP02A Territory's Negotiation variant for the bots: answering an exchange offer and, as Main
Player, proposing one.

Chips in hand score nothing until they are placed, so a look at the scores one step ahead
(Greedy's) or a search judged by scores (MCTS's) sees no difference between accepting and
declining. Both bots therefore judge an exchange by what it does to the hand, the one-step
view of what that hand will bring once played:

- a chip of the bot's own colour is worth 1 (it goes on the chronology or grows its groups
  and blocks);
- the purple chip is worth 1 (a removal, usually of a rival's chip);
- a chip of another player's colour is worth -0.5 (it must be placed, feeding that player's
  groups and blocks, however carefully it is put), one of the dummy's -0.25;
- a hand whose chips (less the one for the chronology) fit no block loses 3: its holder is
  likely to be stuck, which ends the game.

A bot accepts an exchange that raises its hand's worth and declines the others. As Main
Player it proposes at most one exchange a round, the one that raises its own hand's worth
most among those its partner would accept by the same measure, chosen from a bounded list of
small exchanges (one or two chips for one or two), so a decision stays a few hundred
arithmetic steps.
"""

from __future__ import annotations

from ..engines.gp02a import NUM_BLOCKS, P_ANSWER, PURPLE, YELLOW, GP02AState, offer_action

OWN_WORTH = 1.0
PURPLE_WORTH = 1.0
RIVAL_WORTH = -0.5
DUMMY_WORTH = -0.25
NO_ROOM_WORTH = -3.0


def hand_worth(state: GP02AState, seat: int, hand) -> float:
    """What holding ``hand`` (counts per colour, blue..purple) is worth to ``seat``."""
    worth = 0.0
    for colour in range(4):
        n = hand[colour]
        if not n:
            continue
        if colour == seat:
            worth += OWN_WORTH * n
        elif colour == YELLOW and state.num_players == 3:
            worth += DUMMY_WORTH * n
        else:
            worth += RIVAL_WORTH * n
    worth += PURPLE_WORTH * hand[PURPLE]
    to_place = sum(hand[:4]) - 1
    if to_place > 0 and max(state.free[b] for b in range(NUM_BLOCKS)) < to_place:
        worth += NO_ROOM_WORTH
    return worth


def exchange_gain(state: GP02AState, seat: int, gets, gives) -> float:
    """How much ``seat``'s hand worth rises if it gets the chips ``gets`` for ``gives``."""
    hand = state.hands[seat]
    after = [hand[c] + gets[c] - gives[c] for c in range(5)]
    return hand_worth(state, seat, after) - hand_worth(state, seat, hand)


def _small_sides(hand) -> list[tuple[int, ...]]:
    """One chip of any colour held, or two (of one colour or of two colours)."""
    colours = [c for c in range(5) if hand[c]]
    sides = []
    for i, a in enumerate(colours):
        one = [0] * 5
        one[a] = 1
        sides.append(tuple(one))
        if hand[a] >= 2:
            two = one[:]
            two[a] = 2
            sides.append(tuple(two))
        for b in colours[i + 1 :]:
            pair = one[:]
            pair[b] = 1
            sides.append(tuple(pair))
    return sides


def proposal(state: GP02AState, seat: int) -> str | None:
    """The exchange the Main Player ``seat`` proposes, or None when none is worth proposing."""
    mine = state.hands[seat]
    gives = _small_sides(mine)
    best = None
    best_gain = 0.0
    for partner in range(state.num_players):
        if partner == seat:
            continue
        for take in _small_sides(state.hands[partner]):
            for give in gives:
                if any(give[c] and take[c] for c in range(5)):
                    continue  # the same colour both ways changes nothing
                if exchange_gain(state, partner, give, take) <= 0:
                    continue  # the partner would decline it
                gain = exchange_gain(state, seat, take, give)
                if gain > best_gain + 1e-9:
                    best_gain, best = gain, offer_action(partner, give, take)
    return best


def negotiation_move(state, seat: int) -> str | None:
    """The bot's move when the Negotiation variant asks for a decision the search cannot judge:
    the answer to an offer, or (once a round, as Main Player at the deal step) a proposal.
    None for every other position and every other game."""
    if not getattr(state, "negotiation", False) or not isinstance(state, GP02AState):
        return None
    if state.phase == P_ANSWER and state.seat == seat:
        partner, give, take = state.offer
        return "accept" if exchange_gain(state, seat, give, take) > 0 else "decline"
    if state.can_offer() and state.offers_made == 0 and state.main == seat:
        return proposal(state, seat)
    return None
