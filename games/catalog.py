"""The games as the rest of the site sees them: what a page, a form or a ranking needs to
know about a game, without its rules, and the names of the computer players. Other apps
import this module, never ``games.engines`` or ``games.bots``: they are private to ``games``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from . import bots, engines


@dataclass(frozen=True)
class GameInfo:
    """One game's public description."""

    slug: str
    name: str
    summary: str
    min_players: int
    max_players: int
    # The exact counts when a game is played by some counts in its range only; empty when
    # every count from ``min_players`` to ``max_players`` plays.
    player_counts: tuple[int, ...]

    def allowed_player_counts(self) -> tuple[int, ...]:
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def check_players(self, num_players: int) -> None:
        """``ValueError``, in words, unless the game is played by ``num_players``."""
        engines.get_game(self.slug).check_players(num_players)


@cache
def _catalog() -> dict[str, GameInfo]:
    return {
        game.slug: GameInfo(
            slug=game.slug,
            name=game.name,
            summary=game.summary,
            min_players=game.min_players,
            max_players=game.max_players,
            player_counts=tuple(game.player_counts),
        )
        for game in engines.all_games()
    }


def all_games() -> list[GameInfo]:
    """Every game, in the order the site lists them."""
    return list(_catalog().values())


def get_game(slug: str) -> GameInfo:
    """The game called ``slug``; ``KeyError`` if the site has no such game."""
    games = _catalog()
    try:
        return games[slug]
    except KeyError:
        raise KeyError(f"Unknown game {slug!r}; known games: {', '.join(games)}") from None


def game_slugs() -> set[str]:
    return set(_catalog())


def game_name(slug: str) -> str:
    """The game's name; ``KeyError`` if the site has no such game."""
    return get_game(slug).name


def game_choices() -> list[tuple[str, str]]:
    """(slug, name) of every game, for a form's choice field."""
    return [(game.slug, game.name) for game in all_games()]


def bot_names() -> list[str]:
    """The computer players (bot levels) by name, in the order the site lists them."""
    return bots.bot_names()


def bot_choices() -> list[tuple[str, str]]:
    """(name, the label people see) of every computer player, for a form's choice field."""
    return [(name, bots.bot_label(name)) for name in bots.bot_names()]
