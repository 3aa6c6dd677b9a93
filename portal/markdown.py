"""Markdown to safe HTML: Python-Markdown renders, nh3 keeps only an allowlist.

Raw HTML in the source is shown as text (the renderer's HTML passes are switched off), and
nh3 then removes anything outside the allowlist, so even a renderer bug cannot let a tag or
an attribute through that we did not list.
"""

import markdown as _markdown
import nh3

ALLOWED_TAGS = {
    "p",
    "br",
    "hr",
    "em",
    "strong",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "del",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}


def _renderer() -> _markdown.Markdown:
    md = _markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def render_markdown(text: str, *, user_content: bool = True) -> str:
    """Render ``text`` as Markdown and sanitise the result.

    Links in user content carry rel="nofollow ugc"; the site's own pages (rules, help) do not.
    """
    html = _renderer().convert(text)
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow ugc noopener noreferrer" if user_content else "noopener",
        strip_comments=True,
    )
