"""Finished matches as records: the text record (``games.records``) and the JSON of the API,
one match or a stream of them. Only what anyone may see leaves: the moves are the public
ones (a secret chance outcome stays masked, as in the move list), and the streams hold
public matches only."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet

from . import records, state_cache
from .engines import get_game
from .models import Match, Move, Seat

CHUNK = 50  # matches read per query while streaming


def finished_public() -> QuerySet[Match]:
    """Every finished public match, in the order they finished."""
    return Match.objects.filter(
        status=Match.Status.FINISHED, visibility=Match.Visibility.PUBLIC, finished_at__isnull=False
    )


def filtered(
    matches: QuerySet[Match],
    *,
    user=None,
    game: str | None = None,
    since: datetime.datetime | None = None,
    until: datetime.datetime | None = None,
) -> QuerySet[Match]:
    """``matches`` with a seat of ``user``, of ``game``, finished at or after ``since`` and
    before ``until``."""
    if user is not None:
        matches = matches.filter(Exists(Seat.objects.filter(match=OuterRef("pk"), user=user)))
    if game is not None:
        matches = matches.filter(game=game)
    if since is not None:
        matches = matches.filter(finished_at__gte=since)
    if until is not None:
        matches = matches.filter(finished_at__lt=until)
    return matches


def _with_everything(matches: QuerySet[Match]) -> QuerySet[Match]:
    return matches.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")),
        Prefetch("moves", queryset=Move.objects.order_by("index").only("match_id", "index", "seat", "action")),
        "rating_changes",
    )


def _when(moment: datetime.datetime | None) -> str | None:
    return moment.astimezone(datetime.UTC).isoformat().replace("+00:00", "Z") if moment else None


def _public_moves(match: Match, stored: list[Move] | None) -> list[tuple[int | None, str]]:
    if stored is None:  # one match: the process's cached state knows its public history
        seats = list(match.moves.order_by("index").values_list("seat", flat=True))
        return list(zip(seats, state_cache.load(match).public_history(), strict=True))
    # Many matches: replayed here, not through the cache the matches being played use.
    state = get_game(match.game).replay(match.num_players, match.options, [m.action for m in stored])
    return [(m.seat, action) for m, action in zip(stored, state.public_history(), strict=True)]


def match_record(match: Match, *, stored: list[Move] | None = None) -> records.Record:
    """The record of a finished match (its seats read with their players)."""
    seats = list(match.seats.all())
    ratings = {change.user_id: change for change in match.rating_changes.all()}
    headers = {"Match": str(match.pk), "Rated": "yes" if match.rated else "no", "Speed": match.speed}
    for key, moment in (("Started", match.started_at), ("Date", match.finished_at)):
        if moment is not None:
            headers[key] = _when(moment) or ""
    names = [seat.user.username if seat.user else None for seat in seats]
    if match.imported_from:  # the players and headers of the record it was imported from
        headers.update(match.imported_from.get("headers", {}))
        names = match.imported_from.get("names", names)
    seat_records = []
    for seat, name in zip(seats, names, strict=True):
        change = ratings.get(seat.user_id) if seat.user_id is not None else None
        seat_records.append(
            records.SeatRecord(
                name=name,
                quit="resigned" if seat.resigned else "timed out" if seat.timed_out else "",
                rating_before=change.before if change else None,
                rating_after=change.after if change else None,
            )
        )
    return records.Record(
        game=match.game,
        num_players=match.num_players,
        options=get_game(match.game).normalise_options(match.options, match.num_players),
        seats=seat_records,
        moves=_public_moves(match, stored),
        places=[seat.place for seat in seats],
        scores=[seat.score or 0 for seat in seats] if all(seat.score is not None for seat in seats) else None,
        end=match.end_reason,
        headers=headers,
    )


def match_json(match: Match, *, stored: list[Move] | None = None) -> dict:
    """The API's export of a finished match: its settings, seats with results and ratings,
    every public move, and the same as a text record."""
    record = match_record(match, stored=stored)
    engine = get_game(match.game)
    seats = list(match.seats.all())
    return {
        "id": match.pk,
        "game": match.game,
        "game_name": engine.name,
        "num_players": match.num_players,
        "options": record.options,
        "rated": match.rated,
        "speed": match.speed,
        "started_at": _when(match.started_at),
        "finished_at": _when(match.finished_at),
        "end_reason": match.end_reason,
        "seats": [
            {
                "index": seat.index,
                "username": seat.user.username if seat.user else None,
                "is_bot": bool(seat.user and seat.user.is_bot),
                "resigned": seat.resigned,
                "timed_out": seat.timed_out,
                "place": seat.place,
                "score": seat.score,
                "rating_before": info.rating_before,
                "rating_after": info.rating_after,
            }
            for seat, info in zip(seats, record.seats, strict=True)
        ],
        "moves": [
            {"index": index, "seat": seat, "action": action, "label": engine.action_label(action)}
            for index, (seat, action) in enumerate(record.moves)
        ],
        "record": records.write(record),
        "imported": match.imported_from is not None,
    }


def one(match_id: int) -> Match | None:
    """A match with what its export reads (any visibility: the caller checks who may see it)."""
    return _with_everything(Match.objects.filter(pk=match_id)).first()


def ndjson_chunks(matches: QuerySet[Match]) -> Iterator[list[Match]]:
    """``matches`` in the order they finished, ``CHUNK`` at a time, each chunk one query per
    relation: a stream of any length holds one chunk in memory."""
    after: tuple[datetime.datetime, int] | None = None
    ordered = matches.order_by("finished_at", "pk")
    while True:
        page = ordered
        if after is not None:
            page = page.filter(Q(finished_at__gt=after[0]) | Q(finished_at=after[0], pk__gt=after[1]))
        chunk = list(_with_everything(page)[:CHUNK])
        if not chunk:
            return
        yield chunk
        last = chunk[-1]
        assert last.finished_at is not None  # finished_public() holds none without
        after = (last.finished_at, last.pk)
        if len(chunk) < CHUNK:
            return


def ndjson_text(chunk: list[Match]) -> str:
    """One JSON line per match of the chunk."""
    return "".join(
        json.dumps(match_json(match, stored=list(match.moves.all())), separators=(",", ":")) + "\n" for match in chunk
    )
