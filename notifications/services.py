"""Every write of the notifications app: telling people things, and the your-turn mail.

"Whose turn is it" is never stored: a match waits for a person when it is being played and
its ``to_move`` is that person's seat (``selectors.waiting_seats``). Moves write nothing here;
the periodic sweep (``tasks.sweep_your_turn``) turns the correspondence matches waiting for
someone into a notification and, for people away from the site, into one batched e-mail.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from enum import StrEnum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import CharField, Exists, F, OuterRef, Q, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, gettext_noop, ngettext

import live
from accounts import time_zones
from accounts.models import User
from forums.models import Post
from games.models import Match, Seat
from live.events import me_changed, me_notice
from live.groups import user_group
from portal.languages import user_language
from portal.phrases import ordinal_of, phrase, say_in_english

from . import selectors
from .models import Notification, NotificationSettings, TurnMail

log = logging.getLogger(__name__)


def tell_users(user_ids, *, seats: bool = False) -> None:
    """Ask every open ``/ws/me/`` socket of these people to count again, once committed (at
    once outside a transaction); ``seats``: their matches changed, so they also listen again
    to the right ones."""
    outbox = live.Outbox()
    event = me_changed(seats=seats)
    for user_id in dict.fromkeys(user_ids):
        outbox.send(user_group(user_id), event)
    live.publish_on_commit(outbox)


Kind = Notification.Kind

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# How long the unsubscribe link of a your-turn mail works (the mail and the page say so).
UNSUBSCRIBE_LINK_DAYS = 60


def notify(
    *,
    user_ids,
    kind: str,
    text: str = "",
    phrase: dict | None = None,
    url: str = "",
    key: str = "",
    announce: bool = False,
) -> list[Notification]:
    """Tell these people (the site's bots and repeats left out) that something happened; their open
    sockets count again once committed. What it says is a ``phrase`` (``portal.phrases``: each
    reader reads it in their language), or a ``text`` said as it is. With a ``key``, a person who
    already has an unread notification under it gets no second one. ``announce``: something to
    act on soon (a tournament table ready), which their open pages also say (a banner, the tab's
    title)."""
    if kind not in Kind.values:
        raise ValueError(f"Unknown kind of notification {kind!r}")
    # The site's own bots are told nothing; a person's bot account is, like a person (its
    # event stream says what concerns it: notifications.streams).
    people = set(
        get_user_model()
        .objects.filter(pk__in=set(user_ids))
        .exclude(is_bot=True, owner__isnull=True)
        .values_list("pk", flat=True)
    )
    if key:
        people -= set(
            Notification.objects.filter(user_id__in=people, key=key, read=False).values_list("user_id", flat=True)
        )
    if not people:
        return []
    phrase = phrase or {}
    text = (say_in_english(phrase) if phrase else text)[: Notification.TEXT_MAX]
    rows = Notification.objects.bulk_create(
        Notification(user_id=user_id, kind=kind, text=text, phrase=phrase, url=url[:300], key=key)
        for user_id in sorted(people)
    )
    if announce:
        outbox = live.Outbox()
        event = me_notice(kind=kind, text=text, phrase=phrase, url=url)
        for user_id in sorted(people):
            outbox.send(user_group(user_id), event)
        live.publish_on_commit(outbox)
    else:
        tell_users(sorted(people))
    return rows


def notifications_settle(*, key: str) -> int:
    """Mark read every unread notification under ``key``: what it asked for is no longer
    waiting (a challenge answered, withdrawn or expired, a rematch offer closed)."""
    people = list(Notification.objects.filter(key=key, read=False).values_list("user_id", flat=True))
    if not people:
        return 0
    settled = Notification.objects.filter(key=key, read=False).update(read=True)
    tell_users(people)
    return settled


def notification_mark_all_read(*, user) -> int:
    marked = Notification.objects.filter(user=user, read=False).update(read=True)
    if marked:
        tell_users([user.pk])
    return marked


def notification_open(*, user, notification_id: int) -> Notification | None:
    """The person's own notification, marked read (None if it is not theirs)."""
    notification = Notification.objects.filter(pk=notification_id, user=user).first()
    if notification is not None and not notification.read:
        notification.read = True
        notification.save(update_fields=["read"])
        tell_users([user.pk])
    return notification


# --------------------------------------------------------------------------------------
# Sources


def notify_match_finished(*, match_id: int) -> list[Notification]:
    """Tell each person seated in a finished match how it went: once per match and person,
    read or not, whoever runs first (the task queued when it ended, its retry, or the sweep,
    ``untold_finished_matches_notify``); a unique constraint holds it when two run at once.
    Untimed practice against bots alone is noted already read: its player watched it end."""
    key = finished_key(match_id)
    seats: dict[int, Seat] = {}
    for seat in (
        Seat.objects.filter(match_id=match_id, user__isnull=False, user__is_bot=False)
        .select_related("match")
        .order_by("index")
    ):
        if seat.user_id is not None:
            seats.setdefault(seat.user_id, seat)
    practice = len(seats) == 1 and all(seat.match.speed == Match.Speed.UNTIMED for seat in seats.values())
    told = set(
        Notification.objects.filter(kind=Kind.MATCH_FINISHED, key=key, user_id__in=list(seats)).values_list(
            "user_id", flat=True
        )
    )
    rows = []
    for user_id, seat in seats.items():
        if user_id in told:
            continue
        match = seat.match
        if seat.place:
            words = phrase(
                gettext_noop("%(game)s #%(match)s is over: you placed %(place)s."),
                game=match.game_name,
                match=match.pk,
                place=ordinal_of(seat.place),
            )
        else:
            words = phrase(
                gettext_noop("%(game)s #%(match)s is over: see how it ended."), game=match.game_name, match=match.pk
            )
        rows.append(
            Notification(
                user_id=user_id,
                kind=Kind.MATCH_FINISHED,
                text=say_in_english(words)[: Notification.TEXT_MAX],
                phrase=words,
                url=match.get_absolute_url(),
                key=key,
                read=practice,
            )
        )
    if not rows:
        return []
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    if not practice:
        tell_users([row.user_id for row in rows])
    return rows


FINISHED_KEY_PREFIX = "finished:"


def finished_key(match_id: int) -> str:
    return f"{FINISHED_KEY_PREFIX}{match_id}"


# A finished match is left this long to the task queued when it ended before the sweep tells
# its people instead, and is looked for this far back (a longer outage is lost to the sweep).
FINISHED_NOTICE_STALL = timedelta(seconds=30)
FINISHED_NOTICE_LOOKBACK = timedelta(days=1)
FINISHED_NOTICE_BATCH = 100


def untold_finished_matches_notify(*, now: datetime | None = None) -> int:
    """Tell the people of the finished matches whose "match finished" notification never
    came (its task could not be queued: the broker was down when the match ended), newest
    first, at most ``FINISHED_NOTICE_BATCH`` matches a run; each on its own, one failing does
    not stop the others. Returns how many matches were told."""
    now = now or timezone.now()
    told = Notification.objects.filter(
        user_id=OuterRef("user_id"),
        kind=Kind.MATCH_FINISHED,
        key=Concat(Value(FINISHED_KEY_PREFIX), Cast(OuterRef("match_id"), output_field=CharField())),
    )
    untold = Seat.objects.filter(match_id=OuterRef("pk"), user__isnull=False, user__is_bot=False).filter(~Exists(told))
    matches = Match.objects.filter(
        Exists(untold),
        status=Match.Status.FINISHED,
        finished_at__gte=now - FINISHED_NOTICE_LOOKBACK,
        finished_at__lte=now - FINISHED_NOTICE_STALL,
    )
    repaired = 0
    for match_id in matches.order_by("-finished_at").values_list("pk", flat=True)[:FINISHED_NOTICE_BATCH]:
        try:
            if notify_match_finished(match_id=match_id):
                log.warning("The people of finished match %s were never told; told now", match_id)
                repaired += 1
        except Exception:
            log.exception("Could not tell the people of finished match %s", match_id)
    return repaired


def notify_forum_reply(*, post_id: int) -> list[Notification]:
    """A reply in a topic: everyone else who wrote a visible post there is told (one unread
    notification per topic at a time)."""
    post = Post.objects.select_related("topic", "author").filter(pk=post_id).first()
    if post is None or post.is_hidden or post.topic.is_hidden:
        return []
    others = (
        Post.objects.filter(topic_id=post.topic_id, hidden_at__isnull=True, author__isnull=False)
        .exclude(author_id=post.author_id)
        .values_list("author_id", flat=True)
        .distinct()
    )
    return notify(
        user_ids=list(others),
        kind=Kind.FORUM_REPLY,
        phrase=phrase(
            gettext_noop("%(author)s replied in “%(topic)s”."), author=str(post.author), topic=post.topic.title
        ),
        url=post.get_absolute_url(),
        key=f"topic:{post.topic_id}",
    )


# --------------------------------------------------------------------------------------
# Presence and settings


def settings_of(user) -> NotificationSettings:
    found, _ = NotificationSettings.objects.get_or_create(user=user)
    return found


def settings_update(*, user, email_your_turn: bool) -> NotificationSettings:
    """Save the person's choice. Turning the your-turn mail back on moves their
    ``unsubscribe_generation``: the unsubscribe links of the mails sent before stop working."""
    NotificationSettings.objects.get_or_create(user=user)
    rows = NotificationSettings.objects.filter(user=user)
    if email_your_turn:
        rows.filter(email_your_turn=False).update(
            email_your_turn=True, unsubscribe_generation=F("unsubscribe_generation") + 1
        )
    else:
        rows.update(email_your_turn=False)
    return settings_of(user)


def user_seen(*, user_id: int, now: datetime | None = None) -> None:
    """Note that the person is on the site now (their socket opened, beat or closed)."""
    now = now or timezone.now()
    if not NotificationSettings.objects.filter(user_id=user_id).update(last_seen=now):
        NotificationSettings.objects.get_or_create(user_id=user_id, defaults={"last_seen": now})


def unsubscribe_token(user) -> str:
    """The signed token of an unsubscribe link: the person, and the generation of their
    settings it was made under; ``signing.dumps`` stamps it with the time it was made."""
    generation = (
        NotificationSettings.objects.filter(user=user).values_list("unsubscribe_generation", flat=True).first() or 0
    )
    return signing.dumps({"u": user.pk, "k": "your_turn", "g": generation}, salt=UNSUBSCRIBE_SALT)


class LinkProblem(StrEnum):
    """Why an unsubscribe link does not work (the page says it in words)."""

    INVALID = "invalid"  # not one of ours: cut, changed, signed for something else
    EXPIRED = "expired"  # older than UNSUBSCRIBE_LINK_DAYS
    REPLACED = "replaced"  # made before the person turned the mail back on


def unsubscribe_link(token: str) -> tuple[User | None, LinkProblem | None]:
    """The person an unsubscribe token was made for, or None and why it does not work.

    Tokens made before links carried a generation (no ``"g"``) count as generation 0: they
    work until they expire, unless the person has turned the mail back on since."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=timedelta(days=UNSUBSCRIBE_LINK_DAYS))
    except signing.SignatureExpired:
        return None, LinkProblem.EXPIRED
    except signing.BadSignature:
        return None, LinkProblem.INVALID
    if not isinstance(data, dict) or data.get("k") != "your_turn" or not isinstance(data.get("u"), int):
        return None, LinkProblem.INVALID
    generation = data.get("g", 0)
    user = get_user_model().objects.filter(pk=data["u"]).first()
    if user is None or not isinstance(generation, int):
        return None, LinkProblem.INVALID
    current = (
        NotificationSettings.objects.filter(user=user).values_list("unsubscribe_generation", flat=True).first() or 0
    )
    if generation != current:
        return None, LinkProblem.REPLACED
    return user, None


def unsubscribe_user(token: str) -> User | None:
    """The person a token was made for, or None if it does not work (see ``unsubscribe_link``)."""
    return unsubscribe_link(token)[0]


def unsubscribe(*, token: str) -> User | None:
    """Turn the your-turn mail off for the token's person; None (and nothing changed) for a
    token that does not work."""
    user = unsubscribe_user(token)
    if user is not None:
        settings_update(user=user, email_your_turn=False)
    return user


# --------------------------------------------------------------------------------------
# Your turn, by the periodic sweep


def turn_started(match: Match) -> datetime:
    """When the seat to move got the move: its deadline less a move's time."""
    return match.deadline - timedelta(seconds=match.seconds_per_move)


def your_turn_sweep(*, now: datetime | None = None) -> list[int]:
    """Notify everyone whose correspondence match waits for them (once per turn), and return
    the people away from the site who may be owed a your-turn e-mail."""
    now = now or timezone.now()
    seats = list(
        selectors.waiting_seats().filter(match__speed=Match.Speed.CORRESPONDENCE, match__deadline__isnull=False)
    )
    keys = {seat.pk: f"turn:{seat.match_id}:{int(turn_started(seat.match).timestamp())}" for seat in seats}
    _turns_played(set(keys.values()))
    if not seats:
        return []
    told = set(
        Notification.objects.filter(key__in=set(keys.values()), kind=Kind.YOUR_TURN).values_list("user_id", "key")
    )
    new = [seat for seat in seats if (seat.user_id, keys[seat.pk]) not in told]
    if new:
        words = {
            seat.pk: phrase(
                gettext_noop("Your move in %(game)s #%(match)s."), game=seat.match.game_name, match=seat.match_id
            )
            for seat in new
        }
        Notification.objects.bulk_create(
            Notification(
                user_id=seat.user_id,
                kind=Kind.YOUR_TURN,
                text=say_in_english(words[seat.pk]),
                phrase=words[seat.pk],
                url=seat.match.get_absolute_url(),
                key=keys[seat.pk],
            )
            for seat in new
        )
        people = sorted({seat.user_id for seat in new})
        tell_users(people)
    waiting = {seat.user_id for seat in seats}
    present = now - timedelta(minutes=settings.NOTIFY_AWAY_MINUTES)
    not_now = NotificationSettings.objects.filter(user_id__in=waiting).filter(
        Q(email_your_turn=False) | Q(last_seen__gte=present)
    )
    return sorted(waiting - set(not_now.values_list("user_id", flat=True)))


def _turns_played(current: set[str]) -> None:
    """A your-turn notification whose turn has been played (or the match ended) is read: the
    header counts what still needs the person."""
    unread = Notification.objects.filter(kind=Kind.YOUR_TURN, read=False).values_list("pk", "user_id", "key")
    played = [(pk, user_id) for pk, user_id, key in unread if key not in current]
    if played:
        Notification.objects.filter(pk__in=[pk for pk, _ in played]).update(read=True)
        people = sorted({user_id for _, user_id in played})
        tell_users(people)


def turn_mail_due(*, user, now: datetime | None = None) -> list[Match]:
    """The correspondence matches to put in a your-turn e-mail to ``user`` now (none if they
    are not to get one): the setting on, a confirmed address, away from the site for
    ``NOTIFY_AWAY_MINUTES``, the turn begun after they left, and no mail about that match in
    the last ``TURN_MAIL_EVERY_HOURS``."""
    now = now or timezone.now()
    if not away_with_mail_on(user, now):
        return []
    last_seen = NotificationSettings.objects.filter(user=user).values_list("last_seen", flat=True).first()
    window = now - timedelta(hours=settings.TURN_MAIL_EVERY_HOURS)
    mailed = set(TurnMail.objects.filter(user=user, sent_at__gt=window).values_list("match_id", flat=True))
    matches = []
    for seat in selectors.waiting_seats().filter(
        user=user, match__speed=Match.Speed.CORRESPONDENCE, match__deadline__isnull=False
    ):
        match = seat.match
        if match.pk in mailed or (last_seen is not None and turn_started(match) <= last_seen):
            continue
        matches.append(match)
    return sorted(matches, key=lambda m: m.deadline)


def turn_mail_send(*, user_id: int, now: datetime | None = None) -> int:
    """Send ``user_id`` one e-mail listing every match due (``turn_mail_due``); returns how
    many it listed (0: no mail).

    The matches are claimed first, under a lock of the person's settings row, and committed, so
    two runs at once send one mail. The mail goes out after that, with no lock held: a slow
    mail server holds up nothing else of that person's. A mail that fails gives the claim back
    (the next sweep tries again) and raises, so the task retries."""
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return 0
    with transaction.atomic():
        NotificationSettings.objects.get_or_create(user=user)
        NotificationSettings.objects.select_for_update().get(user=user)
        matches = turn_mail_due(user=user, now=now)
        if not matches:
            return 0
        before = dict(TurnMail.objects.filter(user=user, match__in=matches).values_list("match_id", "sent_at"))
        for match in matches:
            TurnMail.objects.update_or_create(user=user, match=match, defaults={"sent_at": now})
    try:
        _turn_mail(user, matches).send(fail_silently=False)
    except Exception:
        _turn_mail_unclaim(user, matches, before, now)
        raise
    return len(matches)


def _turn_mail_unclaim(user, matches: list[Match], before: dict, claimed_at: datetime) -> None:
    """The claim of a mail that was not sent, undone (unless a later run claimed a match since)."""
    with transaction.atomic():
        for match in matches:
            claim = TurnMail.objects.filter(user=user, match=match, sent_at=claimed_at)
            if match.pk in before:
                claim.update(sent_at=before[match.pk])
            else:
                claim.delete()


def away_with_mail_on(user, now: datetime | None = None) -> bool:
    """Whether ``user`` is to be e-mailed what concerns them: a person with a confirmed
    address and the e-mail setting on, away from the site for ``NOTIFY_AWAY_MINUTES``."""
    now = now or timezone.now()
    if user.is_bot or not selectors.confirmed_email(user):
        return False
    prefs = NotificationSettings.objects.filter(user=user).first()
    if prefs is None:
        return True
    away = prefs.last_seen is None or now - prefs.last_seen >= timedelta(minutes=settings.NOTIFY_AWAY_MINUTES)
    return prefs.email_your_turn and away


def notice_mail_send(*, notification_id: int) -> bool:
    """E-mail an announced notification (a tournament table ready) to its person if they are
    away with the e-mail setting on (``away_with_mail_on``) and have not read it meanwhile;
    whether a mail went out."""
    notification = Notification.objects.select_related("user").filter(pk=notification_id, read=False).first()
    if notification is None or not away_with_mail_on(notification.user):
        return False
    user = notification.user
    with translation.override(user_language(user)):
        text = [notification.shown_text, *_first_move_due(notification), _absolute(notification.get_absolute_url())]
        mail = _mail(user, str(notification.get_kind_display()), text)
    mail.send(fail_silently=False)
    return True


def _first_move_due(notification: Notification) -> list[str]:
    """For a table ready, when its first move is due, in the person's zone."""
    match_id = notification.key.removeprefix("table:")
    if notification.kind != Notification.Kind.TABLE_READY or not match_id.isdigit():
        return []
    deadline = Match.objects.filter(pk=int(match_id)).values_list("deadline", flat=True).first()
    if not deadline:
        return []
    return [gettext("Your first move is due by %(when)s.") % {"when": due_in_zone(notification.user, deadline)}]


def due_in_zone(user, moment: datetime) -> str:
    """``moment`` as the person reads it: in their time zone, named (UTC when they chose none),
    with the day and month in the active language ("Fri 27 Nov 2026, 18:30 (Europe/Paris)")."""
    zone = time_zones.user_zone(user)
    return f"{formats.date_format(moment.astimezone(zone), 'D d M Y, H:i')} ({zone.key})"


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _mail(user, subject: str, text: list[str]) -> EmailMessage:
    """A mail to ``user``: a greeting, ``text`` (lines), then how to stop such mails (a signed
    one-click unsubscribe link, also in the headers) and the site's name; its words in the
    active language (the callers make it the person's: ``user_language``)."""
    unsubscribe_url = _absolute(reverse("notifications-unsubscribe", args=[unsubscribe_token(user)]))
    lines = [
        gettext("Hello %(name)s,") % {"name": user.username},
        "",
        *text,
        "",
        gettext("Stop these e-mails (this link works for %(days)s days): %(url)s")
        % {"days": UNSUBSCRIBE_LINK_DAYS, "url": unsubscribe_url},
        gettext("Or change it on your profile: %(url)s") % {"url": _absolute(reverse("profile-edit"))},
        "",
        settings.SITE_NAME,
    ]
    return EmailMessage(
        subject=subject,
        body="\n".join(lines),
        to=[user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )


def _turn_mail(user, matches: list[Match]) -> EmailMessage:
    """The your-turn mail, in the person's language (``user_language``)."""
    with translation.override(user_language(user)):
        return _turn_mail_words(user, matches)


def _turn_mail_words(user, matches: list[Match]) -> EmailMessage:
    if len(matches) == 1:
        subject = gettext("Your move in %(game)s #%(match)s") % {"game": matches[0].game_name, "match": matches[0].pk}
        opening = gettext("It is your move in a correspondence match:")
    else:
        subject = gettext("Your move in %(count)s matches") % {"count": len(matches)}
        opening = gettext("It is your move in %(count)s correspondence matches:") % {"count": len(matches)}
    lines = [opening, ""]
    for match in matches:
        deadline = match.deadline
        assert deadline is not None  # turn_mail_due picks the matches with a clock running
        left = deadline - timezone.now()
        hours = max(0, int(left.total_seconds() // 3600))
        if hours >= 24:
            due = gettext("%(days)s d %(hours)s h left") % {"days": hours // 24, "hours": hours % 24}
        else:
            due = gettext("%(hours)s h left") % {"hours": hours}
        words = {"due": due, "when": due_in_zone(user, deadline), "url": _absolute(match.get_absolute_url())}
        lines.append(
            gettext("- %(game)s #%(match)s (%(due)s, by %(when)s): %(url)s")
            % {"game": match.game_name, "match": match.pk, **words}
        )
    every = settings.TURN_MAIL_EVERY_HOURS
    lines += [
        "",
        ngettext(
            "You get at most one message per match every %(hours)s hour, and none while you are on the site.",
            "You get at most one message per match every %(hours)s hours, and none while you are on the site.",
            every,
        )
        % {"hours": every},
    ]
    return _mail(user, subject, lines)
