"""The site's log lines: time, level, logger, message and what they happened in.

Every line carries the id of the request (``RequestIdMiddleware``: the client's
``X-Request-ID`` when it sends a sensible one, else a new one, returned in the response's
``X-Request-ID`` header), of the socket (``bind(socket_id=...)`` as a socket connects) or of
the Celery task it was written in. The ids live in a context variable, so they follow a
request into the threads Django runs sync code in, and each socket's own task.

Production (``DJANGO_ENV=production`` or ``LOG_FORMAT=json``) writes one JSON object a line
(python-json-logger); development writes the same fields as readable text. ``settings.LOGGING``
wires both.
"""

from __future__ import annotations

import contextvars
import logging
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.utils.log import log_response
from pythonjsonlogger.json import JsonFormatter

# What a log line is about: {"request_id": ...}, {"socket_id": ...} or {"task_id": ...}.
_context: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("log_context", default=None)

# An id a client may hand us: short, and nothing that could forge a log line or a header.
_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
ID_FIELDS = ("request_id", "socket_id", "task_id")


def new_id() -> str:
    return secrets.token_hex(8)


def bind(**ids: str) -> contextvars.Token:
    """Mark the log lines of the current context (a request, a socket's task) with ``ids``."""
    return _context.set(ids)


def unbind(token: contextvars.Token) -> None:
    _context.reset(token)


@contextmanager
def bound(**ids: str) -> Iterator[None]:
    token = bind(**ids)
    try:
        yield
    finally:
        unbind(token)


def current() -> dict[str, str]:
    return _context.get() or {}


class ContextFilter(logging.Filter):
    """Puts the current request, socket or task id on each record (as ``request_id`` etc.,
    so the JSON formatter writes it as a field of its own)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in current().items():
            setattr(record, key, value)
        return True


class TextFormatter(logging.Formatter):
    """The development format: ``2026-11-26 18:27:02,123 WARNING games.tasks [request=ab12] message``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(context)s%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        ids = [f"{key.removesuffix('_id')}={getattr(record, key)}" for key in ID_FIELDS if hasattr(record, key)]
        setattr(record, "context", f"[{' '.join(ids)}] " if ids else "")  # noqa: B010 -- not a LogRecord field
        try:
            return super().format(record)
        finally:
            delattr(record, "context")  # the record may go on to other handlers


def json_formatter() -> logging.Formatter:
    """The production format: one JSON object a line, ``time``, ``level``, ``logger``,
    ``message``, the context's ids and anything passed as ``extra``."""
    return JsonFormatter(
        "%(levelname)s %(name)s %(message)s",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp="time",  # ISO 8601 in UTC, to the microsecond
    )


def request_id_from(header: str | None) -> str:
    """The client's request id when it is a sensible one, else a new one."""
    if header and _SAFE_ID.fullmatch(header):
        return header
    return new_id()


class RequestIdMiddleware:
    """Binds a request id for the request's log lines and returns it as ``X-Request-ID``.
    Sync and async capable: on the ASGI server it adds no hop between the two."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        request.request_id = request_id
        with bound(request_id=request_id):
            response = self.get_response(request)
            _log_refusal(request, response)
        response["X-Request-ID"] = request_id
        return response

    async def __acall__(self, request):
        request_id = request_id_from(request.headers.get("X-Request-ID"))
        request.request_id = request_id
        with bound(request_id=request_id):
            response = await self.get_response(request)
            _log_refusal(request, response)
        response["X-Request-ID"] = request_id
        return response


def _log_refusal(request, response) -> None:
    """Django logs a 4xx or 5xx response once the middleware is done, outside the request's
    context: logged here instead (the same line, once), so it carries the request id."""
    if response.status_code >= 400:
        log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request)
