"""Every game's live match page with 30-character names, on a wide screen (1280 px) and a
phone (390 px), for the player to move: no name runs into a score or off the board, nothing
is wider than the screen, and everything the player may tap is at least 40 px each way on the phone (24 px
with a mouse on the wide screen). The score table is checked with every breakdown unfolded. Checked on the
elements' boxes, not on pixels; the screenshots go to test-artifacts/ for people to look at.
One page load per game and width."""

import json
import random

import pytest

from games import services
from games.engines import CHANCE, get_game
from games.models import Match
from tests.conftest import ARTIFACTS
from tests.games.helpers import random_playout

from .pages import CONNECTED, draw_board_alone, in_thread, signed_in_context

pytestmark = pytest.mark.browser

# Each game with as many players as make its header and score table the most crowded.
GAMES = [("territories", 2), ("chit-territory", 4), ("dice-territory", 4), ("gp02a", 4), ("game-of-god", 4)]
LONG = [f"{c * 3}_thirty_character_player_nam"[:30] for c in "abcd"]
# What a finger needs on a phone; with a mouse on a wide screen, the 24 px of WCAG 2.5.8.
MIN_TARGET = {390: 40, 1280: 24}

# The boxes the checks need, read in one go: the page's width against the screen's, every
# pair of name and score that overlap (the side panel's score table and the board's header),
# and every tappable target smaller than MIN_TARGET px either way.
GEOMETRY = """(minTarget) => {
  document.querySelectorAll('#score details').forEach((d) => { d.open = true; });
  const box = (e) => e.getBoundingClientRect();
  const shown = (e) => { const b = box(e); return b.width > 0 && b.height > 0; };
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const names = [...document.querySelectorAll(
    '#board svg [class*=name], #score .name-cell, #seats .name, #turn-who')].filter(shown);
  const scores = [...document.querySelectorAll('#board svg [class*=score], #score td.num, #turn-clock')].filter(shown);
  const overlaps = [];
  for (const n of names) for (const s of scores) {
    if (n.contains(s) || s.contains(n)) continue;
    if (meets(box(n), box(s))) overlaps.push(`${n.textContent.trim()} | ${s.textContent.trim()}`);
  }
  const targets = [...document.querySelectorAll(
    '#board [data-action], #board [data-select], #actions button, #actions select, #actions input, #replay button')]
    .filter(shown);
  const tooSmall = (e) => box(e).width < minTarget - 0.5 || box(e).height < minTarget - 0.5;
  const size = (e) => `${Math.round(box(e).width)}x${Math.round(box(e).height)}`;
  const small = targets.filter(tooSmall).map((e) => `${e.dataset.action || e.dataset.select || e.tagName} ${size(e)}`);
  const wide = [...document.querySelectorAll('#main *')].filter(shown)
    .filter((e) => box(e).right > window.innerWidth + 1 && !e.closest('.moves, .chat, [style*=overflow]'))
    .map((e) => `${e.tagName}.${e.getAttribute('class') || ''}`);
  const svg = document.querySelector('#board svg');
  const edge = svg ? box(svg) : null;
  const offBoard = svg ? [...svg.querySelectorAll('text')].filter(shown)
    .filter((t) => box(t).left < edge.left - 1 || box(t).right > edge.right + 1).map((t) => t.textContent) : [];
  return {
    offBoard, pageWidth: document.documentElement.scrollWidth, screen: window.innerWidth,
    overlaps, small: small.slice(0, 6), smallCount: small.length, targets: targets.length, wide: wide.slice(0, 10),
  };
}"""


def seat_long_names(make_user):
    """A match of each game full of players with 30-character names; each game's match and
    the player to move in it."""
    users = [make_user(name) for name in LONG]

    def start():
        matches = []
        for game, n in GAMES:
            match = services.match_create(user=users[0], game=game, num_players=n, rated=False, speed="untimed")
            for user in users[1:n]:
                services.match_join(match_id=match.pk, user=user)
            match = Match.objects.get(pk=match.pk)
            assert match.to_move is not None, f"{game}: nobody to move once every seat is taken"
            matches.append((game, match, users[match.to_move]))
        return matches

    return in_thread(start)


def builds_are_one_list(page):
    """The chit game's first turn offers a structure on any of 81 plots: one list to filter and
    choose from, not a button each; typing narrows it to the move named."""
    assert page.locator("#actions button").count() <= 3
    choices = page.locator("#action-choice option")
    assert choices.count() >= 81
    first = choices.first.get_attribute("value") or ""  # build:KIND@PLOT
    kind, plot = first[len("build:") :].split("@")
    page.fill("#action-filter", f"{kind} {plot}")
    assert choices.count() == 1 and choices.first.get_attribute("value") == first
    page.fill("#action-filter", "")


@pytest.mark.parametrize("width", [1280, 390])
def test_thirty_character_names_fit_every_game_page(asgi_server, browser, make_user, screenshot, width):
    problems = {}
    for game, match, mover in seat_long_names(make_user):
        viewport = {"width": width, "height": 900 if width > 400 else 844}
        context = signed_in_context(browser, asgi_server, mover, viewport=viewport)
        page = context.new_page()
        page.goto(f"{asgi_server}/matches/{match.pk}/")
        page.wait_for_function(CONNECTED)
        page.wait_for_selector("#board svg")
        seen = page.evaluate(GEOMETRY, MIN_TARGET[width])
        if game == "chit-territory":
            builds_are_one_list(page)
        screenshot(page, f"long-names-{game}-{width}")
        context.close()
        assert seen["targets"], f"{game}: nothing to tap for the player to move"
        found = {k: seen[k] for k in ("overlaps", "small", "wide", "offBoard") if seen[k]}
        if seen["pageWidth"] > seen["screen"]:
            found["page width"] = f"{seen['pageWidth']} > {seen['screen']}"
        if found:
            problems[game] = found
    (ARTIFACTS / f"long-names-{width}.json").write_text(json.dumps(problems, indent=1))
    assert not problems, problems


# Every field and chip to tap, and where the close-up and its tray stand.
PHONE_TARGETS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const targets = [...document.querySelectorAll('#board svg [data-action], #board svg [data-select]')];
  const closeUp = document.querySelector('#board svg .close-up');
  const tray = document.querySelector('#board svg .close-up-tray');
  return {
    targets: targets.map((e) => [
      e.dataset.action || e.dataset.select, Math.round(box(e).width), Math.round(box(e).height)]),
    closeUp: closeUp && [box(closeUp).top, box(closeUp).bottom],
    tray: tray && [box(tray).top, box(tray).bottom],
  };
}"""


def gp02a_placing_two_colours():
    """A GP02A position in which the player to move places chips of two colours in their block."""
    game = get_game("gp02a")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state(3)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            colours = {a.split(":")[1].split("@")[0] for a in legal if a.startswith("put:")}
            if state.current_player() != CHANCE and len(colours) >= 2:
                seat = state.current_player()
                moves = [{"action": a, "label": game.action_label(a)} for a in legal]
                return state.view(seat), seat, moves
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply(rng.choice(legal))
    raise AssertionError("no position with two colours to place")


def test_gp02a_on_a_phone_places_chips_in_a_close_up_of_the_block_with_the_tray_beside_it(
    asgi_server, browser, screenshot
):
    view, seat, legal = gp02a_placing_two_colours()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{asgi_server}/")
    names = LONG[:3]
    draw_board_alone(page, "gp02a", view, names, seat=seat, legal=legal)
    page.wait_for_selector("#board svg .close-up")
    seen = page.evaluate(PHONE_TARGETS)
    screenshot(page, "gp02a-close-up-390")
    page.close()
    picks = [t for t in seen["targets"] if not t[0].startswith("put:")]
    assert len(picks) >= 2, "a colour to pick from the tray"
    small = [t for t in seen["targets"] if t[1] < MIN_TARGET[390] - 0.5 or t[2] < MIN_TARGET[390] - 0.5]
    assert not small, small
    # The tray stands beside the close-up, not a screen further down.
    assert seen["tray"][0] < seen["closeUp"][1], seen


# The words of a board: any that runs past the board's edge, and any two that overlap.
TEXT_CLASHES = """() => {
  const svg = document.querySelector('#board svg');
  const edge = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => [t, t.getBoundingClientRect()]).filter(([, b]) => b.width > 0);
  const off = texts.filter(([, b]) => b.left < edge.left - 1 || b.right > edge.right + 1).map(([t]) => t.textContent);
  const clashes = [];
  texts.forEach(([t, a], i) => texts.slice(i + 1).forEach(([u, b]) => {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 2 && y > Math.min(a.height, b.height) / 3) clashes.push(`${t.textContent} | ${u.textContent}`);
  }));
  return {off, clashes};
}"""


# Contrast on a board (axe-core reads no SVG): every word at least 4.5:1 against the shape
# under it, and every piece at least 3:1, by its fill or its outline. Faded parts (a
# reserve's empty chits, a ghost of where a piece would go) are not read.
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const [r, g, b] = rgb(c);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const css = (e) => getComputedStyle(e);
  const faded = (e) => {
    for (let n = e; n && n.tagName !== 'svg'; n = n.parentNode) if (Number(css(n).opacity) < 1) return true;
  };
  const painted = (e) => e instanceof SVGGeometryElement && !['line', 'polyline', 'text'].includes(e.tagName)
    && css(e).fill.startsWith('rgb(') && Number(css(e).fillOpacity) > 0.5;
  const under = (e, skip) => {
    const b = e.getBoundingClientRect();
    return document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2).find((u) => painted(u) && !skip(u));
  };
  const low = [];
  for (const t of document.querySelectorAll('#board svg text')) {
    if (!t.textContent.trim() || faded(t) || !t.getBoundingClientRect().width) continue;
    const bg = under(t, () => false);
    const r = bg ? ratio(css(t).fill, css(bg).fill) : 21;
    if (r < 4.5) low.push(`${t.textContent.slice(0, 24)}: ${r.toFixed(2)}`);
  }
  for (const p of document.querySelectorAll('#board svg :is(.tr-house-body, .chip-disc, .gg-disc, .dt-shape)')) {
    if (faded(p) || !p.getBoundingClientRect().width) continue;
    const bg = under(p, (u) => u === p || p.parentNode.contains(u));
    if (!bg) continue;
    const stroked = Number.parseFloat(css(p).strokeWidth) >= 1.4 && css(p).stroke.startsWith('rgb(');
    const outline = stroked ? ratio(css(p).stroke, css(bg).fill) : 0;
    const best = Math.max(ratio(css(p).fill, css(bg).fill), outline);
    if (best < 3) low.push(`piece ${p.getAttribute('class')}: ${best.toFixed(2)}`);
  }
  return [...new Set(low)];
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_end_of_every_game_writes_no_words_over_others_or_off_the_board_and_reads_well(
    asgi_server, browser, screenshot, width
):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{asgi_server}/")
    problems = {}
    for slug, n in GAMES:
        draw_board_alone(page, slug, random_playout(slug, n, seed=4)[1].view(0), LONG[:n], seat=0)
        seen = page.evaluate(TEXT_CLASHES)
        seen["contrast"] = page.evaluate(CONTRAST)
        screenshot(page, f"end-{slug}-{width}")
        if seen["off"] or seen["clashes"] or seen["contrast"]:
            problems[slug] = seen
    page.close()
    (ARTIFACTS / f"end-{width}.json").write_text(json.dumps(problems, indent=1))
    assert not problems, problems
