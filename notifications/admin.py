from django.contrib import admin

from .models import Notification, NotificationSettings


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "text", "created", "read"]
    list_filter = ["kind", "read"]
    search_fields = ["user__username", "text"]
    search_help_text = "A username, or words of the notification."
    raw_id_fields = ["user"]
    list_select_related = ["user"]
    list_per_page = 50
    show_full_result_count = False


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "email_your_turn", "last_seen"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    list_select_related = ["user"]
    list_per_page = 50
