"""GP02A Territory: chips drawn from a bag, placed in blocks of a 12 x 6 territory.

Rules: shared/rules/gp02a.md (the portal's reading of the seed), player page games/rules/gp02a.md.

Fields are numbered ``row * 12 + column`` (a1 = 0, l1 = 11, a2 = 12, ... l6 = 71); blocks are
numbered 0..5 inside the engine and 1..6 in actions and views. Colours are 0 blue, 1 red,
2 green, 3 yellow, 4 purple; seat ``s`` plays colour ``s`` (with 3 players yellow is a dummy).

Nothing is hidden in this game: every chip lies open and draws are chance actions, so the
base ``determinised`` (a plain clone) is right. In the Negotiation variant a proposed exchange
is public too (the table hears it), so every seat sees the same view.

The Negotiation variant (option ``negotiation``): at the deal step the Main Player may propose
a chip exchange to one other seat, ``offer:S@GIVE>TAKE``, which that seat answers with
``accept`` or ``decline``. Offers are too many to list (every pair of sub-hands), so
``legal_actions`` at the deal step lists the deals only and ``apply`` accepts any offer the
rules allow; ``offer_action`` writes one, ``can_offer`` says whether one may be made now.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from .base import (
    CHANCE,
    COLUMNS,
    TERMINAL,
    Game,
    IllegalAction,
    Option,
    State,
    Text,
    colour_title,
    colour_word,
    gettext_noop,
    listed,
    places_from_keys,
)

WIDTH = 12
HEIGHT = 6
NUM_FIELDS = WIDTH * HEIGHT
NUM_BLOCKS = 6
CHRONOLOGY_SIZE = 28
CHIPS_PER_COLOUR = 25

COLOURS = ("blue", "red", "green", "yellow", "purple")
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
PURPLE = 4
YELLOW = 3

FIELD_NAMES = tuple(f"{COLUMNS[i % WIDTH]}{i // WIDTH + 1}" for i in range(NUM_FIELDS))
FIELD_INDEX = {name: i for i, name in enumerate(FIELD_NAMES)}
BLOCK_OF = tuple((i // WIDTH // 3) * 3 + (i % WIDTH) // 4 for i in range(NUM_FIELDS))
GRAY_NAMES = ("b2", "c2", "f2", "g2", "j2", "k2", "b5", "c5", "f5", "g5", "j5", "k5")
GRAY = tuple(name in GRAY_NAMES for name in FIELD_NAMES)
WHITE_FIELDS = tuple(i for i in range(NUM_FIELDS) if not GRAY[i])
BLOCK_FIELDS = tuple(tuple(i for i in range(NUM_FIELDS) if BLOCK_OF[i] == b) for b in range(NUM_BLOCKS))


def _chips(n: int) -> Text:
    if n == 1:
        return Text(gettext_noop("%(count)s chip"), count=n)
    return Text(gettext_noop("%(count)s chips"), count=n)


# Labels naming a chip by its colour, by colour (whole phrases: the colour agrees with the chip
# in some languages).
DRAW_LABELS = (
    Text(gettext_noop("Draw a blue chip")),
    Text(gettext_noop("Draw a red chip")),
    Text(gettext_noop("Draw a green chip")),
    Text(gettext_noop("Draw a yellow chip")),
    Text(gettext_noop("Draw a purple chip")),
)
CHRONO_LABELS = (
    Text(gettext_noop("Put a blue chip on the chronology")),
    Text(gettext_noop("Put a red chip on the chronology")),
    Text(gettext_noop("Put a green chip on the chronology")),
    Text(gettext_noop("Put a yellow chip on the chronology")),
    Text(gettext_noop("Put a purple chip on the chronology")),
)
PUT_LABELS = (
    gettext_noop("Put a blue chip on %(field)s"),
    gettext_noop("Put a red chip on %(field)s"),
    gettext_noop("Put a green chip on %(field)s"),
    gettext_noop("Put a yellow chip on %(field)s"),
    gettext_noop("Put a purple chip on %(field)s"),
)


def _neighbours(i: int) -> tuple[int, ...]:
    col, row = i % WIDTH, i // WIDTH
    result = []
    if col > 0:
        result.append(i - 1)
    if col < WIDTH - 1:
        result.append(i + 1)
    if row > 0:
        result.append(i - WIDTH)
    if row < HEIGHT - 1:
        result.append(i + WIDTH)
    return tuple(result)


NEIGHBOURS = tuple(_neighbours(i) for i in range(NUM_FIELDS))

# Cards in play by number of players (card 3 is removed with 3 players).
CARDS = {3: (1, 2, 4), 4: (1, 2, 3, 4)}

# Steps of the game (``phase``).
P_FIRST = 0  # chance: first Main Player
P_ROLL = 1  # chance: the Main Player's roll
P_REMOVE = 2  # a seat removes a chip after a 1
P_DRAW = 3  # chance: a seat draws a chip
P_DEAL = 4  # the Main Player deals the turn cards
P_CHRONO = 5  # a chip onto the chronology
P_ACT = 6  # choose a block for the hand, or ``move``
P_LIFT = 7  # movement: lift own chips
P_MBLOCK = 8  # movement: choose a block for the lifted chips
P_PUT = 9  # put the chips one by one into the chosen block
P_PURGE = 10  # the turn is done but the purple chip must still be used
P_END = 11  # the game is over
P_ANSWER = 12  # Negotiation: the seat offered an exchange accepts or declines it

TURN_PHASES = frozenset((P_CHRONO, P_ACT, P_LIFT, P_MBLOCK, P_PUT, P_PURGE))
STEP_NAMES = {
    P_FIRST: "first",
    P_ROLL: "roll",
    P_REMOVE: "remove",
    P_DRAW: "draw",
    P_DEAL: "deal",
    P_CHRONO: "chrono",
    P_ACT: "block",
    P_LIFT: "lift",
    P_MBLOCK: "block",
    P_PUT: "put",
    P_PURGE: "purge",
    P_END: "end",
    P_ANSWER: "answer",
}
_CHRONOLOGY = Text(gettext_noop("Chronology"))
END_REASONS = {
    "bag": Text(gettext_noop("the bag could not give a seat its chips")),
    "chronology": Text(gettext_noop("the chronology was full at the end of a round")),
    "stuck": Text(gettext_noop("a seat could neither place nor move its chips")),
}

# Action kinds, and every action string of the game parsed once.
K_FIRST, K_ROLL, K_REMOVE, K_DRAW, K_DEAL, K_CHRONO, K_BLOCK, K_PUT, K_MOVE, K_LIFT, K_PURGE = range(11)
K_OFFER, K_ACCEPT, K_DECLINE = range(11, 14)

# Negotiation limits (rulings on games/rules/gp02a.md): proposals per round, chips per side.
MAX_OFFERS_PER_ROUND = 3
MAX_OFFER_CHIPS = 6
ANSWERS = ("accept", "decline")


def _action_table() -> dict[str, tuple]:
    table: dict[str, tuple] = {"move": (K_MOVE,), "accept": (K_ACCEPT,), "decline": (K_DECLINE,)}
    for s in range(4):
        table[f"first:{s}"] = (K_FIRST, s)
    for n in range(1, 7):
        table[f"roll:{n}"] = (K_ROLL, n)
    for k in range(1, NUM_BLOCKS + 1):
        table[f"block:{k}"] = (K_BLOCK, k - 1)
    for c, colour in enumerate(COLOURS):
        table[f"draw:{colour}"] = (K_DRAW, c)
        table[f"chrono:{colour}"] = (K_CHRONO, c)
        for f, name in enumerate(FIELD_NAMES):
            table[f"put:{colour}@{name}"] = (K_PUT, c, f)
    for f, name in enumerate(FIELD_NAMES):
        table[f"remove:{name}"] = (K_REMOVE, f)
        table[f"lift:{name}"] = (K_LIFT, f)
        table[f"purge:{name}"] = (K_PURGE, f)
    for cards in CARDS.values():
        for perm in permutations(cards):
            table["deal:" + ",".join(map(str, perm))] = (K_DEAL, perm)
    return table


ACTIONS = _action_table()

S_FIRST = tuple(f"first:{s}" for s in range(4))
S_ROLL = tuple(f"roll:{n}" for n in range(1, 7))
S_BLOCK = tuple(f"block:{k}" for k in range(1, NUM_BLOCKS + 1))
S_DRAW = tuple(f"draw:{colour}" for colour in COLOURS)
S_CHRONO = tuple(f"chrono:{colour}" for colour in COLOURS)
S_PUT = tuple(tuple(f"put:{colour}@{name}" for name in FIELD_NAMES) for colour in COLOURS)
S_REMOVE = tuple(f"remove:{name}" for name in FIELD_NAMES)
S_LIFT = tuple(f"lift:{name}" for name in FIELD_NAMES)
S_PURGE = tuple(f"purge:{name}" for name in FIELD_NAMES)
# Every legal deal, by number of players and Main Player (who may not keep card 4).
DEALS = {
    (n, main): tuple("deal:" + ",".join(map(str, perm)) for perm in permutations(cards) if perm[main] != 4)
    for n, cards in CARDS.items()
    for main in range(n)
}


def chips_text(counts) -> str:
    """Chip counts per colour (blue..purple) as an offer writes them: ``2red+green``."""
    return "+".join((COLOURS[c] if n == 1 else f"{n}{COLOURS[c]}") for c, n in enumerate(counts) if n)


def offer_action(partner: int, give, take) -> str:
    """The offer of the Main Player's chips ``give`` for ``partner``'s chips ``take`` (counts
    per colour, blue..purple), e.g. ``offer:2@blue+2red>green``."""
    return f"offer:{partner}@{chips_text(give)}>{chips_text(take)}"


def _parse_chips(text: str) -> tuple[int, ...]:
    counts = [0] * 5
    last = -1
    for part in text.split("+"):
        n = 1
        if part[:1].isdigit():
            if len(part) < 2 or not "2" <= part[0] <= "9":
                raise IllegalAction(
                    Text(gettext_noop("%(part)s is not a number of chips and a colour, such as 2red."), part=repr(part))
                )
            n, part = int(part[0]), part[1:]
        c = COLOUR_INDEX.get(part)
        if c is None:
            raise IllegalAction(
                Text(gettext_noop("%(part)s is not a colour (blue, red, green, yellow, purple)."), part=repr(part))
            )
        if c <= last:
            raise IllegalAction(
                Text(gettext_noop("Write each colour once, in the order blue, red, green, yellow, purple."))
            )
        counts[c] = n
        last = c
    return tuple(counts)


def parse_offer(action: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """``offer:S@GIVE>TAKE`` -> (seat S, chips given, chips taken), counts per colour."""
    body = action[len("offer:") :]
    seat, at, rest = body.partition("@")
    give, gt, take = rest.partition(">")
    if not (at and gt and give and take and seat.isdigit() and len(seat) == 1):
        raise IllegalAction(
            Text(
                gettext_noop(
                    "An offer reads offer:SEAT@CHIPS>CHIPS, the chips you give then the chips you ask for, "
                    "e.g. offer:2@red+blue>green."
                )
            )
        )
    return int(seat), _parse_chips(give), _parse_chips(take)


def group_points(size: int) -> int:
    """Points of one orthogonally joined group of ``size`` chips."""
    if size < 2:
        return 0
    if size < 5:
        return 1
    if size < 8:
        return 3
    if size < 11:
        return 6
    if size < 15:
        return 10
    return 16


GROUP_POINTS = tuple(group_points(size) for size in range(NUM_FIELDS + 1))


class GP02AState(State):
    views_alike = True  # every seat sees the whole position, as a spectator does
    text_keys = (*State.text_keys, "dummy")
    __slots__ = (
        "_legal",
        "bag",
        "bag_total",
        "block",
        "board",
        "cards",
        "chrono",
        "chrono_used",
        "draw_idx",
        "draw_left",
        "end_reason",
        "free",
        "game",
        "hands",
        "history",
        "last_chance",
        "lifted",
        "main",
        "moving",
        "negotiation",
        "num_players",
        "offer",
        "offers_made",
        "last_offer",
        "order",
        "ownwhite",
        "pending",
        "phase",
        "removal_done",
        "removal_idx",
        "roll",
        "seat",
        "to_lift",
        "turn_idx",
        "white_total",
    )

    def __init__(self, game: Game, num_players: int, negotiation: bool = False):
        self.game = game
        self.num_players = num_players
        self.negotiation = negotiation  # the Negotiation variant
        self.offer = None  # the open offer: (partner, give counts, take counts)
        self.offers_made = 0  # offers made this round
        self.last_offer = None  # the last answered offer this round: (partner, give, take, accepted)
        self.history = []
        self.phase = P_FIRST
        self.seat = -1  # the seat to act in seat steps, the drawing seat in P_DRAW
        self.main = -1
        self.board = [-1] * NUM_FIELDS  # colour index or -1
        self.free = [12] * NUM_BLOCKS  # free fields per block
        self.ownwhite = [0] * (4 * NUM_BLOCKS)  # chips of colour c on white fields of block b
        self.white_total = 0  # chips on white fields, any colour
        self.chrono = [0, 0, 0, 0]
        self.chrono_used = 0
        self.bag = [CHIPS_PER_COLOUR] * 4 + [1]
        self.bag_total = 4 * CHIPS_PER_COLOUR + 1
        self.hands = [[0] * 5 for _ in range(num_players)]
        self.cards = [0] * num_players
        self.order = []  # seats in card order, once dealt
        self.turn_idx = 0
        self.roll = 0
        self.removal_done = False
        self.removal_idx = 0
        self.draw_idx = 0
        self.draw_left = 0
        self.block = -1  # block chosen this turn, 0-based
        self.pending = [0, 0, 0, 0]  # chips still to put into the chosen block
        self.to_lift = 0
        self.lifted = []  # fields lifted from this turn
        self.moving = False
        self.end_reason = None
        self.last_chance = None
        self._legal = None

    # ------------------------------------------------------------------ test helper

    @classmethod
    def position(
        cls,
        num_players: int = 4,
        territory: dict[str, str] | None = None,
        chronology: dict[str, int] | None = None,
        main: int = 0,
        bag: dict[str, int] | None = None,
        negotiation: bool = False,
    ) -> GP02AState:
        """A position for tests and examples: the start of a round, ``main`` about to roll.

        ``territory`` maps fields to colours (``{"a1": "blue"}``), ``chronology`` counts chips
        per colour there, ``bag`` the chips in the bag (default: all chips not placed). The
        history is empty, so such a state is not reachable by ``replay``.
        """
        state = cls(GAME, num_players, negotiation)
        for name, colour in (territory or {}).items():
            c = COLOUR_INDEX[colour]
            if c == PURPLE:
                raise ValueError("The purple chip is never placed.")
            state._place(FIELD_INDEX[name], c)
            state.bag[c] -= 1
        for colour, count in (chronology or {}).items():
            c = COLOUR_INDEX[colour]
            state.chrono[c] += count
            state.chrono_used += count
            state.bag[c] -= count
        if state.chrono_used > CHRONOLOGY_SIZE or min(state.bag) < 0:
            raise ValueError("More chips than the game has.")
        if bag is not None:
            state.bag = [bag.get(colour, 0) for colour in COLOURS]
        state.bag_total = sum(state.bag)
        state.main = main
        state._start_round()
        return state

    # ------------------------------------------------------------------ contract

    def clone(self) -> GP02AState:
        c = object.__new__(GP02AState)
        c.game = self.game
        c.num_players = self.num_players
        c.negotiation = self.negotiation
        c.offer = self.offer
        c.offers_made = self.offers_made
        c.last_offer = self.last_offer
        c.history = self.history[:]
        c.phase = self.phase
        c.seat = self.seat
        c.main = self.main
        c.board = self.board[:]
        c.free = self.free[:]
        c.ownwhite = self.ownwhite[:]
        c.white_total = self.white_total
        c.chrono = self.chrono[:]
        c.chrono_used = self.chrono_used
        c.bag = self.bag[:]
        c.bag_total = self.bag_total
        c.hands = [h[:] for h in self.hands]
        c.cards = self.cards[:]
        c.order = self.order[:]
        c.turn_idx = self.turn_idx
        c.roll = self.roll
        c.removal_done = self.removal_done
        c.removal_idx = self.removal_idx
        c.draw_idx = self.draw_idx
        c.draw_left = self.draw_left
        c.block = self.block
        c.pending = self.pending[:]
        c.to_lift = self.to_lift
        c.lifted = self.lifted[:]
        c.moving = self.moving
        c.end_reason = self.end_reason
        c.last_chance = self.last_chance
        c._legal = self._legal
        return c

    def current_player(self) -> int:
        phase = self.phase
        if phase == P_END:
            return TERMINAL
        if phase in (P_FIRST, P_ROLL, P_DRAW):
            return CHANCE
        return self.seat

    def is_terminal(self) -> bool:
        return self.phase == P_END

    def chance_outcomes(self) -> list[tuple[str, float]]:
        phase = self.phase
        if phase == P_FIRST:
            p = 1.0 / self.num_players
            return [(S_FIRST[s], p) for s in range(self.num_players)]
        if phase == P_ROLL:
            return [(a, 1.0 / 6.0) for a in S_ROLL]
        if phase == P_DRAW:
            total = self.bag_total
            return [(S_DRAW[c], n / total) for c, n in enumerate(self.bag) if n]
        return []

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        board = self.board
        if phase == P_DRAW:
            bag = self.bag
            return [S_DRAW[c] for c in range(5) if bag[c]]
        if phase == P_PUT:
            result = []
            fields = [f for f in BLOCK_FIELDS[self.block] if board[f] < 0]
            for c in range(4):
                if self.pending[c]:
                    strings = S_PUT[c]
                    result.extend(strings[f] for f in fields)
            return result + self._legal_purges()
        if phase == P_ROLL:
            return list(S_ROLL)
        if phase == P_CHRONO:
            hand = self.hands[self.seat]
            return [S_CHRONO[c] for c in range(4) if hand[c]] + self._legal_purges()
        if phase == P_ACT:
            k = self._hand_chips()
            free = self.free
            result = [S_BLOCK[b] for b in range(NUM_BLOCKS) if free[b] >= k]
            if self.cards[self.seat] in (2, 3) and self._move_completable(k, k, -1, -1):
                result.append("move")
            return result + self._legal_purges()
        if phase == P_LIFT:
            own = self.seat
            k = len(self.lifted) + self.to_lift
            r = self.to_lift - 1
            result = []
            for f in WHITE_FIELDS:
                if board[f] == own:
                    b = BLOCK_OF[f]
                    if self._move_completable(r, k, b, b):
                        result.append(S_LIFT[f])
            return result + self._legal_purges()
        if phase == P_MBLOCK:
            k = sum(self.pending)
            free = self.free
            return [S_BLOCK[b] for b in range(NUM_BLOCKS) if free[b] >= k] + self._legal_purges()
        if phase == P_PURGE:
            return [S_PURGE[f] for f in WHITE_FIELDS if board[f] >= 0]
        if phase == P_REMOVE:
            return [S_REMOVE[f] for f in WHITE_FIELDS if board[f] >= 0]
        if phase == P_DEAL:
            return list(DEALS[(self.num_players, self.main)])
        if phase == P_ANSWER:
            return list(ANSWERS)
        if phase == P_FIRST:
            return list(S_FIRST[: self.num_players])
        return []

    def _legal_purges(self) -> list[str]:
        if not self.hands[self.seat][PURPLE] or not self.white_total:
            return []
        board = self.board
        occupied = [f for f in WHITE_FIELDS if board[f] >= 0]
        check = self._purge_checker()
        if check is None:
            return [S_PURGE[f] for f in occupied]
        return [S_PURGE[f] for f in occupied if check(f)]

    def _purge_checker(self):
        """None when every purge is allowed now, else a test ``f -> bool`` for one purge.

        The seed lets the purple chip take any chip on a white field at any step of the turn,
        even one whose loss leaves the seat unable to place (the game then ends). One ruling
        stays: in the middle of a movement a purge may not take the own chips still to lift."""
        if self.phase != P_LIFT:
            return None
        own = self.seat
        board = self.board
        r = self.to_lift
        k = len(self.lifted) + r

        def check(f):
            b = BLOCK_OF[f]
            return self._move_completable(r, k, b, b if board[f] == own else -1)

        return check

    def _hand_chips(self) -> int:
        hand = self.hands[self.seat]
        return hand[0] + hand[1] + hand[2] + hand[3]

    def _completable(self, k: int, fb: int, ob: int) -> bool:
        """Can the seat place or move ``k`` chips, if block ``fb`` had one more free field and
        block ``ob`` one own white chip fewer (-1: no change)?"""
        free = self.free
        for b in range(NUM_BLOCKS):
            if free[b] + (b == fb) >= k:
                return True
        if self.cards[self.seat] in (2, 3):
            return self._move_completable(k, k, fb, ob)
        return False

    def _move_completable(self, r: int, k: int, fb: int, ob: int) -> bool:
        """With ``r`` own chips still to lift and ``k`` to re-place in all, can the movement be
        completed (same adjustments as ``_completable``)?"""
        if k < 1:
            return False
        base = self.seat * NUM_BLOCKS
        ow = self.ownwhite[base : base + NUM_BLOCKS]
        if ob >= 0:
            ow[ob] -= 1
        if sum(ow) < r:
            return False
        free = self.free
        for b in range(NUM_BLOCKS):
            o = ow[b]
            if free[b] + (b == fb) + min(r, o) >= k:
                return True
        return False

    # ------------------------------------------------------------------ apply

    def apply(self, action: str) -> None:
        if not isinstance(action, str):
            raise IllegalAction(Text(gettext_noop("%(action)s is not an action."), action=repr(action)))
        parsed = ACTIONS.get(action)
        if parsed is None:
            if action.startswith("offer:"):
                if not self.negotiation:
                    raise IllegalAction(
                        Text(
                            gettext_noop("Exchanges belong to the Negotiation variant, which this match does not play.")
                        )
                    )
                parsed = (K_OFFER, *parse_offer(action))
            else:
                shown = action if len(action) <= 40 else action[:40] + "..."
                raise IllegalAction(
                    Text(gettext_noop("%(action)s is not an action of GP02A Territory."), action=repr(shown))
                )
        kind = parsed[0]
        phase = self.phase
        if phase == P_END:
            raise IllegalAction(Text(gettext_noop("The game is over.")))
        if kind == K_PURGE and phase in TURN_PHASES:
            self._apply_purge(parsed[1])
        elif phase == P_DRAW:
            if kind != K_DRAW:
                raise IllegalAction(Text(gettext_noop("A chip must be drawn from the bag now.")))
            self._apply_draw(parsed[1])
        elif phase == P_PUT:
            if kind != K_PUT:
                raise IllegalAction(
                    Text(gettext_noop("Put your chips into block %(block)s now."), block=self.block + 1)
                )
            self._apply_put(parsed[1], parsed[2])
        elif phase == P_ROLL:
            if kind != K_ROLL:
                raise IllegalAction(Text(gettext_noop("The Main Player must roll the die now.")))
            self._apply_roll(parsed[1])
        elif phase == P_CHRONO:
            if kind != K_CHRONO:
                raise IllegalAction(Text(gettext_noop("Put a chip from your hand on the chronology first.")))
            self._apply_chrono(parsed[1])
        elif phase == P_ACT:
            if kind == K_BLOCK:
                self._apply_block(parsed[1])
            elif kind == K_MOVE:
                self._apply_move()
            else:
                raise IllegalAction(Text(gettext_noop("Choose a block for your chips, or move.")))
        elif phase == P_LIFT:
            if kind != K_LIFT:
                raise IllegalAction(Text(gettext_noop("Lift one of your own chips from a white field.")))
            self._apply_lift(parsed[1])
        elif phase == P_MBLOCK:
            if kind != K_BLOCK:
                raise IllegalAction(Text(gettext_noop("Choose a block for the lifted chips.")))
            self._apply_block(parsed[1])
        elif phase == P_PURGE:
            raise IllegalAction(Text(gettext_noop("Use the purple chip to remove a chip from a white field.")))
        elif phase == P_REMOVE:
            if kind != K_REMOVE:
                raise IllegalAction(Text(gettext_noop("Remove a chip from a white field.")))
            self._apply_remove(parsed[1])
        elif phase == P_DEAL:
            if kind == K_OFFER:
                self._apply_offer(*parsed[1:])
            elif kind != K_DEAL:
                raise IllegalAction(Text(gettext_noop("The Main Player must deal the turn cards now.")))
            else:
                self._apply_deal(parsed[1])
        elif phase == P_ANSWER:
            if kind not in (K_ACCEPT, K_DECLINE):
                raise IllegalAction(Text(gettext_noop("Accept or decline the exchange the Main Player offers you.")))
            self._apply_answer(kind == K_ACCEPT)
        elif phase == P_FIRST:
            if kind != K_FIRST or parsed[1] >= self.num_players:
                raise IllegalAction(Text(gettext_noop("The first Main Player must be chosen now.")))
            self.main = parsed[1]
            self._note_chance(action)
            self._start_round()
        self.history.append(action)
        self._legal = None

    def _note_chance(self, action: str) -> None:
        self.last_chance = action

    # Each ``_apply_*`` validates everything before it changes anything.

    def _apply_roll(self, n: int) -> None:
        self.roll = n
        self.last_chance = S_ROLL[n - 1]
        if n == 1:
            if not self.removal_done:
                self.removal_done = True
                self.removal_idx = 0
                self._next_removal()
            # a further 1 is simply rolled again
            return
        self.draw_idx = 0
        self._next_drawer()

    def _next_removal(self) -> None:
        n = self.num_players
        while self.removal_idx < n:
            if self.white_total:
                self.phase = P_REMOVE
                self.seat = (self.main + self.removal_idx) % n
                return
            self.removal_idx += 1
        self.phase = P_ROLL
        self.seat = -1

    def _apply_remove(self, f: int) -> None:
        if GRAY[f]:
            raise IllegalAction(Text(gettext_noop("%(field)s is a gray field: its chip stays."), field=FIELD_NAMES[f]))
        if self.board[f] < 0:
            raise IllegalAction(Text(gettext_noop("There is no chip on %(field)s."), field=FIELD_NAMES[f]))
        self._take(f, to_bag=True)
        self.removal_idx += 1
        self._next_removal()

    def _next_drawer(self) -> None:
        if self.draw_idx == self.num_players:
            self.phase = P_DEAL
            self.seat = self.main
            return
        self.seat = (self.main + self.draw_idx) % self.num_players
        if self.bag_total < self.roll:
            self._end("bag")
            return
        self.draw_left = self.roll
        self.phase = P_DRAW

    def _apply_draw(self, c: int) -> None:
        if not self.bag[c]:
            raise IllegalAction(Text(gettext_noop("The bag holds no %(colour)s chip."), colour=colour_word(COLOURS[c])))
        self.bag[c] -= 1
        self.bag_total -= 1
        self.hands[self.seat][c] += 1
        self.last_chance = S_DRAW[c]
        self.draw_left -= 1
        if not self.draw_left:
            self.draw_idx += 1
            self._next_drawer()

    def _apply_deal(self, cards: tuple) -> None:
        n = self.num_players
        if len(cards) != n:
            raise IllegalAction(
                Text(
                    gettext_noop("Deal one card to each of the %(count)s seats: %(cards)s."),
                    count=n,
                    cards=", ".join(map(str, CARDS[n])),
                )
            )
        if cards[self.main] == 4:
            raise IllegalAction(Text(gettext_noop("The Main Player may not keep card 4.")))
        self.cards = list(cards)
        self.order = sorted(range(n), key=cards.__getitem__)
        self.turn_idx = 0
        self._start_turn()

    # The Negotiation variant.

    def can_offer(self) -> bool:
        """Whether the Main Player may propose an exchange now (the deal step, offers left)."""
        return self.negotiation and self.phase == P_DEAL and self.offers_made < MAX_OFFERS_PER_ROUND

    def _apply_offer(self, partner: int, give: tuple, take: tuple) -> None:
        if not self.negotiation:
            raise IllegalAction(
                Text(gettext_noop("Exchanges belong to the Negotiation variant, which this match does not play."))
            )
        if self.offers_made >= MAX_OFFERS_PER_ROUND:
            raise IllegalAction(
                Text(
                    gettext_noop("The Main Player has made the %(count)s offers a round allows: deal now."),
                    count=MAX_OFFERS_PER_ROUND,
                )
            )
        main = self.main
        if partner == main or partner >= self.num_players:
            raise IllegalAction(Text(gettext_noop("Offer an exchange to one of the other players.")))
        for giving, counts, hand in ((True, give, self.hands[main]), (False, take, self.hands[partner])):
            total = sum(counts)
            if not 1 <= total <= MAX_OFFER_CHIPS:
                raise IllegalAction(
                    Text(gettext_noop("An exchange puts 1 to %(count)s chips on each side."), count=MAX_OFFER_CHIPS)
                )
            for c in range(5):
                if counts[c] > hand[c]:
                    colour = colour_word(COLOURS[c])
                    if giving:
                        said = Text(
                            gettext_noop("You cannot give %(count)s %(colour)s: you hold %(held)s."),
                            count=counts[c],
                            colour=colour,
                            held=hand[c],
                        )
                    else:
                        said = Text(
                            gettext_noop("You cannot ask for %(count)s %(colour)s: %(partner)s holds %(held)s."),
                            count=counts[c],
                            colour=colour,
                            partner=colour_title(COLOURS[partner]),
                            held=hand[c],
                        )
                    raise IllegalAction(said)
        self.offer = (partner, tuple(give), tuple(take))
        self.offers_made += 1
        self.phase = P_ANSWER
        self.seat = partner

    def _apply_answer(self, accepted: bool) -> None:
        partner, give, take = self.offer
        if accepted:
            mine, theirs = self.hands[self.main], self.hands[partner]
            for c in range(5):
                mine[c] += take[c] - give[c]
                theirs[c] += give[c] - take[c]
        self.last_offer = (partner, give, take, accepted)
        self.offer = None
        self.phase = P_DEAL
        self.seat = self.main

    def _start_turn(self) -> None:
        self.seat = self.order[self.turn_idx]
        self.block = -1
        self.pending = [0, 0, 0, 0]
        self.to_lift = 0
        self.lifted = []
        self.moving = False
        if self.chrono_used < CHRONOLOGY_SIZE and self._hand_chips():
            self.phase = P_CHRONO
        else:
            self._after_chrono()

    def _apply_chrono(self, c: int) -> None:
        if c == PURPLE:
            raise IllegalAction(Text(gettext_noop("The purple chip never goes on the chronology.")))
        if not self.hands[self.seat][c]:
            raise IllegalAction(Text(gettext_noop("You hold no %(colour)s chip."), colour=colour_word(COLOURS[c])))
        self.hands[self.seat][c] -= 1
        self.chrono[c] += 1
        self.chrono_used += 1
        self._after_chrono()

    def _after_chrono(self) -> None:
        k = self._hand_chips()
        if k == 0:
            self._finish_turn()
            return
        self.phase = P_ACT
        if self._completable(k, -1, -1):
            return
        if self.hands[self.seat][PURPLE]:
            board = self.board
            own = self.seat
            for f in WHITE_FIELDS:
                if board[f] >= 0:
                    b = BLOCK_OF[f]
                    if self._completable(k, b, b if board[f] == own else -1):
                        return  # the purple chip can make room: the seat must use it
        self._end("stuck")

    def _apply_block(self, b: int) -> None:
        k = self._hand_chips() if self.phase == P_ACT else sum(self.pending)
        if self.free[b] < k:
            raise IllegalAction(
                Text(
                    gettext_noop("Block %(block)s has only %(free)s free fields for %(count)s chips."),
                    block=b + 1,
                    free=self.free[b],
                    count=k,
                )
            )
        if self.phase == P_ACT:
            hand = self.hands[self.seat]
            self.pending = hand[:4]
            hand[0] = hand[1] = hand[2] = hand[3] = 0
        self.block = b
        self.phase = P_PUT

    def _apply_move(self) -> None:
        if self.cards[self.seat] not in (2, 3):
            raise IllegalAction(
                Text(gettext_noop("Card %(card)s may only place, not move."), card=self.cards[self.seat])
            )
        k = self._hand_chips()
        if not self._move_completable(k, k, -1, -1):
            raise IllegalAction(Text(gettext_noop("You cannot lift and re-place %(count)s of your chips."), count=k))
        hand = self.hands[self.seat]
        bag = self.bag
        for c in range(4):
            bag[c] += hand[c]
            hand[c] = 0
        self.bag_total += k
        self.moving = True
        self.to_lift = k
        self.phase = P_LIFT

    def _apply_lift(self, f: int) -> None:
        own = self.seat
        if self.board[f] != own or GRAY[f]:
            raise IllegalAction(
                Text(gettext_noop("%(field)s holds none of your chips on a white field."), field=FIELD_NAMES[f])
            )
        b = BLOCK_OF[f]
        k = len(self.lifted) + self.to_lift
        if not self._move_completable(self.to_lift - 1, k, b, b):
            raise IllegalAction(
                Text(
                    gettext_noop("After lifting %(field)s no block could take the lifted chips."), field=FIELD_NAMES[f]
                )
            )
        self._take(f, to_bag=False)
        self.pending[own] += 1
        self.lifted.append(f)
        self.to_lift -= 1
        if not self.to_lift:
            self.phase = P_MBLOCK

    def _apply_put(self, c: int, f: int) -> None:
        if c == PURPLE:
            raise IllegalAction(Text(gettext_noop("The purple chip is never placed.")))
        if not self.pending[c]:
            raise IllegalAction(
                Text(gettext_noop("You have no %(colour)s chip to place."), colour=colour_word(COLOURS[c]))
            )
        if BLOCK_OF[f] != self.block:
            raise IllegalAction(
                Text(gettext_noop("%(field)s is not in block %(block)s."), field=FIELD_NAMES[f], block=self.block + 1)
            )
        if self.board[f] >= 0:
            raise IllegalAction(Text(gettext_noop("%(field)s is not free."), field=FIELD_NAMES[f]))
        self._place(f, c)
        self.pending[c] -= 1
        p = self.pending
        if not (p[0] or p[1] or p[2] or p[3]):
            self._finish_turn()

    def _apply_purge(self, f: int) -> None:
        if not self.hands[self.seat][PURPLE]:
            raise IllegalAction(Text(gettext_noop("You do not hold the purple chip.")))
        if GRAY[f]:
            raise IllegalAction(Text(gettext_noop("%(field)s is a gray field: its chip stays."), field=FIELD_NAMES[f]))
        if self.board[f] < 0:
            raise IllegalAction(Text(gettext_noop("There is no chip on %(field)s."), field=FIELD_NAMES[f]))
        check = self._purge_checker()
        if check is not None and not check(f):
            raise IllegalAction(
                Text(
                    gettext_noop(
                        "Your movement still has to lift %(count)s of your chips: "
                        "the one on %(field)s may not be removed now."
                    ),
                    count=self.to_lift,
                    field=FIELD_NAMES[f],
                )
            )
        self._take(f, to_bag=True)
        self.hands[self.seat][PURPLE] = 0
        self.bag[PURPLE] += 1
        self.bag_total += 1
        if self.phase == P_PURGE:
            self._next_turn()
        elif self.phase == P_ACT and not self._completable(self._hand_chips(), -1, -1):
            self._end("stuck")  # the seed: "If there are no more fields to fill, the game ends immediately."

    def _finish_turn(self) -> None:
        hand = self.hands[self.seat]
        if hand[PURPLE]:
            if self.white_total:
                self.phase = P_PURGE
                return
            hand[PURPLE] = 0
            self.bag[PURPLE] += 1
            self.bag_total += 1
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn_idx += 1
        if self.turn_idx < len(self.order):
            self._start_turn()
            return
        if self.chrono_used >= CHRONOLOGY_SIZE:
            self._end("chronology")
            return
        self.main = self.order[-1]  # the holder of card 4
        self._start_round()

    def _start_round(self) -> None:
        self.offers_made = 0
        self.last_offer = None
        self.cards = [0] * self.num_players
        self.order = []
        self.turn_idx = 0
        self.removal_done = False
        self.roll = 0
        self.block = -1
        self.pending = [0, 0, 0, 0]
        self.lifted = []
        self.to_lift = 0
        self.moving = False
        self.phase = P_ROLL
        self.seat = -1

    def end_words(self) -> str:
        if self.end_reason == "stuck":
            return Text(
                gettext_noop("%(colour)s could neither place nor move its chips"),
                colour=colour_word(COLOURS[self.seat]),
            )
        return END_REASONS.get(self.end_reason or "", "")

    def _end(self, reason: str) -> None:
        self.phase = P_END
        self.end_reason = reason

    # Board bookkeeping.

    def _place(self, f: int, c: int) -> None:
        self.board[f] = c
        b = BLOCK_OF[f]
        self.free[b] -= 1
        if not GRAY[f]:
            self.white_total += 1
            self.ownwhite[c * NUM_BLOCKS + b] += 1

    def _take(self, f: int, to_bag: bool) -> None:
        c = self.board[f]
        self.board[f] = -1
        b = BLOCK_OF[f]
        self.free[b] += 1
        self.white_total -= 1  # only white-field chips are ever taken
        self.ownwhite[c * NUM_BLOCKS + b] -= 1
        if to_bag:
            self.bag[c] += 1
            self.bag_total += 1

    # ------------------------------------------------------------------ scores

    def _colour_scores(self) -> list[dict]:
        """Per colour (blue, red, green, yellow): points by kind and the itemised breakdown."""
        board = self.board
        result = []
        for c in range(4):
            result.append(
                {"chronology": self.chrono[c], "groups": 0, "blocks": 0, "items": [[_CHRONOLOGY, self.chrono[c]]]}
            )
        seen = [False] * NUM_FIELDS
        for start in range(NUM_FIELDS):
            c = board[start]
            if c < 0 or seen[start]:
                continue
            seen[start] = True
            stack = [start]
            group = []
            while stack:
                f = stack.pop()
                group.append(f)
                for g in NEIGHBOURS[f]:
                    if not seen[g] and board[g] == c:
                        seen[g] = True
                        stack.append(g)
            points = group_points(len(group))
            if points:
                first = FIELD_NAMES[min(group)]
                result[c]["groups"] += points
                said = Text(gettext_noop("Group of %(size)s at %(field)s"), size=len(group), field=first)
                result[c]["items"].append([said, points])
        for b in range(NUM_BLOCKS):
            counts = [0, 0, 0, 0]
            for f in BLOCK_FIELDS[b]:
                if board[f] >= 0:
                    counts[board[f]] += 1
            most = max(counts)
            if not most:
                continue
            leaders = [c for c in range(4) if counts[c] == most]
            points = 3 // len(leaders)
            for c in leaders:
                if len(leaders) == 1:
                    label = Text(gettext_noop("Block %(block)s majority"), block=b + 1)
                else:
                    label = Text(gettext_noop("Block %(block)s tie of %(count)s"), block=b + 1, count=len(leaders))
                result[c]["blocks"] += points
                result[c]["items"].append([label, points])
        for entry in result:
            entry["total"] = entry["chronology"] + entry["groups"] + entry["blocks"]
        return result

    def _totals(self) -> list[int]:
        """Each colour's total of ``_colour_scores`` without the breakdown's text, in one pass
        over the board that joins each chip to its left and upper neighbours' groups (the
        searches ask for it at every position they judge; a test holds the two equal)."""
        board = self.board
        parent = list(range(NUM_FIELDS))
        size = [0] * NUM_FIELDS
        blocks = [0] * (NUM_BLOCKS * 4)  # blocks[block * 4 + colour]: chips there

        def find(f: int) -> int:
            while parent[f] != f:
                parent[f] = f = parent[parent[f]]
            return f

        for f in range(NUM_FIELDS):
            c = board[f]
            if c < 0:
                continue
            blocks[BLOCK_OF[f] * 4 + c] += 1
            root = find(f - 1) if f % WIDTH and board[f - 1] == c else f
            if f >= WIDTH and board[f - WIDTH] == c:
                up = find(f - WIDTH)
                if root == f:
                    root = up
                elif up != root:
                    parent[up] = root
                    size[root] += size[up]
            parent[f] = root
            size[root] += 1
        totals = self.chrono[:4]
        for f in range(NUM_FIELDS):
            if parent[f] == f and size[f]:
                totals[board[f]] += GROUP_POINTS[size[f]]
        for b in range(0, NUM_BLOCKS * 4, 4):
            counts = blocks[b : b + 4]
            most = max(counts)
            if most:
                leaders = [c for c in range(4) if counts[c] == most]
                for c in leaders:
                    totals[c] += 3 // len(leaders)
        return totals

    def scores(self) -> list[int]:
        return self._totals()[: self.num_players]

    def ranking(self) -> list[int]:
        totals = self._totals()
        keys = []
        for s in range(self.num_players):
            on_territory = self.board.count(s)
            keys.append((totals[s], self.chrono[s], -on_territory))
        return places_from_keys(keys)

    def tie_break_values(self) -> list[list[int]]:
        return [[self.chrono[s], self.board.count(s)] for s in range(self.num_players)]

    # ------------------------------------------------------------------ view

    def _step_name(self) -> str:
        if self.phase == P_ACT and not self._completable(self._hand_chips(), -1, -1):
            return "purge"
        return STEP_NAMES[self.phase]

    def prompt(self) -> str:
        return self._headline(True)

    def prompt_others(self) -> str:
        return self._headline(False)

    def _headline(self, mover: bool) -> str:
        """What the seat to move does now: said to it (``mover``, naming it still, for a
        player who holds several seats' colours in mind) or about it."""
        phase = self.phase
        who = colour_title(COLOURS[self.seat]) if 0 <= self.seat < self.num_players else ""
        main = colour_title(COLOURS[self.main]) if 0 <= self.main < self.num_players else ""
        if phase == P_FIRST:
            return Text(gettext_noop("Chance picks the first Main Player."))
        if phase == P_ROLL:
            if self.removal_done:
                return Text(gettext_noop("%(main)s, the Main Player, rolls the die again."), main=main)
            return Text(gettext_noop("%(main)s, the Main Player, rolls the die."), main=main)
        if phase == P_DRAW:
            return Text(
                gettext_noop("%(who)s draws a chip from the bag (%(left)s to go)."), who=who, left=self.draw_left
            )
        if phase == P_DEAL:
            if self.can_offer():
                left = MAX_OFFERS_PER_ROUND - self.offers_made
                if left > 1:
                    offers = Text(gettext_noop("%(count)s offers left"), count=left)
                else:
                    offers = Text(gettext_noop("%(count)s offer left"), count=left)
                if mover:
                    said = gettext_noop(
                        "%(who)s: deal the turn cards (you may not keep card 4), or first offer another player "
                        "an exchange of chips (%(offers)s)."
                    )
                else:
                    said = gettext_noop(
                        "%(who)s deals the turn cards (never keeping card 4), or first offers another player "
                        "an exchange of chips (%(offers)s)."
                    )
                return Text(said, who=who, offers=offers)
            if mover:
                return Text(gettext_noop("%(who)s: deal the turn cards (you may not keep card 4)."), who=who)
            return Text(gettext_noop("%(who)s deals the turn cards (never keeping card 4)."), who=who)
        if phase == P_ANSWER:
            _partner, give, take = self.offer
            gives, takes = _chips_words(give), _chips_words(take)
            if mover:
                said = gettext_noop(
                    "%(who)s: %(main)s, the Main Player, offers you %(gives)s for your %(takes)s. Accept or decline."
                )
            else:
                said = gettext_noop(
                    "%(main)s, the Main Player, offers %(who)s %(gives)s for %(takes)s: %(who)s accepts or declines."
                )
            return Text(said, who=who, main=main, gives=gives, takes=takes)
        if phase == P_END:
            why = END_REASONS.get(self.end_reason, self.end_reason)
            return Text(gettext_noop("The game is over: %(why)s."), why=why)
        if mover:
            return Text(gettext_noop("%(who)s: %(step)s."), who=who, step=self._step_words(phase))
        return Text(gettext_noop("%(who)s %(step)s."), who=who, step=self._step_words(phase, third=True))

    def _step_words(self, phase: int, third: bool = False) -> Text:
        """The step of a turn the seat to move is at, as an order (``third``: as a report,
        "puts a chip from their hand")."""

        def say(order: str, report: str, **values) -> Text:
            return Text(report if third else order, **values)

        if phase == P_REMOVE:
            return say(
                gettext_noop("remove a chip from a white field"), gettext_noop("removes a chip from a white field")
            )
        if phase == P_CHRONO:
            return say(
                gettext_noop("put a chip from your hand on the chronology"),
                gettext_noop("puts a chip from their hand on the chronology"),
            )
        if phase == P_ACT:
            k = self._hand_chips()
            if not self._completable(k, -1, -1):
                return say(
                    gettext_noop("use the purple chip to make room for your %(chips)s"),
                    gettext_noop("uses the purple chip to make room for their %(chips)s"),
                    chips=_chips(k),
                )
            if self.cards[self.seat] in (2, 3) and self._move_completable(k, k, -1, -1):
                return say(
                    gettext_noop("choose a block for your %(chips)s, or move"),
                    gettext_noop("chooses a block for their %(chips)s, or moves"),
                    chips=_chips(k),
                )
            return say(
                gettext_noop("choose a block for your %(chips)s"),
                gettext_noop("chooses a block for their %(chips)s"),
                chips=_chips(k),
            )
        if phase == P_LIFT:
            return say(
                gettext_noop("lift one of your chips from a white field (%(left)s to go)"),
                gettext_noop("lifts one of their chips from a white field (%(left)s to go)"),
                left=self.to_lift,
            )
        if phase == P_MBLOCK:
            return say(
                gettext_noop("choose a block for the %(count)s lifted chips"),
                gettext_noop("chooses a block for the %(count)s lifted chips"),
                count=sum(self.pending),
            )
        if phase == P_PUT:
            return say(
                gettext_noop("put a chip in block %(block)s (%(left)s to go)"),
                gettext_noop("puts a chip in block %(block)s (%(left)s to go)"),
                block=self.block + 1,
                left=sum(self.pending),
            )
        return say(  # P_PURGE
            gettext_noop("remove a chip from a white field with the purple chip"),
            gettext_noop("removes a chip from a white field with the purple chip"),
        )

    def _negotiation_view(self) -> dict:
        def counts(chips):
            return {COLOURS[c]: n for c, n in enumerate(chips) if n}

        def offer(partner, give, take):
            return {"main": self.main, "partner": partner, "give": counts(give), "take": counts(take)}

        last = None
        if self.last_offer is not None:
            partner, give, take, accepted = self.last_offer
            last = {**offer(partner, give, take), "accepted": accepted}
        return {
            "can_offer": self.can_offer(),
            "offers_left": MAX_OFFERS_PER_ROUND - self.offers_made,
            "max_offers": MAX_OFFERS_PER_ROUND,
            "max_chips": MAX_OFFER_CHIPS,
            "open": offer(*self.offer) if self.offer is not None else None,
            "last": last,
        }

    def view(self, seat: int | None) -> dict:
        view = self.common_view()
        n = self.num_players
        parts = self._colour_scores()
        board = self.board
        view.update(
            {
                "seat_colours": list(COLOURS[:n]),
                "dummy_colour": "yellow" if n == 3 else None,
                "step": self._step_name(),
                "main_player": self.main if self.main >= 0 else None,
                "acting_seat": self.seat if self.seat >= 0 and self.phase != P_END else None,
                "territory": [
                    {
                        "name": FIELD_NAMES[f],
                        "block": BLOCK_OF[f] + 1,
                        "gray": GRAY[f],
                        "colour": COLOURS[board[f]] if board[f] >= 0 else None,
                    }
                    for f in range(NUM_FIELDS)
                ],
                "chronology": {
                    "counts": {COLOURS[c]: self.chrono[c] for c in range(4)},
                    "used": self.chrono_used,
                    "size": CHRONOLOGY_SIZE,
                },
                "bag": {COLOURS[c]: self.bag[c] for c in range(5)},
                "bag_total": self.bag_total,
                "hands": [{COLOURS[c]: h[c] for c in range(5)} for h in self.hands],
                "cards": [card or None for card in self.cards],
                "turn_order": list(self.order),
                "block": self.block + 1 if self.block >= 0 else None,
                "to_place": {COLOURS[c]: self.pending[c] for c in range(4)},
                "moving": self.moving,
                "to_lift": self.to_lift,
                "lifted": [FIELD_NAMES[f] for f in self.lifted],
                "last_roll": self.roll or None,
                "removal_done": self.removal_done,
                "last_chance": self.last_chance,
                "end_reason": self.end_reason,
                "score_parts": [
                    {key: parts[s][key] for key in ("chronology", "groups", "blocks", "total")} for s in range(n)
                ],
                "score_breakdown": [parts[s]["items"] for s in range(n)],
                "dummy": None,
                "negotiation": self._negotiation_view() if self.negotiation else None,
            }
        )
        if n == 3:
            view["dummy"] = {
                "colour": "yellow",
                "score": parts[YELLOW]["total"],
                "parts": {key: parts[YELLOW][key] for key in ("chronology", "groups", "blocks", "total")},
                "breakdown": parts[YELLOW]["items"],
            }
        return view


def _chips_words(counts) -> Text:
    """``(0, 2, 1, 0, 0)`` -> "2 red and 1 green"."""
    return listed(
        [
            Text(gettext_noop("%(count)s %(colour)s"), count=n, colour=colour_word(COLOURS[c]))
            for c, n in enumerate(counts)
            if n
        ]
    )


@dataclass(frozen=True)
class GP02AGame(Game):
    def new_state(self, num_players: int, options: dict | None = None) -> GP02AState:
        self.check_players(num_players)
        options = self.normalise_options(options)
        return GP02AState(self, num_players, options["negotiation"])

    def action_label(self, action: str) -> str:
        parsed = ACTIONS.get(action) if isinstance(action, str) else None
        if parsed is None and isinstance(action, str) and action.startswith("offer:"):
            try:
                partner, give, take = parse_offer(action)
            except IllegalAction:
                return action
            who = (
                colour_title(COLOURS[partner])
                if partner < 4
                else Text(gettext_noop("seat %(number)s"), number=partner + 1)
            )
            return Text(
                gettext_noop("Offer %(who)s %(gives)s for %(takes)s"),
                who=who,
                gives=_chips_words(give),
                takes=_chips_words(take),
            )
        if parsed is None:
            return str(action)
        kind = parsed[0]
        if kind == K_ACCEPT:
            return Text(gettext_noop("Accept the exchange"))
        if kind == K_DECLINE:
            return Text(gettext_noop("Decline the exchange"))
        if kind == K_FIRST:
            return Text(gettext_noop("%(colour)s is the first Main Player"), colour=colour_title(COLOURS[parsed[1]]))
        if kind == K_ROLL:
            return Text(gettext_noop("Roll a %(number)s"), number=parsed[1])
        if kind == K_REMOVE:
            return Text(gettext_noop("Remove the chip on %(field)s"), field=FIELD_NAMES[parsed[1]])
        if kind == K_DRAW:
            return DRAW_LABELS[parsed[1]]
        if kind == K_DEAL:
            cards = [
                Text(gettext_noop("card %(card)s to %(colour)s"), card=card, colour=colour_title(COLOURS[s]))
                for s, card in enumerate(parsed[1])
            ]
            dealt = cards[-1]
            for card in reversed(cards[:-1]):
                dealt = Text(gettext_noop("%(first)s, %(rest)s"), first=card, rest=dealt)
            return Text(gettext_noop("Deal %(cards)s"), cards=dealt)
        if kind == K_CHRONO:
            return CHRONO_LABELS[parsed[1]]
        if kind == K_BLOCK:
            return Text(gettext_noop("Choose block %(block)s"), block=parsed[1] + 1)
        if kind == K_PUT:
            return Text(PUT_LABELS[parsed[1]], field=FIELD_NAMES[parsed[2]])
        if kind == K_MOVE:
            return Text(gettext_noop("Move: return your hand and lift your own chips"))
        if kind == K_LIFT:
            return Text(gettext_noop("Lift your chip from %(field)s"), field=FIELD_NAMES[parsed[1]])
        return Text(gettext_noop("Remove the chip on %(field)s with the purple chip"), field=FIELD_NAMES[parsed[1]])


GAME = GP02AGame(
    slug="gp02a",
    name="GP02A Territory",
    min_players=3,
    max_players=4,
    tie_breaks=(
        Text(gettext_noop("more chronology points")),
        Text(gettext_noop("fewer chips on the territory area")),
    ),
    summary=gettext_noop("Draw chips from a bag, deal the turn cards and build the largest territories in six blocks."),
    options=(
        Option(
            name="negotiation",
            label=gettext_noop("Negotiation"),
            default=False,
            help=gettext_noop(
                "Before dealing the turn cards, the Main Player may offer other players exchanges "
                "of chips, which they accept or decline."
            ),
        ),
    ),
)
