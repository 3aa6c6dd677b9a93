"""Every player in their own language: the language of the pages (the account's, else the
browser's, else English), the switchers, pages kept per language, the committed catalogues and
the ratchets of what is still to be marked for translation."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User

from .marking import bare_strings_of_script, bare_words_of_template

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale"
LANGUAGES = ("de", "fr", "es")


def page(client: Client, path: str, **headers) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def renders(db):
    """The names of the templates rendered while the test runs."""
    from django.test.signals import template_rendered

    names: list[str] = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(seen)
    yield names
    template_rendered.disconnect(seen)


def found(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in ``text`` (which must hold it)."""
    match = re.search(pattern, text, re.DOTALL)
    assert match is not None, f"{pattern!r} not found"
    return match.group(1)


def lang_of(body: str) -> str:
    return found(r'<html lang="([^"]+)"', body)


# --------------------------------------------------------------------------------------
# Whose language


def test_a_player_whose_language_is_german_reads_the_pages_in_german(alice):
    User.objects.filter(pk=alice.pk).update(language="de")
    client = Client()
    client.force_login(User.objects.get(pk=alice.pk))
    body = page(client, "/play/", **{"Accept-Language": "fr"})  # the account's choice first
    assert lang_of(body) == "de"
    assert "Partien, die auf Spieler warten" in body and "Meine Partien" in body
    assert "Matches waiting for players" not in body


def test_a_visitor_whose_browser_asks_for_french_reads_french(client, db):
    body = page(client, "/", **{"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"})
    assert lang_of(body) == "fr"
    assert "Des jeux de territoire, en direct dans votre navigateur" in body
    assert "S’inscrire" in body and "Sign up" not in body


def test_the_help_and_about_pages_read_in_the_visitors_language(client, db):
    help_page = page(client, "/help/", **{"Accept-Language": "de"})
    assert "Erste Schritte" in help_page and "Wie stark sind die Bots?" in help_page
    assert "Getting started" not in help_page
    about = page(client, "/about/", **{"Accept-Language": "es"})
    assert "Aquí se juegan cinco juegos:" in about and "Five games are played here" not in about


def test_a_browser_asking_for_a_language_the_site_lacks_gets_english(client, db):
    body = page(client, "/", **{"Accept-Language": "ja"})
    assert lang_of(body) == "en" and "Territory games, live in your browser" in body


def test_a_player_with_no_language_saved_follows_the_browser(alice):
    client = Client()
    client.force_login(alice)
    assert lang_of(page(client, "/play/", **{"Accept-Language": "es"})) == "es"


def test_the_apis_messages_follow_accept_language_and_its_codes_stay(client, db):
    english = client.get("/api/notifications/")
    german = client.get("/api/notifications/", headers={"Accept-Language": "de-DE, de;q=0.9"})
    assert english.status_code == german.status_code and english.status_code in (401, 403)
    assert english.json()["message"] == "Sign in to do that."
    assert german.json()["message"] == "Melde dich dafür an."
    assert german.json()["code"] == english.json()["code"] == "not_seated"
    unsupported = client.get("/api/notifications/", headers={"Accept-Language": "ja"})
    assert unsupported.json()["message"] == "Sign in to do that."


def test_the_api_ignores_the_sites_language_cookie_and_a_saved_choice(alice):
    alice.language = "fr"
    alice.save(update_fields=["language"])
    client = Client()
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.get("/api/nothing-here/")
    assert response.json()["message"] == "There is nothing at this address."
    assert client.get("/api/nothing-here/", headers={"Accept-Language": "es"}).json()["message"] == (
        "No hay nada en esta dirección."
    )


# --------------------------------------------------------------------------------------
# The switchers


def _switch(client: Client, language: str, next_url: str = "/play/"):
    return client.post("/settings/language/", {"language": language, "next": next_url})


def test_the_footer_switcher_changes_the_language_of_a_visitor_who_is_not_signed_in(db):
    client = Client(enforce_csrf_checks=True)
    body = page(client, "/play/")
    assert 'action="/settings/language/"' in body
    switcher = found(r'class="language-switcher">(.*?)</form>', body)
    token = found(r'name="csrfmiddlewaretoken" value="([^"]+)"', switcher)
    response = client.post("/settings/language/", {"language": "es", "next": "/play/", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == "/play/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    body = page(client, "/play/", **{"Accept-Language": "de"})  # the choice over the browser's
    assert lang_of(body) == "es" and "Partidas que esperan jugadores" in body


def test_the_switcher_without_a_token_changes_nothing(db):
    client = Client(enforce_csrf_checks=True)
    assert _switch(client, "de").status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_a_players_choice_is_saved_and_follows_them_to_their_next_sign_in(alice):
    client = Client()
    client.force_login(alice)
    assert _switch(client, "fr").status_code == 302
    assert User.objects.get(pk=alice.pk).language == "fr"
    assert lang_of(page(client, "/play/")) == "fr"
    elsewhere = Client()  # another browser, which asks for German
    elsewhere.force_login(User.objects.get(pk=alice.pk))
    assert lang_of(page(elsewhere, "/play/", **{"Accept-Language": "de"})) == "fr"


def test_the_profile_page_chooses_the_language_and_can_go_back_to_the_browsers(alice):
    client = Client()
    client.force_login(alice)
    body = page(client, "/settings/profile/")
    assert '<option value="de">Deutsch</option>' in body and "Your browser&#x27;s language" in body
    response = client.post("/settings/language/", {"language": "de", "next": "/settings/profile/"}, follow=True)
    assert "Profil bearbeiten" in response.content.decode()
    _switch(client, "")
    assert User.objects.get(pk=alice.pk).language == ""
    assert lang_of(page(client, "/play/", **{"Accept-Language": "es"})) == "es"


def test_an_unknown_language_is_refused_and_changes_nothing(alice):
    client = Client()
    client.force_login(alice)
    _switch(client, "de")
    response = _switch(client, "xx")
    assert response.status_code == 400 and "not a language of the site" in response.content.decode()
    assert User.objects.get(pk=alice.pk).language == "de"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"


# --------------------------------------------------------------------------------------
# Pages kept per language


def test_a_page_kept_in_german_is_never_served_to_a_signed_in_reader_of_english(alice, renders):
    client = Client()
    client.force_login(alice)
    _switch(client, "de")
    page(client, "/play/")
    german = page(client, "/play/")  # kept for this session
    renders.clear()
    assert page(client, "/play/") == german and renders == [], "the kept page, as before"
    _switch(client, "en")
    english = page(client, "/play/")
    assert lang_of(english) == "en" and "Matches waiting for players" in english
    assert "Partien, die auf Spieler warten" not in english


def test_a_page_kept_for_every_visitor_is_kept_once_per_language(renders):
    german_reader, french_reader = Client(), Client()
    page(german_reader, "/play/", **{"Accept-Language": "de"})
    page(german_reader, "/play/", **{"Accept-Language": "de"})  # kept, and its fragments
    french = page(french_reader, "/play/", **{"Accept-Language": "fr"})
    assert "Parties en attente de joueurs" in french and "Partien" not in french
    english = page(Client(), "/play/")
    assert "Matches waiting for players" in english and "Partien" not in english and "Parties" not in english
    renders.clear()
    assert lang_of(page(german_reader, "/play/", **{"Accept-Language": "de"})) == "de"
    assert renders == [], "the German page, kept"


def test_the_scripts_get_the_catalogue_of_the_page_language(client, db):
    body = page(client, "/", **{"Accept-Language": "de"})
    url = found(r'<script src="(/jsi18n/de/\?v=\w+)"></script>', body)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert "immutable" in response["Cache-Control"]
    assert "Revanche annehmen" in response.content.decode()
    assert client.get("/jsi18n/xx/").status_code == 404


# --------------------------------------------------------------------------------------
# The catalogues


def _msgfmt() -> str:
    found = shutil.which("msgfmt")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("msgfmt is missing: Debian's gettext package (.ci/run installs it)")
        pytest.skip("msgfmt is missing: apt-get install gettext")
    return found


CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def test_there_is_a_catalogue_for_the_pages_and_the_scripts_in_each_language():
    assert [str(p.relative_to(LOCALE)) for p in CATALOGUES] == [
        f"{lang}/LC_MESSAGES/{domain}.po" for lang in sorted(LANGUAGES) for domain in ("django", "djangojs")
    ]
    assert {code for code, _ in settings.LANGUAGES} == {"en", *LANGUAGES}
    for lang in LANGUAGES:
        assert (LOCALE / lang / "glossary.md").is_file()


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_each_catalogue_is_complete_and_its_committed_mo_is_what_it_compiles_to(po, tmp_path):
    msgfmt = _msgfmt()
    compiled = tmp_path / "out.mo"
    result = subprocess.run(
        [msgfmt, "--check-format", "--statistics", "-o", str(compiled), str(po)],
        capture_output=True,
        text=True,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert result.returncode == 0, result.stderr
    statistics = result.stderr.strip()
    assert re.fullmatch(r"\d+ translated messages?\.", statistics), f"{po}: {statistics} (make messages)"
    committed = po.with_suffix(".mo")
    assert compiled.read_bytes() == committed.read_bytes(), f"{committed} is stale: make messages"


# What ``make messages`` gathers from the sources (both domains, as the Makefile runs it).
MAKEMESSAGES_IGNORED = (".venv", "staticfiles", "tests", "bench", "test-artifacts", "docs", "deploy", "scripts")


def test_every_message_marked_in_the_sources_is_translated_in_each_catalogue(tmp_path):
    """``makemessages`` run over a copy of the sources adds no message the catalogues lack
    and leaves none fuzzy: a string marked and not translated fails here, not on a page."""
    msgfmt = _msgfmt()
    copy = tmp_path / "site"
    shutil.copytree(
        BASE,
        copy,
        ignore=shutil.ignore_patterns(*MAKEMESSAGES_IGNORED, ".git", "__pycache__", "*.sqlite3", "node_modules"),
    )
    ignored = [f"--ignore={name}" for name in MAKEMESSAGES_IGNORED]
    for domain in ("django", "djangojs"):
        languages = [arg for lang in LANGUAGES for arg in ("-l", lang)]
        command = [sys.executable, "manage.py", "makemessages", *languages, "-d", domain, "--no-obsolete"]
        made = subprocess.run(
            [*command, "--add-location=file", *ignored],
            cwd=copy,
            capture_output=True,
            text=True,
            env={**os.environ, "PORTAL_TESTING": "1"},
        )
        assert made.returncode == 0, made.stderr
    for po in sorted(copy.glob("locale/*/LC_MESSAGES/*.po")):
        result = subprocess.run(
            [msgfmt, "--statistics", "-o", os.devnull, str(po)],
            capture_output=True,
            text=True,
            env={**os.environ, "LC_ALL": "C"},
        )
        name = po.relative_to(copy)
        assert re.fullmatch(r"\d+ translated messages?\.", result.stderr.strip()), (
            f"{name}: {result.stderr.strip()} once the sources' messages are gathered (make messages, then translate)"
        )


# --------------------------------------------------------------------------------------
# The ratchets: what is not yet marked for translation. Each list only shrinks: a template or
# script marked through leaves it (the test says so), and none may join it.

NOT_YET_MARKED_TEMPLATES: set[str] = set()  # every template is marked: none may join

NOT_YET_MARKED_SCRIPTS: set[str] = set()  # every script is marked: none may join

# Files whose only "words" are examples in code, not text shown to people.
SCRIPTS_WITHOUT_TEXT = {"static/js/times.js"}


def _templates() -> list[str]:
    folders = [BASE / "templates", *sorted(BASE.glob("*/templates"))]
    return sorted(str(p.relative_to(BASE)) for folder in folders for p in folder.rglob("*.html"))


def test_every_template_is_marked_for_translation_but_those_still_listed():
    bare = {}
    for name in _templates():
        words = bare_words_of_template(BASE / name)
        if words:
            bare[name] = words
    new = {name: words[:8] for name, words in bare.items() if name not in NOT_YET_MARKED_TEMPLATES}
    assert not new, f"English words outside {{% translate %}}/{{% blocktranslate %}}: {new}"
    done = sorted(NOT_YET_MARKED_TEMPLATES - set(bare))
    assert not done, f"Marked through now: take them off NOT_YET_MARKED_TEMPLATES: {done}"


def test_every_script_is_marked_for_translation_but_those_still_listed():
    scripts = sorted(str(p.relative_to(BASE)) for p in (BASE / "static").glob("*/*.js"))
    bare = {name for name in scripts if name not in SCRIPTS_WITHOUT_TEXT and bare_strings_of_script(BASE / name)}
    new = sorted(bare - NOT_YET_MARKED_SCRIPTS)
    assert not new, f"English strings outside gettext(): {[(n, bare_strings_of_script(BASE / n)[:5]) for n in new]}"
    done = sorted(NOT_YET_MARKED_SCRIPTS - bare)
    assert not done, f"Marked through now: take them off NOT_YET_MARKED_SCRIPTS: {done}"


def test_the_marking_check_finds_bare_words_in_text_and_in_what_people_read_of_tags(tmp_path):
    template = tmp_path / "t.html"
    template.write_text(
        '{% load i18n %}<p title="Bare title">{% translate "Marked" %} Bare text</p>'
        '<input placeholder="{% translate "Marked" %}"><img alt="Bare alt" src="x.png">'
        '{% blocktranslate %}Marked {{ x }}{% endblocktranslate %}<script>const a = "code";</script>'
        '{% comment %}Not shown{% endcomment %}<a href="{{ url }}" class="button primary">{{ name }}</a> · API'
    )
    assert bare_words_of_template(template) == ["Bare", "title", "Bare", "text", "Bare", "alt"]


def test_the_rating_chart_keeps_figures_a_browser_reads_in_every_language():
    from django.template.loader import render_to_string
    from django.utils import translation

    from rankings.charts import rating_chart

    chart = rating_chart(
        slug="territories",
        game_name="Territories",
        username="alice",
        values=[1500.0, 1512.25, 1498.75, 1530.5],
        first_number=1,
        dates=("1 Jan 2026", "2 Feb 2026"),
    )
    with translation.override("de"):
        svg = render_to_string("rankings/_rating_chart.html", {"chart": chart})
    assert "Gespielte gewertete Partien" in svg
    coordinates = re.findall(r'\b(?:cx|cy|x|y|y1|y2|x1|x2)="([^"]+)"', svg)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in coordinates), coordinates
