"""The text record of a match ("TGR", territory game record): headers for the players, the
options, the result and the ratings, then one line per move in the game's own notation.
The grammar is in docs/RECORDS.md. Pure Python over the engines: writing a record, reading
one, and replaying it through the engine, which refuses a record that does not replay with
the number of the line at fault."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .engines import CHANCE, State, get_game
from .engines.base import places_from_keys

FORMAT = "TGR 1"
MEDIA_TYPE = "text/x-territory-game-record"
EXTENSION = "tgr"
# How the players' moves are ended by the site rather than by the board: the places then
# count a seat that resigned or ran out of time last, and a match nobody played shares first.
NO_PERSON_PLAYING = "no person playing"
QUIT_WORDS = ("resigned", "timed out")

_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_.-]*) "((?:[^"\\]|\\["\\])*)"\]$')
_MOVE = re.compile(r"^(\*|[1-9][0-9]*) ([!-~]+)$")
_SEAT_KEY = re.compile(r"^Seat([1-9][0-9]*)(Rating|Quit)?$")
_NUMBER = re.compile(r"^-?[0-9]+$")


class RecordError(ValueError):
    """A record that cannot be read or does not replay; ``line`` is the line at fault (1 is
    the first), or None when the record as a whole is wrong."""

    def __init__(self, message: str, line: int | None = None):
        self.line, self.reason = line, message
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass
class SeatRecord:
    name: str | None = None
    quit: str = ""  # "", "resigned" or "timed out"
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass
class Record:
    game: str
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[SeatRecord] = field(default_factory=list)
    moves: list[tuple[int | None, str]] = field(default_factory=list)  # (seat or None for chance, action)
    places: list[int | None] | None = None
    scores: list[int] | None = None
    end: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # the others, as written (Match, Date, Site...)
    move_lines: list[int] = field(default_factory=list)  # the line of each move, when read from text


# -- writing --------------------------------------------------------------------------


def _quote(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise ValueError("A header value is one line.")
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _option_text(value: Any) -> str:
    if value is None:
        return "standard"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _float_text(value: float) -> str:
    return repr(float(value))


def write(record: Record) -> str:
    """The record as text, ending with a newline."""
    lines = [
        f"[Format {_quote(FORMAT)}]",
        f"[Game {_quote(record.game)}]",
        f"[Players {_quote(str(record.num_players))}]",
    ]
    for key, value in record.headers.items():
        lines.append(f"[{key} {_quote(value)}]")
    for name, value in record.options.items():
        lines.append(f"[Option.{name} {_quote(_option_text(value))}]")
    for number, seat_record in enumerate(record.seats, start=1):
        lines.append(f"[Seat{number} {_quote(seat_record.name or '?')}]")
        if seat_record.quit:
            lines.append(f"[Seat{number}Quit {_quote(seat_record.quit)}]")
        if seat_record.rating_before is not None and seat_record.rating_after is not None:
            rating = f"{_float_text(seat_record.rating_before)} {_float_text(seat_record.rating_after)}"
            lines.append(f"[Seat{number}Rating {_quote(rating)}]")
    if record.places is not None:
        lines.append(f"[Result {_quote(' '.join('-' if p is None else str(p) for p in record.places))}]")
    if record.scores is not None:
        lines.append(f"[Scores {_quote(' '.join(str(s) for s in record.scores))}]")
    if record.end:
        lines.append(f"[End {_quote(record.end)}]")
    lines.append("")
    for mover, action in record.moves:
        if not action or any(c.isspace() or not c.isprintable() or not c.isascii() for c in action):
            raise ValueError(f"{action!r} cannot be written as a move.")
        lines.append(f"{'*' if mover is None else mover + 1} {action}")
    return "\n".join(lines) + "\n"


# -- reading ---------------------------------------------------------------------------


def _unquote(text: str) -> str:
    return re.sub(r"\\([\"\\])", r"\1", text)


def _whole_number(text: str, what: str, line: int) -> int:
    if not _NUMBER.match(text):
        raise RecordError(f"{what} must be a whole number, not {text!r}.", line)
    return int(text)


def _option_value(text: str, line: int) -> Any:
    if text in ("yes", "no"):
        return text == "yes"
    if text == "standard":
        return None
    return _whole_number(text, "An option", line)


def _numbers(text: str, what: str, count: int, line: int, blanks: bool = False) -> list:
    words = text.split()
    if len(words) != count:
        raise RecordError(f"{what} needs {count} values, one per seat, not {len(words)}.", line)
    return [None if blanks and w == "-" else _whole_number(w, what, line) for w in words]


def parse(text: str) -> Record:
    """Read a record (no replay: see ``replay``). Refuses, naming the line, anything that
    is not in the grammar."""
    headers: dict[str, tuple[str, int]] = {}
    moves: list[tuple[str, str, int]] = []
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            in_moves = in_moves or bool(headers)  # the blank line after the headers
            continue
        if line.startswith(";"):  # a comment
            continue
        header = _HEADER.match(line)
        if header and not in_moves:
            key = header.group(1)
            if key in headers:
                raise RecordError(f"the header {key} is given twice.", number)
            headers[key] = (_unquote(header.group(2)), number)
            continue
        if line.startswith("["):
            where = "headers come before the blank line that opens the moves" if in_moves else "see the grammar"
            raise RecordError(f"{line[:40]!r} is not a header ({where}).", number)
        move = _MOVE.match(line)
        if not move:
            raise RecordError(f"{line[:40]!r} is not a move: write the seat (or * for chance) and the action.", number)
        in_moves = True
        moves.append((move.group(1), move.group(2), number))
    return _record(headers, moves)


def _record(headers: dict[str, tuple[str, int]], moves: list[tuple[str, str, int]]) -> Record:
    def required(key: str) -> tuple[str, int]:
        if key not in headers:
            raise RecordError(f"The record has no {key} header.")
        return headers.pop(key)

    fmt, line = required("Format")
    if fmt != FORMAT:
        raise RecordError(f"This reader reads {FORMAT!r}, not {fmt!r}.", line)
    slug, line = required("Game")
    try:
        game = get_game(slug)
    except KeyError:
        raise RecordError(f"No game is called {slug!r}.", line) from None
    count_text, line = required("Players")
    num_players = _whole_number(count_text, "Players", line)
    try:
        game.check_players(num_players)
    except ValueError as exc:
        raise RecordError(str(exc), line) from None
    record = Record(game=slug, num_players=num_players, seats=[SeatRecord() for _ in range(num_players)])
    options: dict[str, Any] = {}
    options_line = line
    for key in list(headers):
        value, line = headers[key]
        if key.startswith("Option."):
            options[key.removeprefix("Option.")] = _option_value(value, line)
            options_line = line
        elif seat_key := _SEAT_KEY.match(key):
            index = int(seat_key.group(1)) - 1
            if index >= num_players:
                raise RecordError(f"There are {num_players} seats, not {index + 1}.", line)
            seat_record = record.seats[index]
            if seat_key.group(2) is None:
                seat_record.name = None if value == "?" else value
            elif seat_key.group(2) == "Quit":
                if value not in QUIT_WORDS:
                    raise RecordError(f"A seat's Quit is {' or '.join(map(repr, QUIT_WORDS))}, not {value!r}.", line)
                seat_record.quit = value
            else:
                seat_record.rating_before, seat_record.rating_after = _ratings(value, line)
        elif key == "Result":
            record.places = _numbers(value, "Result", num_players, line, blanks=True)
        elif key == "Scores":
            record.scores = _numbers(value, "Scores", num_players, line)
        elif key == "End":
            record.end = value
        else:
            record.headers[key] = value
            continue
        del headers[key]
    try:
        record.options = game.normalise_options(options, num_players)
    except ValueError as exc:
        raise RecordError(str(exc), options_line) from None
    for seat_text, action, line in moves:
        mover = None if seat_text == "*" else int(seat_text) - 1
        if mover is not None and mover >= num_players:
            raise RecordError(f"There are {num_players} seats, not {mover + 1}.", line)
        record.moves.append((mover, action))
        record.move_lines.append(line)
    return record


def _ratings(value: str, line: int) -> tuple[float, float]:
    words = value.split()
    try:
        before, after = (float(w) for w in words)
    except ValueError:
        raise RecordError(f"A seat's Rating is two numbers, before and after, not {value!r}.", line) from None
    return before, after


# -- replaying ---------------------------------------------------------------------------


def _who(seat: int | None) -> str:
    return "chance" if seat is None else f"seat {seat + 1}"


def final_places(state: State, quit_seats: list[bool]) -> list[int]:
    """The places the site gives: the engine's ranking (by points while the board is not
    over), anyone who resigned or ran out of time placed last (shared)."""
    ranking = state.ranking() if state.is_terminal() else places_from_keys([(s,) for s in state.scores()])
    stayers = [i for i, quit in enumerate(quit_seats) if not quit]
    places = [len(stayers) + 1] * len(quit_seats)
    for i, place in zip(stayers, places_from_keys([(-ranking[i],) for i in stayers]), strict=True):
        places[i] = place
    return places


def _first_failure(game, record: Record) -> tuple[int, ValueError]:
    """The first move the engine refuses (the game's own replay, which reads a masked secret
    such as the dice game's ``card:?``), by halving: the longest prefix that replays."""
    actions = [action for _, action in record.moves]
    good, bad = 0, len(actions)
    error: ValueError | None = None
    while bad - good > 1:
        middle = (good + bad) // 2
        try:
            game.replay(record.num_players, record.options, actions[:middle])
            good = middle
        except ValueError as exc:
            bad, error = middle, exc
    if error is None:
        try:
            game.replay(record.num_players, record.options, actions[:bad])
        except ValueError as exc:
            error = exc
    return bad - 1, error or ValueError("refused")


def replay(record: Record) -> State:
    """Play the record's moves through the engine, from the start, checking each move's seat;
    then its scores and result against the position reached. Refuses a record that does not
    replay (``RecordError`` naming the line)."""
    game = get_game(record.game)
    lines: list[int | None] = list(record.move_lines) or [None] * len(record.moves)
    try:
        # The game's own replay reads a public record: a masked secret takes a value the rest
        # of the record allows, which gives the same game.
        actions = game.replay(record.num_players, record.options, [action for _, action in record.moves]).history
    except ValueError:  # IllegalAction, or an engine refusing a malformed action
        index, exc = _first_failure(game, record)
        seat, action = record.moves[index]
        raise RecordError(f"{action!r} is not a legal move for {_who(seat)} here ({exc}).", lines[index]) from None
    state = game.new_state(record.num_players, record.options)
    for (seat, _), action, line in zip(record.moves, actions, lines, strict=True):
        if state.is_terminal():
            raise RecordError(f"the game is already over: {action!r} cannot be played.", line)
        to_move = state.current_player()
        expected = None if to_move == CHANCE else to_move
        if seat != expected:
            raise RecordError(f"{_who(seat)} plays {action!r}, but it is {_who(expected)}'s turn.", line)
        state.apply(action)
    if record.scores is not None and record.scores != state.scores():
        raise RecordError(f"The moves give the scores {state.scores()}, not the recorded {record.scores}.")
    if record.places is not None and record.end != NO_PERSON_PLAYING:
        quits = [bool(seat.quit) for seat in record.seats]
        if (state.is_terminal() or any(quits)) and record.places != final_places(state, quits):
            raise RecordError(f"The moves give the places {final_places(state, quits)}, not {record.places}.")
    return state


def split(text: str) -> list[tuple[int, str]]:
    """A file of several records, one after the other (each opening with its Format
    header), as (the line it starts on, its text)."""
    parts: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith("[Format ") or not parts:
            parts.append((number, []))
        parts[-1][1].append(line)
    return [
        (first, "\n".join(lines) + "\n")
        for first, lines in parts
        if any(line.strip() and not line.strip().startswith(";") for line in lines)  # not comments alone
    ]


def read(text: str) -> tuple[Record, State]:
    """Parse and replay: the record and the position it ends in."""
    record = parse(text)
    return record, replay(record)
