"""How strong each bot is, from the bot tournament (``python -m bench.bots --report`` writes
``games/bots/strength.json``; docs/BOTS.md says how it is measured).

The file is committed and read once per process: the player page adds no query for it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from .catalog import all_games

STRENGTH_FILE = Path(settings.BASE_DIR) / "games" / "bots" / "strength.json"


@lru_cache(maxsize=1)
def _ratings() -> dict:
    try:
        data = json.loads(STRENGTH_FILE.read_text())
    except (OSError, ValueError):
        return {}
    return data.get("games", {}) if isinstance(data, dict) else {}


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
