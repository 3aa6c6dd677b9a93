from django.http import HttpResponse
from django.shortcuts import render

from games.catalog import all_games
from games.selectors import latest_finished

from . import page_cache
from .api_errors import not_found_json


def home(request):
    context = page_cache.cached(
        "home",
        ["finished", "people"],
        {"latest": lambda: page_cache.render("portal/_home_latest.html", {"latest": latest_finished(limit=8)})},
    )
    return render(request, "portal/home.html", {"games": all_games(), **context})


def help_page(request):
    return render(request, "portal/help.html")


def about(request):
    return render(request, "portal/about.html")


def page_not_found(request, exception):
    if request.path.startswith("/api/"):
        return not_found_json(request)
    return render(request, "404.html", status=404)


def healthz(request):
    """For load balancers and uptime checks: the process answers. Touches neither the
    database nor the cache, so it also serves as the cheapest page of the site."""
    return HttpResponse("ok", content_type="text/plain")
