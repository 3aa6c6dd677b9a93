from asgiref.sync import sync_to_async
from django.core.cache import cache, caches
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from games.catalog import all_games, get_game
from portal import page_cache
from portal.cache import aget_many
from portal.viewer import viewer

from . import selectors

HALL_OF_FAME_PER_GAME = 5
OVERALL_TOP = 20
MAX_NAME = 150
STATS_CACHE_KEY = "rankings:stats"
STATS_CACHE_SECONDS = 30


def _game_or_404(slug):
    try:
        return get_game(slug)
    except KeyError:
        raise Http404("No such game") from None


def _hall_of_fame_context() -> dict:
    return {
        "overall": selectors.overall_top(limit=OVERALL_TOP),
        "min_games": selectors.OVERALL_MIN_GAMES,
        "games": [{"game": g, "top": selectors.hall_of_fame(g.slug, limit=HALL_OF_FAME_PER_GAME)} for g in all_games()],
    }


HALL_OF_FAME_AREAS = ["ratings", "people"]


async def hall_of_fame(request):
    """An async view: served in the event loop while its table is in the page cache."""

    async def build():
        await viewer(request)
        context = await page_cache.acached(
            "hall-of-fame",
            HALL_OF_FAME_AREAS,
            {"hall_of_fame": lambda: page_cache.render("rankings/_hall_of_fame.html", _hall_of_fame_context())},
        )
        return render(request, "rankings/hall_of_fame.html", context)

    return await page_cache.whole_page(request, HALL_OF_FAME_AREAS, build)


def _ranking_page(game, number) -> dict | None:
    """Page ``number`` of ``game``'s ranking, rendered for sharing, and how many players are
    ranked; None when there is no such page (nothing to keep for it)."""
    paginator = Paginator(selectors.RankingList(game.slug), selectors.RANKING_PAGE_SIZE, allow_empty_first_page=True)
    if not 1 <= number <= paginator.num_pages:
        return None
    page = paginator.page(number)
    rows = list(page.object_list)
    for place, row in enumerate(rows, start=page.start_index()):
        row.place = place
    context = {
        "game": game,
        "page": page,
        "rows": rows,
        "page_range": paginator.get_elided_page_range(number, on_each_side=2, on_ends=1),
    }
    return {"count": paginator.count, "table": page_cache.render("rankings/_ranking_table.html", context)}


def _ranking_areas(slug: str) -> list[str]:
    return [f"ratings:{slug}", "people"]


async def _cached_ranking_page(game, number: int) -> dict | None:
    name = str(number)
    fragments = await page_cache.acached(
        f"ranking:{game.slug}", _ranking_areas(game.slug), {name: lambda: _ranking_page(game, number)}
    )
    return fragments[name]


def _page_number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1


def _last_page(slug: str) -> int:
    return max(1, -(-selectors.RankingList(slug).count() // selectors.RANKING_PAGE_SIZE))


def _search(slug: str, query: str) -> tuple:
    """The ranking row of the player searched for, or names like it."""
    found = selectors.find_in_ranking(slug, query)
    return found, [] if found is not None else selectors.similar_names(slug, query)


async def game_ranking(request, slug):
    """The complete ranking of a game, 50 a page; ``?player=name`` opens the page holding them.
    An async view: a page of the table in the page cache, looked at by someone signed out and
    searching for nobody, is served in the event loop; searches and the viewer's own rating
    are queries, in a thread."""
    game = _game_or_404(slug)
    query = request.GET.get("player", "").strip()[:MAX_NAME]

    async def build():
        user = await viewer(request)
        found = None
        suggestions: list = []
        number = _page_number(request.GET.get("page") or 1)
        if query:
            found, suggestions = await sync_to_async(_search)(slug, query)
            if found is not None:
                number = selectors.page_of_place(found.place)
        ranking = await _cached_ranking_page(game, number)
        if ranking is None:
            # Past either end: the last page, as the paginator's get_page would show.
            number = await sync_to_async(_last_page)(slug)
            ranking = await _cached_ranking_page(game, number)
        mine = await sync_to_async(selectors.rating_of)(user, slug, placed=True) if user.is_authenticated else None
        my_place = mine.place if mine is not None else None
        context = {
            "game": game,
            "number": number,
            "count": ranking["count"],
            "table": ranking["table"],
            "query": query,
            "found": found,
            "suggestions": suggestions,
            "my_rating": mine,
            "my_place": my_place,
            "my_page": selectors.page_of_place(my_place) if my_place else None,
        }
        return render(request, "rankings/ranking.html", context)

    if query:  # what a search finds is in no area's generation
        return await build()
    # Past the last page, the page shown follows the count of ratings, which moves with them.
    return await page_cache.whole_page(request, _ranking_areas(slug), build)


async def stats(request):
    """An async view: the numbers, kept a little, read in the event loop; counted in a thread."""
    await viewer(request)
    # Counting every match and move of a busy site takes a while: the numbers are kept a little.
    numbers = (await aget_many(caches["default"], [STATS_CACHE_KEY])).get(STATS_CACHE_KEY)
    if numbers is None:
        numbers = await sync_to_async(cache.get_or_set)(STATS_CACHE_KEY, selectors.site_stats, STATS_CACHE_SECONDS)
    return render(request, "rankings/stats.html", numbers)
