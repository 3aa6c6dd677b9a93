"""``{% personal %}`` and ``{% fill %}``: the per-viewer parts of shared fragments (portal.page_cache)."""

from django import template
from django.utils.html import format_html

from portal import page_cache

register = template.Library()


class PersonalNode(template.Node):
    def __init__(self, condition, arg, nodelist):
        self.condition, self.arg, self.nodelist = condition, arg, nodelist

    def render(self, context):
        arg = self.arg.resolve(context) if self.arg is not None else None
        if context.get(page_cache.BUILDING):
            return page_cache.marker(self.condition, arg, self.nodelist.render(context))
        # Rendered for one request: decide at once.
        return self.nodelist.render(context) if page_cache.shows(self.condition, arg, context) else ""


@register.tag
def personal(parser, token):
    """``{% personal "me" row.user_id %}...{% endpersonal %}``: shown only to the viewer the
    condition names (see ``page_cache.CONDITIONS``), also inside a cached fragment."""
    bits = token.split_contents()
    if len(bits) not in (2, 3) or bits[1][0] not in "\"'" or bits[1][1:-1] not in page_cache.CONDITIONS:
        known = ", ".join(page_cache.CONDITIONS)
        raise template.TemplateSyntaxError(f"{{% personal %}} takes a quoted condition ({known}) and an argument")
    arg = parser.compile_filter(bits[2]) if len(bits) == 3 else None
    nodelist = parser.parse(("endpersonal",))
    parser.delete_first_token()
    if nodelist.get_nodes_by_type(PersonalNode):
        raise template.TemplateSyntaxError("{% personal %} parts do not nest")
    return PersonalNode(bits[1][1:-1], arg, nodelist)


@register.simple_tag(takes_context=True)
def fill(context, fragment):
    """A fragment from ``page_cache.render``/``cached``, with this viewer's personal parts."""
    return fragment.fill(context)


@register.simple_tag(takes_context=True)
def form_token(context):
    """``{% csrf_token %}`` for a form on every page (the footer's language form): on a page
    kept for every visitor who brings nothing, a slot that ``page_cache.whole_page`` fills
    with each visitor's own token as it serves the page."""
    request = context.get("request")
    if request is not None and request.META.get(page_cache.SHARED_PAGE):
        token = page_cache.FORM_TOKEN_SLOT.decode()
    else:
        token = context.get("csrf_token", "")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)
