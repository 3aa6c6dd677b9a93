from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from games.engines import all_games, get_game

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


def hall_of_fame(request):
    games = [{"game": g, "top": selectors.hall_of_fame(g.slug, limit=HALL_OF_FAME_PER_GAME)} for g in all_games()]
    context = {
        "overall": selectors.overall_top(limit=OVERALL_TOP),
        "min_games": selectors.OVERALL_MIN_GAMES,
        "games": games,
    }
    return render(request, "rankings/hall_of_fame.html", context)


def game_ranking(request, slug):
    """The complete ranking of a game, 50 a page; ``?player=name`` opens the page holding them."""
    game = _game_or_404(slug)
    query = request.GET.get("player", "").strip()[:MAX_NAME]
    found = None
    suggestions = []
    page_number = request.GET.get("page") or 1
    if query:
        found = selectors.find_in_ranking(slug, query)
        if found is not None:
            page_number = selectors.page_of_place(found.place)
        else:
            suggestions = selectors.similar_names(slug, query)
    paginator = Paginator(selectors.RankingList(slug), selectors.RANKING_PAGE_SIZE, allow_empty_first_page=True)
    page = paginator.get_page(page_number)
    rows = list(page.object_list)
    for place, row in enumerate(rows, start=page.start_index()):
        row.place = place
    mine = selectors.rating_of(request.user, slug)
    my_place = selectors.place_of(mine) if mine is not None else None
    context = {
        "game": game,
        "page": page,
        "rows": rows,
        "query": query,
        "found": found,
        "suggestions": suggestions,
        "my_rating": mine,
        "my_place": my_place,
        "my_page": selectors.page_of_place(my_place) if my_place else None,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
    }
    return render(request, "rankings/ranking.html", context)


def stats(request):
    # Counting every match and move of a busy site takes a while: the numbers are kept a little.
    numbers = cache.get_or_set(STATS_CACHE_KEY, selectors.site_stats, STATS_CACHE_SECONDS)
    return render(request, "rankings/stats.html", numbers)
