from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import api, probes, views

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("about/", views.about, name="about"),
    path("healthz", views.healthz, name="healthz"),
    path("jsi18n/<str:language>/", views.javascript_catalog, name="javascript-catalog"),
    path("readyz", probes.readyz, name="readyz"),
    path("metrics", probes.metrics_view, name="metrics"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    # The pages composed of several apps' sections.
    path("players/<str:username>/", views.player, name="player"),
    path("games/<slug:slug>/", views.game_detail, name="game-detail"),
    path("", include("games.urls")),
    path("", include("rankings.urls")),
    path("", include("forums.urls")),
    path("", include("challenges.urls")),
    path("", include("tournaments.urls")),
    path("", include("notifications.urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("accounts.api_urls")),
    path("api/", include("rankings.api_urls")),
    path("api/", include("challenges.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("notifications.api_urls")),
    path("api/version/", api.version, name="api-version"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI with its set-up script served as a file (?script), under the site's CSP.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="portal/api_docs.html"),
        name="api-docs",
    ),
    path("admin/", admin.site.urls),
]

handler404 = "portal.views.page_not_found"
