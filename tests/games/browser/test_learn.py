"""Learn by playing in the browser: a learner plays each game's lesson to its end on the
real board, gets a hint for a wrong move, finds their step again after a reload, and starts
the offered match against MCTS Easy."""

import pytest

from games.engines import all_games
from games.tutorials import get_tutorial, lessons_of, moves_of

from .pages import log_in

pytestmark = pytest.mark.browser

READY = "() => document.getElementById('lesson').dataset.ready === '1'"
MOVED_ON = "(p) => window.lessonClient && window.lessonClient.lesson.progress > p"
HINTED = "() => !document.getElementById('hint').hidden"


def open_lesson(page, base, slug, lesson=None):
    page.goto(f"{base}/games/{slug}/learn/{lesson + '/' if lesson else ''}")
    page.wait_for_function(READY)
    page.wait_for_selector("#board svg")


def play(page, action):
    """Click ``action`` on the board when the board offers it, else its button."""
    on_board = page.locator(f"#board svg [data-action='{action}']")
    if on_board.count():
        on_board.first.click()
    else:
        page.locator(f"#actions button[data-action='{action}']").click()


def progress(page):
    return page.evaluate("() => window.lessonClient.lesson.progress")


def play_lesson_to_its_end(page, base, slug, screenshot, size, lesson=None):
    open_lesson(page, base, slug, lesson)
    tutorial = get_tutorial(slug, lesson)
    name = slug if lesson is None else f"{slug}-{lesson}"
    steps = len(tutorial.steps)
    assert page.locator("#lesson-count").inner_text() == f"Step 1 of {steps}"
    # A wrong move first: a friendly hint, and the lesson stays where it was.
    taught = moves_of(slug, lesson)[0].action
    offered = page.evaluate("() => window.lessonClient.lesson.legal_actions.map((a) => a.action)")
    wrong = next((a for a in offered if a != taught), None)
    if wrong:
        play(page, wrong)
        page.wait_for_function(HINTED)
        assert tutorial.steps[0].hint in page.locator("#hint").inner_text()
        assert progress(page) == 0
        screenshot(page, f"learn-{name}-{size}-hint")
    for done, move in enumerate(moves_of(slug, lesson)):
        assert progress(page) == done
        play(page, move.action)
        page.wait_for_function(MOVED_ON, arg=done)
        assert page.locator("#hint").is_hidden()
        if done == 0:
            screenshot(page, f"learn-{name}-{size}-step")
    page.wait_for_selector("#lesson-end:not([hidden])")
    assert page.locator("#lesson-count").inner_text() == "Lesson done"
    assert page.locator("#lesson-steps li.passed").count() == steps
    assert page.locator("#actions button").count() == 0
    screenshot(page, f"learn-{name}-{size}-done")


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_a_learner_plays_the_lesson_to_its_end_and_starts_a_match_against_mcts_easy(
    asgi_server, browser, make_user, screenshot, slug
):
    learner = make_user("learner")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, asgi_server, learner)
    play_lesson_to_its_end(page, asgi_server, slug, screenshot, "1280")
    page.get_by_role("button", name="against MCTS Easy").click()
    page.wait_for_url(f"{asgi_server}/matches/*/")
    page.wait_for_selector("#board svg")
    header = page.locator(".match-header").inner_text()
    assert "Untimed" in header and "casual" in header
    assert "MCTS Easy" in page.locator("#seats").inner_text()


def test_a_lesson_on_a_phone_keeps_its_step_over_a_reload_and_asks_a_visitor_to_log_in(
    asgi_server, browser, screenshot
):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    open_lesson(page, asgi_server, "territories")
    first = moves_of("territories")[0]
    play(page, first.action)
    page.wait_for_function(MOVED_ON, arg=0)
    page.reload()
    page.wait_for_function(READY)
    assert progress(page) == 1
    assert page.locator("#board svg .tr-house[data-square='b2']").count() == 1
    # Nothing sticks out of the narrow screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    play_lesson_to_its_end_from(page, "territories", 1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    end = page.locator("#lesson-end")
    assert "Sign in to play against MCTS Easy" in end.inner_text()
    screenshot(page, "learn-territories-390-done")


def play_lesson_to_its_end_from(page, slug, start):
    for done, move in enumerate(moves_of(slug)[start:], start=start):
        play(page, move.action)
        page.wait_for_function(MOVED_ON, arg=done)
    page.wait_for_selector("#lesson-end:not([hidden])")


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_a_visitor_plays_the_games_second_lesson_to_its_end(asgi_server, browser, screenshot, slug):
    second = lessons_of(slug)[1]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    play_lesson_to_its_end(page, asgi_server, slug, screenshot, "1280", second.lesson)
    assert second.closing in page.locator("#prompt").inner_text()
    assert "Sign in to play against MCTS Easy" in page.locator("#lesson-end").inner_text()
