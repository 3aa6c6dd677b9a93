"""What challenges tell the rest of the site, and ask it. Every signal here but
``rematch_refused`` is sent after commit."""

from django.dispatch import Signal

# Sent once a challenge to a person is committed; receivers get ``challenge_id``, ``user_id``
# (the person challenged), ``phrase`` (one line a person reads, said in their language:
# ``portal.phrases``) and ``url`` (where to answer it).
challenge_received = Signal()

# Sent once a challenge to a person is answered, withdrawn or expired (committed); receivers
# get ``challenge_id``, ``user_id`` (the person to tell: the challenger, or the person
# challenged when the challenger withdrew), ``phrase``, ``url`` (the match, once accepted) and
# ``key`` (empty, or the key under which repeats collapse: one challenger's withdrawals).
challenge_answered = Signal()

# Sent once a rematch offer is committed; receivers get ``match_id`` (the finished match),
# ``user_ids`` (the people asked, never the bots), ``phrase`` and ``url``.
rematch_offered = Signal()

# Sent once a rematch offer stops waiting (accepted, declined, withdrawn or expired),
# committed; receivers get ``match_id`` (the finished match).
rematch_closed = Signal()

# Sent (at once, in the request) to ask whether a finished match may be played again on its
# own: receivers get ``match_id`` and return a sentence saying why not (a tournament's table
# is played again only as the tournament pairs it), or None.
rematch_refused = Signal()
