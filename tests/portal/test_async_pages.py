"""The cached pages and /healthz are async views behind middleware that stays in the event loop:
served by the real ASGI handler, a page whose fragments are cached runs no code in a thread,
and says the same as the page the test client renders."""

import hashlib
import http.cookiejar
import inspect
import logging
import re
import urllib.parse
import urllib.request
import weakref

import pytest
from asgiref.sync import SyncToAsync, async_to_sync, iscoroutinefunction
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
from django.test import override_settings
from django.utils.module_loading import import_string

from games.engines import all_games
from portal.asgi_handler import ASGIHandler
from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.django_db

SLUG = all_games()[0].slug
FULL_PAGES = ["/", "/hall-of-fame/", f"/games/{SLUG}/", f"/games/{SLUG}/ranking/", "/play/", "/stats/"]
CACHED_PAGES = [*FULL_PAGES, "/play/?part=open"]  # the last: the lobby's list refreshing itself
KEPT_PAGES = FULL_PAGES[:5]  # whole, for a signed-in visitor too (the statistics page is not)


class ThreadHops:
    """Counts the calls that leave the event loop for a thread (asgiref's sync_to_async, which
    Django uses for every sync view, middleware hook and signal receiver)."""

    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        original = SyncToAsync.__call__

        async def counted(wrapper, *args, **kwargs):
            self.calls.append(getattr(wrapper.func, "__qualname__", repr(wrapper.func)))
            return await original(wrapper, *args, **kwargs)

        monkeypatch.setattr(SyncToAsync, "__call__", counted)


@pytest.fixture
def hops(monkeypatch):
    return ThreadHops(monkeypatch)


def asgi_get(handler, path: str, cookies: dict | None = None) -> tuple[int, dict, str]:
    """GET ``path`` from ``handler`` as uvicorn would call it: status, headers, body."""
    path, _, query = path.partition("?")
    headers = [(b"host", b"testserver")]
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent: list[dict] = []

    async def call():
        pending = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive():
            if pending:
                return pending.pop()
            return {"type": "http.disconnect"} if sent and not sent[-1].get("more_body") else await _forever()

        async def send(message):
            sent.append(message)

        await handler(scope, receive, send)

    async_to_sync(call)()
    start = sent[0]
    response_headers: dict[str, list[str]] = {}
    for name, value in start["headers"]:
        response_headers.setdefault(name.decode().lower(), []).append(value.decode())
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], response_headers, body.decode()


async def _forever():
    import asyncio

    await asyncio.Event().wait()


def test_no_middleware_makes_an_async_view_change_threads(caplog):
    """Django logs every adaptation of a middleware to the other mode when DEBUG is on; and a
    process_view that is not a coroutine would be called through a thread on every request."""
    with override_settings(DEBUG=True), caplog.at_level(logging.DEBUG, logger="django.request"):
        handler = ASGIHandler()
    adapted = [r.getMessage() for r in caplog.records if "adapted" in r.getMessage()]
    assert adapted == []
    view_middleware = vars(handler)["_view_middleware"]  # what Django calls before each view
    assert view_middleware, "the CSRF middleware has a process_view"
    assert all(iscoroutinefunction(method) for method in view_middleware)


def test_healthz_is_served_without_leaving_the_event_loop(hops):
    status, headers, body = asgi_get(ASGIHandler(), "/healthz")
    assert (status, body) == (200, "ok")
    assert headers["content-type"] == ["text/plain"]
    assert "content-security-policy" in headers and headers["x-frame-options"] == ["DENY"]
    assert hops.calls == []


@pytest.mark.parametrize("path", CACHED_PAGES)
def test_a_cached_page_is_served_in_the_event_loop_and_says_what_the_test_client_sees(client, hops, path):
    handler = ASGIHandler()
    first = asgi_get(handler, path)  # builds the fragments (in a thread) and keeps them
    assert first[0] == 200
    hops.calls.clear()
    status, headers, body = asgi_get(handler, path)
    assert status == 200
    assert hops.calls == [], "every fragment was in the cache: no thread"
    # Alike but for the token of the footer's language form, each visitor's own.
    assert _without_tokens(body) == _without_tokens(first[2]) == _without_tokens(client.get(path).content.decode())
    assert "csrfmiddlewaretoken" not in body or _csrf(body) != _csrf(first[2])
    assert "content-security-policy" in headers and headers["content-type"] == ["text/html; charset=utf-8"]
    assert int(headers["content-length"][0]) == len(body.encode())


@pytest.mark.parametrize("path", FULL_PAGES)
def test_a_cached_page_greets_a_signed_in_visitor_as_before(client, alice, path):
    client.force_login(alice)
    status, headers, body = asgi_get(ASGIHandler(), path, {settings.SESSION_COOKIE_NAME: client.session.session_key})
    assert status == 200
    assert "alice" in body and "Sign in" not in body
    assert "Cookie" in headers["vary"][0], "a page that read the session varies with the cookie"
    assert _without_tokens(body) == _without_tokens(client.get(path).content.decode())


def _without_tokens(body: str) -> str:
    """A page with its CSRF tokens (masked anew on every render) blanked out."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken" value=""', body)


def _csrf(body: str) -> str:
    """The first CSRF token of a page (masked anew on every render), or ""."""
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    return found.group(1) if found else "no-token"


def test_a_stale_fragment_is_built_again_in_a_thread(client, hops):
    from portal import page_cache

    handler = ASGIHandler()
    asgi_get(handler, "/hall-of-fame/")
    page_cache.bump("ratings")
    hops.calls.clear()
    status, _, _ = asgi_get(handler, "/hall-of-fame/")
    assert status == 200 and "cached" in hops.calls


def test_the_portal_middleware_stands_in_for_the_originals_django_checks_for():
    for path, original in settings.MIDDLEWARE_STAND_INS.items():
        assert issubclass(import_string(path), import_string(original))
        assert path in settings.MIDDLEWARE and original in settings.MIDDLEWARE
    assert "django.middleware.gzip.GZipMiddleware" not in settings.MIDDLEWARE


def test_the_handler_is_a_copy_of_the_django_handle_it_was_made_from():
    """portal.asgi_handler copies Django 5.2's ASGIHandler.handle with three calls changed: when
    Django's changes, compare and copy again, then update this digest."""
    source = inspect.getsource(DjangoASGIHandler.handle)
    assert hashlib.sha256(source.encode()).hexdigest() == (
        "98faeb5bef800331e6a8002fbc96b30e4122a23438ae45a047190a531ea11323"
    )


def test_static_files_are_served_from_static_during_development():
    status, headers, body = asgi_get(ASGIHandler(), "/static/css/site.css")
    assert status == 200
    assert headers["content-type"][0].startswith("text/css")
    assert body == (settings.BASE_DIR / "static" / "css" / "site.css").read_text()


@pytest.mark.django_db(transaction=True)
def test_hashed_static_files_are_kept_by_browsers_for_a_year_and_the_others_briefly(tmp_path):
    from django.core.management import call_command

    production = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "servestatic.storage.CompressedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=production, SERVESTATIC_USE_FINDERS=False, DEBUG=False):
        call_command("collectstatic", "--noinput", "-v0")
        from django.contrib.staticfiles.storage import staticfiles_storage

        hashed = staticfiles_storage.url("css/site.css")
        assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", hashed)
        handler = ASGIHandler()
        status, headers, body = asgi_get(handler, hashed)
        assert status == 200 and body == (tmp_path / "css" / "site.css").read_text()
        assert headers["cache-control"] == ["max-age=315360000, public, immutable"]
        status, headers, _ = asgi_get(handler, "/static/css/site.css")
        assert status == 200 and headers["cache-control"] == ["max-age=60, public"]


def test_signing_in_and_reading_pages_through_the_real_server(asgi_server, alice):
    """uvicorn, the portal's handler and middleware, and threads where they are needed: the
    sign-in form's POST (CSRF checked, the session saved), then cached pages as alice."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = opener.open(f"{asgi_server}/accounts/login/").read().decode()
    token = _csrf(login)
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "login": "alice", "password": DEMO_PASSWORD})
    request = urllib.request.Request(
        f"{asgi_server}/accounts/login/", data=form.encode(), headers={"Referer": f"{asgi_server}/accounts/login/"}
    )
    opener.open(request).read()
    assert any(cookie.name == settings.SESSION_COOKIE_NAME for cookie in jar)
    for path in FULL_PAGES:
        body = opener.open(f"{asgi_server}{path}").read().decode()
        assert "alice" in body and "Sign in" not in body
    assert opener.open(f"{asgi_server}/healthz").read() == b"ok"


class Renders:
    """The templates rendered while it is open (Django's test signal)."""

    def __init__(self):
        self.names: list[str] = []

    def __call__(self, sender, template, context, **kwargs):
        self.names.append(template.name)


@pytest.fixture
def renders():
    from django.test.signals import template_rendered

    seen = Renders()
    template_rendered.connect(seen)
    yield seen
    template_rendered.disconnect(seen)


@pytest.mark.parametrize("path", KEPT_PAGES)
def test_a_visitor_with_nothing_of_their_own_gets_the_page_kept_until_a_fragment_changes(client, renders, path):
    from portal import page_cache

    client.get(path)  # the fragments built and kept (in a thread)
    first = _without_tokens(client.get(path).content.decode())  # the fragments read, the page kept
    renders.names.clear()
    assert _without_tokens(client.get(path).content.decode()) == first
    assert renders.names == [], "the same page, not rendered again"
    page_cache.bump("people")  # every one of these pages shows names
    assert _without_tokens(client.get(path).content.decode()) == first
    assert renders.names, "a fragment went stale: the page is made again"


def _signed_in_client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", KEPT_PAGES)
def test_a_signed_in_visitors_page_is_kept_for_their_session_alone(alice, bob, renders, path):
    first_alice, first_bob = _signed_in_client(alice), _signed_in_client(bob)
    first_alice.get(path)  # the fragments built, the CSRF cookie of the log-out form set
    kept = first_alice.get(path).content
    renders.names.clear()
    assert first_alice.get(path).content == kept
    assert renders.names == [], "the same page for the same session, not rendered again"
    assert b"alice" in kept
    # Another session of the same account, and another account: pages of their own.
    for other, name in ((_signed_in_client(alice), b"alice"), (first_bob, b"bob")):
        renders.names.clear()
        body = other.get(path).content
        assert renders.names and name in body
    assert b"alice" not in first_bob.get(path).content


def test_a_password_change_ends_the_other_sessions_though_their_page_was_kept(
    alice, django_capture_on_commit_callbacks
):
    other = _signed_in_client(alice)
    other.get("/hall-of-fame/")
    assert b"alice" in other.get("/hall-of-fame/").content  # kept for this session
    with django_capture_on_commit_callbacks(execute=True):
        alice.set_password("a-new-password-of-alice")
        alice.save(update_fields=["password"])  # nothing the others see: only her area moves
    body = other.get("/hall-of-fame/").content.decode()
    assert "alice" not in body and "Sign in" in body


def test_a_signed_out_session_gets_no_kept_page(client, alice):
    client.force_login(alice)
    client.get("/hall-of-fame/")
    assert b"alice" in client.get("/hall-of-fame/").content
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.post("/accounts/logout/")
    client.cookies[settings.SESSION_COOKIE_NAME] = cookie  # the old cookie, replayed
    body = client.get("/hall-of-fame/").content.decode()
    assert "alice" not in body and "Sign in" in body


def test_a_challenge_shows_in_the_lobby_kept_for_the_player_challenged(alice, bob, django_capture_on_commit_callbacks):
    from challenges import services

    lobby = _signed_in_client(bob)
    lobby.get("/play/")
    assert b"challenges you" not in lobby.get("/play/").content.lower()
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.challenge_create(user=alice, to=bob, game="game-of-god", num_players=2)
    assert f"/challenges/{challenge.pk}/".encode() in lobby.get("/play/").content
    with django_capture_on_commit_callbacks(execute=True):
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert f"/challenges/{challenge.pk}/".encode() not in lobby.get("/play/").content


def test_a_message_for_the_visitor_is_shown_on_a_page_kept_without_it(client, alice):
    from django.contrib import messages
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.http import HttpResponse
    from django.test import RequestFactory

    client.force_login(alice)
    client.get("/hall-of-fame/")
    client.get("/hall-of-fame/")  # kept
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(messages.INFO, "Your match is open.")
    response = HttpResponse()
    storage.update(response)
    client.cookies["messages"] = response.cookies["messages"].value
    assert b"Your match is open." in client.get("/hall-of-fame/").content
    assert b"Your match is open." not in client.get("/hall-of-fame/").content  # read once, then gone


def test_a_page_with_a_visitors_csrf_token_is_never_kept(client, renders, monkeypatch):
    from django.middleware.csrf import get_token

    from rankings import views

    original = views.render

    def render_with_a_form(request, *args, **kwargs):
        get_token(request)  # as a template with {% csrf_token %} does
        return original(request, *args, **kwargs)

    monkeypatch.setattr(views, "render", render_with_a_form)
    client.get("/hall-of-fame/")
    client.get("/hall-of-fame/")
    renders.names.clear()
    client.get("/hall-of-fame/")
    assert renders.names, "rendered anew, with this visitor's token"


def test_a_search_of_the_ranking_is_never_kept(client, renders):
    client.get(f"/games/{SLUG}/ranking/?player=nobody")
    client.get(f"/games/{SLUG}/ranking/?player=nobody")
    renders.names.clear()
    client.get(f"/games/{SLUG}/ranking/?player=nobody")
    assert renders.names


def test_the_request_signals_have_only_the_receivers_the_handler_runs_in_the_event_loop():
    """portal.asgi_handler calls the receivers of request_started (always) and of
    request_finished (for a request without a thread) in the event loop: they must be quick and
    sync, as Django's own are. A new receiver is to be checked against that first."""
    import django.core.asgi  # noqa: F401 (whatever connects at start-up has connected)
    from django.core.signals import request_finished, request_started

    def names(signal):
        found = [entry[1]() if isinstance(entry[1], weakref.ReferenceType) else entry[1] for entry in signal.receivers]
        return sorted(f"{r.__module__}.{r.__qualname__}" for r in found if r is not None)

    assert names(request_started) == ["django.db.close_old_connections", "django.db.reset_queries"]
    assert names(request_finished) == [
        "django.core.cache.close_caches",
        "django.core.handlers.base.reset_urlconf",
        "django.db.close_old_connections",
    ]


# --------------------------------------------------------------------------------------
# A signed-in visitor's page for one read of the cache: the session and the generations


@pytest.fixture
def cache_reads(monkeypatch):
    """The keys of every read of the cache made in the event loop by the pages, one list a read."""
    from portal import cache, page_cache

    reads: list[list[str]] = []
    original = cache.aget_many

    async def counted(backend, keys):
        reads.append(list(keys))
        return await original(backend, keys)

    monkeypatch.setattr(page_cache, "aget_many", counted)
    return reads


def _session_of(user) -> dict:
    """The cookies of a fresh signed-in session of ``user``."""
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return {settings.SESSION_COOKIE_NAME: browser.session.session_key}


def _asgi_visit(handler, path: str, cookies: dict) -> str:
    """GET ``path`` as a browser would, keeping the cookies the site sets (the CSRF cookie of
    the sign-out form); the page's text."""
    status, headers, body = asgi_get(handler, path, cookies)
    assert status == 200
    for line in headers.get("set-cookie", []):
        name, _, value = line.partition(";")[0].partition("=")
        cookies[name] = value
    return body


@pytest.mark.parametrize("path", KEPT_PAGES)
def test_a_signed_in_visitors_kept_page_comes_for_one_read_of_the_cache(alice, cache_reads, renders, path):
    handler, cookies = ASGIHandler(), _session_of(alice)
    first = _asgi_visit(handler, path, cookies)  # built, and the CSRF cookie set
    _asgi_visit(handler, path, cookies)  # kept for this session
    cache_reads.clear()
    renders.names.clear()
    again = _asgi_visit(handler, path, cookies)
    assert renders.names == [], "the kept page"
    assert _without_tokens(again) == _without_tokens(first) and "alice" in again
    assert len(cache_reads) == 1, "the session and the page's generations in one round trip"
    assert any(key.startswith("django.contrib.sessions") for key in cache_reads[0])


def test_a_guess_of_another_account_reads_the_right_ones_too(alice, bob, cache_reads):
    from portal import page_cache

    handler, cookies = ASGIHandler(), _session_of(alice)
    _asgi_visit(handler, "/hall-of-fame/", cookies)
    _asgi_visit(handler, "/hall-of-fame/", cookies)
    page_cache._session_users[cookies[settings.SESSION_COOKIE_NAME]] = bob.pk  # a wrong guess
    cache_reads.clear()
    body = _asgi_visit(handler, "/hall-of-fame/", cookies)
    assert "alice" in body and ">bob<" not in body
    assert len(cache_reads) == 2, "alice's own area read after the guess missed it"
    assert cache_reads[1] == [page_cache.GENERATION_KEY.format(page_cache.viewer_area(alice.pk))]


def test_a_kept_page_read_with_its_session_in_one_trip_still_ends_with_a_password_change(
    alice, django_capture_on_commit_callbacks
):
    handler, cookies = ASGIHandler(), _session_of(alice)
    for _ in range(3):
        assert "alice" in _asgi_visit(handler, "/hall-of-fame/", cookies)  # kept, and guessed
    with django_capture_on_commit_callbacks(execute=True):
        alice.set_password("a-new-password-of-alice")
        alice.save(update_fields=["password"])
    body = _asgi_visit(handler, "/hall-of-fame/", cookies)
    assert "alice" not in body and "Sign in" in body
