"""How a seat is named to people, everywhere: the score table, the final ranking, the move
list, the turn order, the replay and the game record. Pure Python (the page's JavaScript
reads the names the server puts in every snapshot, ``seat_names``).

Several seats may hold the same player (three Greedy bots): each name carries the seat's
colour ("Greedy (red)"), and when a game has no colours yet, the names that would repeat
carry the seat's number ("Greedy (seat 2)"). A name is a ``Text``: the English, which the
site says in the reader's language (``games.engine_text``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .engines.base import Text, colour_word, gettext_noop

OPEN_SEAT = Text(gettext_noop("Open seat"))


def seat_names(players: Sequence[str | None], colours: Sequence[str] | None = None) -> list[str]:
    """One name per seat from its player's name (None: nobody sits there yet) and its colour."""
    names: list[str] = []
    for index, player in enumerate(players):
        name = player or OPEN_SEAT
        colour = colours[index] if colours and index < len(colours) else None
        names.append(
            Text(gettext_noop("%(name)s (%(colour)s)"), name=name, colour=colour_word(colour)) if colour else name
        )
    repeated = Counter(names)
    return [
        Text(gettext_noop("%(name)s (seat %(number)s)"), name=name, number=index + 1) if repeated[name] > 1 else name
        for index, name in enumerate(names)
    ]
