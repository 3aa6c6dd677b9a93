from django import template

from portal.markdown import plain_text

register = template.Library()


@register.filter
def plain(rendered_html: str) -> str:
    """A rendered post as plain text (no Markdown marks, no tags), for excerpts."""
    return plain_text(rendered_html or "")
