"""The site's security headers, and a Content-Security-Policy under which every main page works
in a real browser: nothing blocked, no inline script anywhere."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines as template_engines

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


def project_templates():
    """Every template file of the project that Django renders: the project-level ``templates/``
    (base.html included) and each app's ``templates/``, as the template engine finds them."""
    base = Path(settings.BASE_DIR).resolve()
    folders = set()
    for engine in template_engines.all():
        for name in engine.template_dirs:
            folder = Path(name).resolve()
            if folder.is_relative_to(base) and ".venv" not in folder.relative_to(base).parts:
                folders.add(folder)
    return folders, sorted(path for folder in folders for path in folder.rglob("*.html"))


def inline_code(html):
    """The scripts, event handlers and ``javascript:`` addresses written into the markup."""
    found = [tag for tag in re.findall(r"<script\b[^>]*>", html, re.I) if not re.search(r"\ssrc\s*=", tag, re.I)]
    found += re.findall(r"<[^>]*\son[a-z]+\s*=", html, re.I)
    found += re.findall(r"""(?:href|src|action)\s*=\s*["']?\s*javascript:""", html, re.I)
    return found


def inline_styles(html):
    return re.findall(r"<style\b[^>]*>", html, re.I) + re.findall(r"<[^>]*\sstyle\s*=", html, re.I)


def test_the_template_check_reads_the_project_templates_and_every_app():
    folders, paths = project_templates()
    base = Path(settings.BASE_DIR).resolve()
    assert base / "templates" in folders
    assert base / "templates" / "base.html" in paths
    for app in ["accounts", "games", "rankings", "forums", "challenges", "tournaments", "notifications", "portal"]:
        if (base / app / "templates").is_dir():
            assert base / app / "templates" in folders, app


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ("<script>alert(1)</script>", True),
        ('<script type="module">import "/x.js"</script>', True),
        ('<script data-src="x.js"></script>', True),
        ('<button onclick="go()">', True),
        ('<a href="javascript:go()">', True),
        ('<script type="module" src="{% static \'js/me.js\' %}"></script>', False),
        ('<form action="/x/" data-confirm="Sure?">', False),
    ],
)
def test_the_template_check_sees_inline_code(html, found):
    assert bool(inline_code(html)) is found


def test_no_template_holds_an_inline_script_or_event_handler():
    """json_script blocks (data, never run) are the only scripts written into a page."""
    _folders, paths = project_templates()
    found = [f"{path}: {hit}" for path in paths for hit in inline_code(path.read_text())]
    assert found == []


def test_no_template_holds_an_inline_style():
    """``style-src 'self'``: a style element or attribute in the markup would be blocked."""
    _folders, paths = project_templates()
    found = [f"{path}: {hit}" for path in paths for hit in inline_styles(path.read_text())]
    assert inline_styles('<p style="color: red">') and inline_styles("<style>p {}</style>")
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
