"""A German, French or Spanish player plays a move of each game and a lesson's first step in
their language: no word of the English interface is left on the page, and at 390 px (a phone)
the longer words do not push the page wider than the screen."""

import re

import pytest

pytestmark = pytest.mark.browser

LANGUAGES = (("de", "de-DE"), ("fr", "fr-FR"), ("es", "es-ES"))
GAMES = (("territories", 2), ("chit-territory", 2), ("game-of-god", 2), ("gp02a", 3), ("dice-territory", 3))
# The interface's commonest English words: the turn line, the panels, the engines' prompts and
# move labels. A page in another language shows none of them (names and game titles aside).
ENGLISH = (
    "Your move",
    "is to move",
    "Resign",
    "Moves",
    "Spectators",
    "Waiting",
    "Offer",
    "Rules",
    "Place",
    "Build",
    "Choose",
    "Roll",
    "marker",
    "castle",
    "chip",
    "trunk",
    "farm house",
    "stack",
    "your",
)
PHONE = {"width": 390, "height": 844}


def english_words(text: str) -> list[str]:
    """The English words found, each with the line it is in."""
    found = []
    for word in ENGLISH:
        for line in text.splitlines():
            if re.search(rf"\b{re.escape(word)}\b", line):
                found.append(f"{word}: {line.strip()[:120]}")
                break
    return found


def overflow(page) -> int:
    """How many pixels the page is wider than the screen."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize(("language", "locale"), LANGUAGES)
def test_a_move_of_every_game_in_the_players_language(asgi_server, browser, make_user, language, locale, tmp_path):
    from games import services
    from tests.games.browser import pages

    for slug, players in GAMES:
        users = [make_user(f"{language}{slug[:4]}{n}".replace("-", "")) for n in range(players)]

        def start(users=users, slug=slug, players=players):
            match = services.match_create(user=users[0], game=slug, num_players=players)
            for user in users[1:]:
                services.match_join(match_id=match.pk, user=user)
            match.refresh_from_db()
            return match

        match = pages.in_thread(start)
        mover = users[match.to_move]
        context = pages.signed_in_context(browser, asgi_server, mover, locale=locale, viewport=PHONE)
        page = context.new_page()
        page.goto(f"{asgi_server}/matches/{match.pk}/")
        page.wait_for_function(pages.CONNECTED)
        assert page.locator("html").get_attribute("lang") == language
        version = page.evaluate("window.matchClient.payload.version")
        page.evaluate("window.matchClient.act(window.matchClient.payload.legal_actions[0].action)")
        page.wait_for_function("(v) => window.matchClient.payload.version > v", arg=version, timeout=15_000)
        text = page.inner_text("body")
        assert english_words(text) == [], f"{slug} in {language}: {english_words(text)}"
        page.screenshot(path=tmp_path / f"{slug}-{language}.png", full_page=True)
        assert overflow(page) <= 0, f"{slug} in {language} is {overflow(page)} px wider than a phone"
        context.close()


@pytest.mark.parametrize(("language", "locale"), LANGUAGES)
def test_a_lessons_first_step_in_the_learners_language(asgi_server, browser, language, locale, tmp_path):
    context = browser.new_context(locale=locale, viewport=PHONE)
    page = context.new_page()
    for slug, _ in GAMES:
        page.goto(f"{asgi_server}/games/{slug}/learn/")
        assert page.locator("html").get_attribute("lang") == language
        text = page.inner_text("main")
        assert english_words(text) == [], f"the {slug} lesson in {language}: {english_words(text)}"
        page.screenshot(path=tmp_path / f"lesson-{slug}-{language}.png", full_page=True)
        assert overflow(page) <= 0, f"the {slug} lesson in {language} is {overflow(page)} px wider than a phone"
    context.close()
