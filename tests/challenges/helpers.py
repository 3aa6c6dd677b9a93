"""Finished matches to offer rematches of."""

from games import services
from tests.games.helpers import fresh, start_two_player


def finished_two_player(creator, other, game="game-of-god", **kwargs):
    """A two-player match that ``other`` resigned: ``creator`` (seat 0) won."""
    match = start_two_player(game, creator, other, **kwargs)
    services.match_resign(match_id=match.pk, user=other)
    return fresh(match.pk)


def finished_against_bot(person, bot="random", game="game-of-god", **kwargs):
    """``person`` (seat 0) against a bot, resigned at once."""
    match = services.match_create(user=person, game=game, num_players=2, rated=False, speed="untimed", **kwargs)
    services.match_seat_bot(match_id=match.pk, user=person, bot=bot)
    services.match_resign(match_id=match.pk, user=person)
    return fresh(match.pk)


def finished_three_player(a, b, c, game="dice-territory"):
    match = services.match_create(user=a, game=game, num_players=3)
    services.match_join(match_id=match.pk, user=b)
    services.match_join(match_id=match.pk, user=c)
    services.match_resign(match_id=match.pk, user=b)
    services.match_resign(match_id=match.pk, user=c)
    return fresh(match.pk)
