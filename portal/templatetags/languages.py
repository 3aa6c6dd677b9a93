"""The language switcher and the scripts' catalogue, on every page (base.html)."""

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html

from portal import page_cache

register = template.Library()


@register.simple_tag
def javascript_catalog():
    """The script that gives the static scripts ``gettext`` in the page's language, at an
    address that changes with the code (so browsers may keep it)."""
    language = translation.get_language() or "en"
    if language not in dict(settings.LANGUAGES):
        language = translation.get_supported_language_variant(language)
    url = reverse("javascript-catalog", args=[language])
    return format_html('<script src="{}?v={}"></script>', url, page_cache.release())


@register.simple_tag
def languages():
    """(code, name in itself, whether it is the page's) for each language of the site."""
    current = translation.get_language()
    return [(code, name, code == current) for code, name in settings.LANGUAGES]
