"""The admin's challenge and rematch pages: read-only (answers and expiry go through
``challenges.services``), searchable by the people involved."""

from django.contrib import admin

from .models import Challenge, RematchOffer


class _ReadOnly(admin.ModelAdmin):
    list_per_page = 50
    show_full_result_count = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Challenge)
class ChallengeAdmin(_ReadOnly):
    list_display = ["id", "challenger", "challenged", "game", "speed", "rated", "state", "created_at", "match"]
    list_filter = ["state", "game", "speed"]
    search_fields = ["challenger__username", "challenged__username", "=match__id"]
    search_help_text = "The username of either person, or the match number."
    list_select_related = ["challenger", "challenged", "match"]


@admin.register(RematchOffer)
class RematchOfferAdmin(_ReadOnly):
    list_display = ["id", "match", "offered_by", "state", "created_at", "new_match"]
    list_filter = ["state"]
    search_fields = ["offered_by__username", "=match__id"]
    list_select_related = ["match", "offered_by", "new_match"]
