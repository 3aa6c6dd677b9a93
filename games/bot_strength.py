"""How strong each bot is, from the bot tournament (``python -m bench.bots --report`` writes
``games/bots/strength.json``; docs/BOTS.md says how it is measured): each bot's Elo per game,
and each claim's verdict per game and player count ("MCTS Hard beats MCTS Medium" at GP02A's
three-player table: met, missed or undecided).

The file is committed and read once per process: the player page and the level choices add
no query for it. A file or key that is missing reads as unmeasured: no Elo, every claim
undecided.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext, ngettext

from .bots import bot_label, bot_names
from .bots.levels import HARD_LIMIT_SECONDS, LEVEL_ITERATIONS
from .catalog import all_games

STRENGTH_FILE = Path(settings.BASE_DIR) / "games" / "bots" / "strength.json"

MET, MISSED, UNDECIDED = "met", "missed", "undecided"
VERDICTS = (MET, MISSED, UNDECIDED)

# The claims of the tournament (``bench.bots.KINDS``): kind -> (tested bot, opponent).
CLAIMS = {
    "easy-vs-random": ("mcts-easy", "random"),
    "greedy-vs-easy": ("greedy", "mcts-easy"),
    "medium-vs-greedy": ("mcts-medium", "greedy"),
    "hard-vs-medium": ("mcts-hard", "mcts-medium"),
    "hard-vs-greedy": ("mcts-hard", "greedy"),
}
# Each level and the claim that it plays better than the level just below it, weakest first:
# the ladder a person climbs when choosing a level.
LADDER = ("easy-vs-random", "greedy-vs-easy", "medium-vs-greedy", "hard-vs-medium")


@lru_cache(maxsize=1)
def _data() -> dict:
    try:
        data = json.loads(STRENGTH_FILE.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def forget() -> None:
    """Read the file again at the next question (after it changed, or in a test)."""
    _data.cache_clear()


def _ratings() -> dict:
    ratings = _data().get("games", {})
    return ratings if isinstance(ratings, dict) else {}


def _table(key: str, game_slug: str, players: int) -> dict:
    per_game = _data().get(key, {})
    table = per_game.get(game_slug, {}) if isinstance(per_game, dict) else {}
    found = table.get(str(players), {}) if isinstance(table, dict) else {}
    return found if isinstance(found, dict) else {}


def verdict(game_slug: str, players: int, kind: str) -> str:
    """The verdict of claim ``kind`` (e.g. "hard-vs-medium") at a table of ``players`` in the
    game: "met", "missed" or "undecided" (also when the file does not say)."""
    found = _table("claims", game_slug, players).get(kind)
    return found if found in VERDICTS else UNDECIDED


def games_counted(game_slug: str, players: int, kind: str) -> int:
    """How many games the claim's test counted (0 when the file does not say)."""
    count = _table("claim_games", game_slug, players).get(kind)
    return count if isinstance(count, int) else 0


def bot_strengths(bot_name: str) -> list[dict]:
    """The bot's Elo per game (Random = 0), in the site's order of games; empty if unmeasured."""
    ratings = _ratings()
    rows = []
    for game in all_games():
        rating = ratings.get(game.slug, {}).get(bot_name)
        if rating:
            rows.append(
                {"game": game.slug, "game_name": game.name, "elo": rating["elo"], "plus_minus": rating["plus_minus"]}
            )
    return rows


# ---------------------------------------------------------------------------------------
# What a person choosing a level is told


def _note_text(players: int, level: str, below: str, found: str) -> str:
    names = {"count": players, "level": bot_label(level), "below": bot_label(below)}
    if found == MISSED:
        text = ngettext(
            "At %(count)d player, %(level)s plays no better than %(below)s (measured).",
            "At %(count)d players, %(level)s plays no better than %(below)s (measured).",
            players,
        )
    else:
        text = ngettext(
            "At %(count)d player, %(level)s has not been shown to play better than %(below)s.",
            "At %(count)d players, %(level)s has not been shown to play better than %(below)s.",
            players,
        )
    return text % names


def level_notes(game_slug: str, players: int, levels: list[str] | None = None) -> list[dict]:
    """For a table of ``players`` in the game: a line for each level (of ``levels``, every
    level when None) whose claim to play better than the level below is not met there, in the
    order of the level menu. Each is {"level", "verdict", "text"}, the text in the language of
    the request."""
    notes = []
    ladder = {CLAIMS[kind][0]: kind for kind in LADDER}
    for level in bot_names():
        kind = ladder.get(level)
        if kind is None or (levels is not None and level not in levels):
            continue
        found = verdict(game_slug, players, kind)
        if found != MET:
            below = CLAIMS[kind][1]
            notes.append({"level": level, "verdict": found, "text": _note_text(players, level, below, found)})
    return notes


def level_notes_by_table(levels: list[str] | None = None) -> dict[str, dict[str, list[dict]]]:
    """``level_notes`` of every game and player count, for a page's script: by game slug,
    then player count (a string)."""
    return {
        game.slug: {str(n): level_notes(game.slug, n, levels) for n in game.allowed_player_counts()}
        for game in all_games()
    }


# ---------------------------------------------------------------------------------------
# A bot's player page


def _claim_text(kind: str) -> str:
    tested, opponent = CLAIMS[kind]
    names = {"level": bot_label(tested), "opponent": bot_label(opponent)}
    if kind == "hard-vs-greedy":
        return gettext("%(level)s comes first well more often than %(opponent)s") % names
    return gettext("%(level)s plays better than %(opponent)s") % names


def _verdict_text(found: str) -> str:
    if found == MET:
        return gettext("shown")
    if found == MISSED:
        return gettext("not so (measured)")
    return gettext("not shown yet")


def level_description(bot_name: str) -> str:
    """How a site bot plays, in the language of the request, for its player page ("" for a
    name no level has). Its iterations per game are listed beside it (``bot_budgets``)."""
    search = gettext(
        "Plays out continuations of the game from the moves it considers (Monte Carlo tree search) and picks "
        "the move that wins most often; how many a move, in each game, is listed below."
    )
    if bot_name == "random":
        return gettext("Plays a uniformly random legal move. Good for learning the rules.")
    if bot_name == "greedy":
        return gettext(
            "Looks one move ahead and takes the move that most improves its lead on points, averaging over "
            "the dice and draws that follow. It never plans further."
        )
    if bot_name == "mcts-easy":
        return gettext("Thinks briefly.") + " " + search
    if bot_name == "mcts-medium":
        return search
    if bot_name == "mcts-hard":
        return (
            search
            + " "
            + ngettext(
                "It searches as far on a busy server as on an idle one, where it takes up to %(seconds)d second "
                "a move.",
                "It searches as far on a busy server as on an idle one, where it takes up to %(seconds)d seconds "
                "a move.",
                HARD_LIMIT_SECONDS,
            )
            % {"seconds": HARD_LIMIT_SECONDS}
        )
    return ""


def bot_budgets(bot_name: str) -> list[dict]:
    """How much the level thinks in each game: its iterations a move (``games.bots.levels``),
    in the site's order of games; empty for a bot without a budget (Random, Greedy)."""
    budgets = LEVEL_ITERATIONS.get(bot_name, {})
    return [
        {"game": game.slug, "game_name": game.name, "iterations": budgets[game.slug]}
        for game in all_games()
        if game.slug in budgets
    ]


def bot_claims(bot_name: str) -> list[dict]:
    """The verdict of each claim about the bot (where it is the one tested) at each table:
    {"game_name", "players", "claim", "verdict", "verdict_text", "games"}, in the site's
    order of games and tables; empty for a bot no claim tests (Random)."""
    kinds = [kind for kind, (tested, _opponent) in CLAIMS.items() if tested == bot_name]
    rows = []
    for game in all_games():
        for n in game.allowed_player_counts():
            for kind in kinds:
                found = verdict(game.slug, n, kind)
                rows.append(
                    {
                        "game_name": game.name,
                        "players": n,
                        "kind": kind,
                        "claim": _claim_text(kind),
                        "verdict": found,
                        "verdict_text": _verdict_text(found),
                        "games": games_counted(game.slug, n, kind),
                    }
                )
    return rows
