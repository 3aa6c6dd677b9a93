"""What the game engines say, in the reader's language.

An engine says everything as a ``games.engines.base.Text``: the English sentence (a ``str``),
with its template (``msgid``, marked by ``gettext_noop`` so ``make messages`` collects it into
the ``django`` catalogue) and its values. The site translates it where it shows it:

* ``translated(text)``: in the active language (a page drawn by the server, a refusal);
* the match page's socket updates carry the compact form (``wired``: ``[msgid, {values}]``),
  the same for every reader of an audience, and the page formats it with ``catalogue(game,
  language)``, the game's templates in the page's language, embedded in the page once. So a
  move is never said once per language on the server.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import threading
from pathlib import Path
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext, override

from .engines import _ENGINE_MODULES
from .engines.base import Text

ENGINES = Path(__file__).resolve().parent / "engines"
# Where the portal itself says things in the engines' way (the outcome line, the seat names).
PORTAL_SOURCES = (Path(__file__).resolve().parent / "outcome.py", Path(__file__).resolve().parent / "seat_names.py")


def translated(text: Any, language: str | None = None) -> str:
    """``text`` in ``language`` (the active language when None): a ``Text`` by its template,
    its values translated the same way; anything else as it is."""
    if not isinstance(text, Text):
        return text
    if language is not None:
        with override(language):
            return translated(text)
    if not text.params:
        return gettext(text.msgid)
    return gettext(text.msgid) % {k: translated(v) for k, v in text.params.items()}


# A refusal's message, translated when it is read (in the language of the page, the socket or
# the API request that shows it), as the services' own messages are (``portal.errors``).
lazy_translated = lazy(translated, str)


def refusal(exc: Exception) -> str:
    """An engine's ``IllegalAction`` as a service's message: in the reader's language."""
    said = exc.args[0] if exc.args else ""
    return lazy_translated(said) if isinstance(said, Text) else str(exc)


def wired(value: Any) -> Any:
    """``value`` with each ``Text`` in it (in a list, a tuple or a dict's values, at any depth)
    in its compact form (``Text.wire``); what holds none is returned as it is, not copied."""
    kind = type(value)
    if kind is Text:
        return value.wire()
    if kind is list or kind is tuple:
        items = None
        for i, item in enumerate(value):
            if type(item) in _HOLDERS:
                said = wired(item)
                if said is not item:
                    if items is None:
                        items = list(value)
                    items[i] = said
        return value if items is None else items
    if kind is dict:
        changed = None
        for key, item in value.items():
            if type(item) in _HOLDERS:
                said = wired(item)
                if said is not item:
                    if changed is None:
                        changed = dict(value)
                    changed[key] = said
        return value if changed is None else changed
    return value


def translated_all(value: Any) -> Any:
    """``value`` with each ``Text`` in it (in a list, a tuple or a dict's values, at any depth)
    said in the active language (``translated``): for what the server hands a page whole, a
    lesson's view and labels; what holds none is returned as it is."""
    kind = type(value)
    if kind is Text:
        return translated(value)
    if kind is list or kind is tuple:
        return [translated_all(item) for item in value]
    if kind is dict:
        return {key: translated_all(item) for key, item in value.items()}
    return value


# What may hold a ``Text`` (a ``Text`` itself included): anything else is passed over unread.
_HOLDERS = frozenset({Text, list, tuple, dict})


def wired_view(view: dict, keys: tuple[str, ...]) -> dict:
    """``wired`` for an engine's view, looking only under ``keys`` (``State.text_keys``): the
    view itself when nothing there is a ``Text``, else a shallow copy."""
    changed = {k: wired(view[k]) for k in keys if k in view}
    if all(changed[k] is view[k] for k in changed):
        return view
    return {**view, **changed}


def _is_wired(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("t"), str) and set(value) <= {"t", "p"}


def spoken(value: Any, language: str | None = None) -> Any:
    """What the match page makes of a part of an update (static/js/i18n.js, ``say``): every
    compact engine text in ``value`` said in ``language`` (English when None), the rest as
    it is."""
    if _is_wired(value):
        template = value["t"]
        if language is not None:
            with override(language):
                template = gettext(template)
        values = value.get("p") or {}
        return re.sub(r"%\((\w+)\)s", lambda m: str(spoken(values.get(m.group(1)), language)), template)
    if isinstance(value, dict):
        return {k: spoken(v, language) for k, v in value.items()}
    if isinstance(value, list):
        return [spoken(v, language) for v in value]
    return value


def _marked(path: Path) -> list[str]:
    """The templates marked with ``gettext_noop("...")`` in one source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "gettext_noop"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append(node.args[0].value)
    return found


# CPython 3.11's ``ast.parse`` may fail ("AST constructor recursion depth mismatch") when two
# threads parse at once, as two requests for match pages of a new game or language would.
_PARSING = threading.Lock()


@functools.lru_cache(maxsize=16)
def msgids(game: str) -> tuple[str, ...]:
    """Every template ``game``'s engine can say (its own module's, the shared ones of
    ``games.engines.base``, and the portal's outcome and seat-name templates): read from the
    sources once per process, one thread at a time."""
    with _PARSING:
        return _msgids(game)


def _msgids(game: str) -> tuple[str, ...]:
    module = next(m for m in _ENGINE_MODULES if importlib.import_module(f"games.engines.{m}").GAME.slug == game)
    sources = (ENGINES / f"{module}.py", ENGINES / "base.py", *PORTAL_SOURCES)
    return tuple(dict.fromkeys(m for path in sources for m in _marked(path)))


@functools.lru_cache(maxsize=64)
def catalogue(game: str, language: str) -> dict[str, str]:
    """The templates of ``game`` in ``language``, ``{msgid: translation}``, for the match page
    (only those translated differently from the English; the page carries it with Django's
    ``json_script``)."""
    with override(language):
        pairs = {m: gettext(m) for m in msgids(game)}
    return {m: t for m, t in sorted(pairs.items()) if t != m}
