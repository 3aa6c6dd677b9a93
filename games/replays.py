"""The replay of a match, compact: the first position's view whole, then each step's view as
the difference from the one before (``diff``), which the match page applies in turn
(``static/js/match.js``, ``patched``) to step through every position.

A step's view is the engine's own ``view`` for the audience (the spectators': a replay shows
nothing a spectator could not see at that step), so what the page rebuilds is exactly what
``view`` returned. Pure: no Django.

A patch is one of
- a JSON object: the keys whose value changed, each with the patch of its value;
- ``[0, value]``: the value is replaced by ``value``;
- ``[1]``: the key is removed from its object;
- ``[2, length, i, patch, j, patch, ...]``: a list cut or grown to ``length`` whose items
  ``i``, ``j``... change by their patches (a new item is ``[0, value]``).
"""

from __future__ import annotations

from typing import Any

REPLACE, REMOVE, LIST = 0, 1, 2


def diff(old: Any, new: Any) -> Any:
    """The patch that turns ``old`` into ``new`` (the two not equal)."""
    if type(old) is dict and type(new) is dict:
        patch: dict[str, Any] = {}
        for key, value in new.items():
            if key not in old:
                patch[key] = [REPLACE, value]
            elif old[key] != value:
                patch[key] = diff(old[key], value)
        for key in old:
            if key not in new:
                patch[key] = [REMOVE]
        return patch
    if type(old) is list and type(new) is list:
        items: list[Any] = [LIST, len(new)]
        shared = min(len(old), len(new))
        for i in range(shared):
            if old[i] != new[i]:
                items += (i, diff(old[i], new[i]))
        for i in range(shared, len(new)):
            items += (i, [REPLACE, new[i]])
        return items
    return [REPLACE, new]


def patched(old: Any, patch: Any) -> Any:
    """``old`` with ``patch`` applied, ``old`` left as it was (what the page does)."""
    if type(patch) is list:
        if patch[0] == REPLACE:
            return patch[1]
        items = list(old[: patch[1]])
        items += [None] * (patch[1] - len(items))
        for k in range(2, len(patch), 2):
            i = patch[k]
            items[i] = patched(old[i] if i < len(old) else None, patch[k + 1])
        return items
    value = dict(old)
    for key, sub in patch.items():
        if type(sub) is list and sub[0] == REMOVE:
            del value[key]
        else:
            value[key] = patched(old.get(key), sub)
    return value


def build(game, num_players: int, options: dict, stored: list[tuple[str, int | None]]) -> dict:
    """The replay of a match from its ``stored`` moves (action, seat; the server's, secrets
    included): the first position's view, then per step the seat that moved (None for
    chance), the action as everyone may see it (``public_history``), its words, and the patch
    of the view. Each view's ``prompt`` is the onlooker's wording (``prompt_others``): nobody
    watching a replay is the one to move."""
    state = game.new_state(num_players, options)
    view = _onlookers_view(state)
    start = view
    seats, patches = [], []
    for action, seat in stored:
        state.apply(action)
        new = _onlookers_view(state)
        patches.append(diff(view, new))
        seats.append(seat)
        view = new
    public = state.public_history()
    return {
        "start": start,
        "seats": seats,
        "actions": public,
        "labels": [game.action_label(action) for action in public],
        "patches": patches,
    }


def _onlookers_view(state) -> dict:
    view = state.view(None)
    view["prompt"] = state.prompt_others()
    return view
