"""Territories: two players, farm houses and fences of trunks (rules: shared/rules/territories.md).

Board geometry, as bit masks with one stride of 9 for both squares and grid points:

* a square (column c 0..7 from the west, row r 0..5 from the north) is bit ``r * 9 + c``;
* a grid point (x 0..8, y 0..6; point (x, y) is the north-west corner of the square in
  column x, row y) is bit ``y * 9 + x``. So square i has corners i, i + 1, i + 9, i + 10.
* an inner edge is either the east side of square i (between i and i + 1, its ends the
  points i + 1 and i + 10) with id i, or the south side of square i (between i and i + 9,
  its ends i + 9 and i + 10) with id 64 + i. All placed trunks form one int ``walls``.

The "don't spoil land" rule needs to know whether an unfinished fence can still be completed
so that both sides keep a farm house. That is a depth-first search over simple paths of
fresh grid points (``_completable``), cut short by a sound test (``_hopeful``): squares that
no future trunk of this fence can separate stay together, so if every farm house of the area
is in one such block, no completion can be good. Results are cached per position.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalAction,
    State,
    Text,
    colour_title,
    gettext_noop,
    listed,
    places_from_keys,
    split_action,
    square_name,
)

WIDTH, HEIGHT = 8, 6
STRIDE = 9
YELLOW, RED = 0, 1
COLOUR_NAMES = ("yellow", "red")
FARM_SPOT_NAMES = ("b2", "d2", "f2", "h2", "a5", "c5", "e5", "g5")
# Colour placing each of the eight farm houses: Yellow 1, Red 2, Yellow 2, Red 2, Yellow 1.
FARM_ORDER = (YELLOW, RED, RED, YELLOW, YELLOW, RED, RED, YELLOW)


def _sq(c: int, r: int) -> int:
    return r * STRIDE + c


SQUARES = [_sq(c, r) for r in range(HEIGHT) for c in range(WIDTH)]  # a1..h1, a2..h2, ...
SQUARE_NAME = {_sq(c, r): square_name(c, r) for r in range(HEIGHT) for c in range(WIDTH)}
SQUARE_BY_NAME = {name: i for i, name in SQUARE_NAME.items()}
ALL_SQUARES = sum(1 << i for i in SQUARES)
BASE_E = sum(1 << _sq(c, r) for r in range(HEIGHT) for c in range(WIDTH - 1))
BASE_S = sum(1 << _sq(c, r) for r in range(HEIGHT - 1) for c in range(WIDTH))
FARM_SPOTS = tuple(SQUARE_BY_NAME[n] for n in FARM_SPOT_NAMES)
SPOT_MASK = sum(1 << i for i in FARM_SPOTS)

ALL_POINTS = sum(1 << (y * STRIDE + x) for y in range(HEIGHT + 1) for x in range(WIDTH + 1))
INNER_POINTS = sum(1 << (y * STRIDE + x) for y in range(1, HEIGHT) for x in range(1, WIDTH))
BORDER_POINTS = ALL_POINTS & ~INNER_POINTS
SOUTH_EDGE = 64


def _point_xy(p: int) -> list[int]:
    return [p % STRIDE, p // STRIDE]


def point_name(p: int) -> Text:
    """A grid point in the board's own terms: the squares that meet there."""
    x, y = _point_xy(p)
    around = [square_name(c, r) for r in (y - 1, y) for c in (x - 1, x) if 0 <= c < WIDTH and 0 <= r < HEIGHT]
    if len(around) == 1:
        return Text(gettext_noop("the outer corner of %(square)s"), square=around[0])
    if len(around) == 2:
        return Text(gettext_noop("the point on the border between %(a)s and %(b)s"), a=around[0], b=around[1])
    return Text(gettext_noop("the corner where %(squares)s meet"), squares=listed(around))


@dataclass(frozen=True)
class _Edge:
    eid: int  # i (east side of square i) or 64 + i (south side of square i)
    name: str  # "b3-c3" or "c3-c4"
    a: int  # the west / north square
    b: int  # the east / south square
    p: int  # its end points
    q: int


def _make_edges() -> list[_Edge]:
    edges = []
    for r in range(HEIGHT):
        for c in range(WIDTH):
            i = _sq(c, r)
            if c < WIDTH - 1:
                edges.append(_Edge(i, f"{SQUARE_NAME[i]}-{SQUARE_NAME[i + 1]}", i, i + 1, i + 1, i + 10))
            if r < HEIGHT - 1:
                edges.append(_Edge(SOUTH_EDGE + i, f"{SQUARE_NAME[i]}-{SQUARE_NAME[i + 9]}", i, i + 9, i + 9, i + 10))
    edges.sort(key=lambda e: e.name)
    return edges


EDGES = _make_edges()
EDGE_BY_ID = {e.eid: e for e in EDGES}
EDGE_BY_NAME = {e.name: e for e in EDGES}
TRUNK_ACTION = {e.eid: "trunk:" + e.name for e in EDGES}
TRUNK_BY_ACTION = {"trunk:" + e.name: e for e in EDGES}

# For every inner grid point: (neighbour point, edge id, square on one side, square on the
# other) in the order east, south, west, north.
NEIGHBOURS: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
NEIGHBOUR_MASK: dict[int, int] = {}
for _y in range(1, HEIGHT):
    for _x in range(1, WIDTH):
        _p = _y * STRIDE + _x
        NEIGHBOURS[_p] = (
            (_p + 1, SOUTH_EDGE + _p - 9, _p - 9, _p),
            (_p + 9, _p - 1, _p - 1, _p),
            (_p - 1, SOUTH_EDGE + _p - 10, _p - 10, _p - 1),
            (_p - 9, _p - 10, _p - 10, _p - 9),
        )
        NEIGHBOUR_MASK[_p] = (1 << (_p + 1)) | (1 << (_p - 1)) | (1 << (_p + 9)) | (1 << (_p - 9))

# The inner edges along the sides of each square.
SIDE_EDGES = {i: tuple(e.eid for e in EDGES if i in (e.a, e.b)) for i in SQUARES}


# ---------------------------------------------------------------------------
# The search behind rule 6.


def _flood(start: int, oe: int, os_: int) -> int:
    """Squares reachable from ``start`` through open east (``oe``) and south (``os_``) sides."""
    region = start
    while True:
        grown = region | ((region & oe) << 1) | ((region >> 1) & oe) | ((region & os_) << 9) | ((region >> 9) & os_)
        if grown == region:
            return region
        region = grown


def _split_is_good(walls: int, s1: int, s2: int, farms: int) -> bool:
    """A completing trunk between squares s1 and s2 (already in ``walls``): does each side
    keep a farm house? Floods both sides at once and stops with the smaller one."""
    oe = BASE_E & ~walls
    os_ = BASE_S & ~(walls >> 64)
    a = 1 << s1
    b = 1 << s2
    while True:
        na = a | ((a & oe) << 1) | ((a >> 1) & oe) | ((a & os_) << 9) | ((a >> 9) & os_)
        if na == a:
            side = a
            break
        nb = b | ((b & oe) << 1) | ((b >> 1) & oe) | ((b & os_) << 9) | ((b >> 9) & os_)
        if nb == b:
            side = b
            break
        a, b = na, nb
    inside = farms & side
    return inside != 0 and inside != farms


def _hopeful(q: int, walls: int, touched: int, farms: int) -> bool:
    """A necessary condition for completing a fence whose open end is ``q``: the fence can
    only grow along edges that touch ``q`` or the fresh points reachable from it; squares
    joined by any other open side end up on the same side, whatever happens."""
    fresh = INNER_POINTS & ~touched
    comp = NEIGHBOUR_MASK[q] & fresh
    if comp:
        while True:
            grown = comp | (((comp << 1) | (comp >> 1) | (comp << 9) | (comp >> 9)) & fresh)
            if grown == comp:
                break
            comp = grown
    x = comp | (1 << q)
    oe = BASE_E & ~walls & ~((x >> 1) | (x >> 10))
    os_ = BASE_S & ~(walls >> 64) & ~((x >> 9) | (x >> 10))
    region = farms & -farms
    while True:
        grown = region | ((region & oe) << 1) | ((region >> 1) & oe) | ((region & os_) << 9) | ((region >> 9) & os_)
        if grown & farms == farms:
            return False
        if grown == region:
            return True
        region = grown


def _completable(p: int, walls: int, touched: int, farms: int, base: tuple[int, int] | None = None) -> bool:
    """Can the fence whose open end is the point ``p`` be completed over free edges so that
    both sides keep a farm house? ``walls`` holds every trunk (the fence too), ``touched``
    every point on the border or on a trunk, ``farms`` the farm squares of the fence's area.
    Exact: a depth-first search over the ways on, pruned only by ``_hopeful``.
    ``base``: (walls, touched) before the fence, when the fence is a single starting trunk."""
    onward = []
    for q, eid, s1, s2 in NEIGHBOURS[p]:
        bit = 1 << eid
        if walls & bit:
            continue
        if touched >> q & 1:
            if _split_is_good(walls | bit, s1, s2, farms):
                if base is not None:
                    _remember_reversed(p, q, bit, base, farms)
                return True
        else:
            onward.append((q, bit))
    for q, bit in onward:
        w2 = walls | bit
        t2 = touched | (1 << q)
        if _hopeful(q, w2, t2, farms) and _completable(q, w2, t2, farms, base):
            # Every fence along a way that works can itself still be completed.
            _remember((q, w2, t2, farms), True)
            return True
    return False


_QUICK_NODES = 16


def _quick(
    p: int, walls: int, touched: int, farms: int, budget: list[int], base: tuple[int, int] | None = None
) -> bool:
    """``_completable`` without pruning, giving up (False) after a few points: a fast way to
    find the common easy completions. False proves nothing."""
    budget[0] -= 1
    if budget[0] < 0:
        return False
    onward = []
    for q, eid, s1, s2 in NEIGHBOURS[p]:
        bit = 1 << eid
        if walls & bit:
            continue
        if touched >> q & 1:
            if _split_is_good(walls | bit, s1, s2, farms):
                if base is not None:
                    _remember_reversed(p, q, bit, base, farms)
                return True
        else:
            onward.append((q, bit))
    for q, bit in onward:
        w2 = walls | bit
        t2 = touched | (1 << q)
        if _quick(q, w2, t2, farms, budget, base):
            _remember((q, w2, t2, farms), True)
            return True
        if budget[0] < 0:
            return False
    return False


_SEARCH_CACHE: dict[tuple[int, int, int, int], bool] = {}
_SEARCH_CACHE_LIMIT = 200_000


def _can_complete(q: int, walls: int, touched: int, farms: int, base: tuple[int, int] | None = None) -> bool:
    """``_completable`` from a fresh open end ``q`` (walls and touched already include the
    trunk that reached it), memoised across positions. ``base``: (walls, touched) before
    that trunk when it starts a fence."""
    key = (q, walls, touched, farms)
    hit = _SEARCH_CACHE.get(key)
    if hit is not None:
        return hit
    # Most fences can be completed along the first ways tried: look for such a way without
    # the (costlier) pruning test first, then run the exact pruned search.
    budget = [_QUICK_NODES]
    result = _quick(q, walls, touched, farms, budget, base) or (
        _hopeful(q, walls, touched, farms) and _completable(q, walls, touched, farms, base)
    )
    _remember(key, result)
    return result


def _remember_reversed(p: int, q: int, bit: int, base: tuple[int, int], farms: int) -> None:
    """A new fence found to close well at ``q`` (touched before the fence began) from its
    last fresh point ``p``: the same trunks laid the other way round form a fence that
    starts with the trunk q-p and closes where this one started, with the same two sides.
    So that start can be completed too."""
    walls, touched = base
    if touched >> q & 1:
        _remember((p, walls | bit, touched | (1 << p), farms), True)


def _remember(key: tuple[int, int, int, int], result: bool) -> None:
    if len(_SEARCH_CACHE) >= _SEARCH_CACHE_LIMIT:
        _SEARCH_CACHE.clear()
    _SEARCH_CACHE[key] = result


# ---------------------------------------------------------------------------
# The game.


@dataclass(frozen=True)
class Territories(Game):
    def new_state(self, num_players: int = 2, options: dict | None = None) -> TerritoriesState:
        self.check_players(num_players)
        self.normalise_options(options)
        return TerritoriesState(self)

    def action_label(self, action: str) -> str:
        if not isinstance(action, str):
            return str(action)
        verb, _, arg = action.partition(":")
        if verb == "first" and arg in ("0", "1"):
            # Seats counted from 1, as on the page.
            return Text(gettext_noop("Seat %(number)s plays Yellow"), number=int(arg) + 1)
        if verb == "farm" and arg in SQUARE_BY_NAME:
            return Text(gettext_noop("Farm house on %(square)s"), square=arg)
        if action in TRUNK_BY_ACTION:
            a, b = arg.split("-")
            return Text(gettext_noop("Trunk between %(a)s and %(b)s"), a=a, b=b)
        return action


class TerritoriesState(State):
    views_alike = True  # every seat sees the whole position, as a spectator does
    text_keys = (*State.text_keys, "open_end_name")
    __slots__ = (
        "game",
        "num_players",
        "history",
        "yellow",
        "farms",
        "nfarms",
        "walls",
        "touched",
        "trunk_points",
        "fence",
        "open_end",
        "areas",
        "colour",
        "over",
        "trunks",
        "_legal",
    )

    def __init__(self, game: Game):
        self.game = game
        self.num_players = 2
        self.history: list[str] = []
        self.yellow = -1  # seat playing Yellow, -1 until drawn
        self.farms = [0, 0]  # farm squares of Yellow and of Red
        self.nfarms = 0
        self.walls = 0  # every trunk placed, as edge bits
        self.touched = BORDER_POINTS  # points on the border or on a trunk
        self.trunk_points = 0  # points on a trunk
        self.fence = 0  # the trunks of the fence under construction
        self.open_end = -1  # its open end, a point, or -1 when no fence is open
        self.areas = [ALL_SQUARES]
        self.colour = YELLOW  # colour to move
        self.over = False
        self.trunks: list[tuple[int, int]] = []  # (edge id, seat) in order of placement
        self._legal: list[str] | None = None

    @classmethod
    def from_position(
        cls,
        *,
        yellow: tuple[str, ...] | list[str],
        red: tuple[str, ...] | list[str],
        trunks: tuple[str, ...] | list[str] = (),
        fence: tuple[str, ...] | list[str] = (),
        to_move: str = "yellow",
        yellow_seat: int = 0,
    ) -> TerritoriesState:
        """Build a trunk-phase position directly, for tests and worked examples.

        ``yellow`` / ``red``: the squares of each colour's farm houses (any squares: the
        position need not be reachable in play). ``trunks``: edge names of the trunks of
        completed surroundings. ``fence``: the trunks of the fence under construction, in the
        order they were placed (its first trunk touches ``trunks`` or the border, its last
        one ends at the open end). ``to_move``: "yellow" or "red". The state's history is
        empty, so it cannot be replayed; everything else behaves as in a played game.
        """
        state = GAME.new_state(2)
        state.yellow = yellow_seat
        for colour, names in ((YELLOW, yellow), (RED, red)):
            for name in names:
                state.farms[colour] |= 1 << SQUARE_BY_NAME[name]
        state.nfarms = 8
        state.colour = YELLOW if to_move == "yellow" else RED
        for name in trunks:
            edge = EDGE_BY_NAME[name]
            state.walls |= 1 << edge.eid
            state.trunk_points |= (1 << edge.p) | (1 << edge.q)
            state.trunks.append((edge.eid, None))
        state.touched = BORDER_POINTS | state.trunk_points
        oe, os_ = BASE_E & ~state.walls, BASE_S & ~(state.walls >> 64)
        areas, rest = [], ALL_SQUARES
        while rest:
            area = _flood(rest & -rest, oe, os_)
            areas.append(area)
            rest &= ~area
        state.areas = areas
        for name in fence:
            edge = EDGE_BY_NAME[name]
            if state.open_end < 0:
                far = edge.q if state.touched >> edge.p & 1 else edge.p
            else:
                far = edge.q if edge.p == state.open_end else edge.p
            state.walls |= 1 << edge.eid
            state.fence |= 1 << edge.eid
            state.touched |= (1 << edge.p) | (1 << edge.q)
            state.trunk_points |= (1 << edge.p) | (1 << edge.q)
            state.trunks.append((edge.eid, None))
            state.open_end = far
        state.over = not any(state._is_mixed(a) for a in state.areas)
        return state

    # -- the contract ----------------------------------------------------------------
    def clone(self) -> TerritoriesState:
        new = object.__new__(TerritoriesState)
        new.game = self.game
        new.num_players = 2
        new.history = self.history.copy()
        new.yellow = self.yellow
        new.farms = self.farms.copy()
        new.nfarms = self.nfarms
        new.walls = self.walls
        new.touched = self.touched
        new.trunk_points = self.trunk_points
        new.fence = self.fence
        new.open_end = self.open_end
        new.areas = self.areas.copy()
        new.colour = self.colour
        new.over = self.over
        new.trunks = self.trunks.copy()
        new._legal = self._legal
        return new

    def seat_of(self, colour: int) -> int:
        return self.yellow if colour == YELLOW else 1 - self.yellow

    def current_player(self) -> int:
        if self.yellow < 0:
            return CHANCE
        if self.over:
            return TERMINAL
        if self.nfarms == 8 and self.open_end < 0 and not self.legal_actions():
            return TERMINAL
        return self.seat_of(self.colour)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.yellow < 0:
            return [("first:0", 0.5), ("first:1", 0.5)]
        return []

    def legal_actions(self) -> list[str]:
        if self._legal is not None:
            return self._legal
        if self.yellow < 0:
            legal = ["first:0", "first:1"]
        elif self.over:
            legal = []
        elif self.nfarms < 8:
            taken = self.farms[0] | self.farms[1]
            legal = [f"farm:{SQUARE_NAME[i]}" for i in FARM_SPOTS if not taken >> i & 1]
        else:
            legal = [TRUNK_ACTION[e.eid] for e in self._legal_trunks()]
        self._legal = legal
        return legal

    def apply(self, action: str) -> None:
        verb, arg = split_action(action)
        if self.yellow < 0:
            if verb != "first" or arg not in ("0", "1"):
                raise IllegalAction(Text(gettext_noop("First draw which seat plays Yellow (first:0 or first:1).")))
            self.yellow = int(arg)
        elif self.over:
            raise IllegalAction(Text(gettext_noop("The game is over.")))
        elif self.nfarms < 8:
            self._apply_farm(verb, arg)
        else:
            self._apply_trunk(action)
        self.history.append(action)
        self._legal = None

    def _apply_farm(self, verb: str, arg: str) -> None:
        if verb != "farm":
            raise IllegalAction(Text(gettext_noop("Place a farm house first (farm:SQUARE).")))
        square = SQUARE_BY_NAME.get(arg)
        if square is None:
            raise IllegalAction(Text(gettext_noop("%(square)s is not a square of the board."), square=repr(arg)))
        if not SPOT_MASK >> square & 1:
            raise IllegalAction(Text(gettext_noop("%(square)s is not a farm-house spot."), square=arg))
        if (self.farms[0] | self.farms[1]) >> square & 1:
            raise IllegalAction(Text(gettext_noop("%(square)s already has a farm house."), square=arg))
        self.farms[self.colour] |= 1 << square
        self.nfarms += 1
        self.colour = FARM_ORDER[self.nfarms] if self.nfarms < 8 else YELLOW

    def _apply_trunk(self, action: str) -> None:
        edge = TRUNK_BY_ACTION.get(action)
        if edge is None:
            if action.startswith("trunk:"):
                raise IllegalAction(
                    Text(
                        gettext_noop("%(edge)s is not an edge between two squares (write it like b3-c3)."),
                        edge=repr(action[6:]),
                    )
                )
            raise IllegalAction(Text(gettext_noop("Place a trunk (trunk:EDGE).")))
        if self._legal is not None:
            if action not in self._legal:
                raise IllegalAction(self._why_not(edge))
        elif not self._trunk_is_legal(edge):
            raise IllegalAction(self._why_not(edge))
        self._place(edge)

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def scores(self) -> list[int]:
        points = [0, 0]
        if self.nfarms < 8:
            return points
        for colour, land, _ in self._decided_areas():
            points[self.seat_of(colour)] += land
        return points

    def ranking(self) -> list[int]:
        return places_from_keys([(s,) for s in self.scores()])

    def end_words(self) -> str:
        if self.current_player() != TERMINAL:
            return ""
        if not self.over:
            return Text(gettext_noop("no legal trunk is left"))
        return Text(gettext_noop("every farm house is fenced off from the other colour"))

    def prompt(self) -> str:
        player = self.current_player()
        if player == CHANCE:
            return Text(gettext_noop("Draw which seat plays Yellow."))
        if player == TERMINAL:
            if not self.over:
                return Text(gettext_noop("Game over: no legal trunk is left."))
            return Text(gettext_noop("Game over: every farm house is fenced off from the other colour."))
        return self._headline(True)

    def prompt_others(self) -> str:
        if self.current_player() < 0:
            return self.prompt()
        return self._headline(False)

    def _headline(self, mover: bool) -> str:
        """What the colour to move does now: an order to it (``mover``) or a report about it."""
        name = colour_title(COLOUR_NAMES[self.colour])
        if self.nfarms < 8:
            left = 1
            while self.nfarms + left < 8 and FARM_ORDER[self.nfarms + left] == self.colour:
                left += 1
            if mover:
                said = gettext_noop("%(colour)s: place a farm house on a free spot (%(left)s to place).")
            else:
                said = gettext_noop("%(colour)s places a farm house on a free spot (%(left)s to place).")
            return Text(said, colour=name, left=left)
        if self.open_end >= 0:
            if mover:
                said = gettext_noop("%(colour)s: continue the fence from its open end, %(point)s.")
            else:
                said = gettext_noop("%(colour)s continues the fence from its open end, %(point)s.")
            return Text(said, colour=name, point=point_name(self.open_end))
        if not self.trunks:
            if mover:
                return Text(gettext_noop("%(colour)s: place the first trunk against the border."), colour=name)
            return Text(gettext_noop("%(colour)s places the first trunk against the border."), colour=name)
        if mover:
            return Text(gettext_noop("%(colour)s: start a new fence touching a placed trunk."), colour=name)
        return Text(gettext_noop("%(colour)s starts a new fence touching a placed trunk."), colour=name)

    def view(self, seat: int | None) -> dict:
        view = self.common_view()
        farm_owner = {}
        for colour in (YELLOW, RED):
            for i in SQUARES:
                if self.farms[colour] >> i & 1:
                    farm_owner[i] = colour
        area_of = {}
        for index, area in enumerate(self.areas):
            for i in SQUARES:
                if area >> i & 1:
                    area_of[i] = index
        view["squares"] = [
            {
                "square": SQUARE_NAME[i],
                "col": i % STRIDE,
                "row": i // STRIDE,
                "farm": COLOUR_NAMES[farm_owner[i]] if i in farm_owner else None,
                "spot": bool(SPOT_MASK >> i & 1),
                "area": area_of[i],
            }
            for i in SQUARES
        ]
        farm_houses = [
            {
                "square": SQUARE_NAME[i],
                "colour": COLOUR_NAMES[colour],
                "seat": self.seat_of(colour) if self.yellow >= 0 else None,
            }
            for i, colour in farm_owner.items()
        ]
        view["farm_houses"] = farm_houses
        view["farm_spots"] = list(FARM_SPOT_NAMES)
        view["trunks"] = [
            {
                "edge": EDGE_BY_ID[eid].name,
                "from": _point_xy(EDGE_BY_ID[eid].p),
                "to": _point_xy(EDGE_BY_ID[eid].q),
                "seat": by,
                "open_fence": bool(self.fence >> eid & 1),
            }
            for eid, by in self.trunks
        ]
        view["open_end"] = _point_xy(self.open_end) if self.open_end >= 0 else None
        view["open_end_name"] = point_name(self.open_end) if self.open_end >= 0 else None
        trunk_phase = self.nfarms == 8
        areas = []
        for area in self.areas:
            yellow = bin(area & self.farms[YELLOW]).count("1")
            red = bin(area & self.farms[RED]).count("1")
            owner = None
            if trunk_phase and bool(yellow) != bool(red):  # no farm house: nobody's land
                owner = YELLOW if yellow else RED
            areas.append(
                {
                    "squares": [SQUARE_NAME[i] for i in SQUARES if area >> i & 1],
                    "farms": {"yellow": yellow, "red": red},
                    "land": bin(area & ~(self.farms[0] | self.farms[1])).count("1"),
                    "owner": COLOUR_NAMES[owner] if owner is not None else None,
                    "owner_seat": self.seat_of(owner) if owner is not None else None,
                }
            )
        view["areas"] = areas
        if self.yellow >= 0:
            view["colours"] = {"yellow": self.yellow, "red": 1 - self.yellow}
            view["seat_colours"] = [COLOUR_NAMES[YELLOW if s == self.yellow else RED] for s in (0, 1)]
        else:
            view["colours"] = None
            view["seat_colours"] = None
        player = view["current_player"]
        view["to_move_colour"] = COLOUR_NAMES[self.colour] if player is not None else None
        if player is None:
            view["phase"] = "chance" if view["chance"] else "over"
        else:
            view["phase"] = "farms" if not trunk_phase else "trunks"
        view["legal"] = list(self.legal_actions()) if player is not None else []
        view["last_chance"] = {"action": self.history[0], "yellow_seat": self.yellow} if self.history else None
        breakdown: list[list] = [[], []]
        if trunk_phase:
            for colour, land, area in self._decided_areas():
                houses = " ".join(SQUARE_NAME[i] for i in SQUARES if (area & self.farms[colour]) >> i & 1)
                breakdown[self.seat_of(colour)].append(
                    [Text(gettext_noop("Area of the farm houses %(squares)s"), squares=houses), land]
                )
        view["score_breakdown"] = breakdown
        view["board"] = {
            "columns": WIDTH,
            "rows": HEIGHT,
            "points": "grid point [x, y]: x 0..8 from the west edge, y 0..6 from the north "
            "edge; [x, y] is the north-west corner of the square in column x, row y (a1 is "
            "column 0, row 0)",
        }
        return view

    # -- rules -----------------------------------------------------------------------
    def _decided_areas(self) -> list[tuple[int, int, int]]:
        """(colour, land squares, area mask) of every area holding farm houses of one colour.
        An area with farm houses of both colours, or with none, is nobody's."""
        result = []
        all_farms = self.farms[0] | self.farms[1]
        for area in self.areas:
            yellow = area & self.farms[YELLOW]
            red = area & self.farms[RED]
            if bool(yellow) == bool(red):
                continue
            colour = YELLOW if yellow else RED
            result.append((colour, bin(area & ~all_farms).count("1"), area))
        return result

    def _area_of(self, square: int) -> int:
        for area in self.areas:
            if area >> square & 1:
                return area
        raise AssertionError("every square lies in an area")

    def _is_mixed(self, area: int) -> bool:
        return bool(area & self.farms[0]) and bool(area & self.farms[1])

    def _far_end(self, edge: _Edge) -> int:
        """The end of a trunk away from the fence it continues or the trunk it starts from."""
        if self.open_end >= 0:
            return edge.q if edge.p == self.open_end else edge.p
        return edge.q if self.touched >> edge.p & 1 else edge.p

    def _rule6(self, edge: _Edge, farms: int) -> bool:
        """Don't spoil land, for a trunk that the fence rules allow; ``farms``: the farm
        squares of its area."""
        walls = self.walls | (1 << edge.eid)
        far = self._far_end(edge)
        if self.touched >> far & 1:  # completes a surrounding
            return _split_is_good(walls, edge.a, edge.b, farms)
        return _can_complete(far, walls, self.touched | (1 << far), farms)

    def _mixed_areas(self) -> list[tuple[int, int]]:
        """(area, its farm squares) for every area with farm houses of both colours."""
        yellow, red = self.farms
        return [(a, a & (yellow | red)) for a in self.areas if a & yellow and a & red]

    def _start_candidates(self) -> list[tuple[_Edge, int]]:
        """Edges that may start a fence by where they lie (rule 5: touching; rule 6: in a
        mixed area), each with the farm squares of its area."""
        anchors = self.trunk_points if self.trunks else BORDER_POINTS
        mixed = self._mixed_areas()
        walls = self.walls
        result = []
        for area, farms in mixed:
            for e in EDGES:
                if area >> e.a & 1 and (anchors >> e.p & 1 or anchors >> e.q & 1) and not walls >> e.eid & 1:
                    result.append((e, farms))
        if len(mixed) > 1:
            result.sort(key=lambda pair: pair[0].name)
        return result

    def _opponent_sides(self) -> int:
        """Edge bits along the sides of the squares holding the opponent's farm houses."""
        mask = 0
        opponent = self.farms[1 - self.colour]
        for i in FARM_SPOTS:
            if opponent >> i & 1:
                for eid in SIDE_EDGES[i]:
                    mask |= 1 << eid
        return mask

    def _legal_trunks(self) -> list[_Edge]:
        walls = self.walls
        touched = self.touched
        if self.open_end >= 0:
            p = self.open_end
            farms = self._farms_in(self._area_of(EDGE_BY_ID[self._fence_edge()].a))
            result = []
            for q, eid, s1, s2 in NEIGHBOURS[p]:
                bit = 1 << eid
                if walls & bit:
                    continue
                if touched >> q & 1:
                    ok = _split_is_good(walls | bit, s1, s2, farms)
                else:
                    ok = _can_complete(q, walls | bit, touched | (1 << q), farms)
                if ok:
                    result.append(EDGE_BY_ID[eid])
            result.sort(key=lambda e: e.name)
            return result
        legal = []
        base = (walls, touched)
        for edge, farms in self._start_candidates():
            bit = 1 << edge.eid
            if touched >> edge.p & 1:
                if touched >> edge.q & 1:
                    ok = _split_is_good(walls | bit, edge.a, edge.b, farms)
                else:
                    ok = _can_complete(edge.q, walls | bit, touched | (1 << edge.q), farms, base)
            else:
                ok = _can_complete(edge.p, walls | bit, touched | (1 << edge.p), farms, base)
            if ok:
                legal.append(edge)
        sides = self._opponent_sides()
        preferred = [e for e in legal if not sides >> e.eid & 1]
        return preferred or legal

    def _trunk_is_legal(self, edge: _Edge) -> bool:
        """The exact check for one trunk, cheaper than listing every legal trunk."""
        if self.walls >> edge.eid & 1:
            return False
        if self.open_end >= 0:
            if self.open_end not in (edge.p, edge.q):
                return False
            return self._rule6(edge, self._farms_in(self._area_of(edge.a)))
        candidates = self._start_candidates()
        farms = next((f for e, f in candidates if e is edge), None)
        if farms is None or not self._rule6(edge, farms):
            return False
        sides = self._opponent_sides()
        if not sides >> edge.eid & 1:
            return True
        # A side of an opponent's farm house: only when no other start is legal.
        return not any(not sides >> e.eid & 1 and self._rule6(e, f) for e, f in candidates)

    def _why_not(self, edge: _Edge) -> Text:
        name = edge.name
        if self.walls >> edge.eid & 1:
            return Text(gettext_noop("A trunk already lies on %(edge)s."), edge=name)
        spoils = Text(
            gettext_noop("A trunk on %(edge)s would spoil land: the fence could not separate farm houses."), edge=name
        )
        if self.open_end >= 0:
            if self.open_end not in (edge.p, edge.q):
                return Text(
                    gettext_noop("The fence must be continued from its open end, %(point)s."),
                    point=point_name(self.open_end),
                )
            return spoils
        if not self._is_mixed(self._area_of(edge.a)):
            return Text(gettext_noop("%(edge)s lies in an area whose farm houses are all of one colour."), edge=name)
        if not self.trunks:
            if not (BORDER_POINTS >> edge.p & 1 or BORDER_POINTS >> edge.q & 1):
                return Text(gettext_noop("The first trunk must touch the border."))
        elif not (self.trunk_points >> edge.p & 1 or self.trunk_points >> edge.q & 1):
            return Text(gettext_noop("A new fence must start against a trunk already placed."))
        if not self._rule6(edge, self._farms_in(self._area_of(edge.a))):
            return spoils
        return Text(
            gettext_noop("%(edge)s is a side of an opponent's farm house; start the fence elsewhere."), edge=name
        )

    def _farms_in(self, area: int) -> int:
        return area & (self.farms[0] | self.farms[1])

    def _fence_edge(self) -> int:
        fence = self.fence
        return (fence & -fence).bit_length() - 1

    def _place(self, edge: _Edge) -> None:
        """Put a trunk known to be legal and update the fence, the areas and the turn."""
        bit = 1 << edge.eid
        far = self._far_end(edge)
        completes = bool(self.touched >> far & 1)
        self.walls |= bit
        self.touched |= (1 << edge.p) | (1 << edge.q)
        self.trunk_points |= (1 << edge.p) | (1 << edge.q)
        self.trunks.append((edge.eid, self.seat_of(self.colour)))
        if not completes:
            self.fence |= bit
            self.open_end = far
            self.colour = 1 - self.colour
            return
        # Rule 4: the area splits, the same player starts a new fence.
        self.fence = 0
        self.open_end = -1
        area = self._area_of(edge.a)
        side = _flood(1 << edge.a, BASE_E & ~self.walls, BASE_S & ~(self.walls >> 64))
        self.areas.remove(area)
        self.areas.append(side)
        self.areas.append(area & ~side)
        self.areas.sort(key=lambda m: m & -m)
        if not any(self._is_mixed(a) for a in self.areas):
            self.over = True


GAME = Territories(
    slug="territories",
    name="Territories",
    min_players=2,
    max_players=2,
    summary=gettext_noop("Fence off the most land around your farm houses, one trunk at a time."),
)
