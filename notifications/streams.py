"""``GET /api/stream/events/``: what concerns one person, as NDJSON lines, so that a bot (or any
client) never polls (``live.streams``).

On opening, a line for each challenge waiting for the person's answer and for each of their
matches not over (``matchStart``, then ``yourTurn`` where it is their move). Then, as they
happen: a challenge received (``challenge``) or no longer waiting (``challengeGone``), a match
of theirs started (``matchStart``), their turn in one (``yourTurn``, with the version to act
at), a match of theirs ended (``matchFinish``) or left by them (``matchLeft``: resigned, out of
time), and a blank line every
``STREAM_KEEP_ALIVE_SECONDS``. A match's own updates have their own stream
(``games.streams``). It speaks for the API token sent, or the session; it ends when the
person's sign-in does.

It listens where the person's ``/ws/me/`` socket does (``notifications.consumers``): their own
group, told when their seats or notifications change, and the players' tier of each of their
matches, whose every update says who is to move: no query on a move.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from django.http import HttpRequest, JsonResponse

from accounts.api import requester
from challenges.selectors import challenge_json, pending_received
from games.models import Match
from live import streams
from live.events import MATCH_UPDATED, ME_CHANGED
from live.executor import db
from live.groups import match_players_group, user_group, user_sockets_group

from .consumers import FOLLOW_AT_MOST
from .selectors import followed_seats

OVER = (Match.Status.FINISHED, Match.Status.ABORTED)


def _matches(user_id: int) -> dict[int, dict]:
    """The person's matches not over that they have not left, newest first: id -> what a
    ``matchStart`` line says, and whether it is their move."""
    rows = followed_seats(user_id).values_list(
        "match_id", "index", "match__game", "match__status", "match__version", "match__to_move"
    )[:FOLLOW_AT_MOST]
    return {
        match_id: {
            "match": match_id,
            "seat": seat,
            "game": game,
            "status": status,
            "version": version,
            "to_move": to_move,
        }
        for match_id, seat, game, status, version, to_move in rows
    }


def _challenges(user) -> dict[int, dict]:
    return {c.pk: challenge_json(c) for c in pending_received(user, limit=100)}


def _statuses(match_ids) -> dict[int, str]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "status"))


def _ended(match_id: int, status: str) -> dict:
    """The line for a match the person no longer plays: over, or left by them."""
    return {"type": "matchFinish" if status in OVER else "matchLeft", "match": match_id, "status": status}


def _match_start(m: dict) -> dict:
    return {"type": "matchStart", "match": m["match"], "game": m["game"], "seat": m["seat"], "status": m["status"]}


def _your_turn(m: dict) -> dict:
    return {"type": "yourTurn", "match": m["match"], "version": m["version"]}


async def event_stream(request: HttpRequest):
    user = await db(requester)(request)
    if user is None:
        return JsonResponse({"code": "not_authenticated", "message": "That API token is not valid."}, status=401)
    if not user.is_authenticated:
        return JsonResponse({"code": "not_authenticated", "message": "Sign in, or send an API token."}, status=401)
    listener = streams.Listener(user.pk)
    refused = await streams.opened(listener, [user_group(user.pk), user_sockets_group(user.pk)])
    if refused is not None:
        return refused
    session = streams.session_of(request)
    return streams.response(listener, _lines(listener, user, session))


async def _lines(listener: streams.Listener, user, session: str | None) -> AsyncIterator[bytes]:
    matches: dict[int, dict] = {}
    challenges: dict[int, dict] = {}

    async def refresh(seats: bool) -> AsyncIterator[bytes]:
        nonlocal matches, challenges
        now = await db(_challenges)(user)
        for challenge_id in challenges.keys() - now.keys():
            yield streams.line({"type": "challengeGone", "challenge": challenge_id})
        for challenge_id in now.keys() - challenges.keys():
            yield streams.line({"type": "challenge", "challenge": now[challenge_id]})
        challenges = now
        if not seats:
            return
        current = await db(_matches)(user.pk)
        joined = current.keys() - matches.keys()
        if joined:
            # Listen first, then read again: an update between the first read and the join
            # would be missed, one after the second read comes through the group.
            for match_id in joined:
                await listener.join(match_players_group(match_id))
            current = await db(_matches)(user.pk)
            for match_id in joined - current.keys():  # over meanwhile
                await listener.leave(match_players_group(match_id))
        gone = matches.keys() - current.keys()
        statuses = await db(_statuses)(gone) if gone else {}
        for match_id in sorted(gone):
            await listener.leave(match_players_group(match_id))
            yield streams.line(_ended(match_id, statuses.get(match_id, Match.Status.ABORTED)))
        for match_id in sorted(current.keys() - matches.keys()):
            await listener.join(match_players_group(match_id))  # if it started between the reads
            m = current[match_id]
            yield streams.line(_match_start(m))
            if m["status"] == Match.Status.ACTIVE and m["to_move"] == m["seat"]:
                yield streams.line(_your_turn(m))
        # A match followed already goes on as its updates say (each of them arrives: the
        # stream listens to it), not as read now, so no turn is skipped unsaid.
        matches = {match_id: matches.get(match_id, m) for match_id, m in current.items()}

    async for chunk in refresh(seats=True):
        yield chunk
    key = str(user.pk)
    async for message in streams.messages(listener, session):
        if message is None:
            yield streams.KEEP_ALIVE
            continue
        kind = message.get("type")
        if kind == ME_CHANGED:
            async for chunk in refresh(seats=bool(message.get("seats"))):
                yield chunk
        elif kind == MATCH_UPDATED and message["match_id"] in matches:
            m = matches[message["match_id"]]
            if message["version"] <= m["version"]:
                continue
            started = m["status"] == Match.Status.OPEN and message["status"] == Match.Status.ACTIVE
            m.update(version=message["version"], status=message["status"], to_move=message["to_move"])
            seat = message["players"].get(key)
            if message["status"] in OVER or seat is None:  # the end, or they left it (resigned, timed out)
                del matches[m["match"]]
                await listener.leave(match_players_group(m["match"]))
                yield streams.line(_ended(m["match"], message["status"]))
                continue
            if started:
                yield streams.line(_match_start(m))
            if message["status"] == Match.Status.ACTIVE and message["to_move"] == m["seat"]:
                yield streams.line(_your_turn(m))
