"""Game records brought in from elsewhere (the text format of docs/RECORDS.md): each is read and
replayed through its game's rules, then kept as a finished, unrated, public match with its
moves and result. Its players stay names (the record's): an imported match seats no account,
so it changes nobody's ratings, statistics or player page. Used by the API
(``POST /api/matches/import/``) and by ``manage.py import_record --save``."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from portal.errors import ServiceError
from portal.rate_limits import Rate, SlidingWindow

from .. import records
from ..clock import UNTIMED
from ..engines import get_game
from ..models import Match, Move, Seat

# Each import is a page anyone may see: enough for a person bringing in their games, not for a
# script filling the site.
IMPORTS = SlidingWindow("games.import", Rate(30, 600, _("30 imported records in 10 minutes")))
# Headers the site writes itself for a match of its own; an imported match keeps the record's
# others (its ``Speed``, a ``Site``...) as read. It is kept untimed: no clock of the site ran.
OWN_HEADERS = ("Match", "Rated", "Started", "Date")
END_MAX = Match._meta.get_field("end_reason").max_length or 32


class RecordRefused(ServiceError):
    """A record that cannot be imported: it does not parse, does not replay, or is not a
    finished game. ``line`` is the line at fault, when there is one."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__("bad_record", f"Line {line}: {reason}" if line is not None else reason)
        self.line, self.reason = line, reason
        self.extra = {"line": line} if line is not None else {}


def checked(text: str) -> tuple[records.Record, records.State, list[int]]:
    """Read and replay one record; the record, the position it ends in and the place of each
    seat. Refuses (``RecordRefused``) a record the site would not keep as a finished match."""
    try:
        record, state = records.read(text)
    except records.RecordError as exc:
        raise RecordRefused(exc.reason, exc.line) from None
    quits = [bool(seat.quit) for seat in record.seats]
    if not state.is_terminal() and not any(quits) and record.end != records.NO_PERSON_PLAYING:
        raise RecordRefused(
            "The game is not over: only a finished game can be imported (its last move, or a seat that "
            "resigned or timed out)."
        )
    if len(record.end) > END_MAX:
        raise RecordRefused(f"The End header has at most {END_MAX} characters.")
    places = record.places if record.places is not None else records.final_places(state, quits)
    if any(place is None for place in places):
        raise RecordRefused("The Result header must give every seat a place.")
    return record, state, [int(place) for place in places if place is not None]


def _moment(text: str | None) -> datetime.datetime | None:
    moment = parse_datetime(text) if text else None
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment


def record_import(*, user, text: str) -> Match:
    """What a person asks (the API): ``record_store``, at most ``IMPORTS`` per person."""
    if not user.is_authenticated:
        raise ServiceError("forbidden", _("Sign in to import a record."))
    with IMPORTS.attempt(user.pk) as attempt:
        if attempt.refusal is not None:
            raise ServiceError(
                "rate_limited",
                attempt.refusal.words(
                    _(
                        "You are importing records too quickly: the site takes at most %(rate)s from one person. "
                        "Try again in %(wait)s."
                    )
                ),
            )
        match = record_store(user=user, text=text)
        attempt.count()
    return match


def record_store(*, user, text: str) -> Match:
    """Keep ``text`` (one record) as a finished, unrated, public match created by ``user``.
    Nothing is stored when it is refused (``RecordRefused``)."""
    record, state, places = checked(text)
    now = timezone.now()
    finished_at = _moment(record.headers.get("Date")) or now
    started_at = _moment(record.headers.get("Started")) or finished_at
    engine = get_game(record.game)
    scores = state.scores()
    history = list(state.history)  # a masked secret as the engine's replay read it
    with transaction.atomic():
        match = Match.objects.create(
            game=engine.slug,
            num_players=record.num_players,
            options=record.options,
            status=Match.Status.FINISHED,
            version=len(history),
            rated=False,
            visibility=Match.Visibility.PUBLIC,
            speed=UNTIMED,
            seconds_per_move=0,
            creator=user,
            started_at=started_at,
            finished_at=finished_at,
            end_reason=record.end or ("game over" if state.is_terminal() else ""),
            snapshot=state.view(None),
            imported_from={
                "names": [seat.name for seat in record.seats],
                "headers": {key: value for key, value in record.headers.items() if key not in OWN_HEADERS},
            },
        )
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=index,
                resigned=seat.quit == "resigned",
                timed_out=seat.quit == "timed out",
                place=places[index],
                score=scores[index],
            )
            for index, seat in enumerate(record.seats)
        )
        Move.objects.bulk_create(
            Move(match=match, index=index, seat=seat, action=action)
            for index, ((seat, _), action) in enumerate(zip(record.moves, history, strict=True))
        )
    return match
