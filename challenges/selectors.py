"""Reads for challenges and rematch offers: the pages, the API and the sockets' messages."""

from __future__ import annotations

from django.db.models import Q, Subquery
from django.urls import reverse
from django.utils import timezone

from .models import Challenge, RematchAnswer, RematchOffer, State


def rematch_json(offer: RematchOffer, answers: list[RematchAnswer] | None = None) -> dict:
    """How an offer stands, for the match page and the API: never anything secret."""
    if answers is None:
        answers = list(offer.answers.select_related("user"))
    return {
        "id": offer.pk,
        "match": offer.match_id,
        "state": offer.state,
        "offered_by": offer.offered_by.username,
        "offered_by_id": offer.offered_by_id,
        "rated": offer.rated,
        "answers": [{"user_id": a.user_id, "username": a.user.username, "answer": a.answer} for a in answers],
        "created_at": offer.created_at.isoformat(),
        "expires_at": offer.expires_at.isoformat(),
        "new_match": offer.new_match_id,
        "new_match_url": reverse("match", args=[offer.new_match_id]) if offer.new_match_id else None,
    }


def latest_rematch(match_id: int) -> tuple[RematchOffer | None, list[RematchAnswer]]:
    """The match's latest rematch offer and its answers with their people, in one query (an
    offer always has the answer of the person who made it)."""
    latest = RematchOffer.objects.filter(match_id=match_id).order_by("-created_at", "-id").values("pk")[:1]
    answers = list(
        RematchAnswer.objects.filter(offer_id=Subquery(latest))
        .select_related("offer", "offer__offered_by", "user")
        .order_by("id")
    )
    if not answers:
        return None, []
    offer = answers[0].offer
    if offer.state == State.PENDING and offer.expires_at <= timezone.now():
        offer.state = State.EXPIRED  # as the sweep will mark it
    return offer, answers


# At most this many of a person's challenges waiting are listed (received ones have no cap).
PENDING_LISTED = 100


def challenges_of(user, *, past: int = 20) -> dict:
    """The person's challenges waiting for an answer, received and sent, and the latest others
    (answered, withdrawn or expired): for the challenges page. Two queries."""
    now = timezone.now()
    mine = Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).select_related("challenger", "challenged")
    pending = list(mine.filter(state=State.PENDING, expires_at__gt=now).order_by("-created_at", "-id")[:PENDING_LISTED])
    closed = mine.exclude(state=State.PENDING, expires_at__gt=now).order_by("-created_at", "-id")[:past]
    closed = list(closed)
    for row in closed:
        if row.state == State.PENDING:
            row.state = State.EXPIRED  # as the sweep will mark it
    return {
        "received": [r for r in pending if r.challenged_id == user.pk],
        "sent": [r for r in pending if r.challenger_id == user.pk],
        "past": closed,
    }


def pending_received(user, limit: int = 10) -> list[Challenge]:
    """The latest challenges waiting for ``user``'s answer, for the lobby (one query)."""
    return list(
        Challenge.objects.filter(challenged=user, state=State.PENDING, expires_at__gt=timezone.now())
        .select_related("challenger")
        .order_by("-created_at", "-id")[:limit]
    )


def challenge_json(challenge: Challenge) -> dict:
    terms = challenge.terms
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.username,
        "challenged": challenge.challenged.username,
        "game": challenge.game,
        "game_name": terms.game_name,
        "num_players": challenge.num_players,
        "options": challenge.options,
        "speed": challenge.speed,
        "seconds_per_move": challenge.seconds_per_move if terms.timed else None,
        "rated": challenge.rated,
        "state": challenge.state,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "match": challenge.match_id,
        "match_url": reverse("match", args=[challenge.match_id]) if challenge.match_id else None,
    }


def challenges_for_api(user):
    """Every challenge of ``user``'s, sent or received, newest first (the API pages them)."""
    return (
        Challenge.objects.filter(Q(challenger=user) | Q(challenged=user))
        .select_related("challenger", "challenged")
        .order_by("-created_at", "-id")
    )
