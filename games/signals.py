from django.dispatch import Signal

# Sent once a version at which a bot is to act is committed and its update published;
# receivers get ``match_id`` and ``version`` (``games.receivers`` queues the bot's move).
bot_to_move = Signal()

# Sent once a match's result is committed; receivers get ``match_id`` and ``game`` (its slug).
match_finished = Signal()

# Sent once a change to the list of open matches is committed (a match opened, a seat taken
# or given back, a match started or called off); receivers get ``match_id``. Never sent for
# moves, so receivers cost the move path nothing.
open_matches_changed = Signal()

# Sent once an analysis is queued (committed); receivers get ``analysis_id`` (``games.receivers``
# hands it to the workers of the ``analysis`` queue).
analysis_requested = Signal()
