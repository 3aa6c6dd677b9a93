from django.contrib import admin

from .models import Entrant, Tournament


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["user"]
    readonly_fields = ["final_rank", "final_points"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "status", "starts_at", "current_round", "rounds"]
    list_filter = ["status", "game", "format"]
    search_fields = ["name"]
    raw_id_fields = ["creator", "winner", "forum_topic"]
    readonly_fields = ["schedule", "current_round", "invite_token"]
    inlines = [EntrantInline]
