"""``GET /api/matches/<id>/stream/``: a match's updates as NDJSON, for bots and scripts that
would rather read one HTTP response than hold a WebSocket (``live.streams``).

The first line is the snapshot the match's socket sends on connect (``"type": "snapshot"``,
the requester's seat's view, legal actions, seats, clocks, chat), unless the client already
holds that version (``?version=N``: a reconnect after a dropped stream). Then one line per
update, exactly the text the match's sockets get for the same audience (the seat's own view
for a seated person, the public one for anyone else), a line per chat message and takeback
request as the socket's frames, and a blank line every ``STREAM_KEEP_ALIVE_SECONDS``. The
stream ends after the update that ends the match, or when the requester's sign-in ends.

Who may read it is who may watch the match (a private match: its players, or its invite
token as ``?token=``); it speaks for the API token sent (``Authorization: Token <key>``), or
the session.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from django.http import HttpRequest, JsonResponse

from accounts.api import requester
from live import streams
from live.events import MATCH_UPDATED
from live.executor import db
from live.groups import match_group, match_players_group, user_sockets_group

from . import selectors, services
from .models import Match

OVER = (Match.Status.FINISHED, Match.Status.ABORTED)


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def _open(request: HttpRequest, match_id: int, token: str | None):
    """(the requester, whether they hold a seat) or a refusal."""
    user = requester(request)
    if user is None:
        return _refusal(401, "not_authenticated", "That API token is not valid.")
    match, allowed, seated = services.watcher(match_id, user, token)
    if match is None:
        return _refusal(404, "not_found", "There is no such match.")
    if not allowed:
        return _refusal(403, "forbidden", "You may not watch this match.")
    return user, seated


def _snapshot(match_id: int, user) -> dict | None:
    match = selectors.match_with_seats(match_id)
    return None if match is None else {"type": "snapshot", **selectors.match_payload(match, user)}


async def match_stream(request: HttpRequest, match_id: int):
    try:
        known = int(request.GET["version"]) if "version" in request.GET else None
    except ValueError:
        return _refusal(400, "bad_request", "version is a whole number: the last version you hold.")
    opened = await db(_open)(request, match_id, request.GET.get("token"))
    if isinstance(opened, JsonResponse):
        return opened
    user, seated = opened
    listener = streams.Listener(user.pk if user.is_authenticated else None)
    groups = [match_players_group(match_id) if seated else match_group(match_id)]
    if user.is_authenticated:
        groups.append(user_sockets_group(user.pk))
    refused = await streams.opened(listener, groups)  # before the snapshot is read: no update falls between
    if refused is not None:
        return refused
    key = str(user.pk) if user.is_authenticated else None
    session = streams.session_of(request)
    return streams.response(listener, _lines(listener, match_id, user, key, known, session))


async def _lines(
    listener: streams.Listener, match_id: int, user, key: str | None, known: int | None, session: str | None
) -> AsyncIterator[bytes]:
    snapshot = await db(_snapshot)(match_id, user)
    if snapshot is None:
        return
    sent = snapshot["version"]
    if known != sent:
        yield streams.line(snapshot)
    if snapshot["status"] in OVER:
        return
    async for message in streams.messages(listener, session):
        if message is None:
            yield streams.KEEP_ALIVE
            continue
        kind = message.get("type")
        if kind == MATCH_UPDATED:
            if message["version"] <= sent:
                continue
            seat = message["players"].get(key) if key is not None else None
            text = message["seats"][seat] if seat is not None else None
            sent = message["version"]
            yield streams.text_line(text if text is not None else message["spectator"])
            if message["status"] in OVER:
                return
        elif kind == "chat.message":
            yield streams.line({"type": "chat", "message": message["message"]})
        elif kind == "match.takeback":
            yield streams.line({"type": "takeback", "version": message["version"], "takeback": message["takeback"]})
