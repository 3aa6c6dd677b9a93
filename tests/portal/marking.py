"""The bare English words of a template or a script: what a reader of another language would
see untranslated. Used by test_translations' ratchets."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from django.template.base import Lexer, TokenType

# What reads the same in every language: names and abbreviations of the site's own.
ALLOWED = {"API", "UTC", "Elo", "JSON", "NDJSON", "PGN", "CSV", "OK", "Swagger", "GitHub"}
# The attributes people read (or hear, through a screen reader).
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
SLOT = " "  # what a tag, a variable or a comment leaves in the text


def _source_without_tags(source: str) -> str:
    """The template's text, every tag, variable and comment made a slot, and what lies
    inside {% blocktranslate %}, {% comment %} and {% verbatim %} left out."""
    out: list[str] = []
    skip_until: str | None = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            name = token.contents.split()[0] if token.contents else ""
            if skip_until is not None:
                if name == skip_until:
                    skip_until = None
                continue
            if name in ("blocktranslate", "blocktrans") or name in ("comment", "verbatim"):
                skip_until = "end" + name
            out.append("slot" if out and out[-1].endswith(("<", "</")) else SLOT)  # a tag's name
        elif skip_until is not None:
            continue
        elif token.token_type == TokenType.TEXT:
            out.append(token.contents)
        else:
            out.append(SLOT)
    return "".join(out)


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.found.extend(_words(value))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.found.extend(_words(data))


def _words(text: str) -> list[str]:
    return [word for word in WORD.findall(text.replace(SLOT, " ")) if word not in ALLOWED]


def bare_words_of_template(path: Path) -> list[str]:
    reader = _Reader()
    reader.feed(_source_without_tags(path.read_text()))
    reader.close()
    return reader.found


# A string literal of a script, shown to people: a capital letter and a space, or a sentence.
_JS_STRING = re.compile(r"""(?<![\w$.])(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\\n]|\\.)*)`)""")
_JS_CALL = re.compile(
    r"(?:(?:gettext|ngettext|pgettext|npgettext|interpolate)\(\s*"
    r"|ngettext\(\s*(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'),\s*)$"  # or ngettext's plural
)


def _without_comments(source: str) -> str:
    """The script without its comments: whole-line ``//`` comments, trailing `` // `` ones and
    ``/* */`` blocks (what they say is for developers)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
    lines = []
    for line in source.split("\n"):
        if line.lstrip().startswith("//"):
            line = ""
        elif " // " in line:
            line = line[: line.index(" // ")]
        lines.append(line)
    return "\n".join(lines)


def bare_strings_of_script(path: Path) -> list[str]:
    """The string literals of a script that read as English sentences or labels (a capital
    letter then a lowercase word, with a space), and are not the argument of ``gettext``."""
    source = _without_comments(path.read_text())
    found = []
    for match in _JS_STRING.finditer(source):
        text = next(group for group in match.groups() if group is not None)
        if not re.search(r"(?:^|[\s(])[A-Z][a-z]+(?:\s|$|[.,:!?])", text) or " " not in text.strip():
            continue
        if "<" in text and ">" in text and not re.search(r">[^<]*[A-Za-z]{3,}", text):
            continue  # markup only
        before = source[max(0, match.start() - 400) : match.start()]
        if _JS_CALL.search(before):
            continue
        found.append(text)
    return found
