"""The rules pages of the games, written in our own words under games/rules/<slug>.md.

A translation lies beside them in games/rules/<language>/<slug>.md (``de/territories.md``); a
page asked for in a language with no translation of its own is the English one.
"""

import re
from functools import lru_cache
from pathlib import Path

from django.utils import translation

from portal.markdown import render_markdown

RULES_DIR = Path(__file__).resolve().parent / "rules"


def rules_path(slug: str, language: str | None = None) -> Path | None:
    """The rules file for ``slug`` in ``language`` (its base language too: ``de`` for ``de-at``),
    else the English file; None for an unknown game."""
    language = (language or "").lower()
    for code in dict.fromkeys([language, language.split("-")[0]]):
        if code and code != "en" and "/" not in code and "." not in code:
            path = RULES_DIR / code / f"{slug}.md"
            if path.is_file():
                return path
    path = RULES_DIR / f"{slug}.md"
    return path if path.is_file() else None


@lru_cache(maxsize=64)
def _rendered(path: Path) -> str:
    html = render_markdown(path.read_text(encoding="utf-8"), user_content=False)
    # The page has its own title; the file's first heading would repeat it.
    return re.sub(r"^\s*<h1>.*?</h1>\s*", "", html, count=1, flags=re.S)


def rules_html(slug: str, language: str | None = None) -> str:
    """The rules of ``slug`` as HTML, in ``language`` (by default the active one) where they are
    translated, else in English; "" for an unknown game."""
    path = rules_path(slug, language if language is not None else translation.get_language())
    return _rendered(path) if path is not None else ""
