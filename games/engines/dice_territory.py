"""Territory, the dice game (``dice-territory``): 3-6 players, two dice, ten rule cards.

The board is a 6 x 6 addition table: the space in column ``a``-``f`` (1..6) and row ``1``-``6``
is marked column + row, so each number from 2 to 12 has as many spaces as there are ways to
roll it. On a turn the player rolls, places a white marker on a space of the number rolled
(``claim`` a free one or ``capture`` an opponent's), and after the free rolls presses on or
stops; a repeated number after the free rolls is a bust that removes the turn's markers.
Each round after the first is played under a rule card drawn face up; the round-1 card is
drawn face down, never takes effect and is never shown. The score is the value of a
player's best group of spaces joined along sides.

Actions (see ``shared/rules/dice-territory.md``): ``first:S`` ``card:X`` ``roll``
``dice:A,B`` ``claim:SPACE`` ``capture:SPACE`` ``stop``.

The state is built for random playouts: flat lists of ints, bit masks for the numbers
rolled and the markers of the turn, every action string parsed once into a table, and a
cheap ``clone``. Spaces are indexed ``row * 6 + col`` (``a1`` = 0, ``f1`` = 5, ``f6`` = 35).
"""

from __future__ import annotations

import random

from .base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    State,
    Text,
    colour_title,
    gettext_noop,
    places_from_keys,
    square_name,
)

# ---------------------------------------------------------------------------
# The board.

SIZE = 6
NUM_SPACES = SIZE * SIZE
SPACE_NAMES = tuple(square_name(i % SIZE, i // SIZE) for i in range(NUM_SPACES))
SPACE_NUMBER = tuple(i % SIZE + i // SIZE + 2 for i in range(NUM_SPACES))
VALUE_OF_NUMBER = {2: 11, 12: 11, 3: 9, 11: 9, 4: 7, 10: 7, 5: 5, 9: 5, 6: 3, 8: 3, 7: 1}
SPACE_VALUE = tuple(VALUE_OF_NUMBER[n] for n in SPACE_NUMBER)
# The spaces marked with each number, in board order (a1, b1, ..., f6).
SPACES_OF_NUMBER = tuple(
    tuple(i for i in range(NUM_SPACES) if SPACE_NUMBER[i] == n) if n >= 2 else () for n in range(13)
)
ALL_SPACES = tuple(range(NUM_SPACES))

_FULL = (1 << NUM_SPACES) - 1
_COLUMN_A = sum(1 << (row * SIZE) for row in range(SIZE))
_COLUMN_F = _COLUMN_A << (SIZE - 1)

ROUNDS_FOR_PLAYERS = {3: 8, 4: 6, 5: 5, 6: 4}
FREE_ROLLS = 3

# ---------------------------------------------------------------------------
# The cards. Index 0..9 = letters A..J.

CARD_LETTERS = "ABCDEFGHIJ"
CARDS = (
    ("A", Text(gettext_noop("Calm")), Text(gettext_noop("No change to the rules this round."))),
    ("B", Text(gettext_noop("Cautious")), Text(gettext_noop("2 free rolls instead of 3."))),
    ("C", Text(gettext_noop("Bold")), Text(gettext_noop("4 free rolls instead of 3."))),
    (
        "D",
        Text(gettext_noop("Truce")),
        Text(
            gettext_noop("No captures. A roll whose spaces are all taken places nothing (and still counts as rolled).")
        ),
    ),
    ("E", Text(gettext_noop("Plunder")), Text(gettext_noop("A capture does not end the turn."))),
    (
        "F",
        Text(gettext_noop("Second chance")),
        Text(
            gettext_noop(
                "The first repeated number after the free rolls is ignored (no bust, nothing placed); "
                "a second repeat busts."
            )
        ),
    ),
    ("G", Text(gettext_noop("Lucky seven")), Text(gettext_noop("A rolled 7 may be placed on any free space."))),
    (
        "H",
        Text(gettext_noop("Doubles")),
        Text(gettext_noop("A roll of doubles places two markers on spaces of that number, each a claim or a capture.")),
    ),
    (
        "I",
        Text(gettext_noop("Reversal")),
        Text(
            gettext_noop(
                "This round is played counter-clockwise, starting with the player who would otherwise play last."
            )
        ),
    ),
    (
        "J",
        Text(gettext_noop("Insurance")),
        Text(gettext_noop("A bust removes only the markers placed after the free rolls.")),
    ),
)
NO_CARD = -1
CALM, CAUTIOUS, BOLD, TRUCE, PLUNDER, SECOND_CHANCE, LUCKY_SEVEN, DOUBLES, REVERSAL, INSURANCE = range(10)
HIDDEN_CARD_VIEW = {
    "letter": None,
    "name": Text(gettext_noop("a hidden card")),
    "text": Text(gettext_noop("Drawn face down at the start of round 1: it has no effect and nobody sees it.")),
}

# ---------------------------------------------------------------------------
# Phases (what the game waits for).

P_FIRST = 0  # chance: first:S
P_CARD = 1  # chance: card:X
P_ROLL = 2  # the player must roll (a free roll is due)
P_DICE = 3  # chance: dice:A,B
P_PLACE = 4  # the player places a marker: claim or capture
P_CHOICE = 5  # after the free rolls: roll or stop
P_OVER = 6

# Roll results, as the view names them.
R_PLACED = "placed"  # one or two markers placed
R_NOTHING = "nothing"  # no space could take a marker
R_IGNORED = "ignored"  # a repeat forgiven by card F
R_BUST = "bust"

# ---------------------------------------------------------------------------
# Every action string, parsed once: action -> (kind, a, b).

K_FIRST, K_CARD, K_ROLL, K_DICE, K_CLAIM, K_CAPTURE, K_STOP = range(7)
ROLL = "roll"
STOP = "stop"
DICE_ACTIONS = tuple(f"dice:{a},{b}" for a in range(1, 7) for b in range(1, 7))
CLAIM_ACTIONS = tuple(f"claim:{name}" for name in SPACE_NAMES)
CAPTURE_ACTIONS = tuple(f"capture:{name}" for name in SPACE_NAMES)
CARD_ACTIONS = tuple(f"card:{letter}" for letter in CARD_LETTERS)
HIDDEN_CARD_ACTION = "card:?"  # the face-down card, in every history anyone sees
FIRST_ACTIONS = tuple(f"first:{seat}" for seat in range(6))

_PARSED: dict[str, tuple[int, int, int]] = {ROLL: (K_ROLL, 0, 0), STOP: (K_STOP, 0, 0)}
for _i, _action in enumerate(DICE_ACTIONS):
    _PARSED[_action] = (K_DICE, _i // 6 + 1, _i % 6 + 1)
for _i in range(NUM_SPACES):
    _PARSED[CLAIM_ACTIONS[_i]] = (K_CLAIM, _i, 0)
    _PARSED[CAPTURE_ACTIONS[_i]] = (K_CAPTURE, _i, 0)
for _i, _action in enumerate(CARD_ACTIONS):
    _PARSED[_action] = (K_CARD, _i, 0)
for _i, _action in enumerate(FIRST_ACTIONS):
    _PARSED[_action] = (K_FIRST, _i, 0)

_DICE_OUTCOMES = tuple((action, 1 / 36) for action in DICE_ACTIONS)
_ROLL_ONLY = (ROLL,)
_ROLL_OR_STOP = (ROLL, STOP)

_PROMPTS = {
    P_FIRST: Text(gettext_noop("Rolling off for the first player.")),
    P_CARD: Text(gettext_noop("Drawing the card for the round.")),
    P_ROLL: Text(gettext_noop("Roll the dice.")),
    P_DICE: Text(gettext_noop("Rolling the dice.")),
    P_CHOICE: Text(gettext_noop("Roll again or stop?")),
    P_OVER: Text(gettext_noop("The game is over.")),
}


def _neighbours_mask(mask: int) -> int:
    """The spaces that touch ``mask`` along a side (itself included)."""
    return mask | ((mask << 1) & ~_COLUMN_A) | ((mask >> 1) & ~_COLUMN_F) | ((mask << SIZE) & _FULL) | (mask >> SIZE)


def _mask_value(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += SPACE_VALUE[low.bit_length() - 1]
        mask ^= low
    return total


def _mask_spaces(mask: int) -> list[int]:
    spaces = []
    while mask:
        low = mask & -mask
        spaces.append(low.bit_length() - 1)
        mask ^= low
    return spaces


def best_group(mask: int) -> tuple[int, int]:
    """The most valuable group of the spaces in ``mask`` joined along sides: (value, group mask).

    Among groups of equal value the one holding the lowest space (a1 first) is chosen, so the
    answer never depends on the order of play."""
    best_value, best_mask = 0, 0
    remaining = mask
    while remaining:
        group = remaining & -remaining
        while True:
            grown = _neighbours_mask(group) & remaining
            if grown == group:
                break
            group = grown
        remaining &= ~group
        value = _mask_value(group)
        if value > best_value:
            best_value, best_mask = value, group
    return best_value, best_mask


def card_view(card: int) -> dict:
    letter, name, text = CARDS[card]
    return {"letter": letter, "name": name, "text": text}


_CARD_DRAWN = Text(gettext_noop("A card is drawn"))

# The pieces' colours on the page, by seat (each also has its own letter and shape there).
SEAT_COLOURS = ("blue", "red", "green", "pink", "orange", "sky")


class DiceTerritoryState(State):
    text_keys = (*State.text_keys, "card", "cards_played", "last_chance")
    __slots__ = (
        "_legal",
        "card",
        "deck",
        "first",
        "forgiven",
        "free_markers",
        "free_rolls",
        "game",
        "hidden_card",
        "history",
        "last_chance",
        "last_turn",
        "markers",
        "num_players",
        "number",
        "order",
        "owner",
        "pending",
        "phase",
        "played",
        "roll_log",
        "rolled",
        "rolls",
        "round",
        "rounds",
        "seat",
        "turn_index",
    )

    def __init__(self, game: Game, num_players: int):
        self.game = game
        self.num_players = num_players
        self.history: list[str] = []
        self.rounds = ROUNDS_FOR_PLAYERS[num_players]
        self.phase = P_FIRST
        self.owner = [-1] * NUM_SPACES  # the seat of a piece or of a white marker; -1 = free
        self.markers = 0  # bit mask of this turn's white markers
        self.free_markers = 0  # the markers placed during the free rolls (card J keeps them)
        self.first = -1
        self.round = 0
        self.order: list[int] = []  # the seats in turn order this round
        self.turn_index = 0
        self.seat = -1  # whose turn it is (also while the dice roll)
        self.card = NO_CARD  # the card in force (never the face-down round-1 card)
        self.hidden_card = NO_CARD
        self.deck = list(range(len(CARDS)))  # the cards not drawn yet, as a set (no order)
        self.played: list[int] = []  # the face-up cards, round 2 onwards
        self.free_rolls = FREE_ROLLS
        self.rolls = 0  # rolls made this turn
        self.rolled = 0  # bit mask of the numbers rolled this turn
        self.forgiven = False  # card F: the first repeat has been ignored this turn
        self.number = 0  # the number being placed
        self.pending = 0  # markers still to place for it
        self.roll_log: list[tuple[int, int, str]] = []  # this turn: (die, die, result)
        self.last_chance: tuple | None = None
        self.last_turn: tuple | None = None  # (seat, how it ended, spaces kept)
        self._legal: list[str] | None = None

    # -- contract ----------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == P_DICE or phase <= P_CARD:
            return CHANCE
        if phase == P_OVER:
            return TERMINAL
        return self.seat

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal.copy()

    def _compute_legal(self) -> list[str]:
        phase = self.phase
        if phase == P_PLACE:
            claims, captures = self._placements()
            return [CLAIM_ACTIONS[i] for i in claims] + [CAPTURE_ACTIONS[i] for i in captures]
        if phase == P_ROLL:
            return list(_ROLL_ONLY)
        if phase == P_CHOICE:
            return list(_ROLL_OR_STOP)
        if phase == P_DICE:
            return list(DICE_ACTIONS)
        if phase == P_CARD:
            return [CARD_ACTIONS[c] for c in sorted(self.deck)]
        if phase == P_FIRST:
            return list(FIRST_ACTIONS[: self.num_players])
        return []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        phase = self.phase
        if phase == P_DICE:
            return list(_DICE_OUTCOMES)
        if phase == P_CARD:
            p = 1 / len(self.deck)
            return [(CARD_ACTIONS[c], p) for c in sorted(self.deck)]
        if phase == P_FIRST:
            p = 1 / self.num_players
            return [(FIRST_ACTIONS[s], p) for s in range(self.num_players)]
        return []

    def apply(self, action: str) -> None:
        parsed = _PARSED.get(action) if type(action) is str else None
        if parsed is None:
            raise IllegalAction(Text(gettext_noop("%(action)s is not an action of this game."), action=repr(action)))
        kind, a, b = parsed
        phase = self.phase
        if kind == K_CLAIM:
            if phase != P_PLACE:
                raise IllegalAction(self._not_now(action))
            if self.owner[a] != -1:
                raise IllegalAction(Text(gettext_noop("%(space)s is not free."), space=SPACE_NAMES[a]))
            if SPACE_NUMBER[a] != self.number and not (self.number == 7 and self.card == LUCKY_SEVEN):
                raise IllegalAction(
                    Text(gettext_noop("%(space)s is not marked %(number)s."), space=SPACE_NAMES[a], number=self.number)
                )
            self._place(a, capture=False)
        elif kind == K_CAPTURE:
            if phase != P_PLACE:
                raise IllegalAction(self._not_now(action))
            if SPACE_NUMBER[a] != self.number:
                raise IllegalAction(
                    Text(gettext_noop("%(space)s is not marked %(number)s."), space=SPACE_NAMES[a], number=self.number)
                )
            holder = self.owner[a]
            if holder == -1:
                raise IllegalAction(Text(gettext_noop("%(space)s is free: claim it instead."), space=SPACE_NAMES[a]))
            if holder == self.seat:
                raise IllegalAction(Text(gettext_noop("%(space)s is already yours."), space=SPACE_NAMES[a]))
            if self.card == TRUCE:
                raise IllegalAction(Text(gettext_noop("No captures this round (Truce).")))
            self._place(a, capture=True)
        elif kind == K_ROLL:
            if phase != P_ROLL and phase != P_CHOICE:
                raise IllegalAction(self._not_now(action))
            self.phase = P_DICE
        elif kind == K_DICE:
            if phase != P_DICE:
                raise IllegalAction(self._not_now(action))
            self._dice(a, b)
        elif kind == K_STOP:
            if phase != P_CHOICE:
                if phase == P_ROLL:
                    raise IllegalAction(Text(gettext_noop("You cannot stop during your free rolls: roll the dice.")))
                raise IllegalAction(self._not_now(action))
            self._end_turn("stop")
        elif kind == K_CARD:
            if phase != P_CARD:
                raise IllegalAction(self._not_now(action))
            if a not in self.deck:
                raise IllegalAction(Text(gettext_noop("Card %(letter)s is not in the deck."), letter=CARD_LETTERS[a]))
            self._draw_card(a)
        else:  # K_FIRST
            if phase != P_FIRST:
                raise IllegalAction(self._not_now(action))
            if a >= self.num_players:
                raise IllegalAction(
                    Text(
                        gettext_noop("There is no seat %(seat)s in a game of %(players)s."),
                        seat=a,
                        players=self.num_players,
                    )
                )
            self.first = a
            self.last_chance = ("first", a)
            self.phase = P_CARD
        self._legal = None
        self.history.append(action)

    def end_words(self) -> str:
        if self.phase != P_OVER:
            return ""
        return Text(gettext_noop("all %(rounds)s rounds were played"), rounds=self.rounds)

    def _not_now(self, action: str) -> Text:
        phase = self.phase
        if phase == P_OVER:
            return _PROMPTS[P_OVER]
        if phase == P_PLACE:
            return Text(
                gettext_noop("%(action)s is not possible now: place a marker on a space marked %(number)s."),
                action=repr(action),
                number=self.number,
            )
        return Text(gettext_noop("%(action)s is not possible now: %(rule)s"), action=repr(action), rule=_PROMPTS[phase])

    # -- the steps of a turn -------------------------------------------------------------

    def _placements(self) -> tuple[list[int], list[int]]:
        """The spaces where the current roll may put a marker: (claims, captures)."""
        owner = self.owner
        number = self.number
        me = self.seat
        spaces = SPACES_OF_NUMBER[number]
        if number == 7 and self.card == LUCKY_SEVEN:
            claims = [i for i in ALL_SPACES if owner[i] == -1]
        else:
            claims = [i for i in spaces if owner[i] == -1]
        if self.card == TRUCE:
            return claims, []
        return claims, [i for i in spaces if owner[i] != -1 and owner[i] != me]

    def _can_place(self) -> bool:
        owner = self.owner
        if self.number == 7 and self.card == LUCKY_SEVEN and -1 in owner:
            return True
        if self.card == TRUCE:
            return any(owner[i] == -1 for i in SPACES_OF_NUMBER[self.number])
        me = self.seat
        return any(owner[i] != me for i in SPACES_OF_NUMBER[self.number])

    def _dice(self, a: int, b: int) -> None:
        number = a + b
        self.last_chance = ("dice", a, b)
        self.rolls += 1
        bit = 1 << number
        repeated = self.rolled & bit
        self.rolled |= bit
        if repeated and self.rolls > self.free_rolls:
            if self.card == SECOND_CHANCE and not self.forgiven:
                self.forgiven = True
                self.roll_log.append((a, b, R_IGNORED))
                self.phase = P_CHOICE
                return
            self.roll_log.append((a, b, R_BUST))
            self._end_turn("bust")
            return
        self.number = number
        if not self._can_place():
            self.roll_log.append((a, b, R_NOTHING))
            self._after_roll()
            return
        self.roll_log.append((a, b, R_PLACED))
        self.pending = 2 if (a == b and self.card == DOUBLES) else 1
        self.phase = P_PLACE

    def _place(self, space: int, capture: bool) -> None:
        self.owner[space] = self.seat
        bit = 1 << space
        self.markers |= bit
        if self.rolls <= self.free_rolls:
            self.free_markers |= bit
        if capture and self.card != PLUNDER:
            self._end_turn("capture")
            return
        self.pending -= 1
        if self.pending and self._can_place():
            return
        self._after_roll()

    def _after_roll(self) -> None:
        self.pending = 0
        self.phase = P_ROLL if self.rolls < self.free_rolls else P_CHOICE

    def _end_turn(self, how: str) -> None:
        markers = self.markers
        if how == "bust":
            lost = markers & ~self.free_markers if self.card == INSURANCE else markers
            owner = self.owner
            for space in _mask_spaces(lost):
                owner[space] = -1
            markers &= ~lost
        self.last_turn = (self.seat, how, markers)
        self.markers = self.free_markers = 0
        self.rolls = self.rolled = self.pending = self.number = 0
        self.forgiven = False
        self.roll_log = []
        self.turn_index += 1
        if self.turn_index < self.num_players:
            self.seat = self.order[self.turn_index]
            self.phase = P_ROLL
        elif self.round < self.rounds:
            self.seat = -1
            self.phase = P_CARD
        else:
            self.seat = -1
            self.phase = P_OVER

    def _draw_card(self, card: int) -> None:
        self.deck.remove(card)
        self.round += 1
        if self.round == 1:
            self.hidden_card = card
            self.card = NO_CARD
            self.last_chance = ("card", NO_CARD)
        else:
            self.card = card
            self.played.append(card)
            self.last_chance = ("card", card)
        n = self.num_players
        if self.card == REVERSAL:
            self.order = [(self.first - k) % n for k in range(1, n + 1)]
        else:
            self.order = [(self.first + k) % n for k in range(n)]
        self.free_rolls = {CAUTIOUS: 2, BOLD: 4}.get(self.card, FREE_ROLLS)
        self.turn_index = 0
        self.seat = self.order[0]
        self.phase = P_ROLL

    # -- scores --------------------------------------------------------------------------

    def _owned_masks(self) -> list[int]:
        """Per seat, the spaces held by its pieces (this turn's white markers not included)."""
        masks = [0] * self.num_players
        owner = self.owner
        markers = self.markers
        for i in ALL_SPACES:
            seat = owner[i]
            if seat >= 0 and not (markers >> i) & 1:
                masks[seat] |= 1 << i
        return masks

    def scores(self) -> list[int]:
        return [best_group(mask)[0] for mask in self._owned_masks()]

    def ranking(self) -> list[int]:
        masks = self._owned_masks()
        return places_from_keys([(best_group(m)[0], _mask_value(m)) for m in masks])

    def tie_break_values(self) -> list[list[int]]:
        return [[_mask_value(m)] for m in self._owned_masks()]

    def prompt(self) -> str:
        return self._headline(None)

    def prompt_others(self) -> str:
        return self._headline(colour_title(SEAT_COLOURS[self.seat]) if self.seat >= 0 else None)

    def _headline(self, name: Text | str | None) -> str:
        """What the seat to move does now, said to it (``name`` None) or about it."""
        phase = self.phase
        if phase == P_PLACE:
            n = self.number
            if name is None:
                if n == 7 and self.card == LUCKY_SEVEN:
                    return Text(gettext_noop("You rolled 7: place a marker on any free space (or capture a 7)."))
                if not self._placements()[0]:
                    return Text(
                        gettext_noop("You rolled %(n)s: every space marked %(n)s is taken, so capture one."), n=n
                    )
                if self.pending == 2:
                    return Text(
                        gettext_noop(
                            "You rolled %(n)s: place a marker on a space marked %(n)s (two markers for doubles)."
                        ),
                        n=n,
                    )
                return Text(gettext_noop("You rolled %(n)s: place a marker on a space marked %(n)s."), n=n)
            if n == 7 and self.card == LUCKY_SEVEN:
                return Text(
                    gettext_noop("%(name)s rolled 7 and places a marker on any free space (or captures a 7)."),
                    name=name,
                )
            if not self._placements()[0]:
                return Text(
                    gettext_noop("%(name)s rolled %(n)s: every space marked %(n)s is taken, so %(name)s captures one."),
                    name=name,
                    n=n,
                )
            if self.pending == 2:
                return Text(
                    gettext_noop(
                        "%(name)s rolled %(n)s and places a marker on a space marked %(n)s (two markers for doubles)."
                    ),
                    name=name,
                    n=n,
                )
            return Text(
                gettext_noop("%(name)s rolled %(n)s and places a marker on a space marked %(n)s."), name=name, n=n
            )
        if name is not None and phase == P_ROLL:
            return Text(gettext_noop("%(name)s rolls the dice."), name=name)
        if name is not None and phase == P_CHOICE:
            return Text(gettext_noop("%(name)s: roll again or stop?"), name=name)
        return _PROMPTS[phase]

    # -- views ---------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        view = self.common_view()
        owner = self.owner
        markers = self.markers
        board = []
        for i in ALL_SPACES:
            marked = bool((markers >> i) & 1)
            board.append(
                {
                    "space": SPACE_NAMES[i],
                    "col": i % SIZE,
                    "row": i // SIZE,
                    "number": SPACE_NUMBER[i],
                    "value": SPACE_VALUE[i],
                    "owner": None if marked or owner[i] < 0 else owner[i],
                    "marker": marked,
                }
            )
        masks = self._owned_masks()
        breakdown, groups, owned = [], [], []
        for mask in masks:
            _, group = best_group(mask)
            spaces = _mask_spaces(group)
            groups.append([SPACE_NAMES[i] for i in spaces])
            breakdown.append([[f"{SPACE_NAMES[i]} ({SPACE_NUMBER[i]})", SPACE_VALUE[i]] for i in spaces])
            owned.append(_mask_value(mask))
        if self.round == 0:
            card = None
        elif self.round == 1:
            card = dict(HIDDEN_CARD_VIEW)
        else:
            card = card_view(self.card)
        placing = None
        if self.phase == P_PLACE:
            claims, captures = self._placements()
            placing = {
                "number": self.number,
                "markers_left": self.pending,
                "claim": [SPACE_NAMES[i] for i in claims],
                "capture": [SPACE_NAMES[i] for i in captures],
            }
        view.update(
            {
                "seat": seat,
                "seat_colours": list(SEAT_COLOURS[: self.num_players]),
                "board": board,
                "turn": self.seat if self.seat >= 0 else None,
                "rolls": [{"dice": [a, b], "number": a + b, "result": result} for a, b, result in self.roll_log],
                "free_rolls": self.free_rolls,
                "free_rolls_left": max(0, self.free_rolls - self.rolls) if self.seat >= 0 else 0,
                "placing": placing,
                "card": card,
                "cards_played": [dict(card_view(c), round=r) for r, c in enumerate(self.played, start=2)],
                "round": self.round,
                "rounds": self.rounds,
                "first_player": self.first if self.first >= 0 else None,
                "turn_order": list(self.order),
                "best_group": groups,
                "score_breakdown": breakdown,
                "owned_value": owned,
                "last_chance": self._last_chance_view(),
                "last_turn": self._last_turn_view(),
            }
        )
        return view

    def _last_chance_view(self) -> dict | None:
        last = self.last_chance
        if last is None:
            return None
        if last[0] == "first":
            return {"kind": "first", "seat": last[1]}
        if last[0] == "card":
            if last[1] == NO_CARD:
                return {"kind": "card", "card": dict(HIDDEN_CARD_VIEW)}
            return {"kind": "card", "card": card_view(last[1])}
        return {"kind": "dice", "dice": [last[1], last[2]], "number": last[1] + last[2]}

    def _last_turn_view(self) -> dict | None:
        if self.last_turn is None:
            return None
        seat, how, kept = self.last_turn
        return {"seat": seat, "ended_by": how, "kept": [SPACE_NAMES[i] for i in _mask_spaces(kept)]}

    def public_history(self) -> list[str]:
        """The history as anyone may see it, during the game and after: the face-down round-1
        card reads ``card:?``."""
        history = list(self.history)
        if len(history) > 1:
            history[1] = HIDDEN_CARD_ACTION
        return history

    # -- copies --------------------------------------------------------------------------

    def clone(self) -> DiceTerritoryState:
        new = object.__new__(DiceTerritoryState)
        new.game = self.game
        new.num_players = self.num_players
        new.history = self.history.copy()
        new.rounds = self.rounds
        new.phase = self.phase
        new.owner = self.owner.copy()
        new.markers = self.markers
        new.free_markers = self.free_markers
        new.first = self.first
        new.round = self.round
        new.order = self.order  # never changed in place, only replaced
        new.turn_index = self.turn_index
        new.seat = self.seat
        new.card = self.card
        new.hidden_card = self.hidden_card
        new.deck = self.deck.copy()
        new.played = self.played.copy()
        new.free_rolls = self.free_rolls
        new.rolls = self.rolls
        new.rolled = self.rolled
        new.forgiven = self.forgiven
        new.number = self.number
        new.pending = self.pending
        new.roll_log = self.roll_log.copy()
        new.last_chance = self.last_chance
        new.last_turn = self.last_turn
        new._legal = self._legal
        return new

    def determinised(self, seat: int | None, rng: random.Random) -> DiceTerritoryState:
        """A copy whose face-down card is re-drawn among the cards nobody has seen face up (the
        deck is adjusted to match, and so is the card's entry in the history), so a search
        from it learns nothing about the real card. Every seat sees the same, so ``seat``
        does not matter."""
        copy = self.clone()
        if self.hidden_card == NO_CARD:
            return copy
        unseen = sorted([*self.deck, self.hidden_card])
        card = rng.choice(unseen)
        unseen.remove(card)
        copy.hidden_card = card
        copy.deck = unseen
        copy.history[1] = CARD_ACTIONS[card]
        copy._legal = None
        return copy


class DiceTerritory(Game):
    def new_state(self, num_players: int, options: dict | None = None) -> DiceTerritoryState:
        self.check_players(num_players)
        self.normalise_options(options)
        return DiceTerritoryState(self, num_players)

    def replay(self, num_players: int, options: dict | None, actions) -> DiceTerritoryState:
        """As any game's, and a public record too, whose face-down card reads ``card:?``: that
        card never takes effect and nobody sees it, so any card the record does not draw face
        up later gives the same game (every view, score and place). The server replays from
        its stored moves, which keep the real card."""
        actions = list(actions)
        if len(actions) > 1 and actions[1] == HIDDEN_CARD_ACTION:
            face_up = set(actions[2:])
            actions[1] = next((card for card in CARD_ACTIONS if card not in face_up), HIDDEN_CARD_ACTION)
        return super().replay(num_players, options, actions)

    def action_label(self, action: str) -> str:
        if action == HIDDEN_CARD_ACTION:
            return _CARD_DRAWN
        parsed = _PARSED.get(action) if type(action) is str else None
        if parsed is None:
            return str(action)
        kind, a, b = parsed
        if kind == K_ROLL:
            return Text(gettext_noop("Roll the dice"))
        if kind == K_STOP:
            return Text(gettext_noop("Stop and keep your markers"))
        if kind == K_CLAIM:
            return Text(gettext_noop("Claim %(space)s"), space=SPACE_NAMES[a])
        if kind == K_CAPTURE:
            return Text(gettext_noop("Capture %(space)s"), space=SPACE_NAMES[a])
        if kind == K_DICE:
            return Text(gettext_noop("Rolled %(a)s and %(b)s (%(sum)s)"), a=a, b=b, sum=a + b)
        if kind == K_FIRST:
            # Seats counted from 1, as on the page.
            return Text(gettext_noop("Seat %(number)s plays first"), number=a + 1)
        # Never name the card: the same label must serve for the face-down round-1 card.
        return _CARD_DRAWN


GAME = DiceTerritory(
    slug="dice-territory",
    name="Territory (dice)",
    min_players=3,
    max_players=6,
    tie_breaks=(Text(gettext_noop("higher total value of all spaces owned")),),
    summary=gettext_noop(
        "Roll two dice to claim numbered spaces, press your luck, and build the most "
        "valuable connected territory under a new rule card each round."
    ),
)
