from django.conf import settings

from games.engines import all_games


def site(request):
    return {"SITE_NAME": settings.SITE_NAME, "nav_games": all_games()}
