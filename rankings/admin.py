from django.contrib import admin

from .models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "rating", "rated_games", "wins"]
    list_filter = ["game"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    # Ratings follow from matches: fix a match and run `manage.py recompute_ratings` instead.
    readonly_fields = ["user", "game", "rating", "rated_games", "wins"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "user", "game", "before", "after", "place", "created"]
    list_filter = ["game"]
    search_fields = ["user__username"]
    readonly_fields = ["match", "user", "game", "before", "after", "place", "created"]
