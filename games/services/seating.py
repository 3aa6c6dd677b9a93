"""Seating: the terms of a match, opening it, taking and giving back seats, seating bots,
starting it once full, and calling it off (aborted by its creator, expired unfilled)."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

import live
from accounts.services import bot_check_may_play, bot_check_not_against_owner, user_lock
from portal.errors import lazy_message
from portal.languages import user_language

from .. import selectors
from ..bots import get_bot
from ..clock import Clock, ClockError
from ..engine_text import refusal
from ..engines import get_game
from ..models import Match, ModerationLog, Seat
from .chat import chat_notice
from .writes import (
    MatchError,
    bump,
    lock,
    open_matches_changed,
    outbox_for,
    people_playing,
    record,
    record_unplayed,
    resolve_chance,
    seats_of,
)

User = get_user_model()
log = logging.getLogger(__name__)


# The refusal of a bot account where its creator did not let bot accounts in.
BOTS_NOT_ACCEPTED = {
    "match": _('This match does not accept bot accounts: its creator did not tick "Accepts bots".'),
    "tournament": _('This tournament does not accept bot accounts: its creator did not tick "Accepts bots".'),
}


def match_terms(
    *,
    game: str,
    num_players: int,
    options: dict | None = None,
    rated: bool = True,
    speed: str = Match.Speed.LIVE,
    seconds_per_move: int | None = None,
    days_per_move: int | None = None,
) -> dict:
    """The terms of a match checked and filled in as ``match_create`` takes them: the game's
    slug, the number of players, its options (defaults filled), the rated flag, the speed and
    the seconds per move. Raises ``MatchError`` with a message for people. Anything that
    keeps terms for a match made later (a challenge) checks them here, by the same rules."""
    try:
        engine = get_game(game)
    except (KeyError, TypeError):
        raise MatchError(lazy_message(_("There is no game called %(game)s."), game=repr(game))) from None
    try:
        num_players = int(num_players)
        engine.check_players(num_players)
        options = engine.normalise_options(options, num_players)
    except (TypeError, ValueError) as exc:
        raise MatchError(refusal(exc)) from None  # an engine's words: in the reader's language
    try:
        clock = Clock.chosen(speed, seconds_per_move, days_per_move, untimed_allowed=not rated)
    except ClockError as exc:
        raise MatchError(exc.message) from None
    return {
        "game": engine.slug,
        "num_players": num_players,
        "options": options,
        "rated": bool(rated),
        "speed": clock.speed,
        "seconds_per_move": clock.seconds_per_move,
    }


def clock_terms(speed: str, seconds_per_move: int) -> dict:
    """``match_create``'s clock arguments for a stored speed and seconds per move."""
    return Clock(speed, seconds_per_move).create_args()


def match_create(
    *,
    user,
    game: str,
    num_players: int,
    options: dict | None = None,
    rated: bool = True,
    visibility: str = Match.Visibility.PUBLIC,
    speed: str = Match.Speed.LIVE,
    seconds_per_move: int | None = None,
    days_per_move: int | None = None,
    seat: int = 0,
    waits_for_players: bool = True,
    accepts_bots: bool = False,
) -> Match:
    """Open a match with ``user`` in ``seat`` (the first, unless a rematch rotates them).
    ``waits_for_players=False`` is for a caller that fills every seat in the same transaction
    (a tournament's table): such a match never waits in the lobby, so it does not count
    against its creator's open matches. ``accepts_bots`` lets a person's bot account take a
    free seat with ``match_join``; a caller that seats chosen players passes True."""
    if not user.is_authenticated:
        raise MatchError(_("Sign in to create a match."), "forbidden")
    terms = match_terms(
        game=game,
        num_players=num_players,
        options=options,
        rated=rated,
        speed=speed,
        seconds_per_move=seconds_per_move,
        days_per_move=days_per_move,
    )
    if visibility not in Match.Visibility.values:
        raise MatchError(_("Visibility must be public or invite."))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < terms["num_players"]:
        raise MatchError(_("There is no such seat."))
    with transaction.atomic():
        if waits_for_players:
            _check_open_matches_of(user)
        match = Match.objects.create(**terms, visibility=visibility, creator=user, accepts_bots=bool(accepts_bots))
        Seat.objects.bulk_create(
            Seat(
                match=match,
                index=i,
                user=user if i == seat else None,
                joined_at=timezone.now() if i == seat else None,
            )
            for i in range(terms["num_players"])
        )
        open_matches_changed(match.pk)
    return match


def _check_open_matches_of(user) -> None:
    """Refuse a new match to someone who already has the most open ones allowed. Their
    account row is locked first, so two requests at once cannot both slip under the cap."""
    limit = settings.MAX_OPEN_MATCHES_PER_PERSON
    user_lock(user=user)
    if Match.objects.filter(creator=user, status=Match.Status.OPEN).count() >= limit:
        raise MatchError(
            lazy_message(
                ngettext_lazy(
                    "You already have %(limit)s match waiting for players, the most one person may open: "
                    "start, fill or cancel it first.",
                    "You already have %(limit)s matches waiting for players, the most one person may open: "
                    "start, fill or cancel one of them first.",
                    "limit",
                ),
                limit=limit,
            ),
            "too_many_open",
        )


def _open_to_all(match: Match, token: str | None) -> bool:
    """Public, or the invite token given: anyone may watch."""
    if match.visibility == Match.Visibility.PUBLIC:
        return True
    return bool(token) and secrets.compare_digest(str(token), match.invite_token)


def can_view(match: Match, user, token: str | None = None) -> bool:
    return _open_to_all(match, token) or (user.is_authenticated and match.seats.filter(user=user).exists())


def watcher(match_id: int, user, token: str | None = None) -> tuple[Match | None, bool, bool]:
    """What a socket or a stream asks as it opens: the match (None: there is none), whether
    ``user`` may watch it, and whether they hold a seat in it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None, False, False
    seated = user.is_authenticated and match.seats.filter(user=user).exists()
    return match, seated or _open_to_all(match, token), seated


def match_join(*, match_id: int, user, token: str | None = None) -> Match:
    if not user.is_authenticated:
        raise MatchError(_("Sign in to take a seat."), "forbidden")
    if user.is_site_bot:
        raise MatchError(_("Bots are seated by the creator of a match."), "forbidden")
    # A person's bot account joins as a person does, with its token, unless it is paused.
    bot_check_may_play(user)
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if not can_view(match, user, token):
            raise MatchError(_("This match is by invitation only."), "forbidden")
        if match.status != Match.Status.OPEN:
            raise MatchError(_("This match has already started."), "finished")
        if user.is_bot_account and not match.accepts_bots:
            raise MatchError(BOTS_NOT_ACCEPTED["match"], "bots_not_accepted")
        seats = seats_of(match)
        if any(seat.user_id == user.pk for seat in seats):
            raise MatchError(_("You already have a seat in this match."))
        free = [seat for seat in seats if seat.user_id is None]
        if not free:
            raise MatchError(_("Every seat is taken."))
        bot_check_not_against_owner([seat.user for seat in seats if seat.user is not None] + [user], rated=match.rated)
        free[0].user = user
        free[0].joined_at = timezone.now()
        free[0].save(update_fields=["user", "joined_at"])
        open_matches_changed(match.pk)
        if len(free) == 1:
            match_start(match, outbox)
        else:
            bump(match, outbox)
    return match


def match_leave(*, match_id: int, user) -> Match:
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if match.status != Match.Status.OPEN:
            raise MatchError(_("The match has started: resign instead."), "finished")
        seat = match.seats.filter(user=user).first() if user.is_authenticated else None
        if seat is None:
            raise MatchError(_("You have no seat in this match."), "not_seated")
        open_matches_changed(match.pk)
        if user.pk == match.creator_id:
            match.status = Match.Status.ABORTED
            match.end_reason = "cancelled"
            match.finished_at = timezone.now()
            match.save(update_fields=["status", "end_reason", "finished_at", "updated_at"])
            bump(match, outbox)
        else:
            seat.user = None
            seat.joined_at = None
            seat.save(update_fields=["user", "joined_at"])
            bump(match, outbox)
    return match


def bot_account(name: str):
    """The account a bot plays under (made by a data migration; re-made if it went missing)."""
    try:
        bot = get_bot(name)
    except KeyError:
        raise MatchError(lazy_message(_("There is no bot called %(name)s."), name=repr(name))) from None
    user = User.objects.filter(is_bot=True, bot_name=name).first()
    if user is None:
        user = User(username=bot.label, is_bot=True, bot_name=name)
        user.set_unusable_password()
        user.save()
    return user


def match_seat_bot(
    *, match_id: int, user, index: int | None = None, bot: str = "random", for_table: bool = False
) -> Match:
    """The creator gives an empty seat (or, with ``index=None``, every empty seat) to a bot.
    A person has at most ``MAX_BOT_MATCHES_PER_PERSON`` matches against bots going at once;
    ``for_table``: a tournament's table, which the tournament paces, is never refused."""
    bot_user = bot_account(bot)
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if not user.is_authenticated or user.pk != match.creator_id:
            raise MatchError(_("Only the creator of the match can seat bots."), "forbidden")
        if user.is_bot_account and not for_table:  # the site's bots think on its workers, for people
            raise MatchError(_("A bot account cannot seat the site's bots: they play people."), "forbidden")
        if match.status != Match.Status.OPEN:
            raise MatchError(_("This match has already started."), "finished")
        seats = seats_of(match)
        if not for_table and not any(seat.bot_name() for seat in seats):
            _check_bot_matches_of(user, match)
        if index is None:
            targets = [seat for seat in seats if seat.user_id is None]
        else:
            targets = [seat for seat in seats if seat.index == index]
            if not targets:
                raise MatchError(_("There is no such seat."))
            if targets[0].user_id is not None:
                raise MatchError(_("That seat is taken."))
        if not targets:
            raise MatchError(_("There is no empty seat."))
        open_matches_changed(match.pk)
        for seat in targets:
            seat.user = bot_user
            seat.joined_at = timezone.now()
            seat.save(update_fields=["user", "joined_at"])
        if all(seat.user_id is not None for seat in seats):
            match_start(match, outbox)
        else:
            bump(match, outbox)
    return match


def _check_bot_matches_of(user, match: Match) -> None:
    """Refuse a bot to someone who already has the most matches against bots allowed going
    (open or being played, made by them): bots think on the site's shared workers. Their
    account row is locked first, so two requests at once cannot both slip under the cap."""
    limit = settings.MAX_BOT_MATCHES_PER_PERSON
    user_lock(user=user)
    going = (
        Match.objects.filter(
            # the site's bots (a person's bot account thinks on its owner's machine)
            creator=user,
            status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
            seats__user__is_bot=True,
            seats__user__bot_name__gt="",
        )
        .exclude(pk=match.pk)
        .distinct()
    )
    if going.count() >= limit:
        raise MatchError(
            lazy_message(
                ngettext_lazy(
                    "You already have %(limit)s match against bots going, the most one person may have at once: "
                    "finish or resign it first.",
                    "You already have %(limit)s matches against bots going, the most one person may have at once: "
                    "finish or resign one of them first.",
                    "limit",
                ),
                limit=limit,
            ),
            "too_many_bot_matches",
        )


def match_create_against_bots(*, user, bot: str, **terms) -> Match:
    """Open a match (``terms`` as ``match_create`` takes them) and give every other seat to
    ``bot``, in one transaction: refused (the bots' cap), nothing is left open."""
    with transaction.atomic():
        match = match_create(user=user, **terms)
        return match_seat_bot(match_id=match.pk, user=user, bot=bot)


def match_start(match: Match, outbox: live.Outbox) -> None:
    """Start a match whose seats are all taken: a new engine state, the set-up's chance
    outcomes drawn, the clock running. Called by ``match_join`` and ``match_seat_bot`` inside
    the transaction that fills the last seat, with the match row locked. A match with no
    person in it (a tournament's table of bots alone) is not played: it ends as it starts,
    drawn and unrated (``writes.record_unplayed``)."""
    state = match.engine.new_state(match.num_players, match.options)
    applied: list[tuple[int | None, str]] = []
    resolve_chance(state, applied)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    seats = seats_of(match)
    if not people_playing(seats):
        record_unplayed(match, state, applied, outbox, seats)  # compute belongs to people
        return
    record(match, state, applied, outbox, seats)


def match_abort(*, match_id: int, user) -> Match:
    """The creator calls a match off before anybody has moved (chance set-up moves do not
    count). Anyone else leaves instead: an open match by giving the seat back, a started one
    by resigning."""
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if match.is_over:
            raise MatchError(_("This match is over."), "finished")
        if not user.is_authenticated or user.pk != match.creator_id:
            if not (user.is_authenticated and match.seats.filter(user=user).exists()):
                raise MatchError(_("You have no seat in this match."), "not_seated")
            if match.status == Match.Status.OPEN:
                raise MatchError(_("Only the creator of the match can abort it: leave it instead."), "forbidden")
            raise MatchError(_("Only the creator of the match can abort it: resign instead."), "forbidden")
        if match.moves.filter(seat__isnull=False).exists():
            raise MatchError(_("A move has been made: the match can no longer be aborted."))
        if selectors.in_tournament(match):
            raise MatchError(_("A tournament match cannot be aborted: resign instead."), "forbidden")
        open_matches_changed(match.pk)  # an open match leaves the lobby, a live one the watch lists
        match.status = Match.Status.ABORTED
        match.end_reason = "aborted"
        match.finished_at = timezone.now()
        match.to_move = None
        match.deadline = None
        bump(match, outbox)
    return match


def match_call_off(*, match_id: int, reason: str, notice: str) -> bool:
    """Stop a match whatever has been played, for a caller that owns it (a cancelled
    tournament's table): aborted, so never rated and given no places, with ``notice`` in its
    chat; ``reason`` is its end reason. No bot is queued for it again. False when the match
    was over already."""
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if match.is_over:
            return False
        open_matches_changed(match.pk)
        match.status = Match.Status.ABORTED
        match.end_reason = reason
        match.finished_at = timezone.now()
        match.to_move = None
        match.deadline = None
        chat_notice(match.pk, notice, outbox)
        bump(match, outbox)
    return True


STAFF_END_REASON = "ended_by_staff"
STAFF_END_NOTICE = "A moderator ended this match: it is aborted, rated for nobody."


def match_staff_end(*, match_id: int, moderator) -> bool:
    """Staff end a match that is stuck or abused as aborted (``match_call_off``: never rated,
    no places, its players told in its chat), recorded in the moderation log. A tournament's
    table is refused (the tournament would count it against its first seat): cancel the
    tournament instead. False when the match was over already."""
    if not (moderator.is_authenticated and moderator.is_staff):
        raise MatchError(_("Only staff end a match this way."), "forbidden")
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError(_("There is no such match."), "not_found")
    if selectors.in_tournament(match):
        raise MatchError(_("A tournament's match is ended by cancelling the tournament."), "forbidden")
    with transaction.atomic():
        ended = match_call_off(match_id=match_id, reason=STAFF_END_REASON, notice=STAFF_END_NOTICE)
        if ended:
            ModerationLog.objects.create(
                moderator=moderator, action=ModerationLog.Action.END_MATCH, match_id=match_id, detail=str(match)
            )
    return ended


def match_expire(*, match_id: int, version: int) -> bool:
    """Call off a match that has waited for players, untouched, since before
    ``OPEN_MATCH_EXPIRY_HOURS`` ago (nothing has changed since ``version``), and tell its
    seated players: on the match page, and by e-mail. Safe to call twice; False when the
    match has moved on meanwhile."""
    cutoff = timezone.now() - timedelta(hours=settings.OPEN_MATCH_EXPIRY_HOURS)
    with transaction.atomic(), outbox_for(None) as outbox:
        match = lock(match_id)
        if match.version != version or match.status != Match.Status.OPEN or match.updated_at > cutoff:
            return False
        match.status = Match.Status.ABORTED
        match.end_reason = "expired"
        match.finished_at = timezone.now()
        open_matches_changed(match.pk)
        bump(match, outbox)
        people = [seat.user for seat in seats_of(match) if seat.user is not None and not seat.user.is_bot]
        transaction.on_commit(lambda: _tell_expired(match, people))
    return True


def _tell_expired(match: Match, people: list) -> None:
    """Tell each person whose open match nobody joined that it was called off, in their own
    language (``portal.languages.user_language``)."""
    hours = settings.OPEN_MATCH_EXPIRY_HOURS
    messages = []
    for user in people:
        if not user.email:
            continue
        with translation.override(user_language(user)):
            name = {"game": match.game_name, "number": match.pk}
            waited = gettext("a day") if hours == 24 else gettext("%(hours)g hours") % {"hours": hours}
            subject = gettext("%(game)s #%(number)s was called off") % name
            body = gettext(
                "Nobody took the free seats of %(game)s #%(number)s for %(waited)s, so the match was "
                "closed. Open a new one whenever you like."
            ) % {**name, "waited": waited}
        messages.append((subject, f"{body}\n\n{settings.SITE_NAME}", None, [user.email]))
    try:
        send_mass_mail(messages, fail_silently=False)
    except Exception:
        log.warning("Could not tell the players of match %s that it expired", match.pk, exc_info=True)
