"""Elo for matches of two or more players. Pure Python: no Django import.

A finished match of N players counts as N(N-1)/2 pairwise results decided by final place
(1 = best, ties share a place): the better place scores 1, an equal place 0.5, a worse one 0.
Each player's change is K/(N-1) times the sum over opponents of (S - E), with
E = 1 / (1 + 10^((Rj - Ri) / 400)), everything computed from the ratings before the match.
K is 40 while a player has fewer than 20 rated games behind them (provisional), then 20.

Ratings are floats and stay floats: they are rounded only for display, so replaying every
match reproduces exactly the numbers the incremental rating stored.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

INITIAL_RATING = 1500.0
PROVISIONAL_GAMES = 20
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0


def k_factor(rated_games: int) -> float:
    """K for a player who has ``rated_games`` rated games behind them (before this one)."""
    return K_PROVISIONAL if rated_games < PROVISIONAL_GAMES else K_ESTABLISHED


def is_provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


def expected_score(rating: float, opponent: float) -> float:
    """The score ``rating`` expects against ``opponent``: 0.5 between equals."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def pair_score(place: int, opponent_place: int) -> float:
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def elo_changes(ratings: Sequence[float], places: Sequence[int], rated_games: Sequence[int]) -> list[float]:
    """The rating change of each player of one match, in the order given.

    ``ratings`` are the pre-match ratings, ``places`` the final places (1 = best, ties share),
    ``rated_games`` how many rated games each player had before this one. Raises ValueError
    on inconsistent input.
    """
    n = len(ratings)
    if n < 2:
        raise ValueError("A rated match needs at least two players.")
    if len(places) != n or len(rated_games) != n:
        raise ValueError("Give one rating, one place and one game count per player.")
    for place in places:
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= n:
            raise ValueError(f"A place is a whole number from 1 to {n}, not {place!r}.")
    for games in rated_games:
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            raise ValueError(f"A number of rated games is a whole number from 0, not {games!r}.")
    changes = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if j != i:
                total += pair_score(places[i], places[j]) - expected_score(ratings[i], ratings[j])
        changes.append(k_factor(rated_games[i]) / (n - 1) * total)
    return changes


def changes_by_player(
    players: Sequence[Hashable],
    places: Sequence[int],
    ratings: Mapping[Hashable, float],
    rated_games: Mapping[Hashable, int],
) -> dict[Hashable, float]:
    """The change per player of a match given seat by seat (``players[i]`` sat in seat i).

    One account may hold several seats (the same bot filling every empty seat): its seats are
    rated as separate players with the same pre-match rating and their changes are added up.
    The pairs between its own seats then cancel out, so it gains or loses only against others.
    """
    changes = elo_changes([ratings[p] for p in players], places, [rated_games[p] for p in players])
    total: dict[Hashable, float] = {}
    for player, change in zip(players, changes, strict=True):
        total[player] = total.get(player, 0.0) + change
    return total
