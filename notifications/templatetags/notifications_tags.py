from django import template

from ..forms import NotificationSettingsForm
from ..models import NotificationSettings

register = template.Library()


@register.inclusion_tag("notifications/_settings_form.html", takes_context=True)
def notification_settings_form(context):
    """The signed-in person's notification settings, as a form (profile page)."""
    user = context["request"].user
    current = NotificationSettings.objects.filter(user=user).first() or NotificationSettings(user=user)
    return {"form": NotificationSettingsForm(instance=current), "csrf_token": context.get("csrf_token")}
