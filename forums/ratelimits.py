"""How often one person may post: one post every 15 seconds and 30 an hour (django-ratelimit).

Only posts that go through count: the views ask ``refusal`` before writing and call
``record`` after, so a refused or invalid attempt costs nothing. Between the two the user
holds a short claim (an atomic ``cache.add``), so two posts sent at the same moment cannot
both pass the check before either is counted. The counters and claims live in the default
cache (Redis when configured, so every process shares them).
"""

from __future__ import annotations

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


def refusal(request, *, text_kept: bool = True) -> str | None:
    """A message saying why the user may not post now, or None when they may (and the user
    then holds the claim until ``record``)."""
    if not cache.add(_claim_key(request), 1, timeout=CLAIM_SECONDS):
        return "Your previous post is still being saved. Try again in a moment."
    for rate, words in POST_RATES:
        usage = get_usage(request, group=GROUP, key="user", rate=rate, increment=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            cache.delete(_claim_key(request))
            kept = "; your text is kept below" if text_kept else ""
            return (
                f"You are posting too quickly: the forum takes {words}. "
                f"Try again in {_wait(usage['time_left'])}{kept}."
            )
    return None


def record(request) -> None:
    """Count a post that was written, and give up the claim."""
    for rate, _words in POST_RATES:
        get_usage(request, group=GROUP, key="user", rate=rate, increment=True)
    cache.delete(_claim_key(request))


def release(request) -> None:
    """Give up the claim without counting: the post was not written."""
    cache.delete(_claim_key(request))
