"""Every write to challenges and rematch offers. The matches they lead to are made only
through ``games.services`` (``match_create``, ``match_join``, ``match_seat_bot``), as the
lobby makes them, so a challenge or a rematch follows the same rules as any match.

Each answer locks its challenge or offer row (``select_for_update``; on SQLite the write
transaction is taken at BEGIN) and moves it on from "pending" with a guarded UPDATE, so of two
accepts at once exactly one makes the match; the other is told it was accepted already.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

import live
from accounts.services import bot_check_may_play, bot_check_not_against_owner, user_lock
from games import services as match_services
from games.models import Match
from games.services import MatchError
from live.events import me_challenge
from live.groups import user_group
from portal import page_cache
from portal.errors import ServiceError, lazy_message
from portal.phrases import phrase
from portal.rate_limits import Attempt, Rate, SlidingWindow

from .models import Challenge, RematchAnswer, RematchOffer, State
from .selectors import rematch_json
from .signals import challenge_answered, challenge_received, rematch_closed, rematch_offered, rematch_refused

User = get_user_model()

ALREADY_OFFERED = _("A rematch is already offered: answer it, or wait for the answers.")

# The event the match's sockets get when a rematch offer is made or moves on.
REMATCH_EVENT = "rematch.offer"

# What a closed challenge or rematch offer says, by what it is and its state.
CLOSED_MESSAGES: dict[str, dict[str | None, str | Promise]] = {
    "challenge": {
        State.ACCEPTED: _("This challenge was accepted already."),
        State.DECLINED: _("This challenge was declined."),
        State.CANCELLED: _("This challenge was withdrawn."),
        State.EXPIRED: _("This challenge has expired."),
        None: _("This challenge is closed."),
    },
    "rematch offer": {
        State.ACCEPTED: _("This rematch offer was accepted already."),
        State.DECLINED: _("This rematch offer was declined."),
        State.CANCELLED: _("This rematch offer was withdrawn."),
        State.EXPIRED: _("This rematch offer has expired."),
        None: _("This rematch offer is closed."),
    },
}


# Each of these makes somebody else's notification, so each has a limit per person that a real
# player never meets and a script flooding someone's notifications meets at once. Only what
# went through counts. Challenges sent go above the most that may wait at once
# (MAX_PENDING_CHALLENGES_PER_PERSON, 10), so that limit speaks first.
CHALLENGES = SlidingWindow("challenges.create", Rate(20, 600, _("20 challenges in 10 minutes")))
WITHDRAWALS = SlidingWindow("challenges.withdraw", Rate(20, 600, _("20 withdrawn challenges in 10 minutes")))
REMATCH_OFFERS = SlidingWindow("challenges.rematch", Rate(10, 600, _("10 rematch offers in 10 minutes")))


class ChallengeError(ServiceError):
    """A refused challenge or rematch request; the message is for people. The refusals of the
    matches they make (``match_create``'s and ``match_join``'s) come through as ``MatchError``."""

    def __init__(self, message: str | Promise, code: str = "bad_request"):
        super().__init__(code, message)


@contextmanager
def _limited(limiter: SlidingWindow, user, doing: str | Promise) -> Iterator[Attempt]:
    """Refuse (``rate_limited``) when ``user`` is over ``limiter``'s limit; the caller counts
    the attempt once it went through."""
    with limiter.attempt(user.pk) as attempt:
        if attempt.refusal is not None:
            raise ChallengeError(attempt.refusal.words(doing), "rate_limited")
        yield attempt


def _closed(what: str, state: str) -> ChallengeError:
    messages = CLOSED_MESSAGES[what]
    return ChallengeError(messages.get(state, messages[None]), "closed")


# A challenge's terms in words, by whether its match is timed and rated.
TERMS = {
    (True, True): gettext_noop("%(game)s (%(players)s players, %(speed)s, %(clock)s a move, rated)"),
    (True, False): gettext_noop("%(game)s (%(players)s players, %(speed)s, %(clock)s a move, casual)"),
    (False, True): gettext_noop("%(game)s (%(players)s players, untimed, rated)"),
    (False, False): gettext_noop("%(game)s (%(players)s players, untimed, casual)"),
}
# The speed of a timed match, as the terms name it.
SPEEDS: dict[str, str] = {
    Match.Speed.LIVE: gettext_noop("live"),
    Match.Speed.CORRESPONDENCE: gettext_noop("correspondence"),
}


def _terms_words(match: Match) -> dict:
    """A challenge's terms as a phrase ("Territories (2 players, live, 90 s a move, rated)")."""
    speed = phrase(SPEEDS.get(match.speed, match.speed))
    return phrase(
        TERMS[(match.timed, match.rated)],
        game=match.game_name,
        players=match.num_players,
        speed=speed,
        clock=match.time_per_move,
    )


# --------------------------------------------------------------------------------------
# Challenges


def challenge_create(*, user, to, **terms) -> Challenge:
    """``user`` challenges ``to`` to a match on ``terms`` (``match_create``'s: game,
    num_players, options, rated, speed, seconds_per_move, days_per_move), checked by the rules
    of any match. A bot does not wait to be asked: challenging one starts a match against it at
    once (its every other seat played by the same bot), and the challenge is accepted."""
    if not user.is_authenticated:
        raise ChallengeError(_("Sign in to challenge a player."), "forbidden")
    if user.is_site_bot:
        raise ChallengeError(_("The site's bots do not challenge anybody."), "forbidden")
    # A person's bot account challenges with its token as a person does, unless it is paused.
    bot_check_may_play(user)
    if to is None or not to.is_active:
        raise ChallengeError(_("There is no such player."), "not_found")
    if to.pk == user.pk:
        raise ChallengeError(_("You cannot challenge yourself."), "bad_request")
    terms = match_services.match_terms(**terms)
    # A person's bot account is challenged as a person is: it answers through the API.
    bot_check_may_play(to)
    bot_check_not_against_owner([user, to], rated=terms["rated"])
    now = timezone.now()
    expires = now + timedelta(hours=settings.CHALLENGE_EXPIRY_HOURS)
    if to.is_site_bot:
        with transaction.atomic():
            match = _create_match(user, terms)
            match_services.match_seat_bot(match_id=match.pk, user=user, bot=to.bot_name)
            match.refresh_from_db()  # started by the bot's seats
            return Challenge.objects.create(
                challenger=user,
                challenged=to,
                **terms,
                state=State.ACCEPTED,
                expires_at=expires,
                answered_at=now,
                match=match,
            )
    with transaction.atomic():
        # The challenger's row is locked first, so two challenges at once cannot both slip
        # under the limit.
        user_lock(user=user)
        waiting = Challenge.objects.filter(challenger=user, state=State.PENDING, expires_at__gt=now)
        if waiting.filter(challenged=to).exists():
            raise ChallengeError(
                lazy_message(
                    _("You have already challenged %(name)s: wait for an answer, or withdraw that challenge first."),
                    name=to.username,
                ),
                "already_pending",
            )
        if user.is_bot_account and waiting.count() >= settings.BOT_ACCOUNT_PENDING_CHALLENGES:
            raise ChallengeError(
                lazy_message(
                    _(
                        "A bot account has at most %(limit)s challenges waiting for an answer: wait for answers, "
                        "or withdraw one first."
                    ),
                    limit=settings.BOT_ACCOUNT_PENDING_CHALLENGES,
                ),
                "too_many_pending",
            )
        limit = settings.MAX_PENDING_CHALLENGES_PER_PERSON
        if waiting.count() >= limit:
            raise ChallengeError(
                lazy_message(
                    _(
                        "You already have %(limit)s challenges waiting for an answer, the most one person may have: "
                        "wait for answers, or withdraw one first."
                    ),
                    limit=limit,
                ),
                "too_many_pending",
            )
        with _limited(
            CHALLENGES,
            user,
            _(
                "You are challenging players too quickly: the site takes at most %(rate)s from one person. "
                "Try again in %(wait)s."
            ),
        ) as attempt:
            challenge = Challenge.objects.create(challenger=user, challenged=to, **terms, expires_at=expires)
            attempt.count()
        _waiting_changed(challenge)
        words = phrase(
            gettext_noop("%(challenger)s challenges you to %(terms)s."),
            challenger=user.username,
            terms=_terms_words(challenge.terms),
        )
        url = challenge.get_absolute_url()
        transaction.on_commit(
            lambda: challenge_received.send_robust(
                sender=Challenge, challenge_id=challenge.pk, user_id=to.pk, phrase=words, url=url
            ),
            robust=True,
        )
    return challenge


def _tell_answered(challenge: Challenge, *, user_id: int, words: dict, url: str = "", key: str = "") -> None:
    """Once committed: the other side hears what became of the challenge (with a ``key``, not
    again while they have an unread notification under it), and the open pages of both sides
    see it at once (their ``/ws/me/`` sockets)."""
    moved_on = me_challenge(
        challenge={
            "id": challenge.pk,
            "state": challenge.state,
            "match_url": reverse("match", args=[challenge.match_id]) if challenge.match_id else None,
        }
    )
    outbox = live.Outbox()
    for person in (challenge.challenger_id, challenge.challenged_id):
        outbox.send(user_group(person), moved_on)
    live.publish_on_commit(outbox)
    url = url or challenge.get_absolute_url()
    transaction.on_commit(
        lambda: challenge_answered.send_robust(
            sender=Challenge, challenge_id=challenge.pk, user_id=user_id, phrase=words, url=url, key=key
        ),
        robust=True,
    )


def _tell_expired(challenge: Challenge) -> None:
    _tell_answered(
        challenge,
        user_id=challenge.challenger_id,
        words=phrase(
            gettext_noop("Your challenge to %(challenged)s to %(terms)s expired unanswered."),
            challenged=challenge.challenged.username,
            terms=_terms_words(challenge.terms),
        ),
    )


def _create_match(creator, terms: dict, *, visibility=Match.Visibility.PUBLIC, seat: int = 0) -> Match:
    clock = match_services.clock_terms(terms["speed"], terms["seconds_per_move"])
    return match_services.match_create(
        user=creator,
        game=terms["game"],
        num_players=terms["num_players"],
        options=terms["options"],
        rated=terms["rated"],
        visibility=visibility,
        seat=seat,
        accepts_bots=True,  # it seats the players of the challenge or the rematch, bot accounts included
        **clock,
    )


def _lock_challenge(challenge_id) -> Challenge:
    try:
        return Challenge.objects.select_for_update().select_related("challenger", "challenged").get(pk=challenge_id)
    except (Challenge.DoesNotExist, ValueError, TypeError):
        raise ChallengeError(_("There is no such challenge."), "not_found") from None


def _waiting_changed(row) -> None:
    """The challenges waiting for a player's answer show in their lobby: once this row's change
    commits, the lobby kept for them (portal.page_cache) is rendered afresh."""
    if isinstance(row, Challenge):
        page_cache.bump_on_commit(page_cache.viewer_area(row.challenged_id))


def _expire_if_due(row, now) -> bool:
    """Mark a pending row (locked) expired if its time is up; True if it was."""
    if row.state == State.PENDING and row.expires_at <= now:
        type(row).objects.filter(pk=row.pk, state=State.PENDING).update(state=State.EXPIRED, answered_at=now)
        row.state = State.EXPIRED
        _waiting_changed(row)
        return True
    return False


def _answer_challenge(challenge_id, user, *, by_challenged: bool) -> tuple[Challenge, bool]:
    """The challenge locked, checked as still open to ``user``'s answer. The bool says whether
    it was found expired (and marked so): the caller commits that, then refuses."""
    if not user.is_authenticated:
        raise ChallengeError(_("Sign in to answer a challenge."), "forbidden")
    challenge = _lock_challenge(challenge_id)
    if user.pk not in (challenge.challenger_id, challenge.challenged_id):
        raise ChallengeError(_("There is no such challenge."), "not_found")
    if by_challenged and user.pk != challenge.challenged_id:
        raise ChallengeError(
            _("Only the player challenged can answer a challenge; you may withdraw yours."), "forbidden"
        )
    if not by_challenged and user.pk != challenge.challenger_id:
        raise ChallengeError(_("Only the challenger can withdraw a challenge; you may decline it."), "forbidden")
    if _expire_if_due(challenge, timezone.now()):
        _tell_expired(challenge)
        return challenge, True
    if challenge.state != State.PENDING:
        raise _closed("challenge", challenge.state)
    return challenge, False


def _move_on(row, state: str, **fields) -> None:
    """Move a pending row on to ``state`` (guarded: only from pending)."""
    now = timezone.now()
    if type(row).objects.filter(pk=row.pk, state=State.PENDING).update(state=state, answered_at=now, **fields) != 1:
        raise ChallengeError(_("This was answered meanwhile."), "closed")
    _waiting_changed(row)
    row.state = state
    row.answered_at = now
    for name, value in fields.items():
        setattr(row, name, value)


def challenge_accept(*, challenge_id, user) -> Challenge:
    """The player challenged accepts: the match is made with the challenger in the first seat
    and them in the second (a larger game's other seats stay open for anybody, or for the
    challenger's bots), and the challenge points to it."""
    with transaction.atomic():
        challenge, expired = _answer_challenge(challenge_id, user, by_challenged=True)
        if not expired:
            terms = {
                "game": challenge.game,
                "num_players": challenge.num_players,
                "options": challenge.options,
                "rated": challenge.rated,
                "speed": challenge.speed,
                "seconds_per_move": challenge.seconds_per_move,
            }
            try:
                match = _create_match(challenge.challenger, terms)
            except MatchError as exc:
                if exc.code != "too_many_open":
                    raise
                raise ChallengeError(
                    lazy_message(
                        _(
                            "%(name)s has too many matches waiting for players just now: "
                            "try again once one has started."
                        ),
                        name=challenge.challenger.username,
                    ),
                    exc.code,
                ) from None
            match_services.match_join(match_id=match.pk, user=user, token=match.invite_token)
            match.refresh_from_db()
            _move_on(challenge, State.ACCEPTED, match=match)
            _tell_answered(
                challenge,
                user_id=challenge.challenger_id,
                words=phrase(
                    gettext_noop("%(challenged)s accepted your challenge to %(terms)s: the match is on."),
                    challenged=user.username,
                    terms=_terms_words(challenge.terms),
                ),
                url=match.get_absolute_url(),
            )
    if expired:
        raise _closed("challenge", State.EXPIRED)
    return challenge


def challenge_decline(*, challenge_id, user) -> Challenge:
    return _close_challenge(challenge_id, user, State.DECLINED, by_challenged=True)


def challenge_cancel(*, challenge_id, user) -> Challenge:
    """The challenger withdraws their challenge; the person challenged is told. Repeated
    withdrawals by one challenger collapse into one unread notification of theirs."""
    with _limited(
        WITHDRAWALS,
        user,
        _(
            "You are withdrawing challenges too quickly: the site takes at most %(rate)s from one person. "
            "Try again in %(wait)s."
        ),
    ) as attempt:
        challenge = _close_challenge(challenge_id, user, State.CANCELLED, by_challenged=False)
        attempt.count()
    return challenge


def _close_challenge(challenge_id, user, state: str, *, by_challenged: bool) -> Challenge:
    with transaction.atomic():
        challenge, expired = _answer_challenge(challenge_id, user, by_challenged=by_challenged)
        if not expired:
            _move_on(challenge, state)
            terms = _terms_words(challenge.terms)
            if by_challenged:
                words = phrase(
                    gettext_noop("%(challenged)s declined your challenge to %(terms)s."),
                    challenged=user.username,
                    terms=terms,
                )
                _tell_answered(challenge, user_id=challenge.challenger_id, words=words)
            else:
                words = phrase(
                    gettext_noop("%(challenger)s withdrew their challenge to %(terms)s."),
                    challenger=user.username,
                    terms=terms,
                )
                key = f"withdrawn:{challenge.challenger_id}:{challenge.challenged_id}"
                _tell_answered(challenge, user_id=challenge.challenged_id, words=words, key=key)
    if expired:
        raise _closed("challenge", State.EXPIRED)
    return challenge


# --------------------------------------------------------------------------------------
# Rematches


def rotated(seat_users: list[int]) -> list[int]:
    """The next match's seating: every player moves one seat up and the first goes last, so
    the player who moved second now moves first (in two-player games, the sides swap)."""
    return seat_users[1:] + seat_users[:1]


def rematch_refusal(match_id: int) -> str | None:
    """Why the match may not be played again on its own (it was a tournament's table), as
    whatever it belongs to says it; None when a rematch may be offered."""
    for _receiver, refusal in rematch_refused.send(sender=Match, match_id=match_id):
        if refusal:
            return refusal
    return None


def rematch_offer(*, match_id, user) -> RematchOffer:
    """A player of a finished match offers everyone in it the same match again. The person
    offering has accepted; bots accept at once; when nobody else is asked, the match starts
    now. Only one offer of a match waits at a time."""
    if not user.is_authenticated:
        raise ChallengeError(_("Sign in to offer a rematch."), "forbidden")
    now = timezone.now()
    with (
        _limited(
            REMATCH_OFFERS,
            user,
            _(
                "You are offering rematches too quickly: the site takes at most %(rate)s from one person. "
                "Try again in %(wait)s."
            ),
        ) as attempt,
        transaction.atomic(),
    ):
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except (Match.DoesNotExist, ValueError, TypeError):
            raise ChallengeError(_("There is no such match."), "not_found") from None
        seats = list(match.seats.select_related("user").order_by("index"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise ChallengeError(_("Only the players of a match can offer a rematch."), "forbidden")
        if match.status != Match.Status.FINISHED:
            raise ChallengeError(_("A rematch can be offered once the match is finished."), "not_finished")
        refusal = rematch_refusal(match.pk)
        if refusal:
            raise ChallengeError(refusal, "forbidden")
        offers = RematchOffer.objects.select_for_update().filter(match=match, state__in=[State.PENDING, State.ACCEPTED])
        for earlier in offers:
            if not _expire_if_due(earlier, now):
                if earlier.state == State.ACCEPTED:
                    raise ChallengeError(_("The rematch of this match has been played already."), "closed")
                raise ChallengeError(ALREADY_OFFERED, "already_pending")
        people = [seat.user for seat in seats if seat.user is not None and not seat.user.is_site_bot]
        _check_still_here(people)
        offer = RematchOffer(
            match=match,
            offered_by=user,
            seating=rotated([seat.user_id for seat in seats]),
            # Rated again only if it was rated; match_create checks the clock allows it.
            rated=match.rated,
            expires_at=now + timedelta(hours=settings.REMATCH_OFFER_EXPIRY_HOURS),
        )
        try:
            with transaction.atomic():
                offer.save()
        except IntegrityError:
            raise ChallengeError(ALREADY_OFFERED, "already_pending") from None
        RematchAnswer.objects.bulk_create(
            RematchAnswer(
                offer=offer,
                user=person,
                answer=RematchAnswer.Answer.ACCEPTED if person.pk == user.pk else RematchAnswer.Answer.PENDING,
                answered_at=now if person.pk == user.pk else None,
            )
            for person in people
        )
        asked = [person for person in people if person.pk != user.pk]
        if asked:
            words = phrase(
                gettext_noop("%(player)s offers a rematch of %(game)s #%(match)s."),
                player=user.username,
                game=match.game_name,
                match=match.pk,
            )
            url = match.get_absolute_url()
            user_ids = [person.pk for person in asked]
            transaction.on_commit(
                lambda: rematch_offered.send_robust(
                    sender=RematchOffer, match_id=match.pk, user_ids=user_ids, phrase=words, url=url
                ),
                robust=True,
            )
        else:  # only bots to ask: they accept at once
            _start_rematch(offer, match)
        _tell_match(offer)
        attempt.count()
    return offer


def _check_still_here(people) -> None:
    """A rematch needs every person of the match still able to play (an account closed since
    cannot)."""
    gone = [person.username for person in people if not person.is_active]
    if gone:
        raise ChallengeError(
            lazy_message(
                ngettext_lazy(
                    "%(names)s no longer plays here: no rematch is possible.",
                    "%(names)s no longer play here: no rematch is possible.",
                    "count",
                ),
                names=", ".join(gone),
                count=len(gone),
            ),
            "forbidden",
        )


def _start_rematch(offer: RematchOffer, match: Match) -> Match:
    """Make the rematch (everyone asked has accepted): created by the person who offered, in
    their rotated seat; the others take theirs in seat order, bots seated by the creator. The
    last seat filled starts it."""
    creator = offer.offered_by
    seating = offer.seating
    # The site's bots are seated by the creator; everyone else (a person's bot account too) joins.
    players = User.objects.filter(pk__in=seating)
    bots = {u.pk: u for u in players if u.is_site_bot}
    people = {u.pk: u for u in players if not u.is_site_bot}
    _check_still_here(people.values())
    terms = {
        "game": match.game,
        "num_players": match.num_players,
        "options": match.chosen_options,
        "rated": offer.rated,
        "speed": match.speed,
        "seconds_per_move": match.seconds_per_move,
    }
    new = _create_match(creator, terms, visibility=match.visibility, seat=seating.index(creator.pk))
    for index, user_id in enumerate(seating):
        if user_id == creator.pk:
            continue
        if user_id in bots:
            match_services.match_seat_bot(match_id=new.pk, user=creator, index=index, bot=bots[user_id].bot_name)
        else:  # the free seats fill in order: this one is the first free
            match_services.match_join(match_id=new.pk, user=people[user_id], token=new.invite_token)
    new.refresh_from_db()  # started by the last seat filled
    _move_on(offer, State.ACCEPTED, new_match=new)
    return new


def _lock_offer(offer_id) -> RematchOffer:
    try:
        return RematchOffer.objects.select_for_update().select_related("match", "offered_by").get(pk=offer_id)
    except (RematchOffer.DoesNotExist, ValueError, TypeError):
        raise ChallengeError(_("There is no such rematch offer."), "not_found") from None


def rematch_answer(*, offer_id, user, accept: bool) -> RematchOffer:
    """A player asked accepts or declines. Once everyone asked has accepted, the rematch
    starts; one decline ends the offer. Spectators, and players of other matches, cannot
    answer."""
    if not user.is_authenticated:
        raise ChallengeError(_("Sign in to answer a rematch offer."), "forbidden")
    now = timezone.now()
    with transaction.atomic():
        offer = _lock_offer(offer_id)
        answers = list(offer.answers.all())
        mine = next((a for a in answers if a.user_id == user.pk), None)
        if mine is None:
            raise ChallengeError(_("Only the players asked can answer a rematch offer."), "forbidden")
        expired = _expire_if_due(offer, now)
        if expired:
            _tell_match(offer)
        else:
            if offer.state != State.PENDING:
                raise _closed("rematch offer", offer.state)
            if mine.answer != RematchAnswer.Answer.PENDING:
                if mine.answer == RematchAnswer.Answer.ACCEPTED:
                    raise ChallengeError(_("You have accepted this offer already."), "closed")
                raise ChallengeError(_("You have declined this offer already."), "closed")
            mine.answer = RematchAnswer.Answer.ACCEPTED if accept else RematchAnswer.Answer.DECLINED
            mine.answered_at = now
            mine.save(update_fields=["answer", "answered_at"])
            if not accept:
                _move_on(offer, State.DECLINED)
            elif all(a.answer == RematchAnswer.Answer.ACCEPTED for a in answers):
                _start_rematch(offer, offer.match)
            _tell_match(offer)
    if expired:
        raise _closed("rematch offer", State.EXPIRED)
    return offer


def rematch_cancel(*, offer_id, user) -> RematchOffer:
    """The person who offered withdraws the offer while it waits."""
    if not user.is_authenticated:
        raise ChallengeError(_("Sign in to withdraw a rematch offer."), "forbidden")
    with transaction.atomic():
        offer = _lock_offer(offer_id)
        if offer.offered_by_id != user.pk:
            raise ChallengeError(_("Only the player who offered a rematch can withdraw it."), "forbidden")
        if not _expire_if_due(offer, timezone.now()):
            if offer.state != State.PENDING:
                raise _closed("rematch offer", offer.state)
            _move_on(offer, State.CANCELLED)
        _tell_match(offer)
    return offer


def _tell_match(offer: RematchOffer) -> None:
    """Every socket of the finished match hears how the offer stands, once committed; an offer
    that stopped waiting is signalled (``rematch_closed``: its notifications are settled)."""
    match_services.match_broadcast(offer.match_id, {"type": REMATCH_EVENT, "offer": rematch_json(offer)})
    if offer.state != State.PENDING:
        match_id = offer.match_id
        transaction.on_commit(lambda: rematch_closed.send_robust(sender=RematchOffer, match_id=match_id), robust=True)


# --------------------------------------------------------------------------------------
# The periodic sweep


def expire_due() -> int:
    """Mark every challenge and rematch offer whose day is up expired; the match pages of the
    offers hear it. Returns how many were expired. Safe to run twice, and beside answers."""
    now = timezone.now()
    expired = 0
    with transaction.atomic():
        # Rows being answered right now are left to their answer (which expires them if due).
        due = list(
            Challenge.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("challenged")
            .filter(state=State.PENDING, expires_at__lte=now)
        )
        expired += Challenge.objects.filter(pk__in=[c.pk for c in due]).update(state=State.EXPIRED, answered_at=now)
        for challenge in due:
            challenge.state, challenge.answered_at = State.EXPIRED, now
            _waiting_changed(challenge)
            _tell_expired(challenge)
    for offer_id in RematchOffer.objects.filter(state=State.PENDING, expires_at__lte=now).values_list("pk", flat=True):
        with transaction.atomic():
            offer = _lock_offer(offer_id)
            if _expire_if_due(offer, now):
                _tell_match(offer)
                expired += 1
    return expired
