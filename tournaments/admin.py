from django.contrib import admin

from .models import Entrant, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    readonly_fields = ["user", "final_rank", "final_points"]

    def has_add_permission(self, request, obj=None):
        return False  # people enter through the tournament's page (tournaments.services)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "status", "starts_at", "current_round", "rounds"]
    list_filter = ["status", "game", "format"]
    search_fields = ["name", "creator__username"]
    list_per_page = 50
    show_full_result_count = False
    raw_id_fields = ["creator", "winner", "forum_topic"]
    readonly_fields = ["schedule", "current_round", "invite_token"]
    inlines = [EntrantInline]
