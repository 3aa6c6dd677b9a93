from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def player_link(user, label=None):
    """A link to a player's page that never widens the page: a long name is cut with an
    ellipsis (CSS ``.name``) and shown whole on hover."""
    name = label or user.username
    return format_html('<a class="name" href="{}" title="{}">{}</a>', user.get_absolute_url(), name, name)
