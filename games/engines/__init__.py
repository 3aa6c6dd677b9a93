"""The registry of game engines. Pure Python: no Django import anywhere in this package."""

from __future__ import annotations

import importlib

from .base import CHANCE, TERMINAL, Game, IllegalAction, State

__all__ = ["CHANCE", "TERMINAL", "Game", "IllegalAction", "State", "all_games", "get_game"]

# Module names in the order the site lists the games. Each module defines ``GAME``.
_ENGINE_MODULES = ("gp02a", "dice_territory", "territories", "chit_territory", "game_of_god")

_registry: dict[str, Game] | None = None


def _load() -> dict[str, Game]:
    global _registry
    if _registry is None:
        games = {}
        for module_name in _ENGINE_MODULES:
            module = importlib.import_module(f"{__name__}.{module_name}")
            games[module.GAME.slug] = module.GAME
        _registry = games
    return _registry


def all_games() -> list[Game]:
    return list(_load().values())


def get_game(slug: str) -> Game:
    games = _load()
    try:
        return games[slug]
    except KeyError:
        raise KeyError(f"Unknown game {slug!r}; known games: {', '.join(games)}") from None
