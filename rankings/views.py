from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from games.catalog import all_games, get_game
from portal import page_cache

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


def hall_of_fame(request):
    context = page_cache.cached(
        "hall-of-fame",
        ["ratings", "people"],
        {"hall_of_fame": lambda: page_cache.render("rankings/_hall_of_fame.html", _hall_of_fame_context())},
    )
    return render(request, "rankings/hall_of_fame.html", context)


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


def _cached_ranking_page(game, number: int) -> dict | None:
    name = str(number)
    areas = [f"ratings:{game.slug}", "people"]
    return page_cache.cached(f"ranking:{game.slug}", areas, {name: lambda: _ranking_page(game, number)})[name]


def _page_number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 1


def game_ranking(request, slug):
    """The complete ranking of a game, 50 a page; ``?player=name`` opens the page holding them."""
    game = _game_or_404(slug)
    query = request.GET.get("player", "").strip()[:MAX_NAME]
    found = None
    suggestions = []
    number = _page_number(request.GET.get("page") or 1)
    if query:
        found = selectors.find_in_ranking(slug, query)
        if found is not None:
            number = selectors.page_of_place(found.place)
        else:
            suggestions = selectors.similar_names(slug, query)
    ranking = _cached_ranking_page(game, number)
    if ranking is None:
        # Past either end: the last page, as the paginator's get_page would show.
        number = max(1, -(-selectors.RankingList(slug).count() // selectors.RANKING_PAGE_SIZE))
        ranking = _cached_ranking_page(game, number)
    mine = selectors.rating_of(request.user, slug, placed=True)
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


def stats(request):
    # Counting every match and move of a busy site takes a while: the numbers are kept a little.
    numbers = cache.get_or_set(STATS_CACHE_KEY, selectors.site_stats, STATS_CACHE_SECONDS)
    return render(request, "rankings/stats.html", numbers)
