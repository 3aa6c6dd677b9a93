"""What a position is still worth: a search's judgement of a leaf beyond the score so far.

The chit game's scores count a territory's bonuses only while it is controlled, so one build
either flips them whole or changes nothing: a search judging its leaves by the scores cannot
tell a lead of three structures in a half-empty territory from a lead of one, nor a territory
that would complete a line from one that would not. ``chit_expected_scores`` replaces those
all-or-nothing bonuses by their expectation under a simple model of who will control each
territory once it is full, so a search can see the worth of building toward control.

Game of God scores only the pieces already in an opponent's goal area, so every leaf short of
an entry looks the same to a search judging by the scores. ``god_expected_scores`` also counts
the pieces on their way: part of a point for the ground covered, more for an open line into a
goal area, little for a piece trapped under an opponent's.

Games without a model here (``expected_scores_of`` gives None) are judged by their scores.
"""

from __future__ import annotations

import math

from ..engines.base import State
from ..engines.chit_territory import CENTRE, CORNERS, SQUARES, TERRITORY_LINES, TERRITORY_MASKS
from ..engines.game_of_god import MIXED, SIZE

# The chit game's bonuses that need control of a group of territories: lines 9, squares 8,
# the four corners 8, the centre 5.
CHIT_GROUPS = (
    tuple((line, 9) for line in TERRITORY_LINES)
    + tuple((square, 8) for square in SQUARES)
    + ((CORNERS, 8), ((CENTRE,), 5))
)
_FOURS = (*SQUARES, CORNERS)  # the groups of four worth 8 each
# How uncertain control of a territory with empty plots is, in structures per square root of
# an empty plot: a lead of d structures with e plots still empty holds with a weight of
# exp(d / (CHIT_SPREAD * sqrt(e))) against each rival's.
CHIT_SPREAD = 0.7


# _WEIGHTS[free][d]: the weight of a seat d structures behind the leader with ``free`` plots
# empty (looked up, not computed: the search judges every leaf by it).
_WEIGHTS = tuple(
    tuple(math.exp(-d / (CHIT_SPREAD * math.sqrt(free))) if free else float(d == 0) for d in range(10))
    for free in range(10)
)


def chit_control(state) -> tuple[list[list[float]], list[int]]:
    """Per seat and territory, the chance that the seat controls it once it is full, and per
    territory who controls it now (-1 nobody). A full territory is as it stands; in one with
    empty plots each seat's chance grows with its lead, less sharply the more plots are empty
    (a softmax of the structure counts, ``CHIT_SPREAD``)."""
    n = state.num_players
    own = state.structure_masks()
    empty = state.empty
    chance = [[0.0] * 9 for _ in range(n)]
    now = []
    for terr in range(9):
        tm = TERRITORY_MASKS[terr]
        counts = [(mask & tm).bit_count() for mask in own]
        top = max(counts)
        leader = counts.index(top) if top and counts.count(top) == 1 else -1
        now.append(leader)
        free = (empty & tm).bit_count()
        if not free:
            if leader >= 0:
                chance[leader][terr] = 1.0
            continue
        weights = _WEIGHTS[free]
        shares = [weights[top - c] for c in counts]
        total = sum(shares)
        for s in range(n):
            chance[s][terr] = shares[s] / total
    return chance, now


def chit_expected_scores(state) -> list[float]:
    """Each seat's score with its bonuses for controlling territories (centre, lines, squares,
    corners) counted by their expectation under ``chit_control`` instead of as they stand."""
    chance, now = chit_control(state)
    expected = [float(total) for total in state.scores()]
    for group, points in CHIT_GROUPS:
        holder = now[group[0]]
        if holder >= 0:
            for t in group:
                if now[t] != holder:
                    break
            else:
                expected[holder] -= points  # as it stands: replaced by the expectation below
    for s, mine in enumerate(chance):
        gain = 5 * mine[CENTRE]
        for a, b, c in TERRITORY_LINES:
            gain += 9 * mine[a] * mine[b] * mine[c]
        for a, b, c, d in _FOURS:
            gain += 8 * mine[a] * mine[b] * mine[c] * mine[d]
        expected[s] += gain
    return expected


# Game of God: what a piece not yet in an opponent's goal area counts for (one there counts 1).
GOD_ADVANCE = 0.3  # times the share of the way it has come (see ``_god_tables``)
GOD_READY = 0.5  # the top piece of a stack with an open line into an opponent's goal area
GOD_TRAPPED = 0.05  # under an opponent's piece: it moves again only if the trapper leaves
_GOD_TABLES: dict[int, tuple] = {}


def _god_tables(layout) -> tuple[list[list[float]], list[list[tuple]]]:
    """Per seat and square: the share of the way a piece there has come (1 minus the shortest
    orthogonal distance to an opponent's goal square over 7), and the lines it could enter an
    opponent's goal area by (the squares that must be empty, the goal square). Made once per
    table size from the engine's layout."""
    tables = _GOD_TABLES.get(layout.num_players)
    if tables is not None:
        return tables
    size = SIZE
    progress, lines = [], []
    for seat in range(layout.num_players):
        goals = [sq for other, squares in enumerate(layout.goal_squares) if other != seat for sq in squares]
        shares, entries = [], []
        for sq in range(size * size):
            col, row = sq % size, sq // size
            distance = min(abs(col - g % size) + abs(row - g // size) for g in goals)
            shares.append(max(0.0, 1.0 - distance / (size - 1)))
            entries.append(
                tuple(
                    (tuple(t for t, _name in ray[:-1]), ray[-1][0])
                    for ray in layout.rays[seat][sq]
                    if layout.goal_owner[ray[-1][0]] not in (-1, seat)
                )
            )
        progress.append(shares)
        lines.append(entries)
    tables = _GOD_TABLES[layout.num_players] = (progress, lines)
    return tables


def god_expected_scores(state) -> list[float]:
    """Each seat's pieces in opponents' goal areas (its score) plus what its other pieces are
    worth on their way (``GOD_ADVANCE``, ``GOD_READY``, ``GOD_TRAPPED``)."""
    layout = state.layout
    goal_owner = layout.goal_owner
    progress, lines = _god_tables(layout)
    owner = state.owner
    expected = [float(n) for n in state.in_goal]
    for sq, stack in enumerate(state.board):
        if not stack:
            continue
        seat = owner[sq]
        pieces = len(stack)
        if seat == MIXED:  # a lone piece on top of a rival's (only outside the goal areas)
            expected[stack[0]] += GOD_TRAPPED
            seat = stack[-1]
            pieces = 1
        elif goal_owner[sq] not in (-1, seat):
            continue  # frozen in an opponent's goal area: already scored
        value = pieces * GOD_ADVANCE * progress[seat][sq]
        for before, goal in lines[seat][sq]:
            if owner[goal] not in (-1, seat):
                continue
            for t in before:
                if owner[t] != -1:
                    break
            else:
                value += GOD_READY
                break
        expected[seat] += value
    return expected


EXPECTED_SCORES = {"chit-territory": chit_expected_scores, "game-of-god": god_expected_scores}


def expected_scores_of(state: State):
    """The game's ``state -> expected scores`` judgement, or None (judge by the scores)."""
    return EXPECTED_SCORES.get(state.game.slug)
