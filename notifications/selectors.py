"""Reads of the notifications app. "Waiting for you" is derived from the matches themselves:
no row is written per move."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.db.models import F
from django.urls import Resolver404, resolve

from forums import selectors as forum_selectors
from games.models import Match, Seat

from .models import Notification


def waiting_seats():
    """Seats of people whose move it is in a match being played (a seat a bot took over, or a
    person who left, never waits)."""
    return Seat.objects.filter(
        match__status=Match.Status.ACTIVE,
        match__to_move=F("index"),
        user__isnull=False,
        user__is_bot=False,
        resigned=False,
        timed_out=False,
        bot_takeover="",
    ).select_related("match")


def waiting_count(user) -> int:
    return waiting_seats().filter(user=user).count()


def waiting_matches(user) -> list[Match]:
    return [seat.match for seat in waiting_seats().filter(user=user).order_by("match__deadline", "match_id")]


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read=False).count()


def recent(user):
    return Notification.objects.filter(user=user).order_by("-created", "-id")


def followed_seats(user_id: int):
    """The person's seats in matches not over that they have not left, newest match first:
    the matches whose updates the per-user socket and the person's event stream follow."""
    return Seat.objects.filter(
        user_id=user_id,
        resigned=False,
        timed_out=False,
        match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
    ).order_by("-match_id")


def listening_seats(user_id: int, limit: int) -> dict[int, tuple[int, bool]]:
    """Match id -> (seat, whether it is that seat's move) of the newest ``limit`` matches
    ``followed_seats`` holds."""
    rows = followed_seats(user_id).values_list("match_id", "index", "match__status", "match__to_move")[:limit]
    return {
        match_id: (index, status == Match.Status.ACTIVE and to_move == index)
        for match_id, index, status, to_move in rows
    }


def confirmed_email(user) -> bool:
    """Whether the person's address is confirmed (sign-up confirms it by link)."""
    return bool(user.email) and EmailAddress.objects.filter(user=user, email__iexact=user.email, verified=True).exists()


def gone_from_forum(notification: Notification, user) -> bool:
    """Whether the forum post a notification links to can no longer be read by ``user`` (its
    topic, or the post itself, was deleted since)."""
    try:
        found = resolve(notification.url)
    except Resolver404:
        return False
    if found.url_name != "forum-post":
        return False
    return forum_selectors.post_for(found.kwargs["post_id"], user) is None
