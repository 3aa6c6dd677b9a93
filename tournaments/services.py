"""Every write to tournaments: creating and editing them, entries, the start, each round's
tables and the advance from one round to the next, withdrawals, the end.

Keyword-only ``<noun>_<verb>`` functions. A refused request raises ``TournamentError`` with a
``code`` (the API's error codes) and a message for people; nothing changes then.

A round's tables are matches made through ``games.services`` (``match_create``,
``match_join``, ``match_seat_bot``: the one door), seated in the pairing's seat order. The
pairing and the standings are ``tournaments.pairing`` and ``tournaments.standings``, pure
functions of the results, which are read back from the matches every time: the matches are
the truth, nothing is counted twice.

A round advances exactly once: ``tournament_advance`` locks the tournament row and moves on
only from the round it was asked about, with a guarded UPDATE of ``current_round`` besides
(on SQLite the write transaction is taken at BEGIN, which serialises it).
"""

from __future__ import annotations

import logging
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

import live
from accounts.services import bot_check_may_play, bot_check_not_against_owner, user_lock
from forums import services as forum_services
from forums.models import GENERAL_SLUG, Forum, Topic
from games import services as game_services
from games.catalog import bot_names, get_game
from games.clock import FOR_TOURNAMENT, Clock, ClockError
from games.models import Match, Seat
from live.events import tournament_changed
from live.groups import tournament_group
from notifications import services as notification_services
from notifications import tasks as notification_tasks
from notifications.models import Notification
from portal import page_cache
from portal.errors import ServiceError, lazy_message
from portal.phrases import phrase
from portal.rate_limits import Rate, SlidingWindow
from rankings.models import Rating

from . import pairing, standings
from .models import Bye, Entrant, Round, Table, TableSeat, Tournament

User = get_user_model()
log = logging.getLogger(__name__)

MAX_ENTRANTS = 64
# A round robin plays every pairing: past this field it takes too many rounds (Swiss then).
MAX_ROUND_ROBIN_ENTRANTS = 10
MAX_ROUNDS = 15
# How far ahead a tournament may be announced.
MAX_DAYS_AHEAD = 60
# Tournaments created per person: more than anyone organises, fewer than a script would make.
# Each public one also opens a forum topic, which counts against the creator's posting limit.
CREATIONS = SlidingWindow("tournaments.create", Rate(5, 3600, _("5 tournaments an hour")))
# The page cache's area of the tournament lists (the tournaments page, the game pages).
CACHE_AREA = "tournaments"
# The end reason of a match stopped because its tournament was cancelled.
CALLED_OFF = "tournament cancelled"


class TournamentError(ServiceError):
    """A refused request; ``code`` is one of the API's error codes, the message is for people,
    ``field`` the creation form's field at fault."""

    def __init__(self, message: str | Promise, code: str = "bad_request", field: str | None = None):
        super().__init__(code, message, field)


# --------------------------------------------------------------------------------------
# Creating and editing


@dataclass
class Settings:
    """What a creator chooses, checked: ``tournament_settings`` makes one or says what is wrong."""

    name: str
    game: str
    table_size: int
    format: str
    speed: str
    seconds_per_move: int
    rated: bool
    invite_only: bool
    accepts_bots: bool
    registration_opens_at: datetime
    starts_at: datetime
    rounds: int | None


def tournament_settings(
    *,
    name,
    game,
    table_size,
    format,
    speed,
    seconds_per_move=None,
    days_per_move=None,
    rated=True,
    invite_only=False,
    accepts_bots=False,
    registration_opens_at=None,
    starts_at,
    rounds=None,
    now=None,
) -> Settings:
    """Check a creator's choices; ``TournamentError`` (with the field at fault) otherwise."""
    now = now or timezone.now()
    name = " ".join(str(name or "").split())
    if not name:
        raise TournamentError(_("Give the tournament a name."), field="name")
    if "\x00" in name or len(name) > Tournament.NAME_MAX:
        raise TournamentError(
            lazy_message(_("A name has at most %(max)s characters."), max=Tournament.NAME_MAX), field="name"
        )
    try:
        engine = get_game(str(game))
    except KeyError:
        raise TournamentError(_("Choose one of the site's games."), field="game") from None
    try:
        table_size = int(table_size)
        engine.check_players(table_size)
    except (TypeError, ValueError) as exc:
        # The engine's own words (English) for a number of players its game is not played by.
        message = (
            str(exc) if isinstance(exc, ValueError) and "played by" in str(exc) else _("Give a number of players.")
        )
        raise TournamentError(message, field="table_size") from None
    if format not in Tournament.Format.values:
        raise TournamentError(_("The format is round robin or Swiss."), field="format")
    try:
        clock = Clock.chosen(speed, seconds_per_move, days_per_move, untimed_allowed=False, wording=FOR_TOURNAMENT)
    except ClockError as exc:
        raise TournamentError(exc.message, field=exc.field) from None
    if not isinstance(starts_at, datetime):
        raise TournamentError(_("Give the date and time the first round starts."), field="starts_at")
    if timezone.is_naive(starts_at):
        starts_at = timezone.make_aware(starts_at)
    if starts_at <= now:
        raise TournamentError(_("The start must be in the future."), field="starts_at")
    if starts_at > now + timedelta(days=MAX_DAYS_AHEAD):
        raise TournamentError(
            lazy_message(_("A tournament starts within %(days)s days."), days=MAX_DAYS_AHEAD), field="starts_at"
        )
    opens = registration_opens_at or now
    if not isinstance(opens, datetime):
        raise TournamentError(_("Give the date and time entries open."), field="registration_opens_at")
    if timezone.is_naive(opens):
        opens = timezone.make_aware(opens)
    if opens >= starts_at:
        raise TournamentError(_("Entries must open before the start."), field="registration_opens_at")
    if rounds is not None:
        if format == Tournament.Format.ROUND_ROBIN:
            raise TournamentError(
                _("A round robin plays every pairing once: leave the number of rounds empty."), field="rounds"
            )
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(
                lazy_message(_("A Swiss tournament has 1 to %(max)s rounds."), max=MAX_ROUNDS), field="rounds"
            )
    return Settings(
        name=name,
        game=engine.slug,
        table_size=table_size,
        format=format,
        speed=clock.speed,
        seconds_per_move=clock.seconds_per_move,
        rated=bool(rated),
        invite_only=bool(invite_only),
        accepts_bots=bool(accepts_bots),
        registration_opens_at=opens,
        starts_at=starts_at,
        rounds=rounds,
    )


# A time (in UTC) in the words and the order of the language it is read in.
_lazy_date = lazy(lambda when: date_format(timezone.localtime(when, UTC), "DATETIME_FORMAT"), str)


def _require_person(user, sign_in_to: str | Promise) -> None:
    """``sign_in_to``: what an anonymous caller is told (a marked message)."""
    if user is None or not user.is_authenticated:
        raise TournamentError(sign_in_to, "forbidden")
    if user.is_site_bot:
        raise TournamentError(_("Bots enter tournaments through their creator."), "forbidden")


def tournament_create(*, user, **choices) -> Tournament:
    """Announce a tournament (``choices`` as ``tournament_settings`` takes them), at most
    ``CREATIONS`` per person. A public one gets its topic in its game's forum, opened by the
    creator (or none, logged, when the forum refuses it: past the posting limit)."""
    _require_person(user, _("Sign in to create a tournament."))
    checked = tournament_settings(**choices)
    with CREATIONS.attempt(user.pk) as attempt, transaction.atomic():
        if attempt.refusal is not None:
            raise TournamentError(
                attempt.refusal.words(
                    _(
                        "You are creating tournaments too quickly: the site takes at most %(rate)s from one "
                        "person. Try again in %(wait)s."
                    )
                ),
                "rate_limited",
            )
        _check_open_tournaments_of(user)
        tournament = Tournament.objects.create(creator=user, **checked.__dict__)
        if not tournament.invite_only:
            tournament.forum_topic = _open_topic(tournament)
            tournament.save(update_fields=["forum_topic"])
        _changed(tournament)
        attempt.count()
    return tournament


def _check_open_tournaments_of(user) -> None:
    """Refuse a new tournament to someone who already has the most not yet over (taking
    entries or being played) that one person may run. Their account row is locked first, so
    two requests at once cannot both slip under the cap."""
    limit = settings.MAX_OPEN_TOURNAMENTS_PER_PERSON
    user_lock(user=user)
    not_over = Tournament.objects.filter(
        creator=user, status__in=[Tournament.Status.REGISTRATION, Tournament.Status.RUNNING]
    )
    if not_over.count() >= limit:
        raise TournamentError(
            lazy_message(
                ngettext_lazy(
                    "You already have %(limit)s tournament not yet over, the most one person may run at once: "
                    "wait for it to finish, or cancel it first.",
                    "You already have %(limit)s tournaments not yet over, the most one person may run at once: "
                    "wait for one to finish, or cancel one first.",
                    "limit",
                ),
                limit=limit,
            ),
            "too_many_open",
        )


def _open_topic(tournament: Tournament):
    forum = Forum.objects.filter(game=tournament.game).first() or Forum.objects.filter(slug=GENERAL_SLUG).first()
    if forum is None:
        return None
    title = f"Tournament: {tournament.name}"[: Topic.TITLE_MAX]
    kind = tournament.get_format_display().lower()
    body = (
        f"[{tournament.name}]({tournament.get_absolute_url()}) is a {kind} tournament of "
        f"{tournament.game_name} for {tournament.table_size} players a table, "
        f"{tournament.get_speed_display().lower()} ({tournament.time_per_move} a move), "
        f"{'rated' if tournament.rated else 'casual'}, starting {tournament.starts_at:%d %B %Y at %H:%M} UTC.\n\n"
        "Talk about it here: entries, rounds and results."
    )
    try:
        return forum_services.topic_create(forum_id=forum.pk, user=tournament.creator, title=title, body=body)
    except (forum_services.ForumError, PermissionDenied):
        log.warning("Could not open the forum topic of tournament %s", tournament.pk, exc_info=True)
        return None


def _lock(tournament_id) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise TournamentError(_("There is no such tournament."), "not_found") from None


def _require_creator(tournament: Tournament, user, refusal: str | Promise) -> None:
    """``refusal``: what anyone else is told (a marked message)."""
    if user is None or not user.is_authenticated or (user.pk != tournament.creator_id and not user.is_staff):
        raise TournamentError(refusal, "forbidden")


def _require_registration(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(
            _("This tournament has started.")
            if tournament.status == Tournament.Status.RUNNING
            else _("This tournament has ended."),
            "finished",
        )


def tournament_edit(*, tournament_id, user, **choices) -> Tournament:
    """The creator changes the settings before the start."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_creator(tournament, user, _("Only the creator of the tournament can edit it."))
        _require_registration(tournament)
        checked = tournament_settings(**choices)
        if checked.format == Tournament.Format.ROUND_ROBIN and (tournament.entrants.count() > MAX_ROUND_ROBIN_ENTRANTS):
            raise TournamentError(
                lazy_message(
                    _("A round robin takes at most %(max)s entrants; this one has more."), max=MAX_ROUND_ROBIN_ENTRANTS
                ),
                field="format",
            )
        for name, value in checked.__dict__.items():
            setattr(tournament, name, value)
        tournament.save()
        _changed(tournament)
    return tournament


def can_view(tournament: Tournament, user, token: str | None = None) -> bool:
    """An invitation-only tournament is seen by its entrants, its creator and whoever has the
    invite link; any other is public."""
    if not tournament.invite_only:
        return True
    if token and secrets.compare_digest(str(token), tournament.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return user.pk == tournament.creator_id or tournament.entrants.filter(user=user).exists()


def _capacity(tournament: Tournament) -> int:
    return MAX_ROUND_ROBIN_ENTRANTS if tournament.format == Tournament.Format.ROUND_ROBIN else MAX_ENTRANTS


def _check_room(tournament: Tournament) -> None:
    if tournament.entrants.count() >= _capacity(tournament):
        raise TournamentError(
            lazy_message(_("The tournament is full (%(count)s entrants)."), count=_capacity(tournament)), "full"
        )


def tournament_join(*, tournament_id, user, token: str | None = None) -> Entrant:
    _require_person(user, _("Sign in to enter a tournament."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if tournament.invite_only and not can_view(tournament, user, token):
            raise TournamentError(_("This tournament is by invitation only."), "forbidden")
        _require_registration(tournament)
        if timezone.now() < tournament.registration_opens_at:
            raise TournamentError(
                lazy_message(_("Entries open on %(when)s UTC."), when=_lazy_date(tournament.registration_opens_at)),
                "bad_request",
            )
        if tournament.entrants.filter(user=user).exists():
            raise TournamentError(_("You have already entered this tournament."))
        # A person's bot account enters by itself, with its token; pairing it with its owner
        # in a rated tournament would make the match that rule refuses, so one of them only.
        if user.is_bot_account and not tournament.accepts_bots:
            raise TournamentError(game_services.BOTS_NOT_ACCEPTED["tournament"], "bots_not_accepted")
        bot_check_may_play(user)
        others = [entrant.user for entrant in tournament.entrants.filter(is_bot=False).select_related("user")]
        bot_check_not_against_owner([*others, user], rated=tournament.rated)
        _check_room(tournament)
        entrant = Entrant.objects.create(tournament=tournament, user=user)
        _changed(tournament)
    return entrant


def tournament_add_bot(*, tournament_id, user, bot: str) -> Entrant:
    """The creator enters a bot (the same bot may enter more than once)."""
    if bot not in bot_names():
        raise TournamentError(lazy_message(_("There is no bot called %(name)s."), name=repr(bot)), field="bot")
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_creator(tournament, user, _("Only the creator of the tournament can enter bots."))
        _require_registration(tournament)
        _check_room(tournament)
        account = game_services.bot_account(bot)
        number = tournament.entrants.filter(user=account).count() + 1
        entrant = Entrant.objects.create(tournament=tournament, user=account, is_bot=True, bot_number=number)
        _changed(tournament)
    return entrant


def tournament_withdraw(*, tournament_id, user, entrant_id: int | None = None) -> Entrant:
    """A player leaves the tournament (the creator may take a bot out too). Before the start
    the entry is simply removed. Once it runs, the player resigns the match they are playing
    in it, is not paired again and stays in the standings."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entrants = tournament.entrants.select_related("user")
        if entrant_id is None:
            if user is None or not user.is_authenticated:
                raise TournamentError(_("Sign in to withdraw."), "forbidden")
            entrant = entrants.filter(user=user, is_bot=False).first()
        else:
            entrant = entrants.filter(pk=entrant_id).first()
            if entrant is not None and entrant.user_id != getattr(user, "pk", None):
                _require_creator(tournament, user, _("Only the creator of the tournament can take bots out."))
                if not entrant.is_bot:
                    raise TournamentError(_("Only the player can withdraw from a tournament."), "forbidden")
        if entrant is None:
            raise TournamentError(_("That player has not entered this tournament."), "not_entered")
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."), "finished")
        if entrant.withdrawn:
            raise TournamentError(_("That player has withdrawn already."))
        if tournament.status == Tournament.Status.REGISTRATION:
            entrant.delete()
        else:
            entrant.withdrawn = True
            entrant.withdrawn_at = timezone.now()
            entrant.save(update_fields=["withdrawn", "withdrawn_at"])
            _resign_running_match(tournament, entrant)
        _changed(tournament)
    return entrant


def _resign_running_match(tournament: Tournament, entrant: Entrant) -> None:
    seat = (
        TableSeat.objects.filter(
            entrant=entrant,
            table__round__tournament=tournament,
            table__round__number=tournament.current_round,
            table__match__status=Match.Status.ACTIVE,
        )
        .select_related("table")
        .first()
    )
    if seat is None:
        return
    match_seat = Seat.objects.filter(match_id=seat.table.match_id, index=seat.index).first()
    if match_seat is None or match_seat.quit:
        return
    try:
        game_services.match_resign(match_id=seat.table.match_id, user=entrant.user)
    except game_services.MatchError as exc:  # the match ended meanwhile
        log.info("Withdrawal from tournament %s: %s", tournament.pk, exc.message)


def tournament_cancel(*, tournament_id, user, reason: str = "") -> Tournament:
    """The creator calls the tournament off, and with it the matches it is playing: each is
    aborted (never rated, no places given for a game cut short; bots stop thinking for it),
    with a notice in its chat. The results of its finished matches stand."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        _require_creator(tournament, user, _("Only the creator of the tournament can cancel it."))
        if tournament.is_over:
            raise TournamentError(_("This tournament is over."), "finished")
        _end(tournament, Tournament.Status.CANCELLED, reason or f"Cancelled by {user.username}.")
        playing = Table.objects.filter(
            round__tournament=tournament, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE]
        ).values_list("match_id", flat=True)
        notice = f"The tournament was cancelled, so this match is called off: {tournament.notice}"
        for match_id in list(playing):
            game_services.match_call_off(match_id=match_id, reason=CALLED_OFF, notice=notice)
    return tournament


def _end(tournament: Tournament, status: str, notice: str) -> None:
    tournament.status = status
    tournament.notice = notice[:300]
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "notice", "finished_at"])
    _changed(tournament)


def _changed(tournament: Tournament) -> None:
    """Once committed: the lists show it, its open pages fetch their live part again."""
    tournament_id = tournament.pk
    transaction.on_commit(lambda: page_cache.bump(CACHE_AREA), robust=True)
    tournament_notify(tournament_id=tournament_id)


def tournament_notify(*, tournament_id: int) -> None:
    """Tell the tournament's open pages that it changed, once committed (at once outside a
    transaction), so they fetch their live part again."""
    live.publish_on_commit(tournament_group(tournament_id), tournament_changed())


# --------------------------------------------------------------------------------------
# The start


def minimum_entrants(tournament: Tournament) -> int:
    return max(2, tournament.table_size)


def tournament_start(*, tournament_id, user=None) -> Tournament:
    """Close the entries and pair the first round: at its time (``user=None``, the periodic
    task) or earlier, when its creator says so. Too few entrants call it off, with a notice
    that says why. Safe to call twice: a tournament that has started is left alone."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if user is not None:
            _require_creator(tournament, user, _("Only the creator of the tournament can start it."))
            _require_registration(tournament)
        elif tournament.status != Tournament.Status.REGISTRATION or tournament.starts_at > timezone.now():
            return tournament
        entrants = list(tournament.entrants.select_related("user").order_by("joined_at", "id"))
        if not any(not entrant.is_bot and not entrant.user.is_bot for entrant in entrants):
            # Compute belongs to people: bots fill a tournament's tables, never its whole field.
            if user is not None:
                raise TournamentError(
                    _(
                        "A tournament needs at least one person entered: bots fill its tables, "
                        "they cannot make up the whole field."
                    )
                )
            _end(
                tournament,
                Tournament.Status.CANCELLED,
                "Cancelled at its start: nobody but bots entered, and a tournament needs a person.",
            )
            return tournament
        needed = minimum_entrants(tournament)
        if len(entrants) < needed:
            if user is not None:
                raise TournamentError(
                    lazy_message(
                        _("At least %(needed)s entrants are needed to start; there are %(count)s."),
                        needed=needed,
                        count=len(entrants),
                    )
                )
            _end(
                tournament,
                Tournament.Status.CANCELLED,
                f"Cancelled at its start: only {len(entrants)} entered, and at least {needed} are needed.",
            )
            return tournament
        _seed(tournament, entrants)
        ids = [entrant.pk for entrant in sorted(entrants, key=lambda e: (-e.seed_rating, e.pk))]
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            schedule = pairing.round_robin(ids, tournament.table_size)
            tournament.schedule = [{"tables": [list(t) for t in r.tables], "byes": list(r.byes)} for r in schedule]
            tournament.rounds = len(schedule)
        elif tournament.rounds is None:
            recommended = pairing.recommended_rounds(len(ids), tournament.table_size, tournament.format)
            tournament.rounds = max(1, min(MAX_ROUNDS, recommended))
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = timezone.now()
        if user is not None:
            tournament.starts_at = min(tournament.starts_at, tournament.started_at)
        tournament.save(update_fields=["schedule", "rounds", "status", "started_at", "starts_at"])
        _play_round(tournament, 1)
    return tournament


def _seed(tournament: Tournament, entrants: list[Entrant]) -> None:
    ratings = dict(
        Rating.objects.filter(game=tournament.game, user_id__in=[e.user_id for e in entrants]).values_list(
            "user_id", "rating"
        )
    )
    for entrant in entrants:
        entrant.seed_rating = ratings.get(entrant.user_id, 1500.0)
    Entrant.objects.bulk_update(entrants, ["seed_rating"])


# --------------------------------------------------------------------------------------
# Rounds


def _play_round(tournament: Tournament, number: int) -> None:
    """Pair round ``number`` and seat its tables (the tournament row locked, current_round
    one less). A round where nobody can play (everyone left has a bye) ends at once."""
    while True:
        moved = Tournament.objects.filter(pk=tournament.pk, current_round=number - 1).update(current_round=number)
        if moved != 1:
            raise TournamentError(_("The tournament moved on meanwhile."), "stale")
        tournament.current_round = number
        tables, byes = _pairings(tournament, number)
        round_ = Round.objects.create(tournament=tournament, number=number)
        entrants = {e.pk: e for e in tournament.entrants.select_related("user")}
        for table_number, seating in enumerate(tables, start=1):
            seated = [entrants[entrant_id] for entrant_id in seating]
            match = _table_match(tournament, seated)
            table = Table.objects.create(round=round_, number=table_number, match=match)
            TableSeat.objects.bulk_create(
                TableSeat(table=table, index=i, entrant=entrant) for i, entrant in enumerate(seated)
            )
            _call_to_table(tournament, number, match, seated)
        Bye.objects.bulk_create(Bye(round=round_, entrant_id=entrant_id) for entrant_id in byes)
        _changed(tournament)
        if tables:
            return
        round_.finished_at = timezone.now()
        round_.save(update_fields=["finished_at"])
        if number >= tournament.rounds:
            _finish(tournament)
            return
        number += 1


def _call_to_table(tournament: Tournament, number: int, match: Match, seated: list[Entrant]) -> None:
    """Tell the people at a new table that it is ready (their clock runs): a notification,
    said at once on their open pages and in the tab's title, and an e-mail to those away from
    the site with the e-mail setting on."""
    rows = notification_services.notify(
        user_ids=[entrant.user_id for entrant in seated if not entrant.is_bot],
        kind=Notification.Kind.TABLE_READY,
        phrase=phrase(
            gettext_noop("Your table is ready: round %(round)s of %(tournament)s, %(game)s #%(match)s."),
            round=number,
            tournament=tournament.name,
            game=tournament.game_name,
            match=match.pk,
        ),
        url=match.get_absolute_url(),
        key=f"table:{match.pk}",
        announce=True,
    )
    for row in rows:
        _mail_on_commit(row.pk)


def _mail_on_commit(notification_id: int) -> None:
    """Queue the notice's e-mail once the transaction commits; a failure to queue it is logged.
    A function with a name, not a partial: Django logs a robust callback's failure by its
    ``__qualname__``, and a partial has none (the logging itself would raise)."""

    def queue_mail() -> None:
        notification_tasks.send_notice_mail.delay(notification_id)

    transaction.on_commit(queue_mail, robust=True)


def _pairings(tournament: Tournament, number: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables (entrant ids in seat order) and byes of round ``number``, among the
    entrants who have not withdrawn."""
    withdrawn = set(tournament.entrants.filter(withdrawn=True).values_list("pk", flat=True))
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = tournament.schedule[number - 1]
        tables, byes = [], [e for e in planned["byes"] if e not in withdrawn]
        for seating in planned["tables"]:
            if withdrawn.intersection(seating):
                # A table someone left cannot be played short-handed: the others get a bye.
                byes += [e for e in seating if e not in withdrawn]
            else:
                tables.append(tuple(seating))
        return tables, byes
    active = _swiss_entrants(tournament)
    if len(active) < tournament.table_size:
        return [], [e.id for e in active]
    paired = pairing.swiss_round(active, tournament.table_size, number)
    return [tuple(t) for t in paired.tables], list(paired.byes)


def _table_match(tournament: Tournament, seated: list[Entrant]) -> Match:
    """The match of one table, through the games' one door, seated in the pairing's order:
    seat 0 opens it, people join in turn and bots are seated by seat 0; the last seat
    filled starts it."""
    first = seated[0]
    match = game_services.match_create(
        user=first.user,
        game=tournament.game,
        num_players=tournament.table_size,
        rated=tournament.rated,
        visibility=Match.Visibility.INVITE if tournament.invite_only else Match.Visibility.PUBLIC,
        waits_for_players=False,
        accepts_bots=True,  # the table's entrants, who entered by the tournament's own rule
        **tournament.clock.create_args(),
    )
    for index, entrant in enumerate(seated[1:], start=1):
        if entrant.is_bot:
            game_services.match_seat_bot(
                match_id=match.pk, user=first.user, index=index, bot=entrant.user.bot_name, for_table=True
            )
        else:
            game_services.match_join(match_id=match.pk, user=entrant.user, token=match.invite_token)
    return match


def tournament_advance(*, tournament_id, round_number: int) -> bool:
    """Move on from round ``round_number`` if its last match has ended: pair the next round,
    or finish the tournament after the last. Exactly once: a second call for the same round
    (another match that ended at the same moment, the periodic sweep) finds the tournament
    past it and returns False, as it does while a match of the round is still being played."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if (
            tournament is None
            or tournament.status != Tournament.Status.RUNNING
            or tournament.current_round != round_number
        ):
            return False
        playing = Table.objects.filter(
            round__tournament=tournament,
            round__number=round_number,
            match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
        )
        if playing.exists():
            return False
        Round.objects.filter(tournament=tournament, number=round_number).update(finished_at=timezone.now())
        active = tournament.entrants.filter(withdrawn=False)
        if not active.filter(is_bot=False, user__is_bot=False).exists():
            _finish(tournament, ended=f"Ended after round {round_number}: no person is left playing.")
        elif round_number >= tournament.rounds or active.count() < tournament.table_size:
            _finish(tournament)
        else:
            _play_round(tournament, round_number + 1)
    return True


def _finish(tournament: Tournament, ended: str = "") -> None:
    """The last round is over: write every entrant's final place and points, and the winner
    (none when first place is shared on points and every tie-break: the notice names them).
    ``ended``: why it ended before its last round, said first in the notice."""
    table = tournament_standings(tournament)
    entrants = {e.pk: e for e in tournament.entrants.select_related("user")}
    for row in table:
        entrant = entrants[row.entrant]
        entrant.final_rank, entrant.final_points = row.rank, row.points
    Entrant.objects.bulk_update(entrants.values(), ["final_rank", "final_points"])
    first = [entrants[row.entrant] for row in table if row.rank == 1]
    tournament.winner = first[0].user if len(first) == 1 else None
    tournament.save(update_fields=["winner"])
    if len(first) == 1:
        notice = f"Won by {first[0].name}."
    elif first:
        names = [e.name for e in first]
        notice = f"Shared first place: {', '.join(names[:-1])} and {names[-1]}."
    else:
        notice = "Finished."
    _end(tournament, Tournament.Status.FINISHED, f"{ended} {notice}" if ended else notice)


# --------------------------------------------------------------------------------------
# Results, read back from the matches


def match_result(players: tuple[int, ...], match_status: str, places: list, quits: list) -> standings.TableResult:
    """One table's result: the places the match gave, those who resigned or ran out of time
    as forfeits. An aborted match (only its first seat can abort it, before any move) counts
    as a forfeit of that seat, the others sharing first place."""
    if match_status == Match.Status.ABORTED:
        places = [len(players) if i == 0 else 1 for i in range(len(players))]
        forfeited = (players[0],)
    else:
        forfeited = tuple(p for p, quit in zip(players, quits, strict=True) if quit)
    return standings.TableResult(players=tuple(players), places=tuple(places), forfeited=forfeited)


def tournament_results(tournament: Tournament) -> list[tuple[list[standings.TableResult], list[int]]]:
    """Every round so far, as the standings take them: its finished tables' results and its
    byes. Tables still being played are left out (the live standings count what has ended),
    and so are those called off when the tournament was cancelled."""
    seats = (
        TableSeat.objects.filter(table__round__tournament=tournament)
        .values_list(
            "table__round__number",
            "table_id",
            "table__match_id",
            "table__match__status",
            "table__match__end_reason",
            "index",
            "entrant_id",
        )
        .order_by("table__round__number", "table_id", "index")
    )
    match_seats = {
        (match_id, index): (place, resigned or timed_out)
        for match_id, index, place, resigned, timed_out in Seat.objects.filter(
            match__tournament_table__round__tournament=tournament
        ).values_list("match_id", "index", "place", "resigned", "timed_out")
    }
    tables: dict[int, dict[int, list]] = defaultdict(dict)
    for number, table_id, match_id, status, end_reason, index, entrant_id in seats:
        if status not in (Match.Status.FINISHED, Match.Status.ABORTED) or end_reason == CALLED_OFF:
            continue  # still being played, or stopped with the tournament: nobody's result
        table = tables[number].setdefault(table_id, [status, [], [], []])
        place, quit = match_seats.get((match_id, index), (None, False))
        table[1].append(entrant_id)
        table[2].append(place or 1)
        table[3].append(quit)
    byes: dict[int, list[int]] = defaultdict(list)
    for number, entrant_id in Bye.objects.filter(round__tournament=tournament).values_list(
        "round__number", "entrant_id"
    ):
        byes[number].append(entrant_id)
    return [
        (
            [match_result(tuple(t[1]), t[0], t[2], t[3]) for t in tables[number].values()],
            byes[number],
        )
        for number in range(1, tournament.current_round + 1)
    ]


def tournament_standings(tournament: Tournament) -> list[standings.Standing]:
    entrants = list(tournament.entrants.values_list("pk", "withdrawn"))
    return standings.standings(
        [pk for pk, _ in entrants],
        tournament_results(tournament),
        withdrawn=tuple(pk for pk, withdrawn in entrants if withdrawn),
    )


def _swiss_entrants(tournament: Tournament) -> list[pairing.Entrant]:
    """The entrants still playing, as the Swiss pairing sees them (points, opponents met,
    byes had, seats sat in), from the results so far."""
    entrants = list(tournament.entrants.order_by("pk").values_list("pk", "seed_rating", "withdrawn"))
    return standings.pairing_entrants(
        {pk: rating for pk, rating, _ in entrants},
        tournament_results(tournament),
        withdrawn=[pk for pk, _, withdrawn in entrants if withdrawn],
    )


# --------------------------------------------------------------------------------------
# The periodic sweep


def start_due_tournaments() -> int:
    """Start (or call off) every tournament whose time has come; returns how many."""
    due = Tournament.objects.filter(status=Tournament.Status.REGISTRATION, starts_at__lte=timezone.now())
    count = 0
    for tournament_id in due.values_list("pk", flat=True):
        try:
            tournament_start(tournament_id=tournament_id)
            count += 1
        except Exception:
            log.exception("Could not start tournament %s", tournament_id)
    return count


def advance_finished_rounds() -> int:
    """The safety net of the advance: every running tournament whose current round has no
    match left being played moves on (a lost task, a match aborted, a worker that died)."""
    playing = Table.objects.filter(
        round__tournament=OuterRef("pk"),
        round__number=OuterRef("current_round"),
        match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
    )
    ready = Tournament.objects.filter(status=Tournament.Status.RUNNING).exclude(Exists(playing))
    count = 0
    for tournament_id, number in ready.values_list("pk", "current_round"):
        try:
            count += tournament_advance(tournament_id=tournament_id, round_number=number)
        except Exception:
            log.exception("Could not advance tournament %s", tournament_id)
    return count
