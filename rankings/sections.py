"""The rankings' sections of other apps' pages: the game page's Hall of Fame and the player
page's ratings, history charts and recent matches. Each returns template context, including
the partial template the page includes."""

from __future__ import annotations

from games.catalog import get_game
from games.selectors import recent_finished_of
from portal import page_cache

from . import selectors
from .charts import rating_chart

GAME_TOP = 10


def game_fragments(slug: str) -> tuple[list[str], dict]:
    """The shared part of the game page's Hall of Fame, for ``page_cache.cached``: the areas
    it shows and how to build it."""
    return [f"ratings:{slug}", "people"], {
        "hall_of_fame_table": lambda: page_cache.render(
            "rankings/_game_hall_of_fame_table.html",
            {"game": get_game(slug), "hall_of_fame": selectors.hall_of_fame(slug, limit=GAME_TOP)},
        ),
    }


def game_section(slug: str, user=None) -> dict:
    """The personal part of the game page's Hall of Fame: the viewer's own rating."""
    return {
        "hall_of_fame_template": "rankings/_game_hall_of_fame.html",
        "my_rating": selectors.rating_of(user, slug),
    }


def player_section(profile) -> dict:
    ratings = selectors.player_ratings(profile)
    histories = selectors.rating_histories(profile, limit=selectors.HISTORY_POINTS) if ratings else {}
    for row in ratings:
        history = histories.get(row.game, [])
        row.chart = None
        if history:
            values = [history[0].before] + [change.after for change in history]
            row.chart = rating_chart(
                slug=row.game,
                game_name=row.game_name,
                username=profile.username,
                values=values,
                first_number=row.rated_games - len(history) + 1,
                dates=(f"{history[0].created:%d %b %Y}", f"{history[-1].created:%d %b %Y}"),
            )
    recent = list(recent_finished_of(profile, public_only=True))
    changes = selectors.changes_for_matches(profile, (m.pk for m in recent)) if recent else {}
    rows = []
    for match in recent:
        seat = next((s for s in match.seats.all() if s.user_id == profile.pk), None)
        rows.append({"match": match, "seat": seat, "change": changes.get(match.pk)})
    return {
        "player_sections_template": "rankings/_player_sections.html",
        "player_ratings": ratings,
        "recent_results": rows,
    }
