"""What challenges tell the rest of the site. Every signal here is sent after commit."""

from django.dispatch import Signal

# Sent once a challenge to a person is committed; receivers get ``challenge_id``, ``user_id``
# (the person challenged), ``text`` (one line a person reads) and ``url`` (where to answer it).
challenge_received = Signal()

# Sent once a challenge to a person is answered, withdrawn or expired (committed); receivers
# get ``challenge_id``, ``user_id`` (the person to tell: the challenger, or the person
# challenged when the challenger withdrew), ``text``, ``url`` (the match, once accepted) and
# ``key`` (empty, or the key under which repeats collapse: one challenger's withdrawals).
challenge_answered = Signal()

# Sent once a rematch offer is committed; receivers get ``match_id`` (the finished match),
# ``user_ids`` (the people asked, never the bots), ``text`` and ``url``.
rematch_offered = Signal()
