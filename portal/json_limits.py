"""JSON from clients, read with a limit on its size and on how deeply it nests.

Python's ``json`` has neither: a body of a few kilobytes of ``[[[[...`` makes the parser
recurse until it raises ``RecursionError``, which no caller expects (a 500 from the API, a
dead socket). Every place that reads a client's JSON goes through ``loads`` (the socket) or
``BoundedJSONParser`` (the REST API), which refuse such input with a plain message before
parsing it.
"""

from __future__ import annotations

import io
import json
import re

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# A string (escapes included) or one bracket: brackets inside strings do not nest. On bytes,
# as these characters are ASCII and never part of a longer UTF-8 sequence.
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_DEPTH_STEP = {b"[": 1, b"{": 1, b"]": -1, b"}": -1}


class JSONRejected(ValueError):
    """The input is too large, too deeply nested or not JSON; the message says which."""


def nesting_depth(data: bytes, limit: int) -> int:
    """How deeply ``data`` nests arrays and objects, counting no further than ``limit + 1``."""
    depth = deepest = 0
    for token in _TOKEN.finditer(data):
        step = _DEPTH_STEP.get(token.group())
        if step is None:
            continue  # a string
        depth += step
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def check(raw: bytes | str, *, max_bytes: int | None = None, max_depth: int | None = None) -> bytes:
    """``raw`` as bytes, or ``JSONRejected`` if it is larger than ``max_bytes`` bytes or nests
    more than ``max_depth`` levels (defaults: the settings ``JSON_MAX_BYTES`` and
    ``JSON_MAX_DEPTH``)."""
    max_bytes = settings.JSON_MAX_BYTES if max_bytes is None else max_bytes
    max_depth = settings.JSON_MAX_DEPTH if max_depth is None else max_depth
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > max_bytes:
        raise JSONRejected(f"A message may be at most {max_bytes} bytes.")
    if nesting_depth(data, max_depth) > max_depth:
        raise JSONRejected(f"JSON may nest at most {max_depth} levels deep.")
    return data


def loads(raw: bytes | str, *, max_bytes: int | None = None, max_depth: int | None = None):
    """``raw`` parsed after ``check``; ``JSONRejected`` also when it is not valid JSON."""
    data = check(raw, max_bytes=max_bytes, max_depth=max_depth)
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise JSONRejected("That message is not valid JSON.") from exc


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the size and depth limits above: a 400 with a clear message."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.JSON_MAX_BYTES
        raw = stream.read(limit + 1)
        try:
            check(raw, max_bytes=limit)
        except JSONRejected as exc:
            raise ParseError(str(exc)) from exc
        return super().parse(io.BytesIO(raw), media_type, parser_context)
