"""The rules pages in German, French and Spanish: every game's rules translated, with the same
notation, sections and tables as the English rules, shown to a reader in their language."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from games.catalog import all_games
from games.rules import RULES_DIR, rules_html, rules_path

LANGUAGES = ("de", "fr", "es")
SLUGS = sorted(path.stem for path in RULES_DIR.glob("*.md"))


def _code_spans(text: str) -> Counter:
    """What a reader types or reads off the board: squares, actions, points (`b3-c3`)."""
    return Counter(re.findall(r"`([^`\n]+)`", text))


def _outline(text: str) -> list[str]:
    """Heading levels in order, and each table's row count, outside code blocks."""
    outline, table_rows = [], 0
    for line in re.sub(r"```.*?```", "", text, flags=re.S).splitlines():
        if line.startswith("|"):
            table_rows += 1
            continue
        if table_rows:
            outline.append(f"table:{table_rows}")
            table_rows = 0
        heading = re.match(r"(#+) ", line)
        if heading:
            outline.append(heading.group(1))
    if table_rows:
        outline.append(f"table:{table_rows}")
    return outline


def _blocks(text: str) -> list[str]:
    """The board drawings and other fenced blocks, which stay as they are."""
    return re.findall(r"```.*?```", text, flags=re.S)


def test_every_game_has_english_rules():
    assert set(SLUGS) == {game.slug for game in all_games()}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_translation_keeps_the_notation_sections_tables_and_drawings(slug, language):
    english = (RULES_DIR / f"{slug}.md").read_text(encoding="utf-8")
    path = RULES_DIR / language / f"{slug}.md"
    assert path.is_file(), f"{slug} has no {language} rules"
    translated = path.read_text(encoding="utf-8")
    assert _code_spans(translated) == _code_spans(english)
    assert _outline(translated) == _outline(english)
    assert _blocks(translated) == _blocks(english)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_language_has_a_glossary_of_the_games_words(language):
    glossary = RULES_DIR.parent.parent / "locale" / language / "glossary.md"
    text = glossary.read_text(encoding="utf-8")
    for word in ("chip", "block", "farm house", "trunk", "territory", "stack", "challenge", "castle"):
        assert re.search(rf"^\|\s*{word}\s*\|", text, flags=re.M | re.I), f"{word} missing in {glossary}"


def test_a_reader_gets_the_rules_in_their_language_and_english_otherwise():
    english = rules_html("territories", "en")
    german = rules_html("territories", "de")
    assert german and english and german != english
    assert rules_html("territories", "de-at") == german
    assert rules_html("territories", "it") == english
    assert rules_html("territories", "../de") == english
    assert rules_path("no-such-game", "de") is None and rules_html("no-such-game") == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"), [("de", "Das Spielbrett"), ("fr", "Le plateau"), ("es", "El tablero")]
)
def test_the_rules_page_speaks_the_readers_language(client, language, heading):
    response = client.get(reverse("game-rules", args=["territories"]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert heading in page
    assert "The board</h2>" not in page
