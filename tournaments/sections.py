"""The tournaments' section of the game page, for ``page_cache``: the areas it shows and how
to build it (``{% game_tournaments %}`` fills it in)."""

from __future__ import annotations

from games.catalog import game_name
from portal import page_cache

from . import selectors
from .models import Tournament
from .services import CACHE_AREA

GAME_SECTION_SIZE = 5


def game_section(slug: str) -> page_cache.Rendered:
    current = list(selectors.current(slug)[: 2 * GAME_SECTION_SIZE])
    return page_cache.render(
        "tournaments/_game_section.html",
        {
            "slug": slug,
            "game_name": game_name(slug),
            "running": [t for t in current if t.status == Tournament.Status.RUNNING],
            "upcoming": [t for t in current if t.status == Tournament.Status.REGISTRATION],
            "finished": list(selectors.listed("finished", slug)[:GAME_SECTION_SIZE]),
        },
    )


def game_fragments(slug: str) -> tuple[list[str], dict]:
    """The game page's tournaments, kept until a tournament (or a name) changes."""
    return [CACHE_AREA, "people"], {"tournaments_section": lambda: game_section(slug)}
