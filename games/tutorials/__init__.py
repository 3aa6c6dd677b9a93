"""Learn by playing: short scripted lessons for each game, on the real board.

Pure Python: no Django import here (the views keep the learner's progress in the session).

A lesson is data. It starts from the engine's initial state, applies the ``setup`` actions
(chance outcomes included: the script fixes them, nothing is drawn), and then goes through
its steps. Every step is a run of actions in the order they happen; an action played while
the learner's seat is to move is one the learner must play, every other action (chance, the
opponents) is the script's reply. So every position the learner sees is reached through the
engine by legal actions, and a change of the rules that breaks a lesson fails its test.

A game has a few lessons, in order: the first (``lesson`` "basics") teaches a whole turn,
the next ones the rules it leaves out. Each module defines ``LESSONS``, first lesson first.

The learner's progress in a lesson is one number: how many of their actions they have played.

Every text a learner reads (titles, prompts, hints, what a step did, the names of the seats)
is written in English inside ``gettext_noop(...)``: it returns the text unchanged, and marks it
for the catalogues (``make messages``); the portal translates it where it leaves the server.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field

from ..engines import IllegalAction, State, get_game

# Module names, one per game; each defines ``LESSONS``.
_MODULES = ("gp02a", "dice_territory", "territories", "chit_territory", "game_of_god")


def gettext_noop(message: str) -> str:
    """``message`` itself: marks an English text of a lesson for translation, which happens
    where the text leaves the server, in the reader's language."""
    return message


@dataclass(frozen=True)
class Step:
    """One thing to learn: the prompt shown before it, the actions played in it (the
    learner's and the replies), the hint for a wrong move, and what to say once it is done.

    ``expect`` holds the facts the words state, checked by the tests: after the step's last
    action ``scores`` (a list per seat) and ``to_move`` (a seat, or ``None`` once the game is
    over); before its first action ``refused`` (actions the words say are not allowed there)."""

    title: str
    prompt: str
    play: tuple[str, ...]
    hint: str
    done: str = ""
    expect: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Tutorial:
    slug: str
    num_players: int
    seat: int  # the learner's
    names: tuple[str, ...]  # who sits where, for the page ("You", "Red farmer", ...)
    intro: str
    setup: tuple[str, ...]
    steps: tuple[Step, ...]
    closing: str
    options: dict = field(default_factory=dict)
    lesson: str = "basics"  # the lesson's name in its address, unique within the game
    title: str = gettext_noop("The basics")
    ends_game: bool = False  # the lesson teaches an end of the game: its last step ends it

    @property
    def game(self):
        return get_game(self.slug)

    def new_state(self) -> State:
        return self.game.new_state(self.num_players, self.options)

    @property
    def is_first(self) -> bool:
        return lessons_of(self.slug)[0] is self

    @property
    def next(self) -> Tutorial | None:
        """The game's lesson after this one, if any."""
        lessons = lessons_of(self.slug)
        index = lessons.index(self)
        return lessons[index + 1] if index + 1 < len(lessons) else None


@dataclass(frozen=True)
class Move:
    """One action the learner plays, with the script's replies that follow it."""

    step: int  # index into ``Tutorial.steps``
    action: str
    replies: tuple[str, ...]


@dataclass
class Position:
    """Where the learner stands after ``progress`` of their actions."""

    tutorial: Tutorial
    progress: int
    state: State
    move: Move | None  # the action to play now; None once the lesson is over

    @property
    def finished(self) -> bool:
        return self.move is None

    @property
    def step(self) -> int:
        """Index of the step being played (``len(steps)`` once over)."""
        return self.move.step if self.move else len(self.tutorial.steps)

    @property
    def just_done(self) -> str:
        """What the previous step taught, said when the learner has just finished it."""
        moves = moves_of(self.tutorial.slug, self.tutorial.lesson)
        if self.progress == 0:
            return ""
        previous = moves[self.progress - 1]
        if self.move is not None and self.move.step == previous.step:
            return ""
        return self.tutorial.steps[previous.step].done


@dataclass(frozen=True)
class Answer:
    """Whether the move was the taught one; if not, why it was refused (``refusal``) and the
    step's hint (``step_hint``), each an English text marked for translation."""

    ok: bool
    position: Position
    refusal: str = ""
    step_hint: str = ""

    @property
    def hint(self) -> str:
        """What the learner is told, in English: the refusal, then the step's hint."""
        return " ".join(part for part in (self.refusal, self.step_hint) if part)


def _apply(state: State, action: str, where: str) -> None:
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise ValueError(f"{where}: {action!r} is not legal: {exc}") from exc


@functools.cache
def moves_of(slug: str, lesson: str | None = None) -> tuple[Move, ...]:
    """The learner's actions in order, each with its replies, found by replaying the script
    (which actions are the learner's depends on who is to move). Raises ``ValueError`` when
    an action of the script is not legal, or a step gives the learner nothing to play."""
    tutorial = get_tutorial(slug, lesson)
    slug = f"{slug}/{tutorial.lesson}"
    state = tutorial.new_state()
    for action in tutorial.setup:
        _apply(state, action, f"{slug} setup")
    moves: list[list] = []
    for index, step in enumerate(tutorial.steps):
        mine = 0
        for action in step.play:
            learner = state.current_player() == tutorial.seat
            _apply(state, action, f"{slug} step {index + 1}")
            if learner:
                moves.append([index, action, []])
                mine += 1
            elif not moves or moves[-1][0] != index:
                raise ValueError(f"{slug} step {index + 1}: {action!r} comes before the learner's move")
            else:
                moves[-1][2].append(action)
        if not mine:
            raise ValueError(f"{slug} step {index + 1} gives the learner nothing to play")
    return tuple(Move(step, action, tuple(replies)) for step, action, replies in moves)


def position(slug: str, progress: int, lesson: str | None = None) -> Position:
    """The position after the learner's first ``progress`` actions and their replies
    (``progress`` is clamped to the lesson's length)."""
    tutorial = get_tutorial(slug, lesson)
    moves = moves_of(slug, tutorial.lesson)
    progress = max(0, min(progress, len(moves)))
    state = tutorial.new_state()
    for action in tutorial.setup:
        state.apply(action)
    for move in moves[:progress]:
        state.apply(move.action)
        for reply in move.replies:
            state.apply(reply)
    return Position(tutorial, progress, state, moves[progress] if progress < len(moves) else None)


def answer(slug: str, progress: int, action: str, lesson: str | None = None) -> Answer:
    """The learner plays ``action`` at ``progress``: the taught action moves the lesson on,
    anything else leaves it where it is, with a hint."""
    here = position(slug, progress, lesson)
    if here.finished:
        return Answer(False, here, gettext_noop("This lesson is over: start a match, or begin the lesson again."))
    if action == here.move.action:
        return Answer(True, position(slug, here.progress + 1, lesson))
    hint = here.tutorial.steps[here.move.step].hint
    if action not in here.state.legal_actions():
        return Answer(False, here, gettext_noop("That move is not allowed here."), hint)
    return Answer(False, here, gettext_noop("That is a legal move, but not the one this step teaches."), hint)


# Names a lesson may not take: the addresses of a game's first lesson use them.
_RESERVED = frozenset({"move", "restart"})


@functools.cache
def _registry() -> dict[str, tuple[Tutorial, ...]]:
    games = {}
    for name in _MODULES:
        lessons = tuple(importlib.import_module(f"{__name__}.{name}").LESSONS)
        names = [t.lesson for t in lessons]
        if len(set(names)) != len(names) or _RESERVED & set(names) or len({t.slug for t in lessons}) != 1:
            raise ValueError(f"{name}: lessons need distinct names, none of {sorted(_RESERVED)}, one game")
        games[lessons[0].slug] = lessons
    return games


def lessons_of(slug: str) -> tuple[Tutorial, ...]:
    """The lessons of the game ``slug``, first lesson first; ``KeyError`` for a game without."""
    return _registry()[slug]


def get_tutorial(slug: str, lesson: str | None = None) -> Tutorial:
    """The lesson ``lesson`` of the game ``slug`` (its first when ``None``); ``KeyError`` for a
    game or lesson that does not exist."""
    lessons = lessons_of(slug)
    if lesson is None:
        return lessons[0]
    for tutorial in lessons:
        if tutorial.lesson == lesson:
            return tutorial
    raise KeyError(lesson)


def all_tutorials() -> list[Tutorial]:
    """Every lesson of every game."""
    return [t for lessons in _registry().values() for t in lessons]
