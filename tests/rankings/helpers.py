"""Finished-match records made directly, the way rankings sees them: seats with users and places."""

from datetime import timedelta

from django.utils import timezone

from games.models import Match, Seat

BASE_TIME = timezone.now() - timedelta(days=3)


def quick_users(count, prefix="player"):
    """Accounts that never log in: no password hashing, so hundreds cost nothing."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return User.objects.bulk_create(User(username=f"{prefix}{i}", password="!") for i in range(1, count + 1))


def finished_match(users, places, *, game="chit-territory", rated=True, finished_at=None, status=None) -> Match:
    """A finished match of ``users`` (seat order) who ended in ``places`` (1 = best)."""
    match = Match.objects.create(
        game=game,
        num_players=len(users),
        status=status or Match.Status.FINISHED,
        rated=rated,
        creator=users[0],
        finished_at=finished_at or timezone.now(),
        end_reason="game over",
    )
    Seat.objects.bulk_create(
        Seat(match=match, index=i, user=user, place=place, score=10 - place, joined_at=match.created_at)
        for i, (user, place) in enumerate(zip(users, places, strict=True))
    )
    return match


def ratings_snapshot(game=None):
    from rankings.models import Rating

    qs = Rating.objects.all() if game is None else Rating.objects.filter(game=game)
    return sorted(qs.values_list("user_id", "game", "rating", "rated_games", "wins"))


def changes_snapshot(game=None):
    from rankings.models import RatingChange

    qs = RatingChange.objects.all() if game is None else RatingChange.objects.filter(game=game)
    return sorted(qs.values_list("match_id", "user_id", "game", "before", "after", "place", "created"))
