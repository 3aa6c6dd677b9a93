"""The REST API's JSON parser, under the same limits on size and nesting as the sockets'
frames (``live.frames``, where ``loads`` and ``check`` live)."""

from __future__ import annotations

import io

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from live.frames import JSONRejected, check, loads, nesting_depth

__all__ = ["BoundedJSONParser", "JSONRejected", "check", "loads", "nesting_depth"]


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the size and depth limits of ``live.frames``: a 400 with a clear message."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.JSON_MAX_BYTES
        raw = stream.read(limit + 1)
        try:
            check(raw, max_bytes=limit)
        except JSONRejected as exc:
            raise ParseError(str(exc)) from exc
        return super().parse(io.BytesIO(raw), media_type, parser_context)
