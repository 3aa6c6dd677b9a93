from django.contrib import admin

from .models import Notification, NotificationSettings


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "text", "created", "read"]
    list_filter = ["kind", "read"]
    raw_id_fields = ["user"]


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "email_your_turn", "last_seen"]
    raw_id_fields = ["user"]
