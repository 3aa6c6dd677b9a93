"""The admin's match pages, for operators and moderators.

Matches are read here, not edited: their truth is their moves, and every change goes through
``games.services`` (the one action, "End as aborted", is ``match_staff_end``). Chat messages
are hidden or shown again (``chat_hide``), never deleted; both land in the moderation log.
Each changelist reads its rows and their people in one query (``list_select_related``).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.html import format_html

from portal.errors import ServiceError

from . import services
from .models import ChatMessage, Match, ModerationLog, Move, Seat

PER_PAGE = 50


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows shown, never added, edited or deleted here (a saved form would write back a
    match's whole row over a move made meanwhile). The actions, which go through the
    services, need the model's change permission ("moderate")."""

    list_per_page = PER_PAGE
    show_full_result_count = False  # one COUNT per page, not two

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_moderate_permission(self, request) -> bool:
        opts = self.model._meta
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")

    def has_delete_permission(self, request, obj=None):
        return False


def _changelist(model: str, label: str, **filters) -> str:
    query = "&".join(f"{key}={value}" for key, value in filters.items())
    return format_html('<a href="{}?{}">{}</a>', reverse(f"admin:games_{model}_changelist"), query, label)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "user", "joined_at", "bot_takeover", "resigned", "timed_out", "place", "score")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "game",
        "status",
        "speed",
        "num_players",
        "creator",
        "created_at",
        "finished_at",
        "end_reason",
    ]
    list_display_links = ["id", "game"]
    list_filter = ["status", "game", "speed", "rated", "visibility"]
    search_fields = ["=id", "creator__username", "=seats__user__username"]
    search_help_text = "A match number, or the username of its creator or of a player (exactly)."
    list_select_related = ["creator"]
    readonly_fields = ["state_summary", "moves_link", "chat_link", "moderation_link"]
    fieldsets = [
        (None, {"fields": ["state_summary", "moves_link", "chat_link", "moderation_link"]}),
        (
            "Terms",
            {"fields": ["game", "num_players", "options", "rated", "visibility", "speed", "seconds_per_move"]},
        ),
        (
            "Progress",
            {
                "fields": [
                    "status",
                    "version",
                    "to_move",
                    "deadline",
                    "creator",
                    "created_at",
                    "started_at",
                    "finished_at",
                    "end_reason",
                    "takeback",
                    "rewound_version",
                ]
            },
        ),
    ]
    inlines = [SeatInline]
    actions = ["end_as_aborted"]

    @admin.display(description="State")
    def state_summary(self, match: Match) -> str:
        seats = {seat.index: seat for seat in match.seats.select_related("user")}
        lines = [f"{match.get_status_display()} at version {match.version}, {match.moves.count()} move(s)."]
        if match.to_move is not None and match.to_move in seats:
            seat = seats[match.to_move]
            who = seat.bot_name() or (seat.user.username if seat.user else "nobody")
            due = f", by {match.deadline:%Y-%m-%d %H:%M:%S} UTC" if match.deadline else ""
            lines.append(f"Seat {match.to_move} ({who}) to move{due}.")
        if match.end_reason:
            lines.append(f"Ended: {match.end_reason}.")
        view = match.snapshot or {}
        if view.get("prompt"):
            lines.append(f"Prompt: {view['prompt']}")
        if view.get("scores"):
            lines.append("Scores: " + ", ".join(str(score) for score in view["scores"]))
        return " ".join(lines)

    @admin.display(description="Moves")
    def moves_link(self, match: Match) -> str:
        return _changelist("move", "the moves, read-only", match__id__exact=match.pk)

    @admin.display(description="Chat")
    def chat_link(self, match: Match) -> str:
        return _changelist("chatmessage", "the chat, to moderate", match__id__exact=match.pk)

    @admin.display(description="Moderation")
    def moderation_link(self, match: Match) -> str:
        return _changelist("moderationlog", "what staff did to it", match__id__exact=match.pk)

    @admin.action(description="End as aborted (rated for nobody; the players are told)", permissions=["moderate"])
    def end_as_aborted(self, request, queryset: QuerySet[Match]) -> None:
        ended, refused = [], []
        for match_id in queryset.values_list("pk", flat=True):
            try:
                if services.match_staff_end(match_id=match_id, moderator=request.user):
                    ended.append(match_id)
                else:
                    refused.append(f"#{match_id}: over already")
            except ServiceError as exc:
                refused.append(f"#{match_id}: {exc.message}")
        if ended:
            self.message_user(request, f"Ended as aborted: {', '.join(f'#{pk}' for pk in ended)}.", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not ended: " + "; ".join(refused), messages.WARNING)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ["match", "index", "seat", "action", "created_at"]
    list_select_related = ["match"]
    search_fields = ["=match__id"]
    search_help_text = "A match number."


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "match_number", "user", "text", "hidden_at", "hidden_by"]
    list_filter = [("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "user__username", "=match__id"]
    search_help_text = "Words of the message, its author's username, or a match number."
    list_select_related = ["user", "hidden_by"]
    actions = ["hide", "show"]

    @admin.display(description="Match", ordering="match_id")
    def match_number(self, message: ChatMessage) -> str:
        return format_html(
            '<a href="{}">#{}</a>', reverse("admin:games_match_change", args=[message.match_id]), message.match_id
        )

    def _moderate(self, request, queryset, hidden: bool) -> None:
        changed = sum(
            services.chat_hide(message_id=pk, moderator=request.user, hidden=hidden)
            for pk in queryset.values_list("pk", flat=True)
        )
        done = "Hidden" if hidden else "Shown again"
        self.message_user(request, f"{done}: {changed} message(s).", messages.SUCCESS)

    @admin.action(description="Hide (kept, shown to nobody)", permissions=["moderate"])
    def hide(self, request, queryset: QuerySet[ChatMessage]) -> None:
        self._moderate(request, queryset, hidden=True)

    @admin.action(description="Show again", permissions=["moderate"])
    def show(self, request, queryset: QuerySet[ChatMessage]) -> None:
        self._moderate(request, queryset, hidden=False)


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "moderator", "action", "match_id", "detail"]
    list_filter = ["action"]
    search_fields = ["detail", "moderator__username", "=match__id"]
    list_select_related = ["moderator"]
