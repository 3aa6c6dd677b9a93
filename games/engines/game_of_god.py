"""Game of God: stacking pieces race into the opponents' goal areas; a d6 settles challenges.

Rules: shared/rules/game-of-god.md (our page: games/rules/game-of-god.md).

The board is 8 x 8, squares ``a1`` (north-west) to ``h8`` (south-east), indexed
``row * 8 + column``. A stack is a tuple of seats from bottom to top. Three flat lists carry
the position: ``board`` (the stacks), ``top`` (seat of the top piece, -1 when empty) and
``owner`` (the seat when every piece of the stack is that seat's, -1 when empty, ``MIXED``
when a piece is trapped). The goal areas never change, so for each seat the rays a piece may
travel along are precomputed once, already cut where the seat's own goal area begins and
right after the first square of an opponent's goal area; a move is then legal exactly when
the squares before its target are empty and the target is empty or a pure stack of the mover.

The option ``pieces`` (pieces per player; ``None``, the default and what an old record means,
is the standard 14 or 10) changes only the set-up: the pieces stand in pairs on the own goal
area, and the chooser names every goal square left empty, one ``vacant:X`` at a time.

Actions: ``chooser:S`` ``vacant:X`` ``first:S`` (set-up), ``move:FROM-TO``,
``challenge:SQUARE`` / ``pass``, ``dice:A,B`` (A = challenger's d6, B = defender's), and the
defender's ``trap`` / ``spare``.
"""

from __future__ import annotations

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
)

SIZE = 8
SQUARES = SIZE * SIZE
MOVE_LIMIT = 400
MIXED = 9  # ``owner`` of a stack holding pieces of two seats
EMPTY = ()

SIDE_NAMES = ("North", "East", "South", "West")
SIDE_COLOURS = ("blue", "green", "orange", "pink")  # as the board draws each side
# The sides' names in sentences (the views keep SIDE_NAMES, which the board reads).
SIDE_WORDS = (
    Text(gettext_noop("North")),
    Text(gettext_noop("East")),
    Text(gettext_noop("South")),
    Text(gettext_noop("West")),
)
# A line of each side's score breakdown, by the side whose goal area it counts.
PIECES_IN_GOAL = tuple(Text(gettext_noop("Pieces in %(side)s's goal area"), side=side) for side in SIDE_WORDS)
# Direction d heads towards edge d: 0 north (row - 1), 1 east, 2 south, 3 west.
DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))

# Steps of the game.
CHOOSER, VACANT, FIRST, MOVE, CHALLENGE, DICE, DEFENDER, OVER = range(8)
STEP_NAMES = ("chooser", "vacant", "first", "move", "challenge", "dice", "defender", "over")
CHANCE_STEPS = (CHOOSER, FIRST, DICE)

SQUARE_NAMES = [f"{'abcdefgh'[i % SIZE]}{i // SIZE + 1}" for i in range(SQUARES)]
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def _ray(square: int, direction: int) -> list[int]:
    col, row = square % SIZE, square // SIZE
    dc, dr = DELTAS[direction]
    out = []
    col += dc
    row += dr
    while 0 <= col < SIZE and 0 <= row < SIZE:
        out.append(row * SIZE + col)
        col += dc
        row += dr
    return out


RAYS = [[_ray(sq, d) for d in range(4)] for sq in range(SQUARES)]
NEIGHBOURS = [[ray[0] for ray in RAYS[sq] if ray] for sq in range(SQUARES)]
MOVE_NAMES = [[f"move:{SQUARE_NAMES[f]}-{SQUARE_NAMES[t]}" for t in range(SQUARES)] for f in range(SQUARES)]
# "move:b1-b5" -> (from, to, direction, distance) for every orthogonal pair of squares.
MOVES = {MOVE_NAMES[f][t]: (f, t, d, k + 1) for f in range(SQUARES) for d in range(4) for k, t in enumerate(RAYS[f][d])}
DICE_ACTIONS = [f"dice:{a},{b}" for a in range(1, 7) for b in range(1, 7)]
DICE_VALUES = {f"dice:{a},{b}": (a, b) for a in range(1, 7) for b in range(1, 7)}
DICE_OUTCOMES = [(action, 1 / 36) for action in DICE_ACTIONS]
CHALLENGE_NAMES = [f"challenge:{name}" for name in SQUARE_NAMES]
CHALLENGE_INDEX = {name: i for i, name in enumerate(CHALLENGE_NAMES)}


class _Layout:
    """Everything about seats and goal areas that depends only on the number of players."""

    __slots__ = (
        "chooser_actions",
        "chooser_outcomes",
        "first_actions",
        "first_outcomes",
        "forward",
        "goal_owner",
        "goal_squares",
        "num_players",
        "ray_by_dir",
        "rays",
        "sides",
        "vacant_options",
    )

    def __init__(self, num_players: int):
        self.num_players = num_players
        self.sides = (0, 2) if num_players == 2 else (0, 1, 2, 3)
        goal_owner = [-1] * SQUARES
        goal_squares = []
        span = range(SIZE) if num_players == 2 else range(1, SIZE - 1)
        for seat, side in enumerate(self.sides):
            squares = [_edge_square(side, i) for i in span]
            for sq in squares:
                goal_owner[sq] = seat
            goal_squares.append(squares)
        self.goal_owner = goal_owner
        self.goal_squares = goal_squares
        self.forward = [(side + 2) % 4 for side in self.sides]
        # rays[seat][square]: the rays a piece of ``seat`` on ``square`` may travel, each a
        # list of (target, action) cut before the seat's own goal area and after the first
        # square of an opponent's goal area. ray_by_dir[seat][square][d]: the same by direction
        # (None where the piece may not go that way).
        self.rays = []
        self.ray_by_dir = []
        for seat in range(num_players):
            per_square = []
            per_square_dir = []
            for f in range(SQUARES):
                home = goal_owner[f]
                if home == -1:
                    allowed = (0, 1, 2, 3)
                elif home == seat:
                    allowed = (self.forward[seat],)
                else:
                    allowed = ()  # frozen in an opponent's goal area
                by_dir: list = [None] * 4
                rays = []
                for d in allowed:
                    ray = []
                    for t in RAYS[f][d]:
                        g = goal_owner[t]
                        if g == seat:
                            break
                        ray.append((t, MOVE_NAMES[f][t]))
                        if g != -1:
                            break
                    by_dir[d] = ray
                    if ray:
                        rays.append(ray)
                per_square.append(rays)
                per_square_dir.append(by_dir)
            self.rays.append(per_square)
            self.ray_by_dir.append(per_square_dir)
        # vacant_options[seat]: the vacant:X choices of that seat, action -> coordinate label.
        self.vacant_options = []
        for side in self.sides:
            if side in (0, 2):
                labels = "abcdefgh" if num_players == 2 else "bcdefg"
            else:
                labels = "234567"
            self.vacant_options.append([f"vacant:{x}" for x in labels])
        self.chooser_actions = [f"chooser:{s}" for s in range(num_players)]
        self.chooser_outcomes = [(a, 1 / num_players) for a in self.chooser_actions]
        self.first_actions = [f"first:{s}" for s in range(num_players)]
        self.first_outcomes = [(a, 1 / num_players) for a in self.first_actions]

    def vacant_square(self, seat: int, label: str) -> int:
        """The goal square of ``seat`` named by a vacant:X coordinate (column letter or row)."""
        side = self.sides[seat]
        index = "abcdefgh".index(label) if side in (0, 2) else int(label) - 1
        return _edge_square(side, index)


def _vacant_words(label: str) -> Text:
    """The goal square a ``vacant:`` label names, in words: "column c" or "row 3"."""
    if label.isalpha():
        return Text(gettext_noop("column %(label)s"), label=label)
    return Text(gettext_noop("row %(label)s"), label=label)


def _edge_square(side: int, index: int) -> int:
    """Square number ``index`` (0-7, west to east or north to south) along edge ``side``."""
    if side == 0:
        return index
    if side == 2:
        return (SIZE - 1) * SIZE + index
    if side == 1:
        return index * SIZE + SIZE - 1
    return index * SIZE


_LAYOUTS = {n: _Layout(n) for n in (2, 4)}
# The standard game: 14 pieces each for two players (7 pairs on 8 goal squares), 10 each for
# four (5 pairs on 6).
STANDARD_PIECES = {2: 14, 4: 10}


def pieces_choices(num_players: int) -> tuple[int, ...]:
    """The numbers of pieces per player the ``pieces`` option allows: the pieces stand in
    pairs on the own goal area, one pair to a square at most, so an even number from one pair
    up to a pair on every goal square (16 for two players, 12 for four)."""
    layout = _LAYOUTS.get(num_players)
    if layout is None:
        return ()
    return tuple(range(2, 2 * len(layout.goal_squares[0]) + 1, 2))


class GameOfGodState(State):
    views_alike = True  # every seat sees the whole position, as a spectator does
    __slots__ = (
        "_legal",
        "board",
        "chooser",
        "choosers_done",
        "defender",
        "end_reason",
        "game",
        "history",
        "in_goal",
        "last_dice",
        "last_move",
        "layout",
        "moved_square",
        "moves_played",
        "num_players",
        "owner",
        "pieces",
        "step",
        "target",
        "top",
        "total",
        "turn",
        "vacancies",
        "vacant",
        "winner",
    )

    def __init__(self, game: Game, num_players: int, pieces: int | None = None):
        self.game = game
        self.num_players = num_players
        self.history = []
        self.layout = _LAYOUTS[num_players]
        self.board = [EMPTY] * SQUARES
        self.top = [-1] * SQUARES
        self.owner = [-1] * SQUARES
        self.step = CHOOSER
        self.turn = -1  # the seat whose turn (set-up choice, move or challenge) it is
        self.defender = -1  # the seat choosing trap or spare
        self.chooser = -1
        self.choosers_done = 0
        # Pieces per player, and the squares of each goal area left empty at set-up.
        self.pieces = pieces if pieces is not None else STANDARD_PIECES[num_players]
        self.vacancies = len(self.layout.goal_squares[0]) - self.pieces // 2
        self.vacant: list[tuple[str, ...]] = [()] * num_players  # the labels named so far
        self.moves_played = 0
        self.in_goal = [0] * num_players
        self.total = [self.pieces] * num_players
        self.winner = -1
        self.end_reason = ""
        self.moved_square = -1  # the square of the moved piece while a challenge may follow
        self.target = -1  # the challenged square while the dice roll
        self.last_dice: dict | None = None
        self.last_move: tuple[int, int] | None = None
        self._legal: list[str] | None = None
        if self.vacancies == 0:  # a pair on every goal square: nothing to choose
            for seat in range(num_players):
                self._lay_pairs(seat)
            self.step = FIRST

    # -- test helper -----------------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        num_players: int,
        stacks: dict[str, list[int]],
        to_move: int,
        moves_played: int = 0,
        pieces: list[int] | None = None,
    ) -> GameOfGodState:
        """A position at the move step, for tests and worked examples (its history is empty,
        so it cannot be replayed).

        ``stacks`` maps square names to the seats of its pieces from bottom to top, e.g.
        ``{"d4": [0], "d5": [1, 0]}`` (seat 0 on top of a trapped piece of seat 1).
        ``to_move`` is the seat to move, ``moves_played`` how many ``move:`` actions count as
        already played, ``pieces`` each seat's number of pieces for the win (default: the
        pieces it has in ``stacks``). If ``to_move`` has no legal move, the game is over.
        """
        state = cls(GAME, num_players)
        state.step = MOVE
        state.turn = to_move
        state.moves_played = moves_played
        counts = [0] * num_players
        goal_owner = state.layout.goal_owner
        for name, seats in stacks.items():
            sq = SQUARE_INDEX[name]
            stack = tuple(seats)
            if not stack:
                continue
            for seat in stack:
                if not 0 <= seat < num_players:
                    raise ValueError(f"{seat!r} is not a seat.")
                counts[seat] += 1
                if goal_owner[sq] not in (-1, seat):
                    state.in_goal[seat] += 1
            state.board[sq] = stack
            state.top[sq] = stack[-1]
            state.owner[sq] = stack[0] if all(s == stack[0] for s in stack) else MIXED
        state.total = list(pieces) if pieces is not None else counts
        state._start_turn(to_move)
        return state

    # -- contract --------------------------------------------------------------------------

    def current_player(self) -> int:
        step = self.step
        if step == MOVE or step == CHALLENGE or step == VACANT:
            return self.turn
        if step == DEFENDER:
            return self.defender
        if step == OVER:
            return TERMINAL
        return CHANCE

    def is_terminal(self) -> bool:
        return self.step == OVER

    def legal_actions(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> list[str]:
        step = self.step
        if step == MOVE:
            return self._moves(self.turn)
        if step == DICE:
            return list(DICE_ACTIONS)
        if step == CHALLENGE:
            return [CHALLENGE_NAMES[t] for t in self._targets(self.moved_square)] + ["pass"]
        if step == DEFENDER:
            return ["trap", "spare"]
        if step == CHOOSER:
            return list(self.layout.chooser_actions)
        if step == FIRST:
            return list(self.layout.first_actions)
        if step == VACANT:
            named = self.vacant[self.turn]
            return [a for a in self.layout.vacant_options[self.turn] if a[7:] not in named]
        return []

    def chance_outcomes(self) -> list[tuple[str, float]]:
        step = self.step
        if step == DICE:
            return list(DICE_OUTCOMES)
        if step == CHOOSER:
            return list(self.layout.chooser_outcomes)
        if step == FIRST:
            return list(self.layout.first_outcomes)
        return []

    def _moves(self, seat: int) -> list[str]:
        out = []
        owner = self.owner
        top = self.top
        rays = self.layout.rays[seat]
        for f in range(SQUARES):
            if top[f] == seat:
                for ray in rays[f]:
                    for t, name in ray:
                        o = owner[t]
                        if o == -1:
                            out.append(name)
                        else:
                            if o == seat:
                                out.append(name)
                            break
        return out

    def _has_move(self, seat: int) -> bool:
        owner = self.owner
        top = self.top
        rays = self.layout.rays[seat]
        for f in range(SQUARES):
            if top[f] == seat:
                for ray in rays[f]:
                    o = owner[ray[0][0]]
                    if o == -1 or o == seat:
                        return True
        return False

    def _targets(self, square: int) -> list[int]:
        """Squares the lone piece on ``square`` may challenge (none if it is not lone or is in
        a goal area)."""
        board = self.board
        goal_owner = self.layout.goal_owner
        if len(board[square]) != 1 or goal_owner[square] != -1:
            return []
        seat = board[square][0]
        owner = self.owner
        return [
            n
            for n in NEIGHBOURS[square]
            if goal_owner[n] == -1 and owner[n] != -1 and owner[n] != seat and len(board[n]) == 1
        ]

    def apply(self, action: str) -> None:
        if not isinstance(action, str):
            raise IllegalAction(Text(gettext_noop("%(action)s is not an action."), action=repr(action)))
        step = self.step
        if step == MOVE:
            move = MOVES.get(action)
            if move is None:
                raise IllegalAction(self._wrong_kind(action, Text(gettext_noop("a move such as move:b1-b4"))))
            f, t, d, distance = move
            seat = self.turn
            ray = self.layout.ray_by_dir[seat][f][d] if self.top[f] == seat else None
            if ray is None or len(ray) < distance:
                raise IllegalAction(self._why_not(seat, f, t, d))
            owner = self.owner
            for k in range(distance - 1):
                if owner[ray[k][0]] != -1:
                    raise IllegalAction(self._why_not(seat, f, t, d))
            o = owner[t]
            if o != -1 and o != seat:
                raise IllegalAction(self._why_not(seat, f, t, d))
            self.history.append(action)
            self._legal = None
            self._move(seat, f, t)
        elif step == DICE:
            rolls = DICE_VALUES.get(action)
            if rolls is None:
                raise IllegalAction(self._wrong_kind(action, Text(gettext_noop("a roll of two dice such as dice:3,5"))))
            self.history.append(action)
            self._legal = None
            self._resolve(*rolls)
        elif step == CHALLENGE:
            if action == "pass":
                self.history.append(action)
                self._legal = None
                self._end_turn()
                return
            target = CHALLENGE_INDEX.get(action, -1)
            if target < 0:
                raise IllegalAction(self._wrong_kind(action, Text(gettext_noop("challenge:SQUARE or pass"))))
            if target not in self._targets(self.moved_square):
                raise IllegalAction(
                    Text(
                        gettext_noop(
                            "The piece on %(square)s cannot challenge %(target)s: only a lone opponent's "
                            "piece right next to it, outside every goal area, can be challenged."
                        ),
                        square=SQUARE_NAMES[self.moved_square],
                        target=SQUARE_NAMES[target],
                    )
                )
            self.history.append(action)
            self._legal = None
            self.target = target
            self.step = DICE
        elif step == DEFENDER:
            if action != "trap" and action != "spare":
                raise IllegalAction(self._wrong_kind(action, Text(gettext_noop("trap or spare"))))
            self.history.append(action)
            self._legal = None
            if action == "trap":
                mine = self.target
                theirs = self.moved_square
                self._put_on(mine, theirs, self.defender)
            self._end_turn()
        elif step == CHOOSER or step == FIRST:
            actions = self.layout.chooser_actions if step == CHOOSER else self.layout.first_actions
            if action not in actions:
                raise IllegalAction(
                    self._wrong_kind(action, Text(gettext_noop("one of %(actions)s"), actions=", ".join(actions)))
                )
            seat = int(action.partition(":")[2])
            self.history.append(action)
            self._legal = None
            if step == CHOOSER:
                self.chooser = seat
                self.turn = seat
                self.step = VACANT
            else:
                self._start_turn(seat)
        elif step == VACANT:
            options = self.layout.vacant_options[self.turn]
            if action not in options:
                raise IllegalAction(
                    self._wrong_kind(action, Text(gettext_noop("one of %(actions)s"), actions=", ".join(options)))
                )
            if action[7:] in self.vacant[self.turn]:
                raise IllegalAction(
                    Text(gettext_noop("You already leave %(square)s empty."), square=_vacant_words(action[7:]))
                )
            self.history.append(action)
            self._legal = None
            self._choose_vacant(self.turn, action.partition(":")[2])
        else:
            raise IllegalAction(Text(gettext_noop("The game is over.")))

    # -- what actions do -------------------------------------------------------------------

    def _choose_vacant(self, seat: int, label: str) -> None:
        n = self.num_players
        mirror = (seat + n // 2) % n  # the seat opposite
        for s in (seat, mirror):
            self.vacant[s] = self.vacant[s] + (label,)
        if len(self.vacant[seat]) < self.vacancies:
            return  # the chooser names the next square
        self._lay_pairs(seat)
        self._lay_pairs(mirror)
        self.choosers_done += 1
        if n == 4 and self.choosers_done == 1:
            self.turn = (seat + 1) % n  # the next seat clockwise chooses for its pair
        else:
            self.turn = -1
            self.step = FIRST

    def _lay_pairs(self, seat: int) -> None:
        """A pair of ``seat``'s pieces on every square of its goal area not left empty."""
        layout = self.layout
        empty = {layout.vacant_square(seat, label) for label in self.vacant[seat]}
        for sq in layout.goal_squares[seat]:
            if sq not in empty:
                self.board[sq] = (seat, seat)
                self.top[sq] = seat
                self.owner[sq] = seat

    def _move(self, seat: int, f: int, t: int) -> None:
        board = self.board
        rest = board[f][:-1]
        board[f] = rest
        if rest:
            self.top[f] = rest[-1]
            if self.owner[f] == MIXED:  # the trapper leaves: the trapped piece is free
                self.owner[f] = rest[-1]
        else:
            self.top[f] = -1
            self.owner[f] = -1
        board[t] = board[t] + (seat,)
        self.top[t] = seat
        self.owner[t] = seat
        self.moves_played += 1
        self.last_move = (f, t)
        home = self.layout.goal_owner[t]
        if home != -1 and home != seat:
            self.in_goal[seat] += 1
            if self.in_goal[seat] >= self.total[seat]:
                self.winner = seat
                self.end_reason = "win"
                self.step = OVER
                return
        if self.moves_played >= MOVE_LIMIT:
            self.end_reason = "move limit"
            self.step = OVER
            return
        if self._targets(t):
            self.moved_square = t
            self.step = CHALLENGE
        else:
            self._end_turn()

    def _resolve(self, a: int, b: int) -> None:
        challenger = self.turn
        defender = self.board[self.target][0]
        self.last_dice = {
            "challenger": challenger,
            "defender": defender,
            "challenger_roll": a,
            "defender_roll": b,
            "from": SQUARE_NAMES[self.moved_square],
            "target": SQUARE_NAMES[self.target],
            "move": self.moves_played,
        }
        if a > b:
            self._put_on(self.moved_square, self.target, challenger)
            self.last_dice["outcome"] = "challenger wins"
            self._end_turn()
        elif b > a:
            self.last_dice["outcome"] = "defender wins"
            self.defender = defender
            self.step = DEFENDER
        else:
            self.last_dice["outcome"] = "tie"
            self._end_turn()

    def _put_on(self, f: int, t: int, seat: int) -> None:
        """The lone piece of ``seat`` on ``f`` goes on top of the lone piece on ``t``."""
        self.board[f] = EMPTY
        self.top[f] = -1
        self.owner[f] = -1
        self.board[t] = self.board[t] + (seat,)
        self.top[t] = seat
        self.owner[t] = MIXED
        if self.last_dice is not None:
            self.last_dice["trapped"] = SQUARE_NAMES[t]

    def _end_turn(self) -> None:
        self.moved_square = -1
        self.target = -1
        self.defender = -1
        self._start_turn((self.turn + 1) % self.num_players)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        if self._has_move(seat):
            self.step = MOVE
        else:
            self.end_reason = "stalemate"
            self.step = OVER

    # -- error messages (only on the illegal path) -----------------------------------------

    def _wrong_kind(self, action, expected: Text) -> Text:
        shown = repr(action) if len(action) <= 40 else repr(action[:40] + "...")
        if self.step == OVER:
            return Text(gettext_noop("The game is over."))
        return Text(
            gettext_noop("%(action)s is not possible now: the game expects %(expected)s."),
            action=shown,
            expected=expected,
        )

    def _why_not(self, seat: int, f: int, t: int, d: int) -> Text:
        fn, tn = SQUARE_NAMES[f], SQUARE_NAMES[t]
        stack = self.board[f]
        goal_owner = self.layout.goal_owner
        if not stack:
            return Text(gettext_noop("%(square)s is empty."), square=fn)
        if stack[-1] != seat:
            if seat in stack:
                return Text(
                    gettext_noop("Your piece on %(square)s is trapped: an opponent's piece lies on top of it."),
                    square=fn,
                )
            return Text(gettext_noop("The piece on top of %(square)s is not yours."), square=fn)
        home = goal_owner[f]
        if home != -1 and home != seat:
            return Text(gettext_noop("The piece on %(square)s is frozen in an opponent's goal area."), square=fn)
        if home == seat and d != self.layout.forward[seat]:
            return Text(
                gettext_noop("A piece in its own goal area moves only forward; %(to)s is not forward of %(from)s."),
                to=tn,
                **{"from": fn},
            )
        for sq in RAYS[f][d]:
            g = goal_owner[sq]
            if g == seat:
                return Text(
                    gettext_noop("No piece may re-enter its own goal area (%(square)s)."), square=SQUARE_NAMES[sq]
                )
            o = self.owner[sq]
            if sq == t:
                if o == MIXED:
                    return Text(gettext_noop("Nothing may be stacked on the mixed stack on %(square)s."), square=tn)
                if o != -1 and o != seat:
                    return Text(gettext_noop("%(square)s holds an opponent's piece."), square=tn)
                break
            if o != -1:
                return Text(
                    gettext_noop("The way from %(from)s to %(to)s is blocked on %(square)s."),
                    to=tn,
                    square=SQUARE_NAMES[sq],
                    **{"from": fn},
                )
            if g != -1:
                return Text(
                    gettext_noop("A piece entering an opponent's goal area stops there (%(square)s)."),
                    square=SQUARE_NAMES[sq],
                )
        return Text(gettext_noop("%(from)s to %(to)s is not a legal move."), to=tn, **{"from": fn})

    # -- results ---------------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.in_goal)

    def ranking(self) -> list[int]:
        winner = self.winner
        return places_from_keys([(seat == winner, self.in_goal[seat]) for seat in range(self.num_players)])

    def clone(self) -> GameOfGodState:
        c = GameOfGodState.__new__(GameOfGodState)
        c.game = self.game
        c.num_players = self.num_players
        c.history = self.history[:]
        c.layout = self.layout
        c.board = self.board[:]
        c.top = self.top[:]
        c.owner = self.owner[:]
        c.step = self.step
        c.turn = self.turn
        c.defender = self.defender
        c.chooser = self.chooser
        c.choosers_done = self.choosers_done
        c.pieces = self.pieces
        c.vacancies = self.vacancies
        c.vacant = self.vacant[:]
        c.moves_played = self.moves_played
        c.in_goal = self.in_goal[:]
        c.total = self.total[:]
        c.winner = self.winner
        c.end_reason = self.end_reason
        c.moved_square = self.moved_square
        c.target = self.target
        c.last_dice = dict(self.last_dice) if self.last_dice is not None else None
        c.last_move = self.last_move
        c._legal = self._legal
        return c

    # -- presentation ----------------------------------------------------------------------

    def end_words(self) -> str:
        if self.step != OVER:
            return ""
        if self.end_reason == "win":
            return Text(
                gettext_noop("all of %(side)s's pieces are in opponents' goal areas"), side=self.side_word(self.winner)
            )
        if self.end_reason == "move limit":
            return Text(gettext_noop("stalemate, %(moves)s moves have been played"), moves=MOVE_LIMIT)
        return Text(gettext_noop("stalemate, %(side)s has no legal move"), side=self.side_word(self.turn))

    def side_name(self, seat: int) -> str:
        return SIDE_NAMES[self.layout.sides[seat]]

    def side_word(self, seat: int) -> Text:
        """The seat's side as said in a sentence."""
        return SIDE_WORDS[self.layout.sides[seat]]

    def prompt_others(self) -> str:
        step = self.step
        seat = self.current_player()
        if seat < 0:
            return self.prompt()
        name = colour_title(SIDE_COLOURS[self.layout.sides[seat]])
        if step == MOVE:
            return Text(gettext_noop("%(name)s moves the top piece of one of their stacks."), name=name)
        if step == CHALLENGE:
            return Text(
                gettext_noop("%(name)s: challenge a lone piece next to %(square)s, or pass?"),
                name=name,
                square=SQUARE_NAMES[self.moved_square],
            )
        if step == DEFENDER:
            return Text(gettext_noop("%(name)s won the challenge: trap the challenger's piece or spare it?"), name=name)
        return Text(gettext_noop("%(name)s chooses %(what)s."), name=name, what=self._vacancy_words(False))

    def _vacancy_words(self, mover: bool) -> Text:
        """The goal squares the seat to move leaves empty, as "the column of your goal area to
        leave empty (South mirrors it)" (said to it, ``mover``, or about it: "their")."""
        mirror = SIDE_WORDS[(self.layout.sides[self.turn] + 2) % 4]
        columns = self.layout.sides[self.turn] in (0, 2)
        if self.vacancies == 1:
            if columns:
                if mover:
                    said = gettext_noop("the column of your goal area to leave empty (%(mirror)s mirrors it)")
                else:
                    said = gettext_noop("the column of their goal area to leave empty (%(mirror)s mirrors it)")
            elif mover:
                said = gettext_noop("the row of your goal area to leave empty (%(mirror)s mirrors it)")
            else:
                said = gettext_noop("the row of their goal area to leave empty (%(mirror)s mirrors it)")
            return Text(said, mirror=mirror)
        left = self.vacancies - len(self.vacant[self.turn])
        if columns:
            if mover:
                said = gettext_noop(
                    "%(count)s columns of your goal area to leave empty, one at a time "
                    "(%(left)s more; %(mirror)s mirrors them)"
                )
            else:
                said = gettext_noop(
                    "%(count)s columns of their goal area to leave empty, one at a time "
                    "(%(left)s more; %(mirror)s mirrors them)"
                )
        elif mover:
            said = gettext_noop(
                "%(count)s rows of your goal area to leave empty, one at a time "
                "(%(left)s more; %(mirror)s mirrors them)"
            )
        else:
            said = gettext_noop(
                "%(count)s rows of their goal area to leave empty, one at a time "
                "(%(left)s more; %(mirror)s mirrors them)"
            )
        return Text(said, count=self.vacancies, left=left, mirror=mirror)

    def prompt(self) -> str:
        step = self.step
        if step == MOVE:
            return Text(gettext_noop("Move the top piece of one of your stacks."))
        if step == CHALLENGE:
            return Text(
                gettext_noop("Challenge a lone piece next to %(square)s, or pass?"),
                square=SQUARE_NAMES[self.moved_square],
            )
        if step == DEFENDER:
            return Text(gettext_noop("You won the challenge: trap the challenger's piece or spare it?"))
        if step == DICE:
            return Text(gettext_noop("The challenger and the defender roll a die each."))
        if step == VACANT:
            return Text(gettext_noop("Choose %(what)s."), what=self._vacancy_words(True))
        if step == CHOOSER:
            if self.vacancies > 1:
                return Text(gettext_noop("The dice decide who chooses the empty goal squares."))
            return Text(gettext_noop("The dice decide who chooses the empty goal square."))
        if step == FIRST:
            return Text(gettext_noop("The dice decide who moves first."))
        if self.end_reason == "win":
            return Text(
                gettext_noop("%(side)s wins: all their pieces are in opponents' goal areas."),
                side=self.side_word(self.winner),
            )
        if self.end_reason == "move limit":
            return Text(gettext_noop("Stalemate: %(moves)s moves have been played."), moves=MOVE_LIMIT)
        return Text(gettext_noop("Stalemate: %(side)s has no legal move."), side=self.side_word(self.turn))

    def view(self, seat: int | None) -> dict:
        view = self.common_view()
        board = self.board
        goal_owner = self.layout.goal_owner
        stacks = {}
        frozen = {}
        trapped = {}
        for sq in range(SQUARES):
            stack = board[sq]
            if not stack:
                continue
            name = SQUARE_NAMES[sq]
            stacks[name] = list(stack)
            home = goal_owner[sq]
            if home != -1:
                levels = [i for i, s in enumerate(stack) if s != home]
                if levels:
                    frozen[name] = levels
            if self.owner[sq] == MIXED:
                trapped[name] = [i for i, s in enumerate(stack) if any(o != s for o in stack[i + 1 :])]
        n = self.num_players
        names = [self.side_name(s) for s in range(n)]
        breakdown = []
        for s in range(n):
            per_goal = [0] * n
            for sq in range(SQUARES):
                home = goal_owner[sq]
                if home != -1 and home != s and board[sq]:
                    per_goal[home] += board[sq].count(s)
            breakdown.append([[PIECES_IN_GOAL[self.layout.sides[o]], per_goal[o]] for o in range(n) if o != s])
        challenge_from = SQUARE_NAMES[self.moved_square] if self.step in (CHALLENGE, DICE, DEFENDER) else None
        view.update(
            {
                "width": SIZE,
                "height": SIZE,
                "step": STEP_NAMES[self.step],
                "turn": self.turn if self.turn >= 0 else None,
                "sides": names,
                "seat_colours": [SIDE_COLOURS[side] for side in self.layout.sides],
                "seat_letters": [name[0] for name in names],
                "goal_areas": [[SQUARE_NAMES[sq] for sq in squares] for squares in self.layout.goal_squares],
                "stacks": stacks,
                "frozen": frozen,
                "trapped": trapped,
                "pieces_per_player": list(self.total),
                "standard_pieces": STANDARD_PIECES[n],
                "in_goal": list(self.in_goal),
                "score_breakdown": breakdown,
                "chooser": self.chooser if self.chooser >= 0 else None,
                "vacant": [list(labels) for labels in self.vacant],
                "vacancies": self.vacancies,
                "challenge_from": challenge_from,
                "challenge_targets": (
                    [SQUARE_NAMES[t] for t in self._targets(self.moved_square)] if self.step == CHALLENGE else []
                ),
                "challenged": SQUARE_NAMES[self.target] if self.step in (DICE, DEFENDER) else None,
                "defender": self.defender if self.step == DEFENDER else None,
                "last_dice": dict(self.last_dice) if self.last_dice is not None else None,
                "last_move": (
                    [SQUARE_NAMES[self.last_move[0]], SQUARE_NAMES[self.last_move[1]]] if self.last_move else None
                ),
                "moves_played": self.moves_played,
                "move_limit": MOVE_LIMIT,
                "winner": self.winner if self.winner >= 0 else None,
                "end_reason": self.end_reason or None,
            }
        )
        return view


class GameOfGod(Game):
    def new_state(self, num_players: int, options: dict | None = None) -> GameOfGodState:
        self.check_players(num_players)
        options = self.normalise_options(options, num_players)
        return GameOfGodState(self, num_players, options["pieces"])

    def action_label(self, action: str) -> str:
        if not isinstance(action, str):
            return str(action)
        verb, _, arg = action.partition(":")
        if verb == "move" and action in MOVES:
            f, t = arg.split("-")
            return Text(gettext_noop("Move %(from)s to %(to)s"), to=t, **{"from": f})
        if verb == "challenge":
            return Text(gettext_noop("Challenge the piece on %(square)s"), square=arg)
        if action == "pass":
            return Text(gettext_noop("Do not challenge"))
        if action == "trap":
            return Text(gettext_noop("Trap the challenger's piece"))
        if action == "spare":
            return Text(gettext_noop("Spare the challenger's piece"))
        if verb == "dice" and action in DICE_VALUES:
            a, b = DICE_VALUES[action]
            return Text(gettext_noop("Challenger rolls %(a)s, defender rolls %(b)s"), a=a, b=b)
        if verb == "vacant":
            return Text(gettext_noop("Leave %(square)s empty"), square=_vacant_words(arg))
        if verb == "chooser" and arg.isdigit():
            # Seats counted from 1, as on the page.
            return Text(gettext_noop("Seat %(number)s chooses the empty goal square"), number=int(arg) + 1)
        if verb == "first" and arg.isdigit():
            return Text(gettext_noop("Seat %(number)s moves first"), number=int(arg) + 1)
        return action


GAME = GameOfGod(
    slug="game-of-god",
    name="Game of God",
    min_players=2,
    max_players=4,
    summary=gettext_noop("Race stacking pieces into your opponents' goal areas; dice settle challenges."),
    player_counts=(2, 4),
    options=(
        Option(
            name="pieces",
            label=gettext_noop("Pieces per player"),
            default=None,
            help=gettext_noop(
                "Leave empty for the standard game (14 each for two players, 10 each for four). "
                "Otherwise an even number: the pieces stand in pairs on the own goal area, up to 16 "
                "each for two players and 12 each for four."
            ),
            values=pieces_choices,
        ),
    ),
)
