"""Tournament points from table results, and the standings with their named tie-breaks.

Pure Python, no Django. A round is given as ``(table results, bye ids)``; a table result is the
players in seat order and their final places (1 = best, equal places shared), as a match's
final ranking gives them.

Points per table (``table_points``): a table of n players shares out n(n-1)/2 pairwise results
of 1 / 0.5 / 0, the way the ratings read a match, and a player's points are their share divided
by n - 1: (n - place) / (n - 1), players who share a place splitting the places they cover. At
two players that is the familiar 1 / 0.5 / 0; at every size the winner gets 1, the last 0, and
a table hands out n / 2 points, so the points of players seated at different sizes compare.

A bye scores ``BYE_POINTS`` (a full point, as a win: the player came to play and the field
could not seat them; byes go to the lowest-ranked, so it seldom decides the top).

Tie-breaks (``TIE_BREAKS``), in order, after points:

- Buchholz: for each table, the mean final points of the opponents at it, summed over tables.
  At two players, the classic sum of the opponents' points.
- Sonneborn-Berger: for each table, the mean over the opponents of (the pairwise result against
  that opponent, 1 / 0.5 / 0 by place) x (that opponent's final points), summed over tables. At
  two players, the classic sum of beaten opponents' points plus half the drawn ones'.
- Wins: tables finished alone in first place (a bye is not a win).

Unplayed meetings: a bye, and any meeting in which one side lost by forfeit (time-out, no-show,
withdrawal), counts for both tie-breaks as a meeting with a virtual opponent whose points are
the player's own final points (FIDE's 2023 tie-break rules, simplified), so nobody's tie-break
gains or loses from an opponent who did not play. The result against that opponent is still the
one scored (the bye's points, or the places at the table).

Withdrawn entrants keep their results and stay in the standings (``Standing.withdrawn``); their
opponents' tie-breaks use their final points like anyone else's.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.pairing import Entrant

BYE_POINTS: float = 1.0
TIE_BREAKS: tuple[str, ...] = ("Buchholz", "Sonneborn-Berger", "Wins")


class StandingsError(ValueError):
    """The results handed in do not describe a tournament (unknown player, seated twice, ...)."""


@dataclass(frozen=True)
class TableResult:
    players: tuple[int, ...]  # seat order
    places: tuple[int, ...]  # 1-based, equal places share (as the match's final ranking)
    forfeited: tuple[int, ...] = ()  # players who lost by time-out/withdrawal


@dataclass(frozen=True)
class Standing:
    entrant: int
    rank: int  # 1-based; entrants equal on points and every tie-break share a rank
    points: float
    tie_breaks: tuple[tuple[str, float], ...]  # (name, value) in the order of TIE_BREAKS
    played: int  # tables sat at (forfeits included, byes not)
    byes: int
    withdrawn: bool = False


RoundResults = tuple[Sequence[TableResult], Sequence[int]]


def _exact_table_points(places: Sequence[int]) -> list[Fraction]:
    """(n - position) / (n - 1) per player, players sharing a place splitting their positions.

    Positions are taken from the order of the places, so a ranking written 1, 1, 3 and one
    written 1, 1, 2 both mean two players sharing first and one last.
    """
    n = len(places)
    if n < 2:
        raise StandingsError("A table has at least two players.")
    if any(p < 1 for p in places):
        raise StandingsError("Places start at 1.")
    order = sorted(range(n), key=lambda i: places[i])
    points: list[Fraction] = [Fraction(0)] * n
    start = 0
    while start < n:
        end = start
        while end < n and places[order[end]] == places[order[start]]:
            end += 1
        # positions start..end-1 (0-based) shared: mean of (n - 1 - position) / (n - 1)
        shared = Fraction(sum(n - 1 - pos for pos in range(start, end)), (end - start) * (n - 1))
        for i in order[start:end]:
            points[i] = shared
        start = end
    return points


def table_points(places: Sequence[int]) -> list[float]:
    """Tournament points per seat for one table's final places (see the module docstring)."""
    return [float(p) for p in _exact_table_points(places)]


def _pairwise(place: int, other: int) -> Fraction:
    return Fraction(1) if place < other else Fraction(1, 2) if place == other else Fraction(0)


def _validate(entrant_ids: Sequence[int], rounds: Sequence[RoundResults]) -> None:
    known = set(entrant_ids)
    if len(known) != len(entrant_ids):
        raise StandingsError("An entrant is listed twice.")
    for number, (tables, byes) in enumerate(rounds, start=1):
        seen: list[int] = list(byes)
        for table in tables:
            if len(table.players) != len(table.places):
                raise StandingsError(
                    f"Round {number}: a table has {len(table.players)} players but {len(table.places)} places."
                )
            if not set(table.forfeited) <= set(table.players):
                raise StandingsError(f"Round {number}: a forfeit by someone not at the table.")
            seen.extend(table.players)
        if len(seen) != len(set(seen)):
            raise StandingsError(f"Round {number}: an entrant is seated twice or seated and given a bye.")
        unknown = set(seen) - known
        if unknown:
            raise StandingsError(f"Round {number}: {sorted(unknown)} did not enter.")


def _points(entrant_ids: Sequence[int], rounds: Sequence[RoundResults]) -> dict[int, Fraction]:
    points = {e: Fraction(0) for e in entrant_ids}
    for tables, byes in rounds:
        for table in tables:
            for player, scored in zip(table.players, _exact_table_points(table.places), strict=True):
                points[player] += scored
        for player in byes:
            points[player] += Fraction(BYE_POINTS)
    return points


def standings(
    entrant_ids: Sequence[int],
    rounds: Sequence[RoundResults],
    withdrawn: Collection[int] = (),
) -> list[Standing]:
    """Every entrant, best first: by points, then by ``TIE_BREAKS`` in order.

    ``rounds`` holds the finished rounds (a round still being played is left out by the caller,
    or passed with only its finished tables). Entrants equal on everything share a rank and are
    listed in the order of ``entrant_ids``.
    """
    ids = list(entrant_ids)
    _validate(ids, rounds)
    points = _points(ids, rounds)
    buchholz = dict.fromkeys(ids, Fraction(0))
    sonneborn = dict.fromkeys(ids, Fraction(0))
    wins = dict.fromkeys(ids, 0)
    played = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    for tables, round_byes in rounds:
        for table in tables:
            seats = list(zip(table.players, table.places, strict=True))
            forfeited = set(table.forfeited)
            firsts = sum(1 for place in table.places if place == min(table.places))
            for player, place in seats:
                played[player] += 1
                if place == min(table.places) and firsts == 1:
                    wins[player] += 1
                opp_sum, sb_sum = Fraction(0), Fraction(0)
                for other, other_place in seats:
                    if other == player:
                        continue
                    unplayed = player in forfeited or other in forfeited
                    value = points[player] if unplayed else points[other]
                    opp_sum += value
                    sb_sum += _pairwise(place, other_place) * value
                buchholz[player] += opp_sum / (len(seats) - 1)
                sonneborn[player] += sb_sum / (len(seats) - 1)
        for player in round_byes:
            byes[player] += 1
            buchholz[player] += points[player]
            sonneborn[player] += Fraction(BYE_POINTS) * points[player]

    def key(e: int) -> tuple[Fraction, ...]:
        return (points[e], buchholz[e], sonneborn[e], Fraction(wins[e]))

    order = sorted(ids, key=lambda e: tuple(-v for v in key(e)))  # stable: equal keep input order
    out: list[Standing] = []
    gone = set(withdrawn)
    for position, e in enumerate(order):
        rank = out[-1].rank if out and key(order[position - 1]) == key(e) else position + 1
        out.append(
            Standing(
                entrant=e,
                rank=rank,
                points=float(points[e]),
                tie_breaks=(
                    ("Buchholz", float(buchholz[e])),
                    ("Sonneborn-Berger", float(sonneborn[e])),
                    ("Wins", float(wins[e])),
                ),
                played=played[e],
                byes=byes[e],
                withdrawn=e in gone,
            )
        )
    return out


def pairing_entrants(
    ratings: Mapping[int, float],
    rounds: Iterable[RoundResults],
    withdrawn: Collection[int] = (),
) -> list[Entrant]:
    """The ``Entrant`` values ``swiss_round`` needs, from the results so far.

    ``ratings`` maps every entrant to their rating; the withdrawn are left out (they are no
    longer paired), but their results still count for everyone else's points so far.
    """
    rounds = list(rounds)
    ids = list(ratings)
    _validate(ids, rounds)
    points = _points(ids, rounds)
    opponents: dict[int, set[int]] = {e: set() for e in ids}
    bye_count = dict.fromkeys(ids, 0)
    seats: dict[int, list[int]] = {e: [] for e in ids}
    for tables, round_byes in rounds:
        for table in tables:
            for seat, player in enumerate(table.players):
                opponents[player].update(p for p in table.players if p != player)
                counts = seats[player]
                counts.extend([0] * (seat + 1 - len(counts)))
                counts[seat] += 1
        for player in round_byes:
            bye_count[player] += 1
    gone = set(withdrawn)
    return [
        Entrant(
            id=e,
            rating=float(ratings[e]),
            points=float(points[e]),
            opponents=frozenset(opponents[e]),
            byes=bye_count[e],
            seat_counts=tuple(seats[e]),
        )
        for e in ids
        if e not in gone
    ]
