"""The engine contract every game implements, and helpers the engines share.

Pure Python: nothing here (or anywhere under ``games.engines``) imports Django.

A game is ``(slug, num_players, options, [actions])``. Randomness is an action too: when
the game waits on dice or a draw, ``current_player()`` is ``CHANCE`` and
``chance_outcomes()`` lists the possible outcomes with their probabilities; the server picks
one with a cryptographic random source and applies it like any other action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, ClassVar

CHANCE = -1
TERMINAL = -2

COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def gettext_noop(message: str) -> str:
    """Marks ``message`` as an English template the site translates (``make messages`` finds
    it by this name); returns it unchanged. Engines never translate anything themselves."""
    return message


class Text(str):
    """A sentence an engine says to people: the English sentence itself (so whatever treats it
    as a ``str``, bots, records, the API and the tests, reads English), with the template it
    was made from (``msgid``, marked by ``gettext_noop``, placeholders as ``%(name)s``) and its
    values (``params``), so the site can say it in the reader's language. A value may itself be
    a ``Text`` (a colour's name), said in the same language."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, **params: Any) -> Text:
        # Made on the move path (every view's headline): kept to the bare minimum.
        text = str.__new__(cls, msgid % params if params else msgid)
        text.msgid = msgid
        text.params = params
        return text

    def __reduce__(self):
        return (_text, (self.msgid, self.params))

    def wire(self) -> dict:
        """The compact form the match page reads: ``{"t": msgid}``, with ``"p": {name: value}``
        when it has values (a value that is a ``Text`` in this form too)."""
        params = self.params
        if not params:
            return {"t": self.msgid}
        return {"t": self.msgid, "p": {k: v.wire() if type(v) is Text else v for k, v in params.items()}}

    def __deepcopy__(self, memo: dict) -> Text:
        return self  # immutable, as a str is


def _text(msgid: str, params: dict[str, Any]) -> Text:
    return Text(msgid, **params)


def listed(items: list) -> Any:
    """Items joined in words: "a", "a and b", "a, b and c" (each item a ``Text`` or a value;
    one item is itself)."""
    if len(items) == 1:
        return items[0]
    text = Text(gettext_noop("%(first)s and %(last)s"), first=items[-2], last=items[-1])
    for item in reversed(items[:-2]):
        text = Text(gettext_noop("%(first)s, %(rest)s"), first=item, rest=text)
    return text


# Every seat colour of the games, by the name the views use (as a word in a sentence, and as
# the name of the seat to move that begins one).
COLOUR_WORDS: dict[str, Text] = {
    "blue": Text(gettext_noop("blue")),
    "red": Text(gettext_noop("red")),
    "green": Text(gettext_noop("green")),
    "yellow": Text(gettext_noop("yellow")),
    "purple": Text(gettext_noop("purple")),
    "vermilion": Text(gettext_noop("vermilion")),
    "teal": Text(gettext_noop("teal")),
    "pink": Text(gettext_noop("pink")),
    "orange": Text(gettext_noop("orange")),
    "sky": Text(gettext_noop("sky")),
}
COLOUR_TITLES: dict[str, Text] = {
    "blue": Text(gettext_noop("Blue")),
    "red": Text(gettext_noop("Red")),
    "green": Text(gettext_noop("Green")),
    "yellow": Text(gettext_noop("Yellow")),
    "purple": Text(gettext_noop("Purple")),
    "vermilion": Text(gettext_noop("Vermilion")),
    "teal": Text(gettext_noop("Teal")),
    "pink": Text(gettext_noop("Pink")),
    "orange": Text(gettext_noop("Orange")),
    "sky": Text(gettext_noop("Sky")),
}


def colour_word(name: str) -> Text | str:
    """A colour of the views ("blue") as a word in a sentence."""
    return COLOUR_WORDS.get(name, name)


def colour_title(name: str) -> Text | str:
    """A colour of the views as the name of a seat ("Blue")."""
    return COLOUR_TITLES.get(name, name.capitalize())


class IllegalAction(ValueError):
    """An action that the rules do not allow here. The message says why, in plain words (a
    ``Text``, so the site can say it in the reader's language)."""


@dataclass(frozen=True)
class Option:
    """A choice made when a match is created (shown in the lobby's form).

    A yes/no option by default. An option with ``values`` is a whole number instead:
    ``values(num_players)`` lists the numbers allowed with that many players, and its value
    ``None`` (the default, and what an old record without the option means) is the game's
    standard.
    """

    name: str
    label: str
    default: bool | None = False
    help: str = ""
    values: Callable[[int], tuple[int, ...]] | None = None


def describe_numbers(values: tuple[int, ...]) -> Text:
    """``(2, 4, 6)`` -> "an even number from 2 to 6"; ``(1, 2, 3)`` -> "a number from 1 to 3"."""
    if len(values) > 2:
        steps = {b - a for a, b in pairwise(values)}
        if steps == {1}:
            return Text(gettext_noop("a number from %(low)s to %(high)s"), low=values[0], high=values[-1])
        if steps == {2} and values[0] % 2 == 0:
            return Text(gettext_noop("an even number from %(low)s to %(high)s"), low=values[0], high=values[-1])
    return Text(gettext_noop("one of %(numbers)s"), numbers=", ".join(str(v) for v in values))


@dataclass(frozen=True)
class Game:
    """Immutable metadata of one game, and the factory of its states."""

    slug: str
    name: str
    min_players: int
    max_players: int
    summary: str = ""
    player_counts: tuple[int, ...] = ()
    options: tuple[Option, ...] = field(default_factory=tuple)
    # What settles equal scores, in order (``State.tie_break_values`` gives each seat's
    # values); when they are equal too, places are shared.
    tie_breaks: tuple[str, ...] = ()
    # Rulings the portal changed after games had been played under the former one. Each is a
    # number option that no one chooses: a match made now leaves it out and plays the current
    # ruling; a record made before carries the former value under the ruling's name (written
    # into those records when the ruling changed), so it replays to the end it had.
    rulings: tuple[Option, ...] = ()

    def allowed_player_counts(self) -> tuple[int, ...]:
        return self.player_counts or tuple(range(self.min_players, self.max_players + 1))

    def normalise_options(
        self, options: dict | None, num_players: int | None = None, *, recorded: bool = False
    ) -> dict[str, Any]:
        """Fill defaults and refuse unknown, badly typed or out-of-range options
        (``ValueError``). A number option is checked against ``num_players`` when given,
        otherwise against every player count of the game.

        ``recorded``: the options of a record being replayed, which may also carry a former
        ruling (``rulings``); it is kept only when present. Terms for a new match never may."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        rulings = {o.name: o for o in self.rulings} if recorded else {}
        unknown = sorted(set(options) - set(known) - set(rulings))
        if unknown:
            raise ValueError(f"{self.name} has no option {', '.join(unknown)}.")
        result = {}
        for name, opt in known.items():
            value = options.get(name, opt.default)
            if opt.values is not None:
                if value is not None:
                    self._check_number(opt, value, num_players)
            elif not isinstance(value, bool):
                raise ValueError(f"Option {name} must be true or false.")
            result[name] = value
        for name, opt in rulings.items():
            if options.get(name) is not None:
                self._check_number(opt, options[name], num_players)
                result[name] = options[name]
        return result

    def chosen_options(self, options: dict | None) -> dict[str, Any]:
        """A record's options without the former rulings it was played under: the terms of
        a new match on the same options (which plays the current rulings)."""
        rulings = {o.name for o in self.rulings}
        return {name: value for name, value in (options or {}).items() if name not in rulings}

    def options_text(self, options: dict | None) -> list[str]:
        """The chosen options that differ from the standard game, in words: a yes/no option by
        its label, a number as "label: value"."""
        options = options or {}
        words: list[str] = []
        for opt in self.options:
            value = options.get(opt.name, opt.default)
            if opt.values is not None and value is not None:
                words.append(Text(gettext_noop("%(option)s: %(value)s"), option=Text(opt.label), value=value))
            elif opt.values is None and value is True:
                words.append(Text(opt.label))
        for opt in self.rulings:
            if options.get(opt.name) is not None:
                words.append(
                    Text(gettext_noop("%(option)s: %(value)s"), option=Text(opt.label), value=options[opt.name])
                )
        return words

    def option_values(self, option: Option, num_players: int | None = None) -> tuple[int, ...]:
        """The numbers a number option allows with ``num_players`` (or with any count)."""
        counts = self.allowed_player_counts() if num_players is None else (num_players,)
        return tuple(sorted({v for n in counts for v in option.values(n)}))

    def _check_number(self, option: Option, value: Any, num_players: int | None) -> None:
        is_number = isinstance(value, int) and not isinstance(value, bool)
        allowed = self.option_values(option, num_players)
        if not is_number or value not in allowed:
            said: dict[str, Any] = {"option": Text(option.label), "numbers": describe_numbers(allowed)}
            said["value"] = value if is_number else repr(value)
            if num_players is None:
                raise ValueError(Text(gettext_noop("%(option)s must be %(numbers)s, not %(value)s."), **said))
            rule = gettext_noop("%(option)s with %(count)s players: %(numbers)s, not %(value)s.")
            raise ValueError(Text(rule, count=num_players, **said))

    def check_players(self, num_players: int) -> None:
        if num_players not in self.allowed_player_counts():
            counts = ", ".join(str(n) for n in self.allowed_player_counts())
            raise ValueError(f"{self.name} is played by {counts} players, not {num_players}.")

    def new_state(self, num_players: int, options: dict | None = None) -> State:
        raise NotImplementedError

    def replay(self, num_players: int, options: dict | None, actions: Iterable[str]) -> State:
        state = self.new_state(num_players, options)
        for action in actions:
            state.apply(action)
        return state

    def action_label(self, action: str) -> str:
        """The action in plain words, for buttons and the move list."""
        return action


class State:
    """One position of a game. Engines subclass it."""

    game: Game
    num_players: int
    history: list[str]
    # Whether every seat's view is the spectator's (a game without anything a seat sees that
    # the others do not): the site then builds and sends one view for all. Wrong only the safe
    # way: a seat sent the spectator's view sees less, never more.
    views_alike: ClassVar[bool] = False
    # The keys of a view under which it says something in words (``Text``): the site looks
    # for them there only, so that it finds them without reading the whole view. A word put
    # anywhere else would reach every reader in English.
    text_keys: ClassVar[tuple[str, ...]] = ("prompt", "tie_breaks", "score_breakdown")

    def current_player(self) -> int:
        """A seat (0..num_players-1), ``CHANCE`` or ``TERMINAL``."""
        raise NotImplementedError

    def legal_actions(self) -> list[str]:
        """The current player's actions; at ``CHANCE`` the outcomes; empty when terminal."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """At ``CHANCE``: (outcome, probability) pairs summing to 1; otherwise empty."""
        raise NotImplementedError

    def apply(self, action: str) -> None:
        """Apply one action; raise ``IllegalAction`` (and change nothing) if it is not legal."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def scores(self) -> list[int]:
        """Points per seat if the game ended now."""
        raise NotImplementedError

    def ranking(self) -> list[int]:
        """Final place per seat, 1 = best; equal places are shared."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see, JSON-ready; ``None`` is a spectator. Never a secret."""
        raise NotImplementedError

    def clone(self) -> State:
        raise NotImplementedError

    def tie_break_values(self) -> list[list[int]]:
        """Per seat, its values of ``game.tie_breaks``: ``ranking()`` orders equal scores by
        them, in that order."""
        return [[] for _ in range(self.num_players)]

    def determinised(self, seat: int | None, rng: random.Random) -> State:
        """A copy in which everything ``seat`` cannot see is re-drawn at random among what it
        could be. Bots search from this, never from the real state. Games without hidden
        information return a plain clone."""
        return self.clone()

    def public_history(self) -> list[str]:
        """The history as everyone may see it while the game goes on (secret outcomes masked)."""
        return list(self.history)

    def prompt(self) -> str:
        """What the player to move has to do now, in plain words, said to that player ("You
        rolled 6: place a marker...")."""
        return ""

    def end_words(self) -> str:
        """Why the game ended, in words that follow a colon ("a seat could neither place nor
        move its chips"); "" while it goes on, or when the rules' one ending needs none."""
        return ""

    def prompt_others(self) -> str:
        """The same for everyone else (the other seats, spectators, a replay): the seat to move
        named by its colour ("Blue rolled 6 and places a marker...")."""
        return self.prompt()

    # Shared pieces of a view, so every page finds them under the same keys.
    def common_view(self) -> dict:
        current = self.current_player()
        return {
            "game": self.game.slug,
            "num_players": self.num_players,
            "current_player": current if current >= 0 else None,
            "chance": current == CHANCE,
            "terminal": current == TERMINAL,
            "prompt": self.prompt(),
            "scores": self.scores(),
            "ranking": self.ranking() if current == TERMINAL else None,
            "tie_breaks": (
                {"labels": list(self.game.tie_breaks), "values": self.tie_break_values()}
                if current == TERMINAL
                else None
            ),
            "move_number": len(self.history),
        }


# ---------------------------------------------------------------------------
# Helpers every engine may share.


def places_from_keys(keys: list[tuple]) -> list[int]:
    """Places (1 = best) from sortable keys where a larger key is better; equal keys share."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def square_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def split_action(action: str) -> tuple[str, str]:
    """``"put:red@e3"`` -> ("put", "red@e3"); ``"roll"`` -> ("roll", "")."""
    if not isinstance(action, str) or not action or len(action) > 64:
        raise IllegalAction(Text(gettext_noop("%(action)s is not an action."), action=repr(action)))
    verb, _, arg = action.partition(":")
    return verb, arg
