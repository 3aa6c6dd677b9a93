"""Territory, the chit game (``chit-territory``): draw chits from a cup, wage war, build.

Rules: ``shared/rules/chit-territory.md`` (the portal's page is ``games/rules/chit-territory.md``).

The board is a 9 x 9 grid of plots, index ``row * 9 + col`` (``a1`` = 0, ``i9`` = 80), grouped
into nine 3 x 3 territories. Positions of each (structure type, owner) are kept as 81-bit
integers, so the "not next to an opponent's castle" test is one dilation of a bitboard and the
legal builds of a turn are a handful of big-integer operations.

Actions: ``first:S`` (chance), ``draw:TYPE`` (chance), ``war:PLOT``, ``peace``,
``build:TYPE@PLOT``, ``discard:TYPE``. Nothing is hidden: the cups hold known chits and the
only randomness is which one comes out next, which is a chance action.
"""

from __future__ import annotations

from itertools import compress

from .base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    Option,
    State,
    Text,
    colour_title,
    gettext_noop,
    places_from_keys,
    square_name,
)

# Chit types, in the order of the rules' notation. 0-5 are structures, 6 is the army.
TYPES = ("temple", "castle", "town", "farm", "mine", "palace", "army")
SEAT_COLOURS = ("blue", "vermilion", "teal", "purple")  # as the board draws each seat
PLURALS = ("temples", "castles", "towns", "farms", "mines", "palaces", "armies")
# The words of the chits, by type (a word each, and whole labels, since the article and the
# case of a chit's name differ between languages).
TYPE_WORDS = (
    Text(gettext_noop("temple")),
    Text(gettext_noop("castle")),
    Text(gettext_noop("town")),
    Text(gettext_noop("farm")),
    Text(gettext_noop("mine")),
    Text(gettext_noop("palace")),
    Text(gettext_noop("army")),
)
PLURAL_WORDS = (
    Text(gettext_noop("temples")),
    Text(gettext_noop("castles")),
    Text(gettext_noop("towns")),
    Text(gettext_noop("farms")),
    Text(gettext_noop("mines")),
    Text(gettext_noop("palaces")),
    Text(gettext_noop("armies")),
)
DRAW_LABELS = (
    Text(gettext_noop("Draw a temple")),
    Text(gettext_noop("Draw a castle")),
    Text(gettext_noop("Draw a town")),
    Text(gettext_noop("Draw a farm")),
    Text(gettext_noop("Draw a mine")),
    Text(gettext_noop("Draw a palace")),
    Text(gettext_noop("Draw an army")),
)
DISCARD_LABELS = (
    Text(gettext_noop("Discard a temple")),
    Text(gettext_noop("Discard a castle")),
    Text(gettext_noop("Discard a town")),
    Text(gettext_noop("Discard a farm")),
    Text(gettext_noop("Discard a mine")),
    Text(gettext_noop("Discard a palace")),
    Text(gettext_noop("Discard an army")),
)
BUILD_LABELS = (
    gettext_noop("Build a temple on %(plot)s"),
    gettext_noop("Build a castle on %(plot)s"),
    gettext_noop("Build a town on %(plot)s"),
    gettext_noop("Build a farm on %(plot)s"),
    gettext_noop("Build a mine on %(plot)s"),
    gettext_noop("Build a palace on %(plot)s"),
)
TEMPLE, CASTLE, TOWN, FARM, MINE, PALACE, ARMY = range(7)
STRUCTURES = range(6)
NT = 7  # chit types per player
CHITS_PER_TYPE = 10
# A structure of these types may not stand next to an opponent's structure of the same type.
RESTRICTED = (TEMPLE, CASTLE, PALACE)
RESERVE_LIMIT = 4
# The safeguards against a game that cannot finish: it ends after STALL_ROUNDS full rounds in a
# row without a build, and after MAX_ROUNDS rounds (a safety limit, not the game's length).
STALL_ROUNDS = 5
MAX_ROUNDS = 60
# The former ruling ended the game after a single round without a build; records of games
# played under it carry ``stall_rounds: 1`` in their options and replay by it.
FORMER_STALL_ROUNDS = 1

SIZE = 9
PLOTS = SIZE * SIZE
FULL = (1 << PLOTS) - 1
PLOT_NAMES = tuple(square_name(i % SIZE, i // SIZE) for i in range(PLOTS))
PLOT_INDEX = {name: i for i, name in enumerate(PLOT_NAMES)}
TERRITORY_OF = tuple((i // SIZE // 3) * 3 + (i % SIZE) // 3 for i in range(PLOTS))  # 0-8
TERRITORY_PLOTS = tuple(tuple(i for i in range(PLOTS) if TERRITORY_OF[i] == t) for t in range(9))

_NOT_COL_A = sum(1 << i for i in range(PLOTS) if i % SIZE != 0)
_NOT_COL_I = sum(1 << i for i in range(PLOTS) if i % SIZE != SIZE - 1)


def dilate(mask: int) -> int:
    """The plots of ``mask`` and their 8 neighbours."""
    h = mask | ((mask << 1) & _NOT_COL_A) | ((mask >> 1) & _NOT_COL_I)
    return (h | (h << SIZE) | (h >> SIZE)) & FULL


def _mask(names) -> int:
    return sum(1 << PLOT_INDEX[n] for n in names)


NEIGHBOURS = tuple(
    tuple(
        (r + dr) * SIZE + c + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r in range(SIZE)
    for c in range(SIZE)
)

# The variant's map: mountains turned by a quarter turn give the rivers, and each set is
# symmetric under a half turn. Every territory has a mine site and a farm site.
MOUNTAINS = ("c3", "h2", "a5", "i5", "b8", "g7")
RIVERS = ("g3", "b2", "e1", "e9", "h8", "c7")
MOUNTAIN_MASK = _mask(MOUNTAINS)
RIVER_MASK = _mask(RIVERS)
NEAR_MOUNTAIN = dilate(MOUNTAIN_MASK)
NEAR_RIVER = dilate(RIVER_MASK)
ALLOWED_PLAIN = (FULL,) * 6
ALLOWED_VARIANT = tuple(NEAR_MOUNTAIN if t == MINE else NEAR_RIVER if t == FARM else FULL for t in STRUCTURES)

# Scoring tables (territories 0-based here, 1-based in labels).
TERRITORY_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
SQUARES = ((0, 1, 3, 4), (1, 2, 4, 5), (3, 4, 6, 7), (4, 5, 7, 8))
CORNERS = (0, 2, 6, 8)
CENTRE = 4
_CONTROL_BONUSES = tuple((line, 9) for line in TERRITORY_LINES) + tuple((sq, 8) for sq in SQUARES) + ((CORNERS, 8),)


def _grid_lines() -> tuple[tuple[int, ...], ...]:
    """Every straight line of 3 or more plots: rows, columns, both diagonals."""
    lines = []
    for r in range(SIZE):
        lines.append(tuple(r * SIZE + c for c in range(SIZE)))
    for c in range(SIZE):
        lines.append(tuple(r * SIZE + c for r in range(SIZE)))
    for dc, starts in (
        (1, [(0, c) for c in range(SIZE)] + [(r, 0) for r in range(1, SIZE)]),
        (-1, [(0, c) for c in range(SIZE)] + [(r, SIZE - 1) for r in range(1, SIZE)]),
    ):
        for r0, c0 in starts:
            line = []
            r, c = r0, c0
            while 0 <= r < SIZE and 0 <= c < SIZE:
                line.append(r * SIZE + c)
                r, c = r + 1, c + dc
            if len(line) >= 3:
                lines.append(tuple(line))
    return tuple(lines)


GRID_LINES = _grid_lines()

TERRITORY_MASKS = tuple(sum(1 << i for i in plots) for plots in TERRITORY_PLOTS)

# The four directions of a row of structures, each as (step between plot indices, the plots
# whose next plot that way is in a mask, the plots whose previous plot that way is in it).
_DIRECTIONS = (
    (1, lambda m: (m >> 1) & _NOT_COL_I, lambda m: (m << 1) & _NOT_COL_A),
    (SIZE, lambda m: m >> SIZE, lambda m: (m << SIZE) & FULL),
    (SIZE + 1, lambda m: (m >> (SIZE + 1)) & _NOT_COL_I, lambda m: (m << (SIZE + 1)) & _NOT_COL_A & FULL),
    (SIZE - 1, lambda m: (m >> (SIZE - 1)) & _NOT_COL_A, lambda m: (m << (SIZE - 1)) & _NOT_COL_I & FULL),
)

# Phases.
SETUP, DRAW, WAR, BUILD, DISCARD, OVER = range(6)
PHASE_NAMES = ("setup", "draw", "war", "build", "discard", "over")
_END = 9  # internal step: the end of a turn

# Every action string, parsed once.
_FIRST, _DRAW, _WAR, _PEACE, _BUILD, _DISCARD = range(6)
DRAW_ACTIONS = tuple(f"draw:{t}" for t in TYPES)
WAR_ACTIONS = tuple(f"war:{p}" for p in PLOT_NAMES)
BUILD_ACTIONS = tuple(f"build:{TYPES[t]}@{p}" for t in STRUCTURES for p in PLOT_NAMES)  # t*81+plot
DISCARD_ACTIONS = tuple(f"discard:{t}" for t in TYPES)
FIRST_ACTIONS = tuple(f"first:{s}" for s in range(4))
ACTIONS: dict[str, tuple[int, int, int]] = {}
for _i, _a in enumerate(FIRST_ACTIONS):
    ACTIONS[_a] = (_FIRST, _i, 0)
for _i, _a in enumerate(DRAW_ACTIONS):
    ACTIONS[_a] = (_DRAW, _i, 0)
for _i, _a in enumerate(WAR_ACTIONS):
    ACTIONS[_a] = (_WAR, _i, 0)
ACTIONS["peace"] = (_PEACE, 0, 0)
for _i, _a in enumerate(BUILD_ACTIONS):
    ACTIONS[_a] = (_BUILD, _i // PLOTS, _i % PLOTS)
for _i, _a in enumerate(DISCARD_ACTIONS):
    ACTIONS[_a] = (_DISCARD, _i, 0)
# bin(mask) reversed, as bytes 0/1, is a selector for itertools.compress.
_BITS = bytes.maketrans(b"01", b"\x00\x01")


def _select(strings: tuple[str, ...], mask: int) -> list[str]:
    """The strings whose bit is set in ``mask`` (bit i -> strings[i]), in index order."""
    return list(compress(strings, bin(mask)[:1:-1].encode().translate(_BITS)))


class ChitTerritoryState(State):
    views_alike = True  # every seat sees the whole position, as a spectator does
    text_keys = (*State.text_keys, "end")
    __slots__ = (
        "_breakdown",
        "_scored",
        "allowed",
        "board_owner",
        "board_type",
        "built_in_round",
        "cup_total",
        "cups",
        "discard",
        "discard_total",
        "drawn",
        "draws_left",
        "empty",
        "first",
        "game",
        "history",
        "idle_rounds",
        "kall",
        "kmask",
        "masks",
        "num_players",
        "on_board",
        "phase",
        "player",
        "reserve",
        "reserve_total",
        "round",
        "stall_rounds",
        "variant",
    )

    def __init__(self, game: Game, num_players: int, variant: bool = False, stall_rounds: int = STALL_ROUNDS):
        n = num_players
        self.game = game
        self.num_players = n
        self.history: list[str] = []
        self.variant = variant
        self.allowed = ALLOWED_VARIANT if variant else ALLOWED_PLAIN
        self.board_type = [-1] * PLOTS
        self.board_owner = [-1] * PLOTS
        self.empty = FULL
        self.kmask = [0] * (6 * n)  # kmask[type * n + owner]: that owner's plots of that type
        self.kall = [0] * 6  # every owner's plots of that type
        self.on_board = [0] * n
        self.cups = [CHITS_PER_TYPE] * (NT * n)  # cups[owner * 7 + type]
        self.cup_total = [CHITS_PER_TYPE * NT] * n
        self.reserve = [0] * (NT * n)
        self.reserve_total = [0] * n
        self.discard = [0] * (NT * n)
        self.discard_total = [0] * n
        self.phase = SETUP
        self.player = 0  # whose turn it is (also while chance draws for them)
        self.draws_left = 0
        self.first = -1
        self.round = 0
        self.built_in_round = False
        self.idle_rounds = 0  # full rounds in a row, just ended, in which nobody built
        self.stall_rounds = stall_rounds
        self.masks: tuple[int, ...] | None = None  # legal build plots per type, in BUILD
        self.drawn: tuple[int, ...] = ()  # types drawn so far this turn
        self._scored = None
        self._breakdown = None

    # ------------------------------------------------------------------ test helper
    @classmethod
    def from_position(
        cls,
        num_players: int,
        board: dict[str, tuple[str, int]] | None = None,
        reserves: list[dict[str, int]] | None = None,
        cups: list[dict[str, int]] | None = None,
        discards: list[dict[str, int]] | None = None,
        player: int = 0,
        step: str = "draw",
        first: int = 0,
        round: int = 1,
        built_in_round: bool = False,
        idle_rounds: int = 0,
        options: dict | None = None,
    ) -> ChitTerritoryState:
        """A position built directly, for tests and worked examples.

        ``board`` maps plots to (type, owner), e.g. ``{"a1": ("temple", 0)}``. ``reserves`` and
        ``discards`` give per seat the chits held, e.g. ``[{"army": 1}, {}]`` (default empty).
        ``cups`` gives per seat the cup's contents; by default each cup holds the rest of that
        seat's 70 chits (10 of each type minus those on the board, in reserve or discarded).
        The turn of ``player`` then starts at ``step`` ("draw", "war", "build", "discard" or
        "end"): the engine carries on from there as in play, skipping steps with nothing to
        decide. ``idle_rounds`` counts the full rounds in a row, just ended, without a build.
        The history is empty, so such a state cannot be replayed.
        """
        state = GAME.new_state(num_players, options)
        n = num_players
        for name, (type_name, owner) in (board or {}).items():
            state._place(TYPES.index(type_name), PLOT_INDEX[name], owner)
        for seat in range(n):
            for target, total, given in (
                (state.reserve, state.reserve_total, reserves),
                (state.discard, state.discard_total, discards),
            ):
                chits = (given[seat] if given else None) or {}
                for type_name, count in chits.items():
                    target[seat * NT + TYPES.index(type_name)] = count
                total[seat] = sum(target[seat * NT : seat * NT + NT])
            if cups is not None:
                contents = [cups[seat].get(t, 0) for t in TYPES]
            else:
                contents = []
                for t in range(NT):
                    used = state.reserve[seat * NT + t] + state.discard[seat * NT + t]
                    if t < 6:
                        used += state.kmask[t * n + seat].bit_count()
                    if used > CHITS_PER_TYPE:
                        raise ValueError(f"Seat {seat} has more than 10 {PLURALS[t]}.")
                    contents.append(CHITS_PER_TYPE - used)
            state.cups[seat * NT : seat * NT + NT] = contents
            state.cup_total[seat] = sum(contents)
        state.first = first
        state.player = player
        state.round = round
        state.built_in_round = built_in_round
        state.idle_rounds = idle_rounds
        state.draws_left = 2 if step == "draw" else 0
        state._proceed({"draw": DRAW, "war": WAR, "build": BUILD, "discard": DISCARD, "end": _END}[step])
        return state

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        phase = self.phase
        if phase == SETUP or phase == DRAW:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.phase == SETUP:
            n = self.num_players
            return [(FIRST_ACTIONS[s], 1 / n) for s in range(n)]
        if self.phase == DRAW:
            base = self.player * NT
            total = self.cup_total[self.player]
            cups = self.cups
            return [(DRAW_ACTIONS[t], cups[base + t] / total) for t in range(NT) if cups[base + t]]
        return []

    def legal_actions(self) -> list[str]:
        phase = self.phase
        if phase == BUILD:
            masks = self.masks
            combined = masks[0] | masks[1] << 81 | masks[2] << 162 | masks[3] << 243 | masks[4] << 324 | masks[5] << 405
            return _select(BUILD_ACTIONS, combined)
        if phase == DRAW:
            base = self.player * NT
            cups = self.cups
            return [DRAW_ACTIONS[t] for t in range(NT) if cups[base + t]]
        if phase == WAR:
            p = self.player
            mine = 0
            n = self.num_players
            for t in STRUCTURES:
                mine |= self.kmask[t * n + p]
            actions = _select(WAR_ACTIONS, ~self.empty & FULL & ~mine)
            actions.append("peace")
            return actions
        if phase == DISCARD:
            base = self.player * NT
            reserve = self.reserve
            return [DISCARD_ACTIONS[t] for t in range(NT) if reserve[base + t]]
        if phase == SETUP:
            return list(FIRST_ACTIONS[: self.num_players])
        return []

    def apply(self, action: str) -> None:
        if type(action) is not str:
            raise IllegalAction(Text(gettext_noop("%(action)s is not an action."), action=repr(action)))
        parsed = ACTIONS.get(action)
        if parsed is None:
            raise IllegalAction(
                Text(gettext_noop("%(action)s is not an action of this game."), action=repr(action[:40]))
            )
        kind, a, b = parsed
        phase = self.phase
        p = self.player
        if phase == OVER:
            raise IllegalAction(Text(gettext_noop("The game is over.")))
        if kind == _BUILD:
            if phase != BUILD:
                raise IllegalAction(Text(gettext_noop("It is not the time to build.")))
            if not (self.masks[a] >> b) & 1:
                raise IllegalAction(self._why_not_build(a, b))
            self._place(a, b, p)
            self.reserve[p * NT + a] -= 1
            self.reserve_total[p] -= 1
            self.built_in_round = True
            self.masks = None
            if not self.empty:
                self.phase = OVER
            else:
                self._proceed(DISCARD)
        elif kind == _DRAW:
            if phase != DRAW:
                raise IllegalAction(Text(gettext_noop("No chit is being drawn now.")))
            i = p * NT + a
            if not self.cups[i]:
                raise IllegalAction(Text(gettext_noop("The cup holds no %(chit)s."), chit=TYPE_WORDS[a]))
            self.cups[i] -= 1
            self.cup_total[p] -= 1
            self.reserve[i] += 1
            self.reserve_total[p] += 1
            self.draws_left -= 1
            self.drawn = self.drawn + (a,)
            self._proceed(DRAW)
        elif kind == _DISCARD:
            if phase != DISCARD:
                raise IllegalAction(Text(gettext_noop("It is not the time to discard.")))
            i = p * NT + a
            if not self.reserve[i]:
                raise IllegalAction(Text(gettext_noop("Your reserve holds no %(chit)s."), chit=TYPE_WORDS[a]))
            self.reserve[i] -= 1
            self.reserve_total[p] -= 1
            self.discard[i] += 1
            self.discard_total[p] += 1
            self._proceed(DISCARD)
        elif kind == _WAR:
            if phase != WAR:
                raise IllegalAction(Text(gettext_noop("It is not the time for war.")))
            owner = self.board_owner[a]
            if owner < 0:
                raise IllegalAction(Text(gettext_noop("%(plot)s is empty."), plot=PLOT_NAMES[a]))
            if owner == p:
                raise IllegalAction(Text(gettext_noop("The structure on %(plot)s is your own."), plot=PLOT_NAMES[a]))
            t = self.board_type[a]
            self._remove(a)
            self.discard[owner * NT + t] += 1
            self.discard_total[owner] += 1
            self.reserve[p * NT + ARMY] -= 1
            self.reserve_total[p] -= 1
            self.discard[p * NT + ARMY] += 1
            self.discard_total[p] += 1
            self._proceed(BUILD)
        elif kind == _PEACE:
            if phase != WAR:
                raise IllegalAction(Text(gettext_noop("It is not the time for war or peace.")))
            self._proceed(BUILD)
        else:  # _FIRST
            if phase != SETUP:
                raise IllegalAction(Text(gettext_noop("The first player is already chosen.")))
            if a >= self.num_players:
                raise IllegalAction(Text(gettext_noop("There is no seat %(seat)s."), seat=a))
            self.first = a
            self.player = a
            self.round = 1
            self.draws_left = 2
            self._proceed(DRAW)
        self.history.append(action)

    def scores(self) -> list[int]:
        return list(self._totals())

    def ranking(self) -> list[int]:
        totals = self._totals()
        return places_from_keys([(totals[s], self.on_board[s]) for s in range(self.num_players)])

    def tie_break_values(self) -> list[list[int]]:
        return [[self.on_board[s]] for s in range(self.num_players)]

    def clone(self) -> ChitTerritoryState:
        new = object.__new__(ChitTerritoryState)
        new.game = self.game
        new.num_players = self.num_players
        new.history = self.history[:]
        new.variant = self.variant
        new.allowed = self.allowed
        new.board_type = self.board_type[:]
        new.board_owner = self.board_owner[:]
        new.empty = self.empty
        new.kmask = self.kmask[:]
        new.kall = self.kall[:]
        new.on_board = self.on_board[:]
        new.cups = self.cups[:]
        new.cup_total = self.cup_total[:]
        new.reserve = self.reserve[:]
        new.reserve_total = self.reserve_total[:]
        new.discard = self.discard[:]
        new.discard_total = self.discard_total[:]
        new.phase = self.phase
        new.player = self.player
        new.draws_left = self.draws_left
        new.first = self.first
        new.round = self.round
        new.built_in_round = self.built_in_round
        new.idle_rounds = self.idle_rounds
        new.stall_rounds = self.stall_rounds
        new.masks = self.masks
        new.drawn = self.drawn
        new._scored = self._scored
        new._breakdown = self._breakdown
        return new

    def prompt(self) -> str:
        return self._headline(None)

    def prompt_others(self) -> str:
        return self._headline(colour_title(SEAT_COLOURS[self.player]) if 0 <= self.player < self.num_players else "")

    def _headline(self, name: Text | str | None) -> str:
        """What the seat to move does now: said to it (``name`` None) or about it, by ``name``."""
        phase = self.phase
        p = self.player
        if phase == SETUP:
            if name is None:
                return Text(gettext_noop("Choose the first player."))
            return Text(gettext_noop("Chance chooses the first player."))
        if phase == DRAW:
            number = 3 - self.draws_left if self.draws_left <= 2 else 1
            if name is None:
                return Text(
                    gettext_noop("Draw chit %(number)s of 2 from player %(player)s's cup."), number=number, player=p
                )
            return Text(gettext_noop("%(name)s draws chit %(number)s of 2 from their cup."), name=name, number=number)
        if phase == WAR:
            if name is None:
                return Text(
                    gettext_noop("War or peace? Spend an army to remove an opponent's structure, or make peace.")
                )
            return Text(
                gettext_noop(
                    "%(name)s: war or peace? %(name)s may spend an army to remove an opponent's structure, "
                    "or make peace."
                ),
                name=name,
            )
        if phase == BUILD:
            if name is None:
                return Text(gettext_noop("Build one structure from your reserve on an empty plot."))
            return Text(gettext_noop("%(name)s builds one structure from their reserve on an empty plot."), name=name)
        if phase == DISCARD:
            extra = self.reserve_total[p] - RESERVE_LIMIT
            if name is None:
                said = gettext_noop("Discard a chit from your reserve (%(extra)s more to keep %(limit)s).")
                return Text(said, extra=extra, limit=RESERVE_LIMIT)
            said = gettext_noop("%(name)s discards a chit from their reserve (%(extra)s more to keep %(limit)s).")
            return Text(said, name=name, extra=extra, limit=RESERVE_LIMIT)
        return Text(gettext_noop("The game is over. %(why)s"), why=self._end_reason())

    def view(self, seat: int | None) -> dict:
        n = self.num_players
        _totals, breakdown, control, counts = self._score()
        view = self.common_view()
        variant = self.variant
        board = []
        for i in range(PLOTS):
            t = self.board_type[i]
            plot = {
                "plot": PLOT_NAMES[i],
                "territory": TERRITORY_OF[i] + 1,
                "structure": TYPES[t] if t >= 0 else None,
                "owner": self.board_owner[i] if t >= 0 else None,
            }
            if variant:
                plot["mountain"] = bool(MOUNTAIN_MASK >> i & 1)
                plot["river"] = bool(RIVER_MASK >> i & 1)
            board.append(plot)
        players = []
        for s in range(n):
            base = s * NT
            players.append(
                {
                    "seat": s,
                    "reserve": {TYPES[t]: self.reserve[base + t] for t in range(NT)},
                    "reserve_total": self.reserve_total[s],
                    "cup": {TYPES[t]: self.cups[base + t] for t in range(NT)},
                    "cup_total": self.cup_total[s],
                    "discard": {TYPES[t]: self.discard[base + t] for t in range(NT)},
                    "discard_total": self.discard_total[s],
                    "structures_on_board": self.on_board[s],
                }
            )
        buildable = {}
        if self.phase == BUILD:
            for t in STRUCTURES:
                plots = _select(PLOT_NAMES, self.masks[t])
                if plots:
                    buildable[TYPES[t]] = plots
        last_chance = None
        for action in reversed(self.history):
            if action.startswith(("draw:", "first:")):
                last_chance = action
                break
        view.update(
            {
                "options": {"mountains_rivers": variant},
                "types": list(TYPES),
                "board": board,
                "mountains": list(MOUNTAINS) if variant else [],
                "rivers": list(RIVERS) if variant else [],
                "territories": [
                    {
                        "number": t + 1,
                        "plots": [PLOT_NAMES[i] for i in TERRITORY_PLOTS[t]],
                        "counts": counts[t],
                        "controller": control[t] if control[t] >= 0 else None,
                    }
                    for t in range(9)
                ],
                "players": players,
                "seat_colours": list(SEAT_COLOURS[:n]),
                "phase": PHASE_NAMES[self.phase],
                "turn_player": self.player if self.phase != SETUP else None,
                "draws_left": self.draws_left if self.phase == DRAW else 0,
                "drawn_this_turn": [TYPES[t] for t in self.drawn],
                "last_chance": last_chance,
                "buildable": buildable,
                "round": self.round,
                "max_rounds": MAX_ROUNDS,
                "first_player": self.first if self.first >= 0 else None,
                "built_this_round": self.built_in_round,
                "rounds_without_build": self.idle_rounds,
                "stall_rounds": self.stall_rounds,
                "end": self._end_reason(),
                "reserve_limit": RESERVE_LIMIT,
                "score_breakdown": breakdown,
            }
        )
        return view

    # ------------------------------------------------------------------ internals
    def _place(self, t: int, plot: int, owner: int) -> None:
        self._scored = self._breakdown = None  # the score is the board's: it changes with it
        bit = 1 << plot
        self.board_type[plot] = t
        self.board_owner[plot] = owner
        self.empty &= ~bit
        self.kmask[t * self.num_players + owner] |= bit
        self.kall[t] |= bit
        self.on_board[owner] += 1

    def _remove(self, plot: int) -> None:
        self._scored = self._breakdown = None
        t = self.board_type[plot]
        owner = self.board_owner[plot]
        bit = 1 << plot
        self.board_type[plot] = -1
        self.board_owner[plot] = -1
        self.empty |= bit
        self.kmask[t * self.num_players + owner] &= ~bit
        self.kall[t] &= ~bit
        self.on_board[owner] -= 1

    def _build_masks(self, p: int) -> tuple[int, ...]:
        """Per structure type, the plots where ``p`` may build one now (0 if none held)."""
        n = self.num_players
        reserve = self.reserve
        base = p * NT
        empty = self.empty
        allowed = self.allowed
        masks = []
        for t in STRUCTURES:
            if not reserve[base + t]:
                masks.append(0)
                continue
            m = empty & allowed[t]
            if t == TEMPLE or t == CASTLE or t == PALACE:
                enemies = self.kall[t] & ~self.kmask[t * n + p]
                if enemies:
                    m &= ~dilate(enemies)
            masks.append(m)
        return tuple(masks)

    def _why_not_build(self, t: int, plot: int) -> Text:
        p = self.player
        name = PLOT_NAMES[plot]
        if not self.reserve[p * NT + t]:
            return Text(gettext_noop("Your reserve holds no %(chit)s."), chit=TYPE_WORDS[t])
        if self.board_owner[plot] >= 0:
            return Text(gettext_noop("%(plot)s is not free."), plot=name)
        if not (self.allowed[t] >> plot) & 1:
            if t == MINE:
                return Text(gettext_noop("A mine must be built on or next to a mountain; %(plot)s is not."), plot=name)
            return Text(gettext_noop("A farm must be built on or next to a river; %(plot)s is not."), plot=name)
        return Text(
            gettext_noop("A %(chit)s may not be built next to an opponent's %(chit)s, as on %(plot)s."),
            chit=TYPE_WORDS[t],
            plot=name,
        )

    def _proceed(self, step: int) -> None:
        """Carry the turn on from ``step`` until someone must decide or the game ends."""
        while True:
            p = self.player
            if step == DRAW:
                while self.draws_left:
                    if self.cup_total[p]:
                        break
                    if self.discard_total[p]:  # the discard pile goes back into the cup
                        base = p * NT
                        for t in range(NT):
                            self.cups[base + t] += self.discard[base + t]
                            self.discard[base + t] = 0
                        self.cup_total[p] = self.discard_total[p]
                        self.discard_total[p] = 0
                        break
                    self.draws_left -= 1  # both empty: this draw is skipped
                if self.draws_left:
                    self.phase = DRAW
                    return
                step = WAR
            if step == WAR:
                if self.reserve[p * NT + ARMY] and sum(self.on_board) > self.on_board[p]:
                    self.phase = WAR
                    return
                step = BUILD
            if step == BUILD:
                masks = self._build_masks(p)
                if any(masks):
                    self.masks = masks
                    self.phase = BUILD
                    return
                step = DISCARD
            if step == DISCARD and self.reserve_total[p] > RESERVE_LIMIT:
                self.phase = DISCARD
                return
            # The end of the turn; a round ends when play comes back to the first player.
            nxt = (p + 1) % self.num_players
            if nxt == self.first:
                self.idle_rounds = 0 if self.built_in_round else self.idle_rounds + 1
                if self.idle_rounds >= self.stall_rounds or self.round >= MAX_ROUNDS:
                    self.phase = OVER
                    return
                self.round += 1
                self.built_in_round = False
            self.player = nxt
            self.draws_left = 2
            self.drawn = ()
            step = DRAW

    def end_words(self) -> str:
        if self.phase != OVER:
            return ""
        if not self.empty:
            return Text(gettext_noop("all 81 plots are built on"))
        if self.idle_rounds >= self.stall_rounds:
            if self.idle_rounds == 1:
                return Text(gettext_noop("nobody built in a whole round"))
            return Text(gettext_noop("nobody built in %(rounds)s full rounds in a row"), rounds=self.idle_rounds)
        return Text(gettext_noop("%(rounds)s rounds were played, the safety limit"), rounds=MAX_ROUNDS)

    def _end_reason(self) -> Text | None:
        """Why the game ended, in words (None while it goes on)."""
        if self.phase != OVER:
            return None
        if not self.empty:
            return Text(gettext_noop("All 81 plots are built on."))
        if self.idle_rounds >= self.stall_rounds:
            if self.idle_rounds == 1:
                return Text(gettext_noop("Nobody built in a whole round."))
            return Text(gettext_noop("Nobody built in %(rounds)s full rounds in a row."), rounds=self.idle_rounds)
        return Text(gettext_noop("%(rounds)s rounds were played, the safety limit."), rounds=MAX_ROUNDS)

    def _totals(self) -> list[int]:
        """Each seat's total, cached until the next action (the searches ask for it at every
        position they judge; the view asks for the breakdown, ``_score``)."""
        if self._scored is None:
            self._scored = self._compute_totals()
        return self._scored

    def structure_masks(self) -> list[int]:
        """Per seat, the plots holding its structures (bit ``i`` for plot ``i``)."""
        n = self.num_players
        kmask = self.kmask
        own = []
        for s in range(n):
            mask = 0
            for t in STRUCTURES:
                mask |= kmask[t * n + s]
            own.append(mask)
        return own

    def _compute_totals(self) -> list[int]:
        """The totals of ``_score`` from the plot masks alone, without the breakdown's text:
        the same rules, counted with bit operations (a test holds the two equal)."""
        n = self.num_players
        kmask = self.kmask
        totals = [0] * n
        own = self.structure_masks()
        control = []
        for terr in range(9):
            tm = TERRITORY_MASKS[terr]
            best = 0
            leader = -1
            for s in range(n):
                c = (own[s] & tm).bit_count()
                if c > best:
                    best, leader = c, s
                elif c == best:
                    leader = -1
                if c >= 5:
                    totals[s] += c
                    # variety: all six types in the territory (six structures at least)
                    if c >= 6 and all(kmask[t * n + s] & tm for t in STRUCTURES):
                        totals[s] += 6
            control.append(leader)
        if control[CENTRE] >= 0:
            totals[control[CENTRE]] += 5
        for group, points in _CONTROL_BONUSES:
            s = control[group[0]]
            if s >= 0 and all(control[t] == s for t in group):
                totals[s] += points
        for t in STRUCTURES:
            best = 0
            leader = -1
            for s in range(n):
                c = kmask[t * n + s].bit_count()
                if c > best:
                    best, leader = c, s
                elif c == best:
                    leader = -1
            if leader >= 0:
                totals[leader] += 3
        bt = self.board_type
        for s in range(n):
            mask = own[s]
            for step, has_next, has_prev in _DIRECTIONS:
                nxt = has_next(mask)
                starts = mask & ~has_prev(mask) & has_next(mask & nxt)  # runs of 3 or more
                while starts:
                    low = starts & -starts
                    starts ^= low
                    p = low.bit_length() - 1
                    length = 1
                    stretch = longest = 1
                    while (nxt >> p) & 1:  # the plot after p is the seat's too
                        p += step
                        length += 1
                        stretch = stretch + 1 if bt[p] == bt[p - step] else 1
                        if stretch > longest:
                            longest = stretch
                    totals[s] += 2 * longest if longest >= 3 and 2 * longest > length else length
        return totals

    def _score(self):
        """(totals, breakdown per seat, controller per territory (-1 none), counts), cached
        until the next action: every seat's view of a position shares one."""
        if self._breakdown is None:
            self._breakdown = self._compute_score()
        return self._breakdown

    def _compute_score(self):
        n = self.num_players
        bt = self.board_type
        bo = self.board_owner
        counts = [[0] * n for _ in range(9)]
        kinds = [[0] * n for _ in range(9)]  # bit set of structure types per territory, seat
        per_type = [[0] * 6 for _ in range(n)]
        for i in range(PLOTS):
            o = bo[i]
            if o >= 0:
                terr = TERRITORY_OF[i]
                counts[terr][o] += 1
                kinds[terr][o] |= 1 << bt[i]
                per_type[o][bt[i]] += 1
        control = []
        for terr in range(9):
            c = counts[terr]
            best = max(c)
            control.append(c.index(best) if best and c.count(best) == 1 else -1)
        lines: list[list[list]] = [[] for _ in range(n)]
        for terr in range(9):
            for s in range(n):
                if counts[terr][s] >= 5:
                    said = Text(
                        gettext_noop("Territory %(number)s: %(count)s structures"),
                        number=terr + 1,
                        count=counts[terr][s],
                    )
                    lines[s].append([said, counts[terr][s]])
        if control[CENTRE] >= 0:
            lines[control[CENTRE]].append([Text(gettext_noop("Centre (territory 5)")), 5])
        for line in TERRITORY_LINES:
            s = control[line[0]]
            if s >= 0 and all(control[t] == s for t in line):
                territories = "-".join(str(t + 1) for t in line)
                lines[s].append([Text(gettext_noop("Territories %(list)s in a row"), list=territories), 9])
        for square in SQUARES:
            s = control[square[0]]
            if s >= 0 and all(control[t] == s for t in square):
                territories = "-".join(str(t + 1) for t in square)
                lines[s].append([Text(gettext_noop("Square of territories %(list)s"), list=territories), 8])
        s = control[CORNERS[0]]
        if s >= 0 and all(control[t] == s for t in CORNERS):
            lines[s].append([Text(gettext_noop("All four corners (1, 3, 7, 9)")), 8])
        for t in STRUCTURES:
            column = [per_type[s][t] for s in range(n)]
            best = max(column)
            if best and column.count(best) == 1:
                said = Text(gettext_noop("Most %(chits)s (%(count)s)"), chits=PLURAL_WORDS[t], count=best)
                lines[column.index(best)].append([said, 3])
        for line in GRID_LINES:
            length = len(line)
            i = 0
            while i < length:
                o = bo[line[i]]
                if o < 0:
                    i += 1
                    continue
                j = i + 1
                while j < length and bo[line[j]] == o:
                    j += 1
                run = j - i
                if run >= 3:
                    lines[o].append(_run_line(line[i:j], bt))
                i = j
        for terr in range(9):
            for s in range(n):
                if kinds[terr][s] == 63:
                    lines[s].append([Text(gettext_noop("Variety in territory %(number)s"), number=terr + 1), 6])
        totals = [sum(points for _, points in lines[s]) for s in range(n)]
        return totals, lines, control, counts


def _run_line(plots: tuple[int, ...], bt: list[int]) -> list:
    """The breakdown line of one maximal run of a player's structures (3 or longer)."""
    length = len(plots)
    best = 1
    best_type = bt[plots[0]]
    stretch = 1
    for k in range(1, length):
        stretch = stretch + 1 if bt[plots[k]] == bt[plots[k - 1]] else 1
        if stretch > best:
            best, best_type = stretch, bt[plots[k]]
    ends = {"start": PLOT_NAMES[plots[0]], "end": PLOT_NAMES[plots[-1]], "length": length}
    if best >= 3 and 2 * best > length:
        if best == length:
            said = gettext_noop("Row %(start)s-%(end)s (%(length)s %(chits)s)")
            return [Text(said, chits=PLURAL_WORDS[best_type], **ends), 2 * best]
        said = gettext_noop("Row %(start)s-%(end)s (%(length)s structures, %(best)s %(chits)s in a row)")
        return [Text(said, best=best, chits=PLURAL_WORDS[best_type], **ends), 2 * best]
    return [Text(gettext_noop("Row %(start)s-%(end)s (%(length)s structures)"), **ends), length]


class ChitTerritoryGame(Game):
    def new_state(self, num_players: int, options: dict | None = None) -> ChitTerritoryState:
        self.check_players(num_players)
        options = self.normalise_options(options, recorded=True)
        stall_rounds = options.get("stall_rounds") or STALL_ROUNDS
        return ChitTerritoryState(self, num_players, options["mountains_rivers"], stall_rounds)

    def action_label(self, action: str) -> str:
        parsed = ACTIONS.get(action) if isinstance(action, str) else None
        if parsed is None:
            return str(action)
        kind, a, b = parsed
        if kind == _FIRST:
            # Seats counted from 1, as on the page.
            return Text(gettext_noop("Seat %(number)s goes first"), number=a + 1)
        if kind == _DRAW:
            return DRAW_LABELS[a]
        if kind == _WAR:
            return Text(gettext_noop("War: remove the structure on %(plot)s"), plot=PLOT_NAMES[a])
        if kind == _PEACE:
            return Text(gettext_noop("Make peace"))
        if kind == _BUILD:
            return Text(BUILD_LABELS[a], plot=PLOT_NAMES[b])
        return DISCARD_LABELS[a]


GAME = ChitTerritoryGame(
    slug="chit-territory",
    name="Territory (chits)",
    min_players=2,
    max_players=4,
    tie_breaks=(Text(gettext_noop("more structures on the board")),),
    summary=gettext_noop(
        "Draw chits from your cup, wage war with armies and build temples, castles and "
        "palaces to control the nine territories of a 9 x 9 map."
    ),
    options=(
        Option(
            name="mountains_rivers",
            label=gettext_noop("Mountains and rivers"),
            default=False,
            help=gettext_noop(
                "Six mountain and six river plots: mines must be built on or next to a "
                "mountain, farms on or next to a river."
            ),
        ),
    ),
    rulings=(
        Option(
            name="stall_rounds",
            label=gettext_noop("Rounds without a build that end the game"),
            default=None,
            help=gettext_noop(
                "Absent: five full rounds in a row (the current rule). 1: the former rule, which "
                "ended the game after a single round in which nobody built."
            ),
            values=lambda num_players: (FORMER_STALL_ROUNDS,),
        ),
    ),
)
