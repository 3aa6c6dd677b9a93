import functools

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

from forums.selectors import forum_url_for_game
from games import learn_views
from games import sections as game_sections
from games.bot_strength import bot_budgets, bot_claims, bot_strengths, level_description
from games.catalog import all_games, get_game
from games.rules import rules_html
from games.selectors import latest_finished
from rankings import sections as ranking_sections
from tournaments import sections as tournament_sections

from . import page_cache
from .api_errors import not_found_json
from .viewer import viewer

# The pages made of cached fragments are async views: a request whose fragments are all in the
# cache is served in the event loop, with no thread (page_cache.acached); one that finds a
# fragment stale builds it in a thread as before.


@functools.cache
def _game_cards(script_prefix: str, language: str) -> str:
    """The home page's cards of the games: the same for everyone while the process runs (the
    catalog is code), so rendered once per process (per script prefix, as its addresses, and
    per language)."""
    return render_to_string("portal/_game_cards.html", {"games": all_games()})


_catalog_view = JavaScriptCatalog.as_view(packages=["portal"])  # the project's locale/ only


@functools.cache
def _catalog_script(language: str) -> bytes:
    """Django's JavaScript catalog of ``language`` (the catalogues are part of the code)."""
    request = HttpRequest()
    request.method = "GET"
    with translation.override(language):
        response = _catalog_view(request)
    assert isinstance(response, HttpResponse)  # rendered at once, not streamed
    return response.content


# Its address carries the code's fingerprint (``{% javascript_catalog %}``), so browsers keep it.
@cache_control(public=True, max_age=365 * 24 * 3600, immutable=True)
def javascript_catalog(request, language: str):
    """The translations of the static scripts (``gettext``, ``ngettext``, ``interpolate``)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404("No such language")
    return HttpResponse(_catalog_script(language), content_type="text/javascript; charset=utf-8")


HOME_AREAS = ["finished", "people"]


async def home(request):
    async def build():
        await viewer(request)
        context = await page_cache.acached(
            "home",
            HOME_AREAS,
            {"latest": lambda: page_cache.render("portal/_home_latest.html", {"latest": latest_finished(limit=8)})},
        )
        return render(
            request,
            "portal/home.html",
            {"game_cards": _game_cards(get_script_prefix(), translation.get_language()), **context},
        )

    return await page_cache.whole_page(request, HOME_AREAS, build)


async def game_detail(request, slug):
    """A game's page: its rules and matches (games), its Hall of Fame (rankings) and a link to
    its forum (forums)."""
    try:
        game = get_game(slug)
    except KeyError:
        raise Http404("No such game") from None
    game_areas, game_builders = game_sections.game_fragments(game)
    fame_areas, fame_builders = ranking_sections.game_fragments(slug)
    tournament_areas, tournament_builders = tournament_sections.game_fragments(slug)
    shared = {
        **game_builders,
        "forum_url": lambda: forum_url_for_game(slug) or "",
        **fame_builders,
        **tournament_builders,
    }
    areas = list(dict.fromkeys([*game_areas, "forums", *fame_areas, *tournament_areas]))

    async def build():
        user = await viewer(request)
        # The viewer's own rating: a query for a signed-in viewer only.
        section = ranking_sections.game_section
        personal = await sync_to_async(section)(slug, user) if user.is_authenticated else section(slug, None)
        context = {"game": game, "rules": rules_html(slug), **personal}
        context.update(await page_cache.acached(f"game:{slug}", areas, shared))
        return render(request, "games/game_detail.html", context)

    return await page_cache.whole_page(request, areas, build)


def player(request, username):
    """A player's page: the profile (accounts), a bot's measured strength (games) and the
    ratings, rating history and recent matches (rankings)."""
    profile = get_object_or_404(
        get_user_model().objects.select_related("owner"), username__iexact=username, is_active=True
    )
    strengths = bot_strengths(profile.bot_name) if profile.is_site_bot else []
    # A bot's page says how its level plays, in the page's language, beside its budget per game
    # from the levels' file (games.bot_strength), so the numbers follow the code; the bio its
    # account was made with is history (it named budgets since changed).
    about = (level_description(profile.bot_name) if profile.is_site_bot else "") or profile.bio
    return render(
        request,
        "accounts/player.html",
        {
            "profile": profile,
            "about": about,
            "bot_strengths": strengths,
            # A site bot's level: how much it thinks in each game, and what the tournament
            # decided about it at each table (games.bot_strength).
            "bot_budgets": bot_budgets(profile.bot_name) if profile.is_site_bot else [],
            "bot_claims": bot_claims(profile.bot_name) if profile.is_site_bot else [],
            "pause_after": settings.BOT_ACCOUNT_TIMEOUTS_TO_PAUSE,
            **ranking_sections.player_section(profile),
        },
    )


def help_page(request):
    return render(request, "portal/help.html", {"learn_links": learn_views.learn_links()})


def about(request):
    return render(request, "portal/about.html")


def page_not_found(request, exception):
    if request.path.startswith("/api/"):
        return not_found_json(request)
    return render(request, "404.html", status=404)


# What a form sent without its CSRF token (or with a stale one) tells the person: nearly
# always a page left open past its session, or a session that ended in another tab.
CSRF_FAILURE_MESSAGE = "Your session expired or the form was open too long; reload the page and try again."


def csrf_failure(request, reason=""):
    """The site's 403 page for a form the CSRF check refused (``CSRF_FAILURE_VIEW``), instead
    of Django's bare one; ``reason`` (for the logs) is not shown."""
    context = {"exception": CSRF_FAILURE_MESSAGE, "csrf_failed": True}
    return render(request, "403.html", context, status=403)


async def healthz(request):
    """For load balancers and uptime checks: the process answers. Touches neither the
    database nor the cache, so it also serves as the cheapest page of the site; an async view
    behind async middleware only (portal.middleware), it never leaves the event loop."""
    return HttpResponse("ok", content_type="text/plain")
