from django import template
from django.utils.html import format_html

register = template.Library()

PROVISIONAL_MARK = '<abbr class="provisional" title="provisional: fewer than 20 rated games">?</abbr>'


@register.simple_tag
def rating(row) -> str:
    """A rating as people see it: a whole number, with a "?" while provisional.

    A tag rather than an included template: the ranking page shows fifty of them.
    """
    if row.provisional:
        return format_html("{}" + PROVISIONAL_MARK, row.rounded)
    return format_html("{}", row.rounded)
