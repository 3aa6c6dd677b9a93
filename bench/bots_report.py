"""docs/BOTS.md's tournament tables and games/bots/strength.json (each bot's Elo per game,
and each claim's verdict per game and player count), from the results file.

    python -m bench.bots --report     # the usual way in (it calls ``write``)

Only the games of one code fingerprint count (see ``bench.bots``); the page says which.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import elo
from bench.bots import Claim, counted, games_by_pairing, played_now, voided
from bench.report import machine, write_section
from bench.sprt import ACCEPT_H0, ACCEPT_H1
from games.bots import bot_label, bot_names
from games.bots.levels import HARD_LIMIT_SECONDS
from games.engines import all_games

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BOTS.md"
STRENGTH = ROOT / "games" / "bots" / "strength.json"
VERDICTS = {ACCEPT_H1: "met", ACCEPT_H0: "**missed**"}
# The verdicts as strength.json records them for the site (``games.bot_strength.verdict``).
PLAIN_VERDICTS = {ACCEPT_H1: "met", ACCEPT_H0: "missed"}
SCORE_NAMES = {"place": "place score", "first": "first places"}


def _game_names() -> dict[str, str]:
    return {g.slug: g.name for g in all_games()}


def claims_table(claims: list[Claim], records: list[dict], fingerprint: str) -> str:
    names = _game_names()
    games = games_by_pairing(records, fingerprint)
    lines = [
        "| Game | Players | Claim | Score | H0 / H1 | Games | Share (95% interval) | LLR (bounds ±2.94) | Verdict |",
        "|---|---:|---|---|---|---:|---|---:|---|",
    ]
    for c in claims:
        played = games.get(c.pairing, [])
        result = c.decide(played)
        verdict = VERDICTS.get(result.decision, "undecided")
        count = f"{result.games}" if len(played) == result.games else f"{result.games} (+{len(played) - result.games})"
        share = f"{result.mean:.0%} ({result.interval[0]:.0%}-{result.interval[1]:.0%})" if played else "-"
        lines.append(
            f"| {names.get(c.game, c.game)} | {c.players} | {bot_label(c.tested)} vs {bot_label(c.opponent)} "
            f"| {SCORE_NAMES[c.score]} | ≤{result.s0:.0%} / ≥{result.s1:.0%} | {count} | {share} "
            f"| {result.llr:+.2f} | {verdict} |"
        )
    return "\n".join(lines)


def game_pairs(records: list[dict], fingerprint: str) -> dict[str, list[list[elo.Pair]]]:
    """Per game slug, the pairwise results of every game that counts for this fingerprint."""
    out: dict[str, list[list[elo.Pair]]] = {}
    for r in records:
        if counted(r, fingerprint):
            out.setdefault(r["game"], []).append(elo.pairs_of_game(r["bots"], r["ranking"]))
    return out


def strengths(records: list[dict], fingerprint: str) -> dict[str, list[elo.Rating]]:
    return {slug: elo.ratings(pairs) for slug, pairs in game_pairs(records, fingerprint).items()}


def elo_table(fitted: dict[str, list[elo.Rating]]) -> str:
    names = _game_names()
    order = {slug: i for i, slug in enumerate(names)}
    lines = ["| Game | Bot | Elo (Random = 0) | 95% interval | Games |", "|---|---|---:|---|---:|"]
    for slug in sorted(fitted, key=lambda s: order.get(s, 99)):
        for r in fitted[slug]:
            lines.append(
                f"| {names.get(slug, slug)} | {bot_label(r.bot)} | {r.elo:+.0f} | {r.low:+.0f} to {r.high:+.0f} "
                f"| {r.games} |"
            )
    return "\n".join(lines)


def thinking_table(records: list[dict], fingerprint: str) -> str:
    """Per game and MCTS level: how long it thought, how far it searched, how often the
    clock stopped it rather than its iteration cap."""
    names = _game_names()
    tally: dict[tuple[str, str], dict[str, float]] = {}
    for r in records:
        if not played_now(r, fingerprint):  # the voided games too: their stops are measured here
            continue
        for bot, t in r["think"].items():
            if not bot.startswith("mcts") or not t["decisions"]:
                continue
            row = tally.setdefault(
                (r["game"], bot), {"decisions": 0, "total": 0.0, "max": 0.0, "iterations": 0, "time_bound": 0}
            )
            for key in ("decisions", "total", "iterations", "time_bound"):
                row[key] += t[key]
            row["max"] = max(row["max"], t["max"])
    order = {slug: i for i, slug in enumerate(names)}
    levels = {name: i for i, name in enumerate(bot_names())}
    lines = [
        "| Game | Bot | Decisions | Think s (mean) | Think s (max) | Iterations (mean) | Stopped by the safety cap |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for game, bot in sorted(tally, key=lambda k: (order.get(k[0], 99), levels.get(k[1], 99))):
        t = tally[(game, bot)]
        n = t["decisions"]
        lines.append(
            f"| {names.get(game, game)} | {bot_label(bot)} | {n:.0f} | {t['total'] / n:.3f} | {t['max']:.2f} "
            f"| {t['iterations'] / n:,.0f} | {t['time_bound'] / n:.0%} |"
        )
    return "\n".join(lines)


def hard_longest(record: dict) -> float:
    """MCTS Hard's longest think in a game, in seconds (0 when it did not play)."""
    return record["think"].get("mcts-hard", {}).get("max", 0.0)


def machines_played_on(records: list[dict]) -> str:
    """Where the games were played, in core-hours per machine their records name, largest
    first (records before they named their machine are counted apart)."""
    hours: dict[str, float] = {}
    for r in records:
        where = r.get("machine", "")
        hours[where] = hours.get(where, 0.0) + r["seconds"] / 3600
    named = sorted(((h, m) for m, h in hours.items() if m), reverse=True)
    parts = [f"{h:.1f} on {m}" for h, m in named]
    if "" in hours:
        parts.append(f"{hours['']:.1f} on machines the records do not name (played before they did)")
    return "; ".join(parts)


def section(claims: list[Claim], records: list[dict], fingerprint: str, fitted: dict) -> str:
    info = machine()
    ours = [r for r in records if counted(r, fingerprint)]
    void = [r for r in records if played_now(r, fingerprint) and voided(r)]
    others = len(records) - len(ours) - len(void)
    games = games_by_pairing(records, fingerprint)
    results = [c.decide(games.get(c.pairing, [])) for c in claims]
    met = sum(r.decision == ACCEPT_H1 for r in results)
    missed = sum(r.decision == ACCEPT_H0 for r in results)
    hours = sum(r["seconds"] for r in ours) / 3600
    where = machines_played_on(ours)  # empty before any game
    played = f"{hours:.1f} core-hours, two games at a time" + (f"; {where}" if where else "")
    timed = [r for r in ours if "cpu_seconds" in r]
    share = sum(r["cpu_seconds"] for r in timed) / max(sum(r["seconds"] for r in timed), 1e-9)
    load = sum(r["load"] for r in timed) / len(timed) if timed else 0.0
    slowest = max(ours + void, key=hard_longest, default=None)
    longest = hard_longest(slowest) if slowest else 0.0
    # Hard's clock is wall time: a think past its limit says how loaded the machine was then.
    when = (
        f", in a game that got {slowest['cpu_seconds'] / slowest['seconds']:.0%} of a core "
        f"(load average {slowest['load']:.1f})"
        if longest and "cpu_seconds" in slowest
        else ""
    )
    return "\n".join(
        [
            f"Written on {info['date']} by `python -m bench.bots --report` from `bench/results/bots.jsonl`: "
            f"the {len(ours)} games of bot and engine code fingerprint `{fingerprint}` "
            f"({played}), with the levels' settings of now. The file's {others} games of other code, or of a level "
            "with other settings in that game (older bots, or before games carried a fingerprint), are kept but "
            f"not counted. Nor are the {len(void)} games of this code in which the safety cap stopped a search "
            "(voided: that move was not its level's; they are counted under *Thinking*).",
            "",
            f"### Claims: {met} met, {missed} missed, {len(claims) - met - missed} undecided",
            "",
            "Each claim is decided by SPRT (alpha = beta = 0.05): *met* when H1 is accepted, "
            "*missed* when H0 is, *undecided* while the test goes on. Games counts the games the test "
            "needed (+ games that were under way when it decided, not counted). The share is the "
            "tested bot's mean score; LLR is the log-likelihood ratio at the decision or now. The verdicts "
            "per table are also in `games/bots/strength.json`, from which the site says where a level has "
            "not been shown to play better than the level below.",
            "",
            claims_table(claims, records, fingerprint),
            "",
            "### Strength in Elo",
            "",
            "A Bradley-Terry fit per game over the pairwise results of every game above (all player "
            "counts), Random anchored at 0, with 95% bootstrap intervals over games. The same numbers are "
            "on each bot's player page (`games/bots/strength.json`).",
            "",
            elo_table(fitted) if fitted else "No games yet.",
            "",
            "### Thinking",
            "",
            "Per decision with more than one legal action, while the other core plays another game. "
            "*Stopped by the safety cap*: decisions whose search the wall-clock safety cap ended "
            "before the level's iteration budget (a weaker move than the level's; games played "
            "before the budgets alone decided counted the decisions that used 90% of a time cap). "
            + (
                f"The games got {share:.0%} of a core on average (CPU time over wall time; load average "
                f"{load:.1f} on {info['cores']} cores while they ran). "
                if timed
                else ""
            )
            + f"MCTS Hard's longest think was {longest:.2f} s "
            f"(its budget takes up to {HARD_LIMIT_SECONDS} s on an idle core){when}.",
            "",
            thinking_table(records, fingerprint),
        ]
    )


def claim_verdicts(claims: list[Claim], records: list[dict], fingerprint: str) -> tuple[dict, dict]:
    """Per game slug and player count (a string: a JSON key), each claim's verdict ("met",
    "missed" or "undecided") and the games its test counted: what the level choices and the
    bots' pages say about each table."""
    games = games_by_pairing(records, fingerprint)
    verdicts: dict[str, dict[str, dict[str, str]]] = {}
    counts: dict[str, dict[str, dict[str, int]]] = {}
    for c in claims:
        result = c.decide(games.get(c.pairing, []))
        verdicts.setdefault(c.game, {}).setdefault(str(c.players), {})[c.kind] = PLAIN_VERDICTS.get(
            result.decision, "undecided"
        )
        counts.setdefault(c.game, {}).setdefault(str(c.players), {})[c.kind] = result.games
    return verdicts, counts


def strength_json(
    fitted: dict[str, list[elo.Rating]],
    fingerprint: str,
    claims: list[Claim] | None = None,
    records: list[dict] | None = None,
) -> dict:
    verdicts, counts = claim_verdicts(claims or [], records or [], fingerprint)
    return {
        "claims": verdicts,
        "claim_games": counts,
        "fingerprint": fingerprint,
        "anchor": elo.ANCHOR,
        "written": machine()["date"],
        "games": {
            slug: {
                r.bot: {
                    "elo": round(r.elo),
                    "plus_minus": round(r.plus_minus),
                    "low": round(r.low),
                    "high": round(r.high),
                    "games": r.games,
                }
                for r in rated
            }
            for slug, rated in fitted.items()
        },
    }


def write(
    claims: list[Claim], records: list[dict], fingerprint: str, doc: Path = DOC, strength: Path = STRENGTH
) -> None:
    fitted = strengths(records, fingerprint)
    write_section(doc, "bots", "Tournament", section(claims, records, fingerprint, fitted), intro="# Bots\n")
    written = strength_json(fitted, fingerprint, claims, records)
    strength.write_text(json.dumps(written, indent=1, sort_keys=True) + "\n")
