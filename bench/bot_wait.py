"""How long a person waits for the bots between two of their turns, in the browser.

Run from the project folder (no service needed: the site runs on its embedded default, as
`make run` serves it, with the bots thinking in the server's own threads)::

    python -m bench.bot_wait                 # a few minutes; writes docs/BENCHMARKS.md
    python -m bench.bot_wait --turns 3 --no-write

One uvicorn process serves the portal on a SQLite database of its own in a temporary folder
(removed at the end). A person signs in, and a Chromium page opens matches against MCTS
Medium through the "Play the computer" form: GP02A with two bots, the dice game with two bots
(neither game has a 2-player table), and a 2-player game of each game that has one, with one
bot: Territories, the chit game and Game of God. The configurations take turns: the person
plays one whole turn in one match (random legal actions through the API, the dice game's
"stop" when it is offered, so a turn stays short), then waits on the match page until it shows
"Your move" again; then the next match. The wait is measured in the page, from the answer to
the person's last action of the turn to the moment the page marks the turn as theirs
(``#turn.mine``), so it holds the bots' thinking, every update reaching the page, and the
page drawing it.

Each wait is split in two with the server's own metrics (``portal_bot_think_seconds``, read
before and after it): the bots' searches, and the rest (reading and writing each move, sending
it to the page, the page drawing it), which is the part a turn of several moves could make
longer than its moves.

The figure of each configuration is the median of its waits; the target is a 3-player wait at
most twice the 2-player one (two bots answer instead of one). Medium's search costs each game
something else a decision (Territories the least, Game of God the most), and a turn is one
decision in some games and several in others, so each 3-player wait is set against every
2-player game's, and the verdict is given against each. Bounded in time: ``--turns``
person turns per configuration (default 6) and ``--minutes`` (default 8) in all, whichever
comes first. Results go to bench/results/bot_wait.json and to the text between
``<!-- bot-wait:start -->`` and ``<!-- bot-wait:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.report import machine, write_section
from bench.servers import UvicornServer

ROOT = Path(__file__).resolve().parent.parent
THREE_PLAYERS = [("gp02a", 3), ("dice-territory", 3)]
TWO_PLAYERS = [("territories", 2), ("chit-territory", 2), ("game-of-god", 2)]
CONFIGS = THREE_PLAYERS + TWO_PLAYERS
BOT = "mcts-medium"
TURN_TIMEOUT_MS = 120_000
METRICS_TOKEN = "bench-bot-wait"

# The person's turn, played in the page through the API: random legal actions (the dice
# game's "stop" when offered) until the turn passes; the time the last answer came back.
PLAY_TURN = """
async ([matchId, seed]) => {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  let rand = seed;
  const next = () => { rand = (rand * 1103515245 + 12345) % 2147483648; return rand / 2147483648; };
  let snap = await (await fetch(`/api/matches/${matchId}/`)).json();
  let actions = 0;
  window.__sentAt = performance.now();
  while (snap.status === "active" && snap.legal_actions.length) {
    const legal = snap.legal_actions.map((a) => a.action);
    const action = legal.includes("stop") ? "stop" : legal[Math.floor(next() * legal.length)];
    window.__sentAt = performance.now();
    const res = await fetch(`/api/matches/${matchId}/actions/`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ action, version: snap.version }),
    });
    snap = await res.json();
    if (!res.ok) snap = snap.snapshot || (await (await fetch(`/api/matches/${matchId}/`)).json());
    else actions += 1;
  }
  return { actions, answeredAt: performance.now(), active: snap.status === "active", moves: snap.moves };
}
"""

# Every change of the turn banner, timed, from the page's loading on.
WATCH_TURN = """
() => {
  window.__turns = [];
  const turn = document.getElementById("turn");
  const note = () => window.__turns.push([performance.now(), !turn.hidden && turn.classList.contains("mine")]);
  new MutationObserver(note).observe(turn, { attributes: true, attributeFilter: ["class", "hidden"] });
  note();
}
"""

# Resolves once the page showed somebody else's turn after the person's last action was
# sent, then the person's turn again: that moment. -1 when the page was loaded anew meanwhile
# (the bots ended the match, and the page reloads to show the result).
MY_TURN_AGAIN = """
() => {
  if (!window.__turns) return -1;
  const since = window.__sentAt;
  let away = false;
  for (const [at, mine] of window.__turns) {
    if (at < since) continue;
    if (!mine) away = true;
    else if (away) return at;
  }
  return null;
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=6, help="person turns measured per configuration")
    parser.add_argument("--minutes", type=float, default=8.0, help="bound on the whole run")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/ and bench/results/ alone")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-bot-wait-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "PORTAL_TESTING", "DEBUG")}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="portal.settings",
        METRICS_TOKEN=METRICS_TOKEN,
    )
    server = None
    try:
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        session = (
            subprocess.run(
                [*manage, "shell", "-c", SIGN_IN], cwd=ROOT, env=env, check=True, capture_output=True, text=True
            )
            .stdout.strip()
            .splitlines()[-1]
            .split()[-1]
        )
        server = UvicornServer("portal.asgi:application", 1, log_path=folder / "server.log", env=env, cwd=ROOT)
        server.wait_ready()
        load_before = os.getloadavg()
        waits, thinking, bot_moves = measure(server.port, session, args.turns, args.minutes * 60)
        load_after = os.getloadavg()
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    report(waits, thinking, bot_moves, load_before, load_after, write=not args.no_write)


# Run in the server's settings: a person, and their session's key.
SIGN_IN = """
from django.contrib.auth import get_user_model
from django.test import Client
user = get_user_model().objects.create_user("bench", "bench@example.org", "a long bench password")
client = Client()
client.force_login(user)
print("session", client.cookies["sessionid"].value)
"""


def think_seconds(base: str) -> float:
    """The seconds the server's bots have spent searching so far (its metrics)."""
    request = urllib.request.Request(f"{base}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    prefix = f'portal_bot_think_seconds_sum{{bot="{BOT}"}} '
    return sum(float(line[len(prefix) :]) for line in text.splitlines() if line.startswith(prefix))


def measure(
    port: int, session: str, turns: int, seconds: float
) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, list[int]]]:
    """Each configuration's waits (s), the bots' searching in each (s), and the moves the bots
    made in each (chance included)."""
    from playwright.sync_api import sync_playwright

    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    waits: dict[str, list[float]] = {key(c): [] for c in CONFIGS}
    thinking: dict[str, list[float]] = {key(c): [] for c in CONFIGS}
    bot_moves: dict[str, list[int]] = {key(c): [] for c in CONFIGS}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
        pages = {}
        for game, players in CONFIGS:
            page = context.new_page()
            page.goto(f"{base}/play/computer/")
            match_url = page.evaluate(
                """async ([game, players, bot]) => {
                  const form = new FormData();
                  form.set("csrfmiddlewaretoken", document.querySelector("input[name=csrfmiddlewaretoken]").value);
                  form.set("game", game); form.set("num_players", players); form.set("bot", bot);
                  const res = await fetch("/play/computer/", { method: "POST", body: form });
                  return res.url;
                }""",
                [game, players, BOT],
            )
            page.goto(match_url)
            page.evaluate(WATCH_TURN)
            page.wait_for_selector("#turn.mine", timeout=TURN_TIMEOUT_MS)  # the bots' opening turns
            pages[key((game, players))] = (page, int(match_url.rstrip("/").rsplit("/", 1)[1]))
        rng = random.Random(7)
        for _ in range(turns):
            for config, (page, match_id) in pages.items():
                if time.monotonic() > deadline:
                    break
                searched = think_seconds(base)  # only this match's bots have anything to do
                played = page.evaluate(PLAY_TURN, [match_id, rng.randrange(1, 2**31)])
                if not played["active"]:
                    continue  # the match ended
                page.wait_for_function(MY_TURN_AGAIN, timeout=TURN_TIMEOUT_MS)
                mine_at = page.evaluate(MY_TURN_AGAIN)
                if mine_at < 0:
                    continue  # the match ended during the bots' turns: no wait to measure
                waits[config].append(max(0.0, (mine_at - played["answeredAt"]) / 1000))
                thinking[config].append(think_seconds(base) - searched)
                moves = page.evaluate(f"async () => (await (await fetch('/api/matches/{match_id}/')).json()).moves")
                bot_moves[config].append(moves - played["moves"])
        browser.close()
    return waits, thinking, bot_moves


def key(config: tuple[str, int]) -> str:
    return f"{config[0]} ({config[1]} players)"


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return machine()["cpu"]
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return machine()["cpu"]


def report(
    waits: dict[str, list[float]],
    thinking: dict[str, list[float]],
    bot_moves: dict[str, list[int]],
    load_before,
    load_after,
    *,
    write: bool,
) -> None:
    medians = {config: statistics.median(w) if w else None for config, w in waits.items()}
    # The rest of each wait: everything but the searches (a search may end a moment after the
    # page shows the turn, so the rest is never read below nothing).
    rests = {
        config: [max(0.0, w - t) for w, t in zip(waits[config], thinking[config], strict=True)] for config in waits
    }
    rest_medians = {config: statistics.median(r) if r else None for config, r in rests.items()}
    rows = []
    for config, w in waits.items():
        median = medians[config]
        shown = f"{median:.2f} s" if median is not None else "-"
        spread = f"{min(w):.2f}-{max(w):.2f} s" if w else "-"
        thought = f"{statistics.median(thinking[config]):.2f} s" if thinking[config] else "-"
        rest = f"{rest_medians[config]:.2f} s" if rest_medians[config] is not None else "-"
        moves = bot_moves[config]
        per_move = f"{sum(rests[config]) / sum(moves):.3f} s" if moves and sum(moves) else "-"
        median_moves = f"{statistics.median(moves):g}" if moves else "-"
        rows.append(f"| {config} | {len(w)} | {shown} | {spread} | {thought} | {rest} | {median_moves} | {per_move} |")
    held, ratio_rows = against_two_players(medians)
    verdicts = "; ".join(f"against {two}: {'held' if ok else 'NOT held'}" for two, ok in held.items())
    info = machine()
    body = "\n".join(
        [
            f"Measured {info['date']} on {cpu_model()}, {info['cores']} cores, {info['python']}; load average "
            f"{load_before[0]:.2f} before and {load_after[0]:.2f} after (1 min). One uvicorn process on the "
            f"embedded default (SQLite, the bots thinking in the server's threads), Chromium, bots "
            f"{BOT}. A wait runs from the answer to the person's last action of a turn to the page "
            "showing their turn again.",
            "",
            "| match | person turns | median wait | range | of it searching (median) | the rest (median) "
            "| bot moves a wait (median, chance included) | the rest per bot move |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
            *rows,
            "",
            "Each 3-player median wait against each 2-player game's:",
            "",
            "| 3-player match | " + " | ".join(f"against {two}" for two in map(key, TWO_PLAYERS)) + " |",
            "| --- | " + " | ".join("---" for _ in TWO_PLAYERS) + " |",
            *ratio_rows,
            "",
            f"Target, a 3-player wait at most 2x the 2-player wait: {verdicts}. "
            "The rest of a wait (the searches left out: reading and writing each move, sending it, "
            "the page drawing it) grows with the bots' moves in it; the rest per bot move says "
            "whether a bot's turn of several moves costs more than its moves: it is alike in every "
            "configuration when it does not.",
        ]
    )
    print(body)
    if write:
        results = ROOT / "bench" / "results"
        results.mkdir(parents=True, exist_ok=True)
        (results / "bot_wait.json").write_text(
            json.dumps(
                {
                    "waits": waits,
                    "thinking": thinking,
                    "bot_moves": bot_moves,
                    "medians": medians,
                    "rest_medians": rest_medians,
                    "held": held,
                    "cpu": cpu_model(),
                },
                indent=2,
            )
            + "\n"
        )
        write_section(ROOT / "docs" / "BENCHMARKS.md", "bot-wait", "Waiting for the bots, in the browser", body)


def against_two_players(medians: dict[str, float | None]) -> tuple[dict[str, bool], list[str]]:
    """Each 3-player median against each 2-player game's: whether it is at most twice it
    (per 2-player game), and the table's rows of ratios."""
    held: dict[str, bool] = {}
    rows = []
    for three in map(key, THREE_PLAYERS):
        cells = []
        for two in map(key, TWO_PLAYERS):
            a, b = medians[three], medians[two]
            if a is None or not b:
                cells.append("-")
                held[two] = False
                continue
            cells.append(f"{a / b:.2f}x")
            held[two] = held.get(two, True) and a <= 2 * b
        rows.append(f"| {three} | " + " | ".join(cells) + " |")
    return held, rows


if __name__ == "__main__":
    main()
