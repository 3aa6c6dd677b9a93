"""How often one person may post: one post every 15 seconds and 30 an hour (django-ratelimit).

Only posts that go through count: a view writes inside ``with posting(request) as slot``,
looks at ``slot.refusal`` first and calls ``slot.count()`` once the post is written, so a
refused or invalid attempt costs nothing. Inside the block the user holds a short claim (an
atomic ``cache.add``), so two posts sent at the same moment cannot both pass the check before
either is counted. The counters and claims live in the default
cache (Redis when configured, so every process shares them).
"""

from __future__ import annotations

from contextlib import contextmanager

from django.core.cache import cache
from django_ratelimit.core import get_usage

GROUP = "forums.post"
# (django-ratelimit rate, how the refusal says it)
POST_RATES = (("1/15s", "one post every 15 seconds"), ("30/h", "30 posts an hour"))
CLAIM_SECONDS = 5  # how long a claim outlives a request that failed between check and count


def _claim_key(request) -> str:
    return f"{GROUP}.claim.{request.user.pk}"


def _wait(seconds: int) -> str:
    seconds = max(1, seconds)
    if seconds < 90:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = round(seconds / 60)
    return f"{minutes} minutes"


class Slot:
    """One attempt to post: ``refusal`` says why the user may not post now (None when they
    may); ``count()`` counts the post once it is written."""

    def __init__(self, request, refusal: str | None):
        self.request = request
        self.refusal = refusal

    def count(self) -> None:
        for rate, _words in POST_RATES:
            get_usage(self.request, group=GROUP, key="user", rate=rate, increment=True)


@contextmanager
def posting(request, *, text_kept: bool = True):
    """Hold the user's claim for one attempt to post, and give it up on the way out whatever
    happens (written, refused, failed). A second attempt while the claim is held is refused."""
    if not cache.add(_claim_key(request), 1, timeout=CLAIM_SECONDS):
        yield Slot(request, "Your previous post is still being saved. Try again in a moment.")
        return
    try:
        yield Slot(request, _over_the_limit(request, text_kept))
    finally:
        cache.delete(_claim_key(request))


def _over_the_limit(request, text_kept: bool) -> str | None:
    for rate, words in POST_RATES:
        usage = get_usage(request, group=GROUP, key="user", rate=rate, increment=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            kept = "; your text is kept below" if text_kept else ""
            return (
                f"You are posting too quickly: the forum takes {words}. "
                f"Try again in {_wait(usage['time_left'])}{kept}."
            )
    return None
