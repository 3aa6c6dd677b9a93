"""Engine states of matches, kept per process: the latest known version of each match.

The truth is the Move rows; a state is remembered under its match's version only after the
transaction that made that version has committed, so a rolled-back change never poisons it.
A process that is behind (another process or a worker made the last moves) catches up from
the actions the move's update carried (``advance``), or else by reading and applying only the
moves it has not seen, instead of replaying the whole game. Moves are appended, except when
a casual match takes moves back (``games.services.takebacks``): that makes a new version and notes it in
``Match.rewound_version``, and a state remembered from before it is replayed afresh, never
caught up by appending. Callers always get their own clone.
"""

from collections import OrderedDict
from threading import Lock

from .engines.base import State

_MAX_MATCHES = 2048
_states: OrderedDict[int, tuple[int, State]] = OrderedDict()
_lock = Lock()


def replay(match) -> State:
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    return match.engine.replay(match.num_players, match.options, actions)


def load(match, moves_read: int | None = None) -> State:
    """The engine state of ``match`` at its current version (a private copy). ``moves_read``:
    the number of moves the match had when it was read without a lock."""
    with _lock:
        entry = _states.get(match.pk)
        if entry is not None:
            _states.move_to_end(match.pk)
    if entry is not None:
        version, known = entry
        if version == match.version:
            return known.clone()
    if entry is not None and _rewound_since(match, entry[0]):
        entry = None  # moves were taken back since: the remembered state is not a prefix
    if entry is not None and entry[0] < match.version:
        state = entry[1].clone()
        newer = match.moves.filter(index__gte=len(state.history)).order_by("index")
        for action in newer.values_list("action", flat=True):
            state.apply(action)
    else:
        state = replay(match)
    # A match read without a lock may be older than the moves read after it: such a state
    # is not the match's at its version, and is not kept.
    if moves_read is None or len(state.history) == moves_read:
        remember(match.pk, match.version, state)
    return state


def _rewound_since(match, version: int) -> bool:
    """Whether moves of ``match`` were taken back after ``version`` (read with the match row)."""
    return version < (match.rewound_version or 0)


def remember(match_id: int, version: int, state: State) -> None:
    """Keep ``state`` as the match's state at ``version`` unless a newer one is known."""
    with _lock:
        entry = _states.get(match_id)
        if entry is None or entry[0] <= version:
            _states[match_id] = (version, state.clone())
        _states.move_to_end(match_id)
        while len(_states) > _MAX_MATCHES:
            _states.popitem(last=False)


def advance(match_id: int, from_version: int, from_moves: int, to_version: int, actions: list[str]) -> bool:
    """Bring a remembered state from ``from_version`` (with ``from_moves`` actions) to
    ``to_version`` by ``actions`` (what a move's update carries), so this process need not
    read the moves when it next acts. Nothing happens unless this process knows the match at
    exactly that point; a remembered state that disagrees is dropped."""
    with _lock:
        entry = _states.get(match_id)
        if entry is None or entry[0] != from_version:
            return False
        if len(entry[1].history) != from_moves:
            del _states[match_id]  # not what the match was at that version: read it afresh
            return False
        state = entry[1].clone()
    try:
        for action in actions:
            state.apply(action)
    except Exception:  # the engine refuses: this state was not the match's after all
        with _lock:
            _states.pop(match_id, None)
        return False
    with _lock:
        entry = _states.get(match_id)
        if entry is None or entry[0] != from_version:
            return False  # another thread moved it on meanwhile
        _states[match_id] = (to_version, state)
    return True


def forget_all() -> None:
    with _lock:
        _states.clear()
