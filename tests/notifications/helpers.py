"""Matches in a state the notification rules care about."""

from datetime import timedelta

from django.utils import timezone

from games import services
from games.models import Match
from notifications.models import NotificationSettings
from tests.games.helpers import fresh, start_two_player


def correspondence(creator, other, game="game-of-god", days=3) -> Match:
    return start_two_player(game, creator, other, speed=Match.Speed.CORRESPONDENCE, days_per_move=days)


def waiting_for(match: Match):
    """The person whose move it is."""
    return match.seats.get(index=match.to_move).user


def turn_began(match: Match, ago: timedelta) -> Match:
    """Move the match's clock so that its current turn began ``ago``."""
    deadline = timezone.now() - ago + timedelta(seconds=match.seconds_per_move)
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    return fresh(match.pk)


def last_seen(user, ago: timedelta | None) -> None:
    NotificationSettings.objects.update_or_create(
        user=user, defaults={"last_seen": None if ago is None else timezone.now() - ago}
    )


def play_one_move(match: Match) -> Match:
    from games import state_cache

    state = state_cache.load(match)
    mover = waiting_for(match)
    services.match_act(match_id=match.pk, user=mover, action=state.legal_actions()[0], version=match.version)
    return fresh(match.pk)


def until_waiting_for(match: Match, person) -> Match:
    """Play the others' moves until it is ``person``'s move."""
    for _ in range(50):
        if waiting_for(match) == person:
            return match
        match = play_one_move(match)
    raise AssertionError(f"{person} never got the move in {match}")
