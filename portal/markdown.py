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
from markdown.preprocessors import Preprocessor
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


_QUOTED_FENCE = re.compile(r"^(?P<quote>(?:> ?)+)(?P<fence>`{3,}|~{3,})[^`]*$")


class _QuotedFences(Preprocessor):
    """A fenced code block inside a quotation ("> ```" ... "> ```", as the forum's quote
    button writes it) stays a code block: Python-Markdown finds fences only at the start of a
    line, so each quoted fence becomes the same code indented by four spaces within the
    quotation, set apart from the text around it."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            opening = _QUOTED_FENCE.match(lines[i])
            closing = self._closing(lines, i, opening) if opening else None
            if opening is None or closing is None:
                out.append(lines[i])
                i += 1
                continue
            depth = opening["quote"].count(">")
            prefix = "> " * depth
            out.append(prefix.rstrip())
            for line in lines[i + 1 : closing]:
                out.append(prefix + "    " + self._unquoted(line, depth))
            out.append(prefix.rstrip())
            i = closing + 1
        return out

    @staticmethod
    def _closing(lines: list[str], start: int, opening: re.Match) -> int | None:
        """The line closing the fence opened at ``start``, at the same depth of quotation."""
        depth, fence = opening["quote"].count(">"), opening["fence"]
        for j in range(start + 1, len(lines)):
            quote = re.match(r"^(?:> ?)*", lines[j])
            assert quote is not None
            if quote.group().count(">") != depth:
                return None  # the quotation ended before the fence closed
            if lines[j][quote.end() :].strip().startswith(fence[0] * len(fence)):
                return j
        return None

    @staticmethod
    def _unquoted(line: str, depth: int) -> str:
        for _ in range(depth):
            line = line[1:] if line.startswith(">") else line
            line = line[1:] if line.startswith(" ") else line
        return line


def _followed(href: str) -> bool:
    try:
        scheme = urlsplit(href.strip()).scheme.lower()
    except ValueError:
        return False
    return bool(href.strip()) and (not scheme or scheme in URL_SCHEMES)


def _renderer() -> _markdown.Markdown:
    md = _markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.preprocessors.register(_QuotedFences(md), "quoted_fences", 30)  # before fenced_code (25)
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
