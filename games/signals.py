from django.dispatch import Signal

# Sent once a match's result is committed; receivers get ``match_id`` and ``game`` (its slug).
match_finished = Signal()

# Sent once a change to the list of open matches is committed (a match opened, a seat taken
# or given back, a match started or called off); receivers get ``match_id``. Never sent for
# moves, so receivers cost the move path nothing.
open_matches_changed = Signal()
