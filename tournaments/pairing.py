"""Who sits at which table, and in which seat, each round of a tournament.

Pure Python, no Django: the tournaments services turn entrants into ``Entrant`` values, call
these functions and store the ``Round`` they return. Every function is deterministic: the same
input gives the same rounds, so a round can be recomputed and checked.

Formats (``FORMATS``):

- ``round_robin``: the whole schedule at once. Two players a table: the circle method (every pair
  exactly once; seat 0, which moves first, balanced to within one game per player). Tables of
  3-6: every pair meets at least once, in as few rounds as the search finds, seats rotated.
- ``swiss``: one round at a time from the standings so far. Two players a table: top down
  through the ranking, each with the partner nearest in points (never two both owed the same
  seat twice over while avoidable), then owed the other seat, then half the score group
  below, each choice kept only while the rest can still be paired without a repeat (checked
  exactly by a maximum matching, Edmonds' blossom algorithm). Tables of 3-6: tables filled in
  order of score then rating, then players swapped between tables to avoid repeat meetings.

Byes go to fields that do not divide by the table size: to the lowest-ranked among those who
have had the fewest byes, so nobody gets a second bye while someone active has had none.

docs/TOURNAMENTS.md, "Pairing and standings", gives the reasons.
"""

from __future__ import annotations

import functools
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
    """Rounds of tables of k in which every pair meets at least once, as few as the search finds."""
    counts = [[0] * k for _ in ids]
    rounds = []
    for tables, byes in _cover(len(ids), k):
        seated = tuple(tuple(ids[p] for p in _seat_rotation(table, counts)) for table in tables)
        rounds.append(Round(tables=seated, byes=tuple(ids[p] for p in byes)))
    return rounds


def round_robin_lower_bound(n: int, k: int) -> int:
    """No schedule of tables of k can cover every pair of n players in fewer rounds.

    Each round a player meets k - 1 others and the field meets (n // k) k (k - 1) / 2 pairs;
    and with n % k byes a round, byes kept even, someone sits out ceil(rounds x byes / n) of
    them and must still meet everyone in the rounds they play.
    """
    if n <= k:
        return 1
    per_round = (n // k) * k * (k - 1) // 2
    rounds = max(math.ceil((n - 1) / (k - 1)), math.ceil(n * (n - 1) / 2 / per_round))
    while (rounds - math.ceil(rounds * (n % k) / n)) * (k - 1) < n - 1:
        rounds += 1
    return rounds


_Schedule = list[tuple[list[list[int]], list[int]]]  # per round: tables of player indices, byes


@functools.lru_cache(maxsize=64)
def _cover(n: int, k: int) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]:
    """The schedule for players 0..n-1 (it depends only on n and k, so it is cached).

    First the shortest of a few greedy schedules (each round meets as many new pairs as it
    can, ties broken at random from a fixed seed); then, for each
    round fewer, down to the lower bound, a local search (simulated annealing on swaps of two
    players of one round, with a fixed seed) tries to cover every pair in that many rounds.
    Byes are even: over the schedule nobody sits out more than once more often than anyone
    else (a greedy schedule that had to break that to make progress is kept only if every
    other one did too).
    """
    rng = random.Random(1_000 * n + k)
    best = min((_greedy_cover(n, k, rng) for _ in range(_GREEDY_ATTEMPTS)), key=lambda s: (_uneven_byes(s, n), len(s)))
    while len(best) > round_robin_lower_bound(n, k):
        found = _anneal_cover(n, k, len(best) - 1, rng)
        if found is None:
            break
        best = found
    return tuple((tuple(tuple(t) for t in tables), tuple(sorted(byes))) for tables, byes in best)


def _uneven_byes(schedule: _Schedule, n: int) -> bool:
    byes = [0] * n
    for _, round_byes in schedule:
        for p in round_byes:
            byes[p] += 1
    return max(byes) - min(byes) > 1


def _greedy_cover(n: int, k: int, rng: random.Random) -> _Schedule:
    unmet = [set(range(n)) - {p} for p in range(n)]
    bye_count = [0] * n
    schedule: _Schedule = []
    while any(unmet):
        tiebreak = {p: rng.random() for p in range(n)}
        # Byes to those with the fewest, then to those with the fewest people left to meet.
        order = sorted(range(n), key=lambda p: (bye_count[p], len(unmet[p]), tiebreak[p]))
        byes = order[: n % k]
        seated = sorted(set(range(n)) - set(byes), key=lambda p: (-len(unmet[p]), tiebreak[p]))
        tables = _fill_tables(seated, k, unmet)
        _improve_by_swaps(tables, lambda table: sum(len(unmet[p] & set(table)) for p in table))
        if not any(unmet[p] & set(table) for table in tables for p in table):
            # A round that meets nobody new would not end the schedule: seat one such pair
            # together, even if that puts a bye one ahead of the rotation.
            a = next(p for p in range(n) if unmet[p])
            b = min(unmet[a])
            byes = [p for p in order if p not in (a, b)][: n % k]
            tables = _fill_tables([a, b, *(p for p in range(n) if p not in (a, b, *byes))], k, unmet)
        for table in tables:
            for p in table:
                unmet[p] -= set(table)
        for p in byes:
            bye_count[p] += 1
        schedule.append((tables, byes))
    return schedule


_GREEDY_ATTEMPTS = 10
_ANNEAL_STEPS = 10_000


def _anneal_cover(n: int, k: int, length: int, rng: random.Random) -> _Schedule | None:
    """Try to cover every pair in ``length`` rounds; None if the search gives up.

    A move swaps two players of one round who sit at different tables, or one who sits out
    with one who plays as long as byes stay even (nobody two byes ahead of anyone). Moves that
    leave fewer pairs unmet are kept, others with a probability that falls as the search cools.
    """
    n_byes = n % k
    rounds: list[list[int]] = []  # per round: byes first, then the tables, k at a time
    for r in range(length):
        byes = [(r * n_byes + i) % n for i in range(n_byes)]  # in rotation: even to start with
        rest = [p for p in range(n) if p not in byes]
        rng.shuffle(rest)
        rounds.append(byes + rest)
    bye_count = [0] * n
    met = [[0] * n for _ in range(n)]
    for line in rounds:
        for p in line[:n_byes]:
            bye_count[p] += 1
        for t in range(n_byes, n, k):
            for a, b in itertools.combinations(line[t : t + k], 2):
                met[a][b] += 1
                met[b][a] += 1
    unmet = sum(1 for a, b in itertools.combinations(range(n), 2) if met[a][b] == 0)

    def mates(line: list[int], i: int) -> list[int]:
        """Who sits with the player at position i (nobody, for a bye)."""
        if i < n_byes:
            return []
        start = n_byes + (i - n_byes) // k * k
        return [p for p in line[start : start + k] if p != line[i]]

    for step in range(_ANNEAL_STEPS):
        if unmet == 0:
            return [([line[t : t + k] for t in range(n_byes, n, k)], line[:n_byes]) for line in rounds]
        line = rounds[rng.randrange(length)]
        i, j = rng.randrange(n), rng.randrange(n_byes, n)
        x, y = line[i], line[j]
        mates_x, mates_y = mates(line, i), mates(line, j)
        if x == y or y in mates_x:
            continue
        if i < n_byes:  # x would play instead of y, who would sit out
            bye_count[x] -= 1
            bye_count[y] += 1
            fair = max(bye_count) - min(bye_count) <= 1
            bye_count[x] += 1
            bye_count[y] -= 1
            if not fair:
                continue
        delta = 0
        for a in mates_x:  # x leaves a, y joins a
            delta += (met[x][a] == 1) - (met[y][a] == 0)
        for b in mates_y:
            delta += (met[y][b] == 1) - (met[x][b] == 0)
        temperature = 0.6 * (1 - step / _ANNEAL_STEPS) + 0.05
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            for a in mates_x:
                met[x][a] -= 1
                met[a][x] -= 1
                met[y][a] += 1
                met[a][y] += 1
            for b in mates_y:
                met[y][b] -= 1
                met[b][y] -= 1
                met[x][b] += 1
                met[b][x] += 1
            if i < n_byes:
                bye_count[x] -= 1
                bye_count[y] += 1
            line[i], line[j] = y, x
            unmet += delta
    return None


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
    if table_size == 2:
        return _swiss_two(ranked, round_number)
    return _swiss_tables(ranked, _choose_byes(ranked, len(ranked) % table_size), table_size)


def _rank_key(e: Entrant) -> tuple[float, float, int]:
    return (-_score(e), -e.rating, e.id)


def _bye_order(ranked: list[Entrant]) -> list[Entrant]:
    """Who gets a bye first: the fewest byes so far, then the lowest-ranked."""
    position = {e.id: i for i, e in enumerate(ranked)}
    return sorted(ranked, key=lambda e: (e.byes, -position[e.id]))


def _choose_byes(ranked: list[Entrant], count: int) -> list[Entrant]:
    return _bye_order(ranked)[:count]


def _score(e: Entrant) -> float:
    """Points as the score groups see them (sums of thirds and fifths need not add up exactly)."""
    return round(e.points, 6)


def _seat_due(e: Entrant) -> int:
    """How many more times ``e`` moved first than second: positive means owed the second seat."""
    return e.seat_count(0) - e.seat_count(1)


# Moving first this many times more (or less) than second would follow from pairing two who
# are both that far along the same way: avoided even at the cost of leaving the score group.
_SEAT_LIMIT = 2


def _seat_conflict(a: Entrant, b: Entrant) -> int:
    """How unbalanced one of them must end up if both are owed the same seat, else 0."""
    da, db = _seat_due(a), _seat_due(b)
    if da > 0 and db > 0 or da < 0 and db < 0:
        return min(abs(da), abs(db))
    return 0


def _seat_pair(a: Entrant, b: Entrant, round_number: int) -> tuple[int, int]:
    """Seat 0 to whoever moved first less often; on a tie the higher-ranked ``a`` alternates."""
    if _seat_due(a) != _seat_due(b):
        return (a.id, b.id) if _seat_due(a) < _seat_due(b) else (b.id, a.id)
    return (a.id, b.id) if round_number % 2 == 1 else (b.id, a.id)


def _swiss_two(ranked: list[Entrant], round_number: int) -> Round:
    """A Swiss round at tables of two.

    Rules, in order of weight:
    1. the bye (odd fields) goes to someone with the fewest byes so far;
    2. no repeat opponent while a pairing without one exists (checked exactly, by maximum
       matching in the graph of pairs not yet played);
    3. among those with the fewest byes, the lowest-ranked who leaves such a pairing gets the bye;
    4. nobody moves first (or second) three times more than the other way round while the
       field can be paired without it (two players both owed the same seat twice over do not
       meet; checked the same exact way);
    5. top down through the ranking, each player meets the opponent nearest in points (a score
       group pairs inside itself, its odd one out floats down to the next), then the one owed
       the other seat, then the one half the score group below (the top half meets the bottom
       half, 1-5, 2-6, 3-7, 4-8 in a group of eight), then the highest-ranked.
    """
    byes: list[Entrant] = []
    players = list(ranked)
    if len(ranked) % 2:
        order = _bye_order(ranked)
        eligible = [e for e in order if e.byes == order[0].byes]
        bye = _bye_leaving_perfect_pairing(ranked, eligible) or eligible[0]
        byes = [bye]
        players = [e for e in ranked if e.id != bye.id]
    pairs = _pair_if_possible(players, _new_and_seats_balanced) or _pair_if_possible(players, _new)
    if pairs is None:  # repeats cannot be avoided: make the fewest
        matcher = _Matcher(players, _new)
        matcher.maximise()
        left_out = [e for e in players if matcher.mate[matcher.index[e.id]] == -1]
        forced = _pair_top_down(left_out, None, lambda a, b: True)
        for a, b in forced:
            matcher.remove(a)
            matcher.remove(b)
        rest = [e for e in players if matcher.alive[matcher.index[e.id]]]
        pairs = forced + _pair_top_down(rest, matcher, _new)
    tables = tuple(_seat_pair(a, b, round_number) for a, b in pairs)
    return Round(tables=tables, byes=tuple(e.id for e in byes))


def _new(a: Entrant, b: Entrant) -> bool:
    return b.id not in a.opponents


def _new_and_seats_balanced(a: Entrant, b: Entrant) -> bool:
    return b.id not in a.opponents and _seat_conflict(a, b) < _SEAT_LIMIT


def _pair_if_possible(players, allowed) -> list[tuple[Entrant, Entrant]] | None:
    """Everyone paired by ``allowed`` pairs only, or None when no such pairing exists.

    Greedy first: when it gets through, its choices are exactly those of the matching-guided
    pass (each choice left a perfect pairing: the greedy one), which only runs when it fails.
    """
    pairs = _pair_top_down(players, None, allowed)
    if pairs is not None:
        return pairs
    matcher = _Matcher(players, allowed)
    if matcher.maximise() < len(players) // 2:
        return None
    return _pair_top_down(players, matcher, allowed)


def _bye_leaving_perfect_pairing(ranked: list[Entrant], candidates: list[Entrant]) -> Entrant | None:
    matcher = _Matcher(ranked, _new)
    if matcher.maximise() < len(ranked) // 2:
        return None
    for candidate in candidates:
        if matcher.without_keeps_perfect(candidate):
            return candidate
    return None


_GUIDED_TRIES = 12


def _pair_top_down(players, matcher, allowed):
    """Pair the highest-ranked left with the partner it prefers (see ``_swiss_two``).

    Only pairs ``allowed`` accepts are made. With a ``matcher`` (holding a perfect matching of
    ``players``), a partner is taken only if everyone else can still be paired; without it the
    first allowed partner is taken, and None is returned if someone is left with none.
    """
    left = list(players)
    pairs = []
    while left:
        first, rest = left[0], left[1:]
        group = [e for e in rest if _score(e) == _score(first)]
        group_index = {e.id: i for i, e in enumerate(group)}
        ideal = (len(group) + 1) // 2 - 1

        def preference(other: Entrant, first=first, group_index=group_index, ideal=ideal) -> tuple:
            in_group = other.id in group_index
            return (
                _seat_conflict(first, other) >= _SEAT_LIMIT,
                abs(_score(first) - _score(other)),
                _seat_conflict(first, other),
                abs(group_index[other.id] - ideal) if in_group else 0,
            )

        # sorted is stable: equal preference keeps ranking order
        candidates = sorted((e for e in rest if allowed(first, e)), key=preference)
        partner = None
        for tries, other in enumerate(candidates):
            if matcher is None or matcher.pair_keeps_perfect(first, other):
                partner = other
                break
            if tries + 1 >= _GUIDED_TRIES:
                # The matching's own partner for ``first`` always works: taking it bounds the
                # search in fields so tight that preferred partners keep failing.
                partner = matcher.players[matcher.mate[matcher.index[first.id]]]
                matcher.pair_keeps_perfect(first, partner)
                break
        if partner is None:
            return None
        pairs.append((first, partner))
        left = [e for e in rest if e.id != partner.id]
    return pairs


class _Matcher:
    """A maximum matching in the graph whose edges are the pairs ``allowed`` accepts.

    Edmonds' blossom algorithm: grow alternating trees from an unmatched player, shrink odd
    cycles (blossoms) to their base, stop at another unmatched player and flip the path.
    ``mate`` is kept perfect on the players still ``alive`` once ``maximise`` found it so.
    """

    def __init__(self, players: Sequence[Entrant], allowed):
        self.players = list(players)
        self.index = {e.id: i for i, e in enumerate(self.players)}
        n = len(self.players)
        self.adj = [
            [j for j, other in enumerate(self.players) if j != i and allowed(e, other)]
            for i, e in enumerate(self.players)
        ]
        self.mate = [-1] * n
        self.alive = [True] * n

    def maximise(self) -> int:
        """Match as many as possible; returns the number of pairs."""
        mate, alive = self.mate, self.alive
        for v in range(len(mate)):
            if alive[v] and mate[v] == -1:
                for u in self.adj[v]:
                    if alive[u] and mate[u] == -1:
                        mate[u], mate[v] = v, u
                        break
        for v in range(len(mate)):
            if alive[v] and mate[v] == -1:
                self._augment(v)
        return sum(1 for v in range(len(mate)) if alive[v] and mate[v] != -1) // 2

    def remove(self, e: Entrant) -> int:
        """Take ``e`` out of the graph; returns its former mate (now unmatched) or -1."""
        v = self.index[e.id]
        u = self.mate[v]
        self.alive[v] = False
        self.mate[v] = -1
        if u != -1:
            self.mate[u] = -1
        return u

    def without_keeps_perfect(self, e: Entrant) -> bool:
        """Whether everyone but ``e`` can be paired, given one unmatched player at most now."""
        saved = self.mate[:]
        v = self.index[e.id]
        u = self.remove(e)
        if u == -1 or self._augment(u):
            return True
        self.mate, self.alive[v] = saved, True
        return False

    def pair_keeps_perfect(self, a: Entrant, b: Entrant) -> bool:
        """Whether, with a and b paired together, everyone else can still be paired (commits)."""
        va, vb = self.index[a.id], self.index[b.id]
        if self.mate[va] == vb:
            self.remove(a)
            self.remove(b)
            return True
        saved = self.mate[:]
        ua, ub = self.remove(a), self.remove(b)
        if ua == -1 or ub == -1 or self._augment(ua):
            return True
        self.mate = saved
        self.alive[va] = self.alive[vb] = True
        return False

    def _augment(self, root: int) -> bool:
        """Search an augmenting path from the unmatched ``root``; flip it if found."""
        mate, alive, adj = self.mate, self.alive, self.adj
        n = len(mate)
        parent = [-1] * n
        base = list(range(n))
        in_tree = [False] * n
        in_tree[root] = True
        queue = [root]

        def common_base(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == -1:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, top: int, child: int, in_blossom: list[bool]) -> None:
            while base[v] != top:
                in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adj[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    top = common_base(v, to)
                    in_blossom = [False] * n
                    mark(v, top, to, in_blossom)
                    mark(to, top, v, in_blossom)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = top
                            if not in_tree[i]:
                                in_tree[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:  # flip the path back to the root
                            p = parent[to]
                            after = mate[p]
                            mate[to], mate[p] = p, to
                            to = after
                        return True
                    in_tree[mate[to]] = True
                    queue.append(mate[to])
        return False


def _swiss_tables(ranked: list[Entrant], byes: list[Entrant], k: int) -> Round:
    """A Swiss round at tables of 3-6.

    Two starts: tables filled in ranking order (points, then rating), each a slice of one score
    group or of neighbouring ones; and tables filled top down, each taking the highest-ranked
    left who has met nobody at it yet. From each, while a table seats two players who met
    before, a player of it is swapped with one of the nearest table where the swap lowers the
    repeats (ties broken by the points spread, then the ranking spread, of the two tables).
    The better result is kept: fewer repeats, then closer points, then closer ranking. Seats
    are then given so everyone's seat counts even out.
    """
    bye_ids = {e.id for e in byes}
    players = [e for e in ranked if e.id not in bye_ids]
    by_id = {e.id: e for e in players}
    position = {e.id: i for i, e in enumerate(players)}

    def repeats(table: list[int]) -> int:
        return sum(1 for a, b in itertools.combinations(table, 2) if b in by_id[a].opponents)

    def cost(table: list[int]) -> int:
        scores = [_score(by_id[p]) for p in table]
        spread = max(position[p] for p in table) - min(position[p] for p in table)
        return repeats(table) * 10**12 + round((max(scores) - min(scores)) * 10**4) * 10**5 + spread

    def improve(tables: list[list[int]]) -> list[list[int]]:
        costs = [cost(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for t1, a in enumerate(tables):
                if repeats(a) == 0:
                    continue
                for t2 in sorted(range(len(tables)), key=lambda t, t1=t1: (abs(t - t1), t)):
                    b = tables[t2]
                    if t2 == t1:
                        continue
                    best = (costs[t1] + costs[t2], None)
                    # Only moving out someone who met a tablemate before can lower t1's repeats.
                    involved = [i for i, p in enumerate(a) if by_id[p].opponents.intersection(a)]
                    for i, j in itertools.product(involved, range(k)):
                        a[i], b[j] = b[j], a[i]
                        best = min(best, (cost(a) + cost(b), (i, j)), key=lambda x: x[0])
                        a[i], b[j] = b[j], a[i]
                    if best[1] is not None:
                        i, j = best[1]
                        a[i], b[j] = b[j], a[i]
                        costs[t1], costs[t2] = cost(a), cost(b)
                        improved = True
                        break
        return tables

    slices = [[e.id for e in players[i : i + k]] for i in range(0, len(players), k)]
    fitted = _first_fit(players, k)
    tables = min(improve(slices), improve(fitted), key=lambda ts: sum(cost(t) for t in ts))
    counts = {e.id: [e.seat_count(s) for s in range(k)] for e in players}
    seated = []
    for table in sorted(tables, key=lambda t: min(position[p] for p in t)):
        table.sort(key=position.__getitem__)
        seated.append(_seat_rotation_by_id(table, counts))
    return Round(tables=tuple(seated), byes=tuple(e.id for e in byes))


def _first_fit(players: list[Entrant], k: int) -> list[list[int]]:
    """Tables top down, each taking the highest-ranked left who met nobody at it (or, failing
    that, the highest-ranked left)."""
    left = list(players)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < k:
            i = next((i for i, e in enumerate(left) if not e.opponents.intersection(p.id for p in table)), 0)
            table.append(left.pop(i))
        tables.append([e.id for e in table])
    return tables


def _seat_rotation_by_id(table: list[int], counts: dict[int, list[int]]) -> tuple[int, ...]:
    local = [counts[p] for p in table]  # the same lists: _seat_rotation updates counts
    order = _seat_rotation(list(range(len(table))), local)
    return tuple(table[i] for i in order)


# ---------------------------------------------------------------------------------------------
# How many rounds


def recommended_rounds(n_entrants: int, table_size: int, format: str) -> int:
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
