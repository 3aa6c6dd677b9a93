"""The site's pages pass axe-core's accessibility checks (contrast, names of controls and
images, landmarks, ARIA): home, a game's page, the lobby, two live match pages (the player to
move, their moves offered), a finished match's replay, the forum, sign-up and the Hall of
Fame. No rule is turned off. The replay's controls are checked to stay on one line too.

axe-core comes with the axe-playwright-python package (its axe.min.js); the pages' Content
Security Policy refuses scripts it did not serve, so the test's browser context bypasses it.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from games import services
from games.models import Match
from tests.games.browser.pages import CONNECTED, in_thread, signed_in_context
from tests.games.helpers import finished_by_random_play

pytestmark = pytest.mark.browser


def violations(page) -> list[str]:
    """Every violation axe finds on ``page``: rule, impact and the first elements it names."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes'][:3]]}"
        + (f" {v['nodes'][0].get('failureSummary', '')[:160]}" if v["nodes"] else "")
        for v in found
    ]


# The top of each of the replay's buttons on the screen.
REPLAY_LINE = "() => [...document.querySelectorAll('#replay button')].map((b) => b.getBoundingClientRect().top)"


def live_matches(ann, ben):
    """A casual match of Territories and one of the chit game, each with its mover."""

    def start():
        found = []
        for game in ("territories", "chit-territory"):
            match = services.match_create(user=ann, game=game, num_players=2, rated=False, speed="untimed")
            services.match_join(match_id=match.pk, user=ben)
            match = Match.objects.get(pk=match.pk)
            found.append((match, ann if match.to_move == 0 else ben))
        return found

    return in_thread(start)


def test_the_main_pages_have_no_axe_violations(asgi_server, browser, make_user):
    base = asgi_server
    ann, ben = make_user("ann"), make_user("ben")
    finished = in_thread(lambda: finished_by_random_play("dice-territory", [ann, ben, make_user("cy")], seed=3))
    hard = in_thread(lambda: services.bot_account("mcts-hard"))
    found = {}

    visitor = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = visitor.new_page()
    page.goto(f"{base}/accounts/signup/")
    found["sign-up"] = violations(page)
    visitor.close()

    context = signed_in_context(browser, base, ann, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    for name, path in [
        ("home", "/"),
        ("game page", "/games/territories/"),
        ("lobby", "/play/"),
        ("forum", "/forum/"),
        ("hall of fame", "/hall-of-fame/"),
        ("a bot's page", reverse("player", args=[hard.username])),  # its budgets, verdicts and form
    ]:
        page.goto(f"{base}{path}")
        found[name] = violations(page)
    page.goto(f"{base}/matches/{finished.pk}/")
    page.locator("#replay button[data-step=first]").click()
    page.wait_for_function("() => document.querySelector('#replay-pos').textContent.includes('0')")
    found["replay"] = violations(page)
    # The replay's four buttons stay on one line, on a wide screen and on a phone, beside the
    # words of a move ("Step 1 of N — name: the move").
    page.locator("#replay button[data-step=forward]").click()
    page.wait_for_function("() => document.querySelector('#replay-pos').textContent.startsWith('Step 1 ')")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        tops = page.evaluate(REPLAY_LINE)
        assert len(tops) == 4 and max(tops) - min(tops) < 2, (width, tops)
    context.close()

    for match, mover in live_matches(ann, ben):
        context = signed_in_context(browser, base, mover, viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.goto(f"{base}/matches/{match.pk}/")
        page.wait_for_function(CONNECTED)
        page.wait_for_selector("#actions .action")
        found[f"live {match.game}"] = violations(page)
        context.close()

    assert not {name: v for name, v in found.items() if v}, {name: v for name, v in found.items() if v}
