"""Engine states of matches, rebuilt from their moves and kept per process by version.

The truth is the Move rows; a state is cached under (match id, version) only after the
transaction that made that version has committed, so a rolled-back change never poisons it.
Callers always get their own clone.
"""

from collections import OrderedDict
from threading import Lock

from .engines.base import State

_MAX_ENTRIES = 512
_states: OrderedDict[tuple[int, int], State] = OrderedDict()
_lock = Lock()


def replay(match) -> State:
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    return match.engine.replay(match.num_players, match.options, actions)


def load(match) -> State:
    """The engine state of ``match`` at its current version (a private copy)."""
    key = (match.pk, match.version)
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
            return state.clone()
    state = replay(match)
    remember(match.pk, match.version, state)
    return state.clone()


def remember(match_id: int, version: int, state: State) -> None:
    with _lock:
        _states[(match_id, version)] = state.clone()
        _states.move_to_end((match_id, version))
        while len(_states) > _MAX_ENTRIES:
            _states.popitem(last=False)


def forget_all() -> None:
    with _lock:
        _states.clear()
