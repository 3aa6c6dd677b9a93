"""The site's security headers, and a Content-Security-Policy under which every main page works
in a real browser: nothing blocked, no inline script anywhere."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from games.models import Match
from tests.games.browser.pages import CONNECTED, log_in
from tests.games.helpers import start_two_player

# Records every CSP violation of a document, before any of its own scripts run.
LISTEN = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__cspViolations = window.__cspViolations || []).push(`${e.violatedDirective} ${e.blockedURI}`);
});"""
TIMEOUT = 20_000


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/play/", "/forum/", "/accounts/login/", "/api/docs/", "/api/games/"])
def test_every_response_carries_the_security_headers(client, path):
    response = client.get(path)
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]


def test_no_template_holds_an_inline_script_or_event_handler():
    """json_script blocks (data, never run) are the only scripts written into a page."""
    found = []
    for path in Path(settings.BASE_DIR).glob("*/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            if "src=" not in tag:
                found.append(f"{path}: {tag}")
        found += [f"{path}: {m}" for m in re.findall(r"<[^>]*\son[a-z]+\s*=", html)]
    assert found == []


@pytest.fixture
def match(asgi_server, alice, bob):
    """A match under way (made before the browser starts its event loop in this thread)."""
    return start_two_player("game-of-god", alice, bob)


@pytest.mark.browser
def test_the_main_pages_work_in_a_browser_under_the_policy(asgi_server, match, browser, alice):
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    console = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    pages = [
        "/",
        "/play/",
        "/play/computer/",
        "/games/game-of-god/",
        "/games/dice-territory/rules/",
        "/hall-of-fame/",
        "/stats/",
        "/players/alice/",
        "/forum/",
        "/api/docs/",
    ]
    visited = {}
    page.goto(f"{asgi_server}/accounts/login/")
    visited["/accounts/login/"] = page.evaluate("window.__cspViolations || []")
    log_in(page, asgi_server, alice)
    for path in pages:
        page.goto(f"{asgi_server}{path}")
        page.wait_for_load_state("networkidle")
        if path == "/api/docs/":  # Swagger UI drew the API from the schema
            page.wait_for_selector(".opblock", timeout=TIMEOUT)
        visited[path] = page.evaluate("window.__cspViolations || []")

    # The live match page: its socket connects, and the handlers moved out of the markup work.
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_function(CONNECTED, timeout=TIMEOUT)
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("#resign-form button").click()
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE  # dismissed: nothing sent
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-form button").click()
    page.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT)
    visited["/matches/"] = page.evaluate("window.__cspViolations || []")
    context.close()

    assert {path: v for path, v in visited.items() if v} == {}
    assert [line for line in console if "Content Security Policy" in line] == []
