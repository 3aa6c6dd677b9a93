"""Markdown to safe HTML: Python-Markdown renders, nh3 keeps only an allowlist.

Raw HTML in the source is shown as text (the renderer's HTML passes are switched off), and
nh3 then removes anything outside the allowlist, so even a renderer bug cannot let a tag or
an attribute through that we did not list.
"""

import html
import re
from urllib.parse import urlsplit

import markdown as _markdown
import nh3
from markdown.treeprocessors import Treeprocessor

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


class _LinksAndImages(Treeprocessor):
    """Posts show no images: each becomes a link to it, saying so ("image: alt text"), rather
    than vanishing. A link whose address the site does not follow (``javascript:``, ``data:``)
    becomes plain text, rather than something that looks like a link and goes nowhere."""

    def run(self, root):
        for el in root.iter():
            if el.tag == "img":
                src, alt = el.get("src", ""), el.get("alt", "")
                el.attrib.clear()
                el.tag, el.text = "a", f"image: {alt}" if alt else "image"
                el.set("href", src)
            if el.tag == "a" and not _followed(el.get("href", "")):
                title = el.get("title")
                el.attrib.clear()
                el.tag = "span"
                if title:
                    el.set("title", title)


def _followed(href: str) -> bool:
    try:
        scheme = urlsplit(href.strip()).scheme.lower()
    except ValueError:
        return False
    return bool(href.strip()) and (not scheme or scheme in URL_SCHEMES)


def _renderer() -> _markdown.Markdown:
    md = _markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_LinksAndImages(md), "links_and_images", 15)  # after the inline pass
    return md


def plain_text(rendered_html: str) -> str:
    """A rendered post as plain text on one line, for excerpts (search results)."""
    text = nh3.clean(rendered_html, tags=set())
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


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
