"""What turns the site's signals into notifications. Every signal here is sent after commit;
a failure is logged and never spoils the change that sent it."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model

from games.models import Seat

from . import services, tasks
from .models import Notification

log = logging.getLogger(__name__)


def match_finished(sender, match_id, **kwargs) -> None:
    """Sent by the move that ended a match: its people are told in a task, off that move."""
    try:
        tasks.notify_match_finished.delay(match_id)
    except Exception:
        log.exception("Could not queue the notifications of finished match %s", match_id)


def post_replied(sender, post_id, **kwargs) -> None:
    """A reply in a forum topic: the others who wrote in it are told in a task, off the request."""
    try:
        tasks.notify_forum_reply.delay(post_id)
    except Exception:
        log.exception("Could not queue the notifications of forum post %s", post_id)


def challenge_received(sender, challenge_id, user_id, url, text="", phrase=None, **kwargs) -> None:
    services.notify(
        user_ids=[user_id],
        kind=Notification.Kind.CHALLENGE_RECEIVED,
        text=text,
        phrase=phrase,
        url=url,
        key=f"challenge:{challenge_id}",
    )


def challenge_answered(sender, challenge_id, user_id, url, text="", phrase=None, key="", **kwargs) -> None:
    """Accepted, declined, withdrawn or expired: the challenge needs nobody's answer any more
    (its unread "challenge received" is settled) and the other side is told what became of it,
    once while unread for a ``key`` (one challenger's withdrawals)."""
    services.notifications_settle(key=f"challenge:{challenge_id}")
    services.notify(
        user_ids=[user_id], kind=Notification.Kind.CHALLENGE_ANSWERED, text=text, phrase=phrase, url=url, key=key
    )


def rematch_offered(sender, match_id, user_ids, url, text="", phrase=None, **kwargs) -> None:
    services.notify(
        user_ids=user_ids,
        kind=Notification.Kind.REMATCH_OFFERED,
        text=text,
        phrase=phrase,
        url=url,
        key=f"rematch:{match_id}",
    )


def rematch_closed(sender, match_id, **kwargs) -> None:
    """A rematch offer stopped waiting: the "rematch offered" it made asks nobody any more."""
    services.notifications_settle(key=f"rematch:{match_id}")


def seats_changed(sender, match_id, **kwargs) -> None:
    """A match was opened, a seat taken or given back, a match started or called off: the
    sockets of its people listen again to the right matches (moves never send this)."""
    people = (
        Seat.objects.filter(match_id=match_id, user__isnull=False)
        .exclude(user__is_bot=True, user__owner__isnull=True)  # the site's own bots: no sockets
        .values_list("user_id", flat=True)
    )
    services.tell_users(list(people), seats=True)


def post_reported(sender, report_id, url, text="", phrase=None, **kwargs) -> None:
    """A member reported a forum post: the moderators are told, once while they have an unread
    word of reports (the queue lists them all)."""
    moderators = get_user_model().objects.filter(is_staff=True, is_active=True).values_list("pk", flat=True)
    services.notify(
        user_ids=list(moderators),
        kind=Notification.Kind.POST_REPORTED,
        text=text,
        phrase=phrase,
        url=url,
        key="forum-reports",
    )
