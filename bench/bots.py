"""Bot strength: a sequential tournament that decides each claim about the levels by SPRT.

Run from the project folder::

    python -m bench.bots --minutes 60                 # play for an hour, resume next time
    python -m bench.bots --minutes 30 --game territories --claim hard-vs-greedy
    python -m bench.bots --report                     # play nothing: rewrite docs/BOTS.md
    python -m bench.bots --list                       # the claims and where each stands

**Claims.** For every game and player count the portal promises five things about its bots
(``CLAIMS``): MCTS Easy beats Random clearly, Greedy beats MCTS Easy most of the time, MCTS
Medium beats Greedy, MCTS Hard beats MCTS Medium, and MCTS Hard is well ahead of Greedy.
Each is a (tested bot, opponent, score, target, margin) and is decided by the SPRT of
``bench.sprt``: H0 "the tested bot's mean score is at most target - margin", H1 "at least
target", alpha = beta = 0.05. A claim is *met* when H1 is accepted, *missed* when H0 is.

**Seats.** The tested bot takes one seat and the opponent every other one (at 4 players:
one MCTS Hard against three Greedy bots). The tested seat rotates with the game's index
(game i puts it in seat i mod n), so every seat order is played equally often.

**Scores, counted by place.** ``place``: 1 for first, 0 for last, linear between, a shared
place counting as the mean of the places it spans (2 players: 1 / 0.5 / 0); a player no
better than the others scores 0.5 on average at any table size. ``first``: the share of
first place (1/k when k seats share it); a fair share is 1/n. The four "beats" claims use
``place`` with target 60% and margin 10% (H0: no better than even). Hard against Greedy
uses ``first`` with the issue's target: 65% in 2-player games, twice the fair share (2/n)
at n players, margin 10%.

**Running.** Games run over ``--processes`` worker processes (default 2, one per core). The
next game always goes to the undecided claim that has had the least core time so far, so
cheap claims decide first and the time left flows to the costly ones. Every finished game
is appended at once to the results file (JSON lines); a run resumes from it, stops each
claim as soon as its SPRT decides, and launches no new game after ``--minutes`` (games under
way are finished and kept). Each record carries ``fingerprint``: a hash of the bot and
engine code (``games/bots/*.py``, ``games/engines/*.py``, but not the levels' budgets in
``games/bots/levels.py``), and ``settings``: a hash of what each of its bots searched with in
that game at that table (``bot_settings``). Verdicts and ratings use only the games of one fingerprint (by
default the code as it is now) whose bots all played with their settings of now, so a change
to the code starts every claim afresh, and a change to one level's budget in one game only
the claims that level plays in that game; older games stay in the file.

**Budgets.** The bots play with their real levels from ``games.bots`` (nothing is scaled
down). A level's strength is its iteration budget; a search that its wall-clock safety cap
stopped first played below it, and the records count such decisions per bot (``time_bound``)
so the report can say so (expected 0). Such a game is voided (``voided``): it counts toward no
verdict and no rating. To free the machine for a while, create the run's pause file
(``pause_file``) rather than stopping its processes: a search stopped mid-way would run into
its cap.
"""

from __future__ import annotations

import argparse
import datetime
import fcntl
import hashlib
import json
import math
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.report import machine
from bench.sprt import CONTINUE, MIN_GAMES, Result, first_share, place_score, sprt
from games.bots import MCTSBot, get_bot
from games.engines import CHANCE, all_games, get_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "bots.jsonl"
CODE_GLOBS = ("games/bots/*.py", "games/engines/*.py")
LEVELS_FILE = "games/bots/levels.py"  # data only: covered by each game's ``settings`` instead
# Settings added after games were recorded, with the value those games played with: left out
# of the hash while they keep it, so adding a setting restarts no claim that does not use it.
LATER_SETTINGS = {"potential": 0}
MAX_ACTIONS_PER_GAME = 20_000
DEFAULT_GAME_SECONDS = 60.0  # core time guessed for a game of a claim not yet played
SCORES = {"place": place_score, "first": first_share}


def code_fingerprint(root: Path = ROOT) -> str:
    """A short hash of the bot and engine code: games of other code are never mixed in."""
    digest = hashlib.sha256()
    for pattern in CODE_GLOBS:
        for path in sorted(root.glob(pattern)):
            if path.relative_to(root).as_posix() == LEVELS_FILE:
                continue
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def bot_settings(name: str, slug: str, players: int | None = None) -> str:
    """A short hash of what bot ``name`` searches with in game ``slug`` at a table of
    ``players`` (at any table when None; empty for bots with no settings, Random and Greedy)."""
    bot = get_bot(name)
    if not hasattr(bot, "settings"):
        return ""
    values = bot.settings(slug, players)  # a table limit reads as the table's size, or as off
    for key, default in LATER_SETTINGS.items():
        if values.get(key, default) == default:
            values.pop(key, None)
    return hashlib.sha256(json.dumps(values, sort_keys=True).encode()).hexdigest()[:8]


def settings_of(slug: str, names, players: int | None = None) -> dict[str, str]:
    return {name: bot_settings(name, slug, players) for name in sorted(set(names))}


def played_now(record: dict, fingerprint: str) -> bool:
    """Whether a game was played by the code ``fingerprint`` and, when it says with what
    settings, by bots whose settings in that game are still the same."""
    if record.get("fingerprint") != fingerprint:
        return False
    played = record.get("settings")
    return played is None or played == settings_of(record["game"], played, record["players"])


def voided(record: dict) -> bool:
    """Whether the wall-clock safety cap stopped one of the game's searches: that move was
    not its level's (the machine starved the game, or the run was paused in the middle of a
    search), so the game is no game between the levels. Which games are voided depends on the
    machine, never on how the game went."""
    return any(t.get("time_bound") for t in record.get("think", {}).values())


def counted(record: dict, fingerprint: str) -> bool:
    """Whether a game counts toward the verdicts and ratings of the code ``fingerprint``:
    played by it with the settings of now (``played_now``), and not voided."""
    return played_now(record, fingerprint) and not voided(record)


# ---------------------------------------------------------------------------------------
# Claims


@dataclass(frozen=True)
class Claim:
    game: str
    players: int
    kind: str  # e.g. "hard-vs-greedy"
    tested: str
    opponent: str
    score: str  # "place" or "first"
    target: float
    margin: float
    promise: str  # what the portal promises, in words

    @property
    def key(self) -> str:
        return f"{self.game}/{self.players}p/{self.kind}"

    @property
    def pairing(self) -> tuple[str, int, str, str]:
        return (self.game, self.players, self.tested, self.opponent)

    def score_of(self, record: dict) -> float:
        return SCORES[self.score](record["ranking"], record["seat"])

    def decide(self, records: list[dict]) -> Result:
        """The SPRT over this claim's games, in the order they finished."""
        return sprt((self.score_of(r) for r in records), self.target, self.margin)


KINDS = (
    # kind, tested, opponent, score, promise
    ("easy-vs-random", "mcts-easy", "random", "place", "MCTS Easy beats Random clearly"),
    ("greedy-vs-easy", "greedy", "mcts-easy", "place", "MCTS Easy loses to Greedy most of the time"),
    ("medium-vs-greedy", "mcts-medium", "greedy", "place", "MCTS Medium beats Greedy"),
    ("hard-vs-medium", "mcts-hard", "mcts-medium", "place", "MCTS Hard beats MCTS Medium"),
    ("hard-vs-greedy", "mcts-hard", "greedy", "first", "MCTS Hard is well ahead of Greedy"),
)
BEATS_TARGET, MARGIN = 0.60, 0.10


def hard_vs_greedy_target(players: int) -> float:
    """The issue's target: 65% in 2-player games, twice the fair share (2/n) at n players."""
    return 0.65 if players == 2 else 2.0 / players


def all_claims() -> list[Claim]:
    claims = []
    for game in all_games():
        for n in game.allowed_player_counts():
            for kind, tested, opponent, score, promise in KINDS:
                target = hard_vs_greedy_target(n) if kind == "hard-vs-greedy" else BEATS_TARGET
                claims.append(Claim(game.slug, n, kind, tested, opponent, score, round(target, 4), MARGIN, promise))
    return claims


# ---------------------------------------------------------------------------------------
# One game


def game_seed(fingerprint: str, slug: str, players: int, tested: str, opponent: str, index: int) -> int:
    settings = settings_of(slug, (tested, opponent), players)
    key = f"{fingerprint}/{slug}/{players}/{tested}/{opponent}/{index}"
    if any(settings.values()):  # games of new settings get seeds of their own
        key += "/" + ",".join(f"{name}={value}" for name, value in settings.items())
    return random.Random(key).getrandbits(63)


def play_game(task: tuple) -> dict:
    """One game; ``task`` = (fingerprint, slug, players, tested, opponent, index). In a worker."""
    fingerprint, slug, players, tested, opponent, index = task
    seed = game_seed(*task)
    chance = random.Random(seed)
    tested_seat = index % players
    names = [tested if seat == tested_seat else opponent for seat in range(players)]
    bots = [get_bot(name) for name in names]
    rngs = [random.Random(seed + 1 + seat) for seat in range(players)]
    think = {name: {"decisions": 0, "total": 0.0, "max": 0.0, "iterations": 0, "time_bound": 0} for name in set(names)}
    state = get_game(slug).new_state(players)
    actions = 0
    started = time.perf_counter()
    cpu_started = time.process_time()
    while not state.is_terminal():
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(f"{slug}: no end after {MAX_ACTIONS_PER_GAME} actions")
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            bot = bots[player]
            choice = len(state.legal_actions()) > 1
            t0 = time.perf_counter()
            action = bot.choose(state.clone(), player, rngs[player])
            spent = time.perf_counter() - t0
            if choice:
                tally = think[names[player]]
                tally["decisions"] += 1
                tally["total"] += spent
                tally["max"] = max(tally["max"], spent)
                tally["iterations"] += getattr(bot, "last_iterations", 0)
                tally["time_bound"] += isinstance(bot, MCTSBot) and bot.last_search().capped
        state.apply(action)
        actions += 1
    ranking = state.ranking()
    return {
        "fingerprint": fingerprint,
        "settings": settings_of(slug, names, players),
        "game": slug,
        "players": players,
        "tested": tested,
        "opponent": opponent,
        "index": index,
        "seat": tested_seat,
        "bots": names,
        "ranking": ranking,
        "place": ranking[tested_seat],
        "scores": state.scores(),
        "actions": actions,
        "seconds": time.perf_counter() - started,
        # How much of a core the game got: below 1 when other work shared the core, and a
        # level whose time cap binds then searched less than it would on an idle machine.
        "cpu_seconds": time.process_time() - cpu_started,
        "load": os.getloadavg()[0],
        "machine": machine()["summary"],  # one results file holds games of several machines
        "finished": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "think": think,
    }


# ---------------------------------------------------------------------------------------
# Results


def load_records(path: Path) -> list[dict]:
    """Every game in the results file, in the order they finished (a torn last line skipped).
    A game recorded twice (the same code, pairing, index and settings: the same seeded game)
    is read once."""
    if not path.exists():
        return []
    records = []
    seen = set()
    for line in path.read_text().splitlines():
        try:
            r = json.loads(line)
        except json.JSONDecodeError:
            continue
        key = (
            r.get("fingerprint"),
            r.get("game"),
            r.get("players"),
            r.get("tested"),
            r.get("opponent"),
            r.get("index"),
            json.dumps(r.get("settings"), sort_keys=True),
        )
        if r.get("fingerprint") is not None and key in seen:
            continue
        seen.add(key)
        records.append(r)
    return records


class ResultsBusy(Exception):
    """Another run is playing into the same results file."""


def _lock(out) -> None:
    """Hold the results file for this run alone: two runs at once would play the same seeded
    games twice."""
    try:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ResultsBusy(f"Another run is playing into {out.name}; wait for it to end.") from None


def pairing_of(record: dict) -> tuple[str, int, str, str]:
    """The pairing a game was played for: its game, table, tested bot and opponent."""
    return (record["game"], record["players"], record["tested"], record["opponent"])


def games_by_pairing(records: list[dict], fingerprint: str) -> dict[tuple, list[dict]]:
    out: dict[tuple, list[dict]] = {}
    for r in records:
        if counted(r, fingerprint):
            out.setdefault(pairing_of(r), []).append(r)
    return out


def adopt(path: Path, old: str, fingerprint: str, retimed: frozenset[str] = frozenset()) -> int:
    """Count the games of code ``old`` as games of the code now: for a change that moved
    code or made it faster but changed no bot's choices (check it first: the same seeded
    games must give the same actions before and after). In the games ``retimed`` (whose
    code got faster or slower) a game in which a search ran into its time cap is left out:
    its play depended on the code's speed. Each adopted record lists the code it was played
    by in ``adopted_from``. Returns how many were adopted."""
    if not path.exists():
        return 0
    with path.open("a") as held:
        _lock(held)  # a run playing now would append to the file this replaces
        return _adopt(path, old, fingerprint, retimed)


class SameDeals(Exception):
    """Adopting would count one seeded deal twice: the code now has played it already."""


def _adopt(path: Path, old: str, fingerprint: str, retimed: frozenset[str]) -> int:
    records = load_records(path)
    chosen = [
        r
        for r in records
        if r.get("fingerprint") == old
        and not (r["game"] in retimed and any(t.get("time_bound") for t in r.get("think", {}).values()))
    ]
    # A run of the code now before its older games were adopted deals again from index 0:
    # the same seeded games would count twice. Those games are to be taken out first.
    dealt_now = {(pairing_of(r), r["index"]) for r in records if r.get("fingerprint") == fingerprint}
    twice = sorted({pairing_of(r) for r in chosen if (pairing_of(r), r["index"]) in dealt_now})
    if twice:
        tables = ", ".join(f"{game} {players}p {tested} vs {opponent}" for game, players, tested, opponent in twice)
        raise SameDeals(
            f"Nothing adopted: the code now ({fingerprint}) has played deals that {old}'s games played too, "
            f"in {tables}; take the code now's games there out of {path.name} first"
        )
    for r in chosen:
        earlier = r.get("adopted_from", [])
        earlier = [earlier] if isinstance(earlier, str) else earlier
        # A game that says with what settings it was played keeps them (those of an older
        # budget must go on not counting); one from before settings were recorded gets those
        # of now, which the play check vouched for.
        r.setdefault("settings", settings_of(r["game"], r["bots"], r["players"]))
        r.update(fingerprint=fingerprint, adopted_from=[*earlier, old])
    adopted = len(chosen)
    if adopted:
        temporary = path.with_suffix(".tmp")
        temporary.write_text("".join(json.dumps(r) + "\n" for r in records))
        temporary.replace(path)
    return adopted


# ---------------------------------------------------------------------------------------
# The scheduler


class Scheduler:
    """Which game to play next. Turn about: the undecided claim with the least core time so
    far (every claim gets games), then the one whose verdict looks nearest in core time (the
    games its LLR needs to reach the bound it drifts toward, at its drift so far, times its
    mean game), so that claims about to be decided are not left waiting behind slow ones.
    Which claim plays when changes no test's errors: each claim's games are its own sequence."""

    def __init__(self, claims: list[Claim], records: list[dict], fingerprint: str):
        self.claims = claims
        self.fingerprint = fingerprint
        self.games = games_by_pairing(records, fingerprint)
        self.in_flight: dict[tuple, int] = {}
        self._decided: dict[Claim, bool] = {}
        self.next_index = {c.pairing: len(self.games.get(c.pairing, [])) for c in claims}
        self.turns = 0
        for r in records:  # a voided game's seeded deal is not dealt again
            if played_now(r, fingerprint):
                key = pairing_of(r)
                self.next_index[key] = max(self.next_index.get(key, 0), r["index"] + 1)

    def decided(self, claim: Claim) -> bool:
        if claim not in self._decided:
            self._decided[claim] = claim.decide(self.games.get(claim.pairing, [])).decision != CONTINUE
        return self._decided[claim]

    def open_claims(self) -> list[Claim]:
        return [c for c in self.claims if not self.decided(c)]

    def spent(self, pairing: tuple) -> float:
        games = self.games.get(pairing, [])
        return sum(r["seconds"] for r in games) + self.in_flight.get(pairing, 0) * self.mean_seconds(pairing)

    def mean_seconds(self, pairing: tuple) -> float:
        games = self.games.get(pairing, [])
        return sum(r["seconds"] for r in games) / len(games) if games else DEFAULT_GAME_SECONDS

    def time_to_verdict(self, claim: Claim) -> float:
        """Core seconds until the claim's LLR reaches the bound it drifts toward, at its drift
        per game so far; infinite before the test's minimum of games or without drift."""
        result = claim.decide(self.games.get(claim.pairing, []))
        if result.games < MIN_GAMES or result.llr == 0:
            return math.inf
        drift = result.llr / result.games
        distance = (result.upper if drift > 0 else result.lower) - result.llr
        return distance / drift * self.mean_seconds(claim.pairing)

    def next_task(self) -> tuple | None:
        # A pairing serves every claim on it; it is open while one of them is undecided.
        open_claims = self.open_claims()
        pairings = {c.pairing for c in open_claims}
        if not pairings:
            return None
        self.turns += 1
        pairing = None
        if self.turns % 2 == 0:  # the SPRT of every open claim, only on the turns that use it
            times = {c: self.time_to_verdict(c) for c in sorted(open_claims, key=lambda c: c.key)}
            nearest = min(times, key=times.get)
            if times[nearest] < math.inf:
                pairing = nearest.pairing
        if pairing is None:
            pairing = min(sorted(pairings), key=self.spent)
        index = self.next_index[pairing]
        self.next_index[pairing] = index + 1
        self.in_flight[pairing] = self.in_flight.get(pairing, 0) + 1
        return (self.fingerprint, *pairing, index)

    def finished(self, record: dict) -> None:
        pairing = (record["game"], record["players"], record["tested"], record["opponent"])
        self.in_flight[pairing] -= 1
        if voided(record):
            return
        self.games.setdefault(pairing, []).append(record)
        self._decided = {c: d for c, d in self._decided.items() if c.pairing != pairing}


def pause_file(results: Path) -> Path:
    """While this file exists, a run playing into ``results`` starts no new game; the games
    under way finish. The way to free the machine for a while (a benchmark, a test run)
    without stopping a game in the middle of a search, which its safety cap would end."""
    return results.with_name(results.name + ".pause")


def run(claims: list[Claim], results: Path, minutes: float | None, processes: int, fingerprint: str) -> int:
    """Play until every claim is decided or the time is up; returns the games played."""
    started = time.monotonic()
    deadline = started + minutes * 60 if minutes else None
    results.parent.mkdir(parents=True, exist_ok=True)
    with results.open("a") as out:
        _lock(out)
        scheduler = Scheduler(claims, load_records(results), fingerprint)
        return _play(scheduler, out, deadline, processes, started, pause_file(results))


def _play(scheduler: Scheduler, out, deadline: float | None, processes: int, started: float, pause: Path) -> int:
    played = 0
    paused = False
    with multiprocessing.get_context("fork").Pool(processes, maxtasksperchild=20) as pool:
        pending = []
        while True:
            open_to_launch = deadline is None or time.monotonic() < deadline
            if open_to_launch and pause.exists():
                if not paused:
                    print(f"paused while {pause} exists; {len(pending)} games under way finish", flush=True)
                paused = True
                if not pending:
                    time.sleep(1.0)
                    continue
                open_to_launch = False
            elif paused and open_to_launch:
                print("resumed", flush=True)
                paused = False
            while open_to_launch and len(pending) < processes:
                task = scheduler.next_task()
                if task is None:
                    break
                pending.append((task, pool.apply_async(play_game, (task,))))
            if not pending:
                break
            ready = [(t, p) for t, p in pending if p.ready()]
            if not ready:
                time.sleep(0.05)
                continue
            for item in ready:
                pending.remove(item)
                record = item[1].get()
                out.write(json.dumps(record) + "\n")
                out.flush()
                scheduler.finished(record)
                played += 1
                print(
                    f"[{(time.monotonic() - started) / 60:5.1f} min] {record['game']} {record['players']}p "
                    f"{record['tested']} vs {record['opponent']} #{record['index']}: place {record['place']} "
                    f"({record['seconds']:.0f} s); {len(scheduler.open_claims())} claims open",
                    flush=True,
                )
    return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="launch no new game after this much wall time")
    parser.add_argument("--game", action="append", help="only this game slug (may repeat)")
    parser.add_argument("--players", type=int, action="append", help="only this player count (may repeat)")
    parser.add_argument("--claim", action="append", help="only this kind, e.g. hard-vs-greedy (may repeat)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the JSON-lines results file (resumed)")
    parser.add_argument("--fingerprint", help="report on the games of this code fingerprint (default: the code now)")
    parser.add_argument(
        "--adopt",
        metavar="FINGERPRINT",
        help="count the games of that code as the code now's (after a change that left every bot's play alone), "
        "then report; plays nothing",
    )
    parser.add_argument(
        "--adopt-rev",
        metavar="REV",
        help="count the games of the code at commit REV as the code now's, if bench.play_check finds both play "
        "alike, then report; plays nothing",
    )
    parser.add_argument(
        "--retimed",
        metavar="GAME",
        action="append",
        default=[],
        help="with --adopt: a game whose code got faster or slower; its games cut short by a clock stay behind",
    )
    parser.add_argument("--report", action="store_true", help="play nothing: write the report from the results")
    parser.add_argument("--list", action="store_true", help="play nothing: print every claim and where it stands")
    parser.add_argument("--no-write", action="store_true", help="leave docs/BOTS.md and strength.json alone")
    args = parser.parse_args(argv)

    kinds = {k[0] for k in KINDS}
    for kind in args.claim or []:
        if kind not in kinds:
            parser.error(f"no claim {kind!r}; claims: {', '.join(sorted(kinds))}")
    claims = all_claims()
    chosen = [
        c
        for c in claims
        if (not args.game or c.game in args.game)
        and (not args.players or c.players in args.players)
        and (not args.claim or c.kind in args.claim)
    ]
    if not chosen:
        parser.error("no claim matches --game / --players / --claim")
    current = code_fingerprint()
    fingerprint = args.fingerprint or current
    unknown = sorted(set(args.retimed) - {game.slug for game in all_games()})
    if unknown:
        parser.error(f"no game {unknown[0]!r}; games: {', '.join(game.slug for game in all_games())}")
    try:
        if args.adopt_rev:
            from bench import play_check

            old, differ = play_check.compare(args.adopt_rev, list(play_check.DECISIONS))
            if differ:
                refusal = (
                    f"Nothing adopted: the code at {args.adopt_rev} ({old}) plays differently: {', '.join(differ)}"
                )
                parser.exit(1, refusal + "\n")
            args.adopt = old
        if args.adopt:
            adopted = adopt(args.results, args.adopt, current, frozenset(args.retimed))
            print(f"Adopted {adopted} games of code {args.adopt} as {current}.")
        if not (args.report or args.list or args.adopt):
            if fingerprint != current:
                parser.error("games are played with the code as it is now: --fingerprint is for reports")
            print(f"Code fingerprint {fingerprint}; results in {args.results}", flush=True)
            played = run(chosen, args.results, args.minutes, args.processes, fingerprint)
            print(f"\n{played} games played.")
    except (ResultsBusy, SameDeals) as refused:
        parser.exit(1, f"{refused}\n")
    from bench import bots_report  # after the run, so a long run picks up the report as it is then

    records = load_records(args.results)
    print(bots_report.claims_table(claims, records, fingerprint))
    if not args.no_write and not args.list:
        bots_report.write(claims, records, fingerprint)
        print(f"\nUpdated {bots_report.DOC} and {bots_report.STRENGTH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
