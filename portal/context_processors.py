import functools

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

from games.catalog import all_games

from . import __version__

# The addresses in the header and footer of every page, under the names base.html uses.
SITE_LINKS = {
    "home": "home",
    "games": "game-list",
    "play": "lobby",
    "hall_of_fame": "hall-of-fame",
    "tournaments": "tournament-list",
    "challenges": "challenges",
    "forum": "forum-index",
    "stats": "stats",
    "help": "help",
    "about": "about",
    "api_docs": "api-docs",
    "signup": "account_signup",
    "login": "account_login",
    "logout": "account_logout",
    "my_matches": "my-matches",
    "profile_edit": "profile-edit",
    "change_password": "account_change_password",
    "notifications": "notifications",
}


@functools.cache
def _site_links(script_prefix: str, urlconf: str) -> dict[str, str]:
    # Reversed once per process rather than on every page: each reverse costs tens of
    # microseconds, and the header and footer hold fifteen. Every address starts with the
    # script prefix, hence the key.
    return {key: reverse(name) for key, name in SITE_LINKS.items()}


def site(request):
    return {
        "SITE_NAME": settings.SITE_NAME,
        "PORTAL_VERSION": __version__,
        "nav_games": all_games(),
        "links": _site_links(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF),
    }
