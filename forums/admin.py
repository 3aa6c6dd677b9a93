from django.contrib import admin

from portal.markdown import render_markdown

from .models import Forum, ModerationLog, Post, PostReport, Topic


@admin.register(Forum)
class ForumAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "game", "position"]
    list_editable = ["position"]


@admin.register(Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ["title", "forum", "author", "last_activity_at", "pinned", "locked", "hidden_at"]
    list_filter = ["forum", "pinned", "locked"]
    search_fields = ["title"]
    raw_id_fields = ["author", "match", "hidden_by"]


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    list_display = ["__str__", "author", "created_at", "edited_at", "hidden_at"]
    search_fields = ["body"]
    raw_id_fields = ["topic", "author", "hidden_by"]
    readonly_fields = ["body_html"]

    def save_model(self, request, obj, form, change):
        obj.body_html = render_markdown(obj.body)  # the stored rendering always follows the source
        super().save_model(request, obj, form, change)


@admin.register(ModerationLog)
class ModerationLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "moderator", "action", "detail", "reason"]
    list_filter = ["action"]

    def has_change_permission(self, request, obj=None):
        return False  # the log is a record, not a draft


@admin.register(PostReport)
class PostReportAdmin(admin.ModelAdmin):
    """Read-only: the moderators deal with reports on the forum's queue (/forum/reports/)."""

    list_display = ["__str__", "reporter", "created_at", "outcome", "resolved_by"]
    list_filter = ["outcome"]
    list_select_related = ["reporter", "resolved_by"]
    raw_id_fields = ["post", "reporter", "resolved_by"]
    readonly_fields = ["post", "reporter", "reason", "created_at", "outcome", "resolved_by", "resolved_at"]
