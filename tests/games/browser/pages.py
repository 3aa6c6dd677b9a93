"""What every match-page browser test does: log in, wait for the page to move on, see the end."""

from concurrent.futures import ThreadPoolExecutor

from django.db import connection
from django.test import Client
from playwright.sync_api import Error as PlaywrightError

from tests.conftest import DEMO_PASSWORD

# True once the match page's socket is open. A function, not an expression: Playwright would
# eval an expression in the page, which the site's Content-Security-Policy refuses.
CONNECTED = "() => window.matchClient && window.matchClient.socket && window.matchClient.socket.readyState === 1"
# True once the page shows a newer version than ``v``, or the final result.
CHANGED = """(v) => !document.getElementById('result').hidden
  || (window.matchClient && window.matchClient.payload.version > v)"""


def stall_report(page) -> str:
    """What the server holds for the match on ``page``, and what its bot workers are doing:
    for the message of a test whose page stopped moving on (every thread's stack goes to the
    captured standard error)."""
    import faulthandler
    import re
    import sys

    from django.conf import settings

    from games.models import Match
    from tests import conftest

    # Every thread's stack (the worker's, the server's) to the test's captured output.
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    found = re.search(r"/matches/(\d+)/", page.url)
    match = Match.objects.filter(pk=found.group(1)).first() if found else None
    server = "no match" if match is None else f"version {match.version}, seat {match.to_move} to move, {match.status}"
    if settings.CELERY_TASK_ALWAYS_EAGER:
        from games.bot_runner import runner

        bots = f"bot threads: {runner._pending} pending"
    else:
        client = conftest._broker(settings.CELERY_BROKER_URL)
        bots = (
            f"Celery: {client.llen('celery')} queued, {client.hlen('unacked')} unacknowledged, "
            f"{conftest._tasks_running} running"
        )
    return f"server: {server}; {bots}"


def log_in(page, base, user):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")
    return page


def wait_for_change(page, seen):
    """Wait until the page shows a newer version than ``seen`` (or the result); False after 20 s
    without one. The page reloads itself when the match ends, which also counts."""
    try:
        page.wait_for_function(CHANGED, arg=seen, timeout=20_000)
    except PlaywrightError as exc:
        page.wait_for_load_state()
        return "Timeout" not in str(exc)
    return True


def finished(page):
    return page.locator("#result:not([hidden])").count() > 0


# The board of ``slug`` drawn alone on the current page from a view the engine made: for
# positions that play hardly ever reaches. Nobody is to move.
BOARD_ALONE = """async ({slug, view, names, seat, legal}) => {
  const {render} = await import(`/static/games/${slug}.js`);
  const box = document.createElement('div');
  box.id = 'board';
  box.className = 'board';
  document.getElementById('main').replaceChildren(box);
  render(box, view, {seat, seats: names.map((username, index) => ({index, username})), legal, act: () => {}});
}"""


def draw_board_alone(page, slug, view, names, seat=None, legal=()):
    """``seat``: the seat of the person looking (None: a spectator); ``legal``: the moves
    the board offers them ({action, label}), none by default."""
    page.evaluate(BOARD_ALONE, {"slug": slug, "view": view, "names": names, "seat": seat, "legal": list(legal)})
    page.wait_for_selector("#board svg")
    # The renderer links its own stylesheet as it first draws: measured before it loads, the
    # board's words would have no colour of their own yet.
    page.wait_for_function("() => [...document.querySelectorAll('link[rel=stylesheet]')].every((link) => link.sheet)")


def signed_in_context(browser, base, user, **options):
    """A browser context already signed in as ``user`` (a session made on the server, no
    log-in form): for tests that open many pages as several people."""

    def session():
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    value = in_thread(session)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": value, "url": base}])
    return context


def in_thread(fn):
    """Database work away from Playwright's event loop, its connection given back after."""

    def run():
        try:
            return fn()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(run).result()
