"""What a newcomer sees first, at a desktop's and a phone's width: seats told apart by name
and colour, a move list in plain words that drives the replay, pages that survive a very
long username, and a list of live matches to watch."""

import random
import re

import pytest

from games import services, state_cache
from games.models import Match
from rankings.models import Rating
from tests.conftest import drain_worker, wait_for

from . import pages
from .test_match_page import off_the_page_thread

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": 1280, "phone": 390}
LONG_NAME = "L" + "o" * 148 + "g"  # 150 characters, as an account made before the limit


def context_for(browser, width):
    if width < 500:
        return browser.new_context(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True)
    return browser.new_context(viewport={"width": width, "height": 900})


def assert_fits(page, width, what):
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what} scrolls sideways at {width}px ({scroll}px wide)"


def finished_bot_match(alice):
    """A dice game of three that alice (moving at random) and two Greedy bots play to the end."""
    match = services.match_create(user=alice, game="dice-territory", num_players=3, rated=False, speed="untimed")
    services.match_seat_bot(match_id=match.pk, user=alice, bot="greedy")
    rng = random.Random(3)
    for _ in range(400):
        drain_worker()
        now = Match.objects.get(pk=match.pk)
        if now.status != Match.Status.ACTIVE:
            break
        if now.to_move != 0:
            continue
        action = rng.choice(state_cache.load(now).legal_actions())
        try:
            services.match_act(match_id=now.pk, user=alice, action=action, version=now.version)
        except services.MatchError:
            continue  # the position moved on meanwhile: look again
    return match


@pytest.mark.parametrize("device", WIDTHS)
def test_bots_of_one_kind_are_told_apart_and_the_move_list_drives_the_replay(
    asgi_server, browser, alice, screenshot, device
):
    width = WIDTHS[device]
    match = off_the_page_thread(lambda: finished_bot_match(alice))
    wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, timeout=120, message="the end")
    drain_worker()
    moves = Match.objects.get(pk=match.pk).moves.count()
    assert moves >= 12

    page = pages.log_in(context_for(browser, width).new_page(), asgi_server, alice)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.wait_for_selector("#replay:not([hidden])")
    page.wait_for_function(f"() => document.querySelectorAll('#moves li').length === {moves}")
    screenshot(page, f"newcomer-finished-bot-match-{device}")

    # Score table, final ranking, seat list: three different names, each with its colour.
    score_names = page.eval_on_selector_all("#score th .name", "els => els.map(e => e.textContent)")
    assert score_names == ["alice (blue)", "Greedy (red)", "Greedy (green)"]
    ranking = page.inner_text("#result .final-ranking")
    assert "Greedy (red)" in ranking and "Greedy (green)" in ranking
    assert " 1 points" not in ranking
    seats = page.eval_on_selector_all("#seats .name", "els => els.map(e => e.textContent)")
    assert seats == score_names
    # The dice board's final places name the seats the same way.
    places = page.eval_on_selector_all("#board .dt-player-name", "els => els.map(e => e.textContent)")
    # (The two bots' colours, which tell them apart, stay whole however short the room; the
    # person's own name, "alice (blue, you)", may be cut to "al… (blue, you)" when it heads a long score.)
    bots = [re.search(r"\((\w+)\)$", name) for name in places if not name.endswith("you)")]
    assert sorted(found.group(1) for found in bots if found) == ["green", "red"], places

    # The move list: plain words, no engine codes, numbered in full from 1.
    entries = page.eval_on_selector_all("#moves li", "els => els.map(e => e.textContent)")
    assert entries[0].startswith("1.")
    assert entries[11].startswith("12.")
    assert not any(re.search(r"\b(dice|claim|card|first):", e) for e in entries), entries[:5]
    assert any(e.split(" ", 1)[1].startswith("Greedy (red): ") for e in entries), entries[:20]
    assert re.fullmatch(r"1\. Chance: (alice \(blue\)|Greedy \(red\)|Greedy \(green\)) plays first", entries[0])
    # The number of a two-digit move is not cut off.
    number = page.locator("#moves li").nth(11).locator(".move-no")
    assert number.evaluate("e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().left >= 0")

    # A move in the list jumps the replay to the position after it.
    page.locator("#moves li").nth(9).get_by_role("button").click()
    page.wait_for_function("() => document.getElementById('replay-pos').textContent.startsWith('Step 10 ')")
    assert page.locator("#moves li.current").get_attribute("data-index") == "9"
    assert_fits(page, width, "the finished match page")
    screenshot(page, f"newcomer-bots-told-apart-{device}")


def rated_long_name(make_user):
    long = make_user(LONG_NAME)
    Rating.objects.create(user=long, game="territories", rating=1612, rated_games=3, wins=2)
    return long


@pytest.mark.parametrize("device", WIDTHS)
def test_every_page_survives_a_very_long_username(asgi_server, browser, make_user, bob, screenshot, device):
    width = WIDTHS[device]
    long = rated_long_name(make_user)
    open_match = off_the_page_thread(lambda: services.match_create(user=long, game="gp02a", num_players=3))
    playing = off_the_page_thread(lambda: services.match_create(user=long, game="dice-territory", num_players=3))
    off_the_page_thread(lambda: services.match_join(match_id=playing.pk, user=bob))
    off_the_page_thread(lambda: services.match_seat_bot(match_id=playing.pk, user=long, bot="random"))
    page = pages.log_in(context_for(browser, width).new_page(), asgi_server, long)

    for name, url in [
        ("lobby", "/play/"),
        ("game", "/games/dice-territory/"),
        ("ranking", "/games/territories/ranking/"),
        ("player", f"/players/{LONG_NAME}/"),
        ("open-match", f"/matches/{open_match.pk}/"),
        ("match", f"/matches/{playing.pk}/"),
    ]:
        page.goto(f"{asgi_server}{url}")
        if "match" in name:
            page.wait_for_selector("#board svg")
        screenshot(page, f"newcomer-long-name-{name}-{device}")
        assert page.locator(f"[title='{LONG_NAME}'], [title^='{LONG_NAME} (']").count() > 0, name
        assert_fits(page, width, name)


@pytest.mark.parametrize("device", WIDTHS)
def test_a_visitor_finds_a_live_match_to_watch_and_learns_how_to_chat(
    asgi_server, browser, alice, bob, make_user, screenshot, device
):
    width = WIDTHS[device]

    def start_two():
        public = services.match_create(user=alice, game="game-of-god", num_players=2)
        services.match_join(match_id=public.pk, user=bob)
        secret = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
        services.match_join(match_id=secret.pk, user=bob, token=secret.invite_token)
        return public, secret

    public, secret = off_the_page_thread(start_two)
    page = context_for(browser, width).new_page()
    for url in ("/play/", "/games/game-of-god/"):
        page.goto(f"{asgi_server}{url}")
        watch = page.get_by_role("link", name=f"Watch Game of God #{public.pk}")
        assert watch.count() == 1
        assert page.get_by_role("link", name=f"Watch Game of God #{secret.pk}").count() == 0
        assert_fits(page, width, url)
        screenshot(page, f"newcomer-watch-list{url.replace('/', '-').rstrip('-')}-{device}")
    watch.click()
    page.wait_for_url(f"{asgi_server}/matches/{public.pk}/")
    page.wait_for_selector("#board svg")
    assert page.locator("#watching").is_visible()
    hint = page.locator(".chat-hint")
    assert "Sign in" in hint.inner_text() and "to join the chat" in hint.inner_text()
    assert page.locator("#chat-form").count() == 0
    assert_fits(page, width, "the watched match")
    screenshot(page, f"newcomer-watching-{device}")

    carol = make_user("carol")
    page = pages.log_in(context_for(browser, width).new_page(), asgi_server, carol)
    page.goto(f"{asgi_server}/matches/{public.pk}/")
    page.wait_for_function("() => window.matchClient?.socket?.readyState === 1")  # the chat goes by the socket
    page.fill("#chat-text", "Nice opening!")
    page.locator("#chat-form button").click()
    page.wait_for_function("() => document.getElementById('chat').textContent.includes('Nice opening!')")
