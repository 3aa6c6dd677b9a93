from django.dispatch import Signal

# Sent once a match's result is committed; receivers get ``match_id``.
match_finished = Signal()
