"""Who sits at which table, and in which seat, each round of a tournament.

Pure Python, no Django: the tournaments services turn entrants into ``Entrant`` values, call
these functions and store the ``Round`` they return. Every function is deterministic: the same
input gives the same rounds, so a round can be recomputed and checked.

Formats (``FORMATS``):

- ``round_robin``: the whole schedule at once. Two players a table: the circle method (every pair
  exactly once; seat 0, which moves first, balanced to within one game per player). Tables of
  3-6: every pair meets at least once, in as few rounds as the search finds, seats rotated.
- ``swiss``: one round at a time from the standings so far. Two players a table: a maximum
  weight matching over the score groups (no repeat opponent while one can be avoided, then
  players paired inside their score group, then seat 0 to whoever is owed it). Tables of 3-6:
  tables filled in order of score then rating, then players swapped between tables to avoid
  repeat meetings.

Byes go to fields that do not divide by the table size: to the lowest-ranked among those who
have had the fewest byes, so nobody gets a second bye while someone active has had none.

docs/TOURNAMENTS.md, "Pairing and standings", gives the reasons.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 6


class PairingError(ValueError):
    """The entrants cannot be paired as asked (too few of them, a bad table size, ...)."""


@dataclass(frozen=True)
class Entrant:
    id: int  # the user's id
    rating: float  # their rating in this game, for seeding
    points: float = 0.0  # tournament points so far
    opponents: frozenset[int] = frozenset()  # ids met at any table so far
    byes: int = 0  # byes received so far
    seat_counts: tuple[int, ...] = ()  # how often seated at seat 0, 1, ... so far

    def seat_count(self, seat: int) -> int:
        return self.seat_counts[seat] if seat < len(self.seat_counts) else 0


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[int, ...], ...]  # entrant ids in seat order (seat 0 moves first)
    byes: tuple[int, ...]


def _check(ids: Sequence[int], table_size: int) -> None:
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise PairingError(f"A table seats {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} players, not {table_size}.")
    if len(set(ids)) != len(ids):
        raise PairingError("An entrant is listed twice.")
    if len(ids) < table_size:
        raise PairingError(f"{len(ids)} entrants cannot fill a table of {table_size}.")


# ---------------------------------------------------------------------------------------------
# Round robin


def round_robin(entrant_ids: Sequence[int], table_size: int) -> list[Round]:
    """The whole schedule: every pair of entrants meets at least once (exactly once at 2)."""
    ids = list(entrant_ids)
    _check(ids, table_size)
    if table_size == 2:
        return _circle(ids)
    return _covering_schedule(ids, table_size)


def _circle(ids: list[int]) -> list[Round]:
    """The circle method. With an odd field a phantom joins, and meeting it is the bye.

    Seats: the m = n - 1 players on the circle sit at positions 0..m-1 (m is odd); of two of
    them, the one whose partner lies 1..m//2 steps ahead moves first. That gives every circle
    player m//2 first moves against the circle, and the fixed player alternates, so seat 0
    counts differ by at most one.
    """
    players: list[int | None] = list(ids)
    if len(players) % 2:
        players.append(None)
    fixed, circle = players[-1], players[:-1]
    m = len(circle)
    rounds = []
    for r in range(m):
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        if fixed is None:
            byes.append(circle[r])
        else:
            tables.append((fixed, circle[r]) if r % 2 == 0 else (circle[r], fixed))
        for k in range(1, m // 2 + 1):
            i, j = (r + k) % m, (r - k) % m
            first, second = (i, j) if 0 < (j - i) % m <= m // 2 else (j, i)
            tables.append((circle[first], circle[second]))
        rounds.append(Round(tables=tuple(tables), byes=tuple(byes)))
    return rounds


def _covering_schedule(ids: list[int], k: int) -> list[Round]:
    """Rounds of tables of k in which every pair meets at least once, as few as the search finds.

    A greedy construction (each round covers as many pairs not yet met as it can, improved by
    swapping players between tables) restarted with a fixed seed; the shortest schedule wins,
    and the search stops early at the lower bound.
    """
    n = len(ids)
    bound = round_robin_lower_bound(n, k)
    rng = random.Random(1_000 * n + k)
    best: list[list[list[int]]] | None = None
    best_byes: list[list[int]] = []
    for _ in range(_COVER_ATTEMPTS):
        schedule, byes = _greedy_cover(n, k, rng)
        if best is None or len(schedule) < len(best):
            best, best_byes = schedule, byes
        if len(best) <= bound:
            break
    assert best is not None
    counts = [[0] * k for _ in range(n)]
    rounds = []
    for tables, byes in zip(best, best_byes, strict=True):
        seated = tuple(tuple(ids[p] for p in _seat_rotation(table, counts)) for table in tables)
        rounds.append(Round(tables=seated, byes=tuple(ids[p] for p in byes)))
    return rounds


_COVER_ATTEMPTS = 40


def round_robin_lower_bound(n: int, k: int) -> int:
    """No schedule of tables of k can cover every pair of n players in fewer rounds."""
    if n <= k:
        return 1
    per_player = math.ceil((n - 1) / (k - 1))
    per_round = (n // k) * k * (k - 1) // 2
    return max(per_player, math.ceil(n * (n - 1) / 2 / per_round))


def _greedy_cover(n: int, k: int, rng: random.Random) -> tuple[list[list[list[int]]], list[list[int]]]:
    unmet = [set(range(n)) - {p} for p in range(n)]
    bye_count = [0] * n
    schedule: list[list[list[int]]] = []
    byes_per_round: list[list[int]] = []
    n_byes = n % k
    while any(unmet):
        tiebreak = {p: rng.random() for p in range(n)}
        # Byes first to those who have met everyone, then to those with the fewest byes.
        order = sorted(range(n), key=lambda p: (bool(unmet[p]), bye_count[p], len(unmet[p]), tiebreak[p]))
        byes = order[:n_byes]
        seated = set(range(n)) - set(byes)
        if not any(unmet[p] & seated for p in seated):
            # Keep one pair that has not met out of the byes, so every round makes progress.
            a = next(p for p in range(n) if unmet[p])
            b = min(unmet[a])
            byes = [p for p in order if p not in (a, b)][:n_byes]
            seated = set(range(n)) - set(byes)
        tables = _fill_tables(sorted(seated, key=lambda p: (-len(unmet[p]), tiebreak[p])), k, unmet)
        _improve_by_swaps(tables, lambda table: sum(len(unmet[p] & set(table)) for p in table))
        for table in tables:
            for p in table:
                unmet[p] -= set(table)
        for p in byes:
            bye_count[p] += 1
        schedule.append(tables)
        byes_per_round.append(sorted(byes))
    return schedule, byes_per_round


def _fill_tables(players: list[int], k: int, unmet: list[set[int]]) -> list[list[int]]:
    """Seat the most needy first, each next to whoever adds the most new meetings."""
    left = list(players)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < k:
            best = max(range(len(left)), key=lambda i: (sum(left[i] in unmet[q] for q in table), -i))
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _improve_by_swaps(tables: list[list[int]], score) -> None:
    """Swap two players of different tables while that raises the sum of ``score`` (hill climbing)."""
    improved = True
    while improved:
        improved = False
        for t1, t2 in itertools.combinations(range(len(tables)), 2):
            a, b = tables[t1], tables[t2]
            for i, j in itertools.product(range(len(a)), range(len(b))):
                before = score(a) + score(b)
                a[i], b[j] = b[j], a[i]
                if score(a) + score(b) > before:
                    improved = True
                else:
                    a[i], b[j] = b[j], a[i]


def _seat_rotation(table: Sequence[int], counts: list[list[int]]) -> tuple[int, ...]:
    """The seat order that evens out how often each player had each seat; updates ``counts``.

    Cost of a seat for a player: the square of how often they had it, so the order that gives
    everyone a seat they had least wins. Ties keep the given order (ranking order).
    """
    best = min(
        itertools.permutations(range(len(table))),
        key=lambda perm: sum(counts[table[i]][seat] ** 2 for seat, i in enumerate(perm)),
    )
    order = tuple(table[i] for i in best)
    for seat, p in enumerate(order):
        counts[p][seat] += 1
    return order


# ---------------------------------------------------------------------------------------------
# Swiss


def swiss_round(entrants: Sequence[Entrant], table_size: int, round_number: int) -> Round:
    """The next round of a Swiss tournament for the active ``entrants`` (round_number from 1)."""
    _check([e.id for e in entrants], table_size)
    ranked = sorted(entrants, key=_rank_key)
    byes = _choose_byes(ranked, len(ranked) % table_size)
    if table_size == 2:
        return _swiss_two(ranked, byes, round_number)
    return _swiss_tables(ranked, byes, table_size)


def _rank_key(e: Entrant) -> tuple[float, float, int]:
    return (-e.points, -e.rating, e.id)


def _choose_byes(ranked: list[Entrant], count: int) -> list[Entrant]:
    """The lowest-ranked among those with the fewest byes."""
    if not count:
        return []
    position = {e.id: i for i, e in enumerate(ranked)}
    return sorted(ranked, key=lambda e: (e.byes, -position[e.id]))[:count]


def _swiss_two(ranked: list[Entrant], byes: list[Entrant], round_number: int) -> Round:
    bye_ids = {e.id for e in byes}
    players = [e for e in ranked if e.id not in bye_ids]
    pairs = _pair_without_repeats(players)
    if pairs is None:
        pairs = _pair_greedily(players)
    tables = tuple(_seat_pair(a, b, round_number) for a, b in pairs)
    return Round(tables=tables, byes=tuple(e.id for e in byes))


_SEARCH_BUDGET = 20_000


def _pair_without_repeats(players: list[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
    """Top down through the ranking, each with the nearest partner not met yet, backtracking."""
    nodes = 0

    def search(left: list[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
        nonlocal nodes
        if not left:
            return []
        nodes += 1
        if nodes > _SEARCH_BUDGET:
            return None
        first, rest = left[0], left[1:]
        for i, other in enumerate(rest):
            if other.id in first.opponents:
                continue
            found = search(rest[:i] + rest[i + 1 :])
            if found is not None:
                return [(first, other), *found]
        return None

    return search(players)


def _pair_greedily(players: list[Entrant]) -> list[tuple[Entrant, Entrant]]:
    left = list(players)
    pairs = []
    while left:
        first = left.pop(0)
        i = next((i for i, o in enumerate(left) if o.id not in first.opponents), 0)
        pairs.append((first, left.pop(i)))
    return pairs


def _seat_due(e: Entrant) -> int:
    """How many more times ``e`` moved first than second: positive means owed the second seat."""
    return e.seat_count(0) - e.seat_count(1)


def _seat_pair(a: Entrant, b: Entrant, round_number: int) -> tuple[int, int]:
    """Seat 0 to whoever moved first less often; on a tie the higher-ranked ``a`` alternates."""
    if _seat_due(a) != _seat_due(b):
        return (a.id, b.id) if _seat_due(a) < _seat_due(b) else (b.id, a.id)
    return (a.id, b.id) if round_number % 2 == 1 else (b.id, a.id)


def _swiss_tables(ranked: list[Entrant], byes: list[Entrant], k: int) -> Round:
    bye_ids = {e.id for e in byes}
    players = [e for e in ranked if e.id not in bye_ids]
    by_id = {e.id: e for e in players}
    position = {e.id: i for i, e in enumerate(players)}
    tables = [[e.id for e in players[i : i + k]] for i in range(0, len(players), k)]

    def score(table: list[int]) -> float:
        repeats = sum(1 for a, b in itertools.combinations(table, 2) if b in by_id[a].opponents)
        spread = max(position[p] for p in table) - min(position[p] for p in table)
        return -(repeats * 10_000 + spread)

    _improve_by_swaps(tables, score)
    counts = {e.id: [e.seat_count(s) for s in range(k)] for e in players}
    seated = []
    for table in tables:
        table.sort(key=position.__getitem__)
        seated.append(_seat_rotation_by_id(table, counts))
    return Round(tables=tuple(seated), byes=tuple(e.id for e in byes))


def _seat_rotation_by_id(table: list[int], counts: dict[int, list[int]]) -> tuple[int, ...]:
    local = [counts[p] for p in table]  # the same lists: _seat_rotation updates counts
    order = _seat_rotation(list(range(len(table))), local)
    return tuple(table[i] for i in order)


# ---------------------------------------------------------------------------------------------
# How many rounds


def recommended_rounds(n_entrants: int, table_size: int, format: str) -> int:  # noqa: A002
    """Rounds to announce for a field of ``n_entrants`` at tables of ``table_size``.

    Round robin: the length of the schedule ``round_robin`` makes. Swiss: enough rounds for one
    player to stay ahead of the field if they win every table (log base ``table_size`` of the
    field, rounded up), at least 3, but never more than a round robin would need, so repeat
    meetings stay avoidable (no schedule covers every pair in fewer rounds).
    """
    if format not in FORMATS:
        raise PairingError(f"Unknown format {format!r}; expected one of {', '.join(FORMATS)}.")
    _check(list(range(n_entrants)), table_size)
    if format == ROUND_ROBIN:
        return len(round_robin(range(n_entrants), table_size))
    swiss = max(3, math.ceil(math.log(n_entrants) / math.log(table_size) - 1e-9))
    return min(swiss, round_robin_lower_bound(n_entrants, table_size))
