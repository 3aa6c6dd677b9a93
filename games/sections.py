"""The games' sections of pages composed above them (the game page, in ``portal.views``):
each returns what ``page_cache.cached`` needs, the areas it shows and how to build it."""

from __future__ import annotations

from portal import page_cache

from . import selectors
from .catalog import GameInfo

LATEST_ON_GAME_PAGE = 10


def live_matches(game: GameInfo | None = None) -> page_cache.Rendered:
    """The watch list: public matches being played now (of one game, or of all)."""
    matches = selectors.live_matches(game.slug if game else None)
    return page_cache.render("games/_live_matches.html", {"matches": matches, "game": game})


def game_fragments(game: GameInfo) -> tuple[list[str], dict]:
    """The game page's latest results and matches being played."""
    # A match starting draws a new "open" generation, one ending a new "finished" one.
    return [f"finished:{game.slug}", "open"], {
        "latest": lambda: page_cache.render(
            "games/_latest.html", {"matches": selectors.latest_finished(game.slug, limit=LATEST_ON_GAME_PAGE)}
        ),
        "live_matches": lambda: live_matches(game),
    }
