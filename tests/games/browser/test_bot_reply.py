"""Against the strongest bot on the embedded default (`make run`: no broker, the bots think in
the server process), a person's move is on the board, with the bot shown thinking, before the
bot's reply arrives; then the reply comes by itself."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from games import services

from .pages import CONNECTED, log_in

pytestmark = pytest.mark.browser

MY_TURN = "() => document.querySelectorAll('#actions button.action').length > 0"
SHOWN = "(v) => window.matchClient.payload.version >= v"
BOT_ROW = "#seats li[data-seat='1']"


@pytest.mark.parametrize("width", [pytest.param(1280, id="desktop"), pytest.param(390, id="phone")])
def test_my_move_shows_at_once_and_the_hard_bot_answers_after(
    asgi_server, browser, make_user, settings, screenshot, width
):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # as under `make run`
    base = asgi_server
    ann = make_user("ann")

    def create():  # in a thread of its own: Playwright's event loop runs in this one
        try:
            match = services.match_create(user=ann, game="game-of-god", num_players=2, rated=False)
            services.match_seat_bot(match_id=match.pk, user=ann, bot="mcts-hard")
            return match
        finally:
            connection.close()  # give the pooled connection back before the thread ends

    with ThreadPoolExecutor(1) as thread:
        match = thread.submit(create).result()
    page = log_in(browser.new_page(viewport={"width": width, "height": 900}), base, ann)
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_function(CONNECTED)

    handed_over = 0
    for _ in range(6):
        page.wait_for_function(MY_TURN, timeout=20_000)  # the bot may open, or answer first
        before = page.evaluate("window.matchClient.payload.version")
        page.locator("#actions button.action").first.click()
        page.wait_for_function(SHOWN, arg=before + 1, timeout=5_000)
        shown = page.evaluate(
            "({v: window.matchClient.payload.version, to_move: window.matchClient.payload.clocks.to_move,"
            " status: window.matchClient.payload.status})"
        )
        if shown["status"] != "active" or shown["to_move"] != 1:
            continue  # my move did not hand the turn over (or ended the game): move again
        # My move is on the board and the bot is thinking: its reply has not come yet.
        assert shown["v"] == before + 1
        assert page.locator(f"{BOT_ROW} .thinking").is_visible()
        # Beside the board too, where a phone shows it without scrolling to the players.
        assert page.locator("#turn.thinking").is_visible()
        who = page.locator("#turn-who").inner_text()
        assert who.startswith("MCTS Hard") and who.endswith("is thinking…")
        assert page.locator("#actions button.action").count() == 0
        if handed_over == 0:
            screenshot(page, f"bot-thinking-{width}")
        # Then the reply comes by itself, and the bot no longer shows as thinking.
        page.wait_for_function(SHOWN, arg=before + 2, timeout=20_000)
        page.wait_for_selector(f"{BOT_ROW} .thinking", state="detached", timeout=20_000)
        assert not page.locator("#turn.thinking").is_visible()
        handed_over += 1
        if handed_over == 2:
            break
    assert handed_over == 2
