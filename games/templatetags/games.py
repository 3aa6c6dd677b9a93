from django import template

from games.selectors import match_seat_names

register = template.Library()


@register.filter
def named_seats(match):
    """``(seat, name)`` for each of the match's seats, in the order they were fetched, named
    as everywhere else ("Greedy (red)", games.seat_names)."""
    seats = list(match.seats.all())
    names = match_seat_names(match, sorted(seats, key=lambda seat: seat.index))
    return [(seat, names[seat.index]) for seat in seats]
