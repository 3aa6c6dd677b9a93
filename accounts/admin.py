from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class PortalUserAdmin(UserAdmin):
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Portal", {"fields": ("is_bot", "bot_name", "owner", "bot_paused_at", "bot_unpaused_at", "bio")}),
    )
    raw_id_fields = ("owner",)
    list_display = ("username", "email", "is_bot", "is_staff", "date_joined")
    list_filter = UserAdmin.list_filter + ("is_bot",)
