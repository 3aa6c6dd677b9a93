"""What the forums tell the rest of the site. Every signal here is sent after commit."""

from django.dispatch import Signal

# Sent once a reply to a topic is committed; receivers get ``post_id`` (the reply).
post_replied = Signal()

# Sent once a report of a post is committed; receivers get ``report_id``, ``phrase`` (what to
# tell the moderators, ``portal.phrases``) and ``url`` (the moderators' queue).
post_reported = Signal()
