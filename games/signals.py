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

# Sent once a challenge to a person is committed; receivers get ``challenge_id``, ``user_id``
# (the person challenged), ``text`` (one line a person reads) and ``url`` (where to answer it).
challenge_received = Signal()

# Sent once a challenge to a person is answered, withdrawn or expired (committed); receivers
# get ``challenge_id``, ``user_id`` (the person to tell: the challenger, or the person
# challenged when the challenger withdrew), ``text`` and ``url`` (the match, once accepted).
challenge_answered = Signal()

# Sent once a rematch offer is committed; receivers get ``match_id`` (the finished match),
# ``user_ids`` (the people asked, never the bots), ``text`` and ``url``.
rematch_offered = Signal()
