"""The tournaments' sections of other apps' pages: ``{% game_tournaments slug %}`` on a game
page, ``{% player_tournaments profile %}`` on a player page, ``{% tournament_table match %}``
on the match page of a tournament's table."""

from django import template

from portal import page_cache

from .. import sections, selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def game_tournaments(context, slug):
    """The game's tournaments, kept in the page cache until a tournament changes: read by the
    page's view with its other fragments (``tournaments_section``), or here."""
    section = context.get("tournaments_section")
    if section is None:
        areas, builders = sections.game_fragments(slug)
        section = page_cache.cached(f"tournaments:{slug}", areas, builders)["tournaments_section"]
    return section.fill(context)


@register.inclusion_tag("tournaments/_player_section.html")
def player_tournaments(profile):
    results = selectors.player_results(profile)
    if len(results) < selectors.PLAYER_RESULTS:  # every tournament the player finished is here
        wins = sum(1 for entry in results if entry.final_rank == 1)
    else:
        wins = selectors.player_wins(profile)
    return {"results": results, "wins": wins}


@register.inclusion_tag("tournaments/_table_of.html")
def tournament_table(match):
    """On a table's match page: the tournament and round it belongs to, linked, and until its
    first move is made a countdown of that move's clock (``static/js/table-ready.js``)."""
    table = selectors.table_of_match(match.pk)
    return {"table": table, "match": match, "first_move_due": table is not None and selectors.first_move_due(match)}
