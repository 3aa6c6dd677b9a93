"""The tournaments' sections of other apps' pages: ``{% game_tournaments slug %}`` on a game
page, ``{% player_tournaments profile %}`` on a player page."""

from django import template

from games.catalog import game_name
from portal import page_cache

from .. import selectors
from ..models import Tournament
from ..services import CACHE_AREA

register = template.Library()

GAME_SECTION_SIZE = 5


def _game_section(slug: str):
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


@register.simple_tag(takes_context=True)
def game_tournaments(context, slug):
    """The game's tournaments, kept in the page cache until a tournament changes."""
    section = page_cache.cached(f"tournaments:{slug}", [CACHE_AREA, "people"], {"section": lambda: _game_section(slug)})
    return section["section"].fill(context)


@register.inclusion_tag("tournaments/_player_section.html")
def player_tournaments(profile):
    results = selectors.player_results(profile)
    if len(results) < selectors.PLAYER_RESULTS:  # every tournament the player finished is here
        wins = sum(1 for entry in results if entry.final_rank == 1)
    else:
        wins = selectors.player_wins(profile)
    return {"results": results, "wins": wins}
