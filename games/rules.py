"""The rules pages of the games, written in our own words under games/rules/<slug>.md."""

import re
from functools import lru_cache
from pathlib import Path

from portal.markdown import render_markdown

RULES_DIR = Path(__file__).resolve().parent / "rules"


@lru_cache(maxsize=16)
def rules_html(slug: str) -> str:
    path = RULES_DIR / f"{slug}.md"
    if not path.exists():
        return ""
    html = render_markdown(path.read_text(encoding="utf-8"), user_content=False)
    # The page has its own title; the file's first heading would repeat it.
    return re.sub(r"^\s*<h1>.*?</h1>\s*", "", html, count=1, flags=re.S)
