"""Rate limits over a sliding window, shared by every process through the default cache.

A limiter keeps, per key (a user), the times of the actions it let through within the
longest of its windows, and refuses an attempt while any window already holds its limit:
"one post every 15 seconds" then means that no two posts are ever less than 15 seconds
apart. (django-ratelimit, which throttles other things here, counts in fixed windows: two
posts either side of a window's edge both pass.)

The check and the count of one key run under a claim (an atomic ``cache.add``), so two
attempts at the same moment cannot both pass the check before either is counted: the second
is refused as busy. Only what is counted uses up the allowance, so a caller counts once the
action has gone through::

    with CHAT.attempt(user.pk) as attempt:
        if attempt.refusal:
            ...  # say why, and do nothing
        ...      # do it
        attempt.count()

When the cache cannot be reached the limiter lets everything through (logged): posting and
chatting keep working while Redis is down, unthrottled for that time.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from .errors import lazy_message

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    limit: int
    seconds: int
    words: str | Promise  # how a refusal says it (marked): "one post every 15 seconds"


@dataclass(frozen=True)
class Refusal:
    rate: Rate | None  # None: another attempt under the same key is under way
    wait: int  # whole seconds until an attempt can pass

    def words(self, sentence: str | Promise) -> str | Promise:
        """The refusal as a service says it: ``sentence`` is the marked message, which names
        what was done too quickly and holds ``%(rate)s`` (the rate's words) and ``%(wait)s``
        (how long to wait), both read in the reader's language too."""
        if self.rate is None:
            return _("Your previous request is still being handled. Try again in a moment.")
        return lazy_message(sentence, rate=self.rate.words, wait=wait_words(self.wait))


def wait_words(seconds: int) -> str:
    """How long to wait, as a refusal says it: "11 seconds", "5 minutes" (lazily translated)."""
    seconds = max(1, seconds)
    if seconds < 90:
        return lazy_message(ngettext_lazy("%(count)s second", "%(count)s seconds", "count"), count=seconds)
    return lazy_message(_("%(count)s minutes"), count=round(seconds / 60))


class Attempt:
    def __init__(self, limiter: SlidingWindow | None, key: str, times: list[float], refusal: Refusal | None):
        self._limiter = limiter
        self._key = key
        self._times = times
        self.refusal = refusal

    def count(self) -> None:
        """Count the action, which went through: now, not when it was checked."""
        if self._limiter is None or self.refusal is not None:
            return
        self._times.append(time.time())
        try:
            cache.set(self._key, self._times, self._limiter.longest)
        except Exception:
            log.warning("Could not count an action of %s: the cache is unreachable", self._key, exc_info=True)


class SlidingWindow:
    """At most ``rate.limit`` actions per key in any ``rate.seconds``, for every rate given."""

    def __init__(self, name: str, *rates: Rate, claim_seconds: int = 10):
        self.name = name
        self.rates = rates
        self.longest = max(rate.seconds for rate in rates)
        # How long a claim outlives a process that died between check and count.
        self.claim_seconds = claim_seconds

    @contextmanager
    def attempt(self, key) -> Iterator[Attempt]:
        times_key = f"rate:{self.name}:{key}"
        claim_key = f"{times_key}:claim"
        try:
            claimed = cache.add(claim_key, 1, timeout=self.claim_seconds)
            times = (cache.get(times_key) or []) if claimed else []
        except Exception:
            log.warning("Rate limit %s not checked: the cache is unreachable", self.name, exc_info=True)
            yield Attempt(None, times_key, [], None)
            return
        if not claimed:
            yield Attempt(None, times_key, [], Refusal(None, 1))
            return
        try:
            now = time.time()
            times = sorted(t for t in times if now - t < self.longest)
            yield Attempt(self, times_key, times, self._refusal(times, now))
        finally:
            try:
                cache.delete(claim_key)
            except Exception:
                log.warning("Could not give back the claim %s", claim_key, exc_info=True)

    def _refusal(self, times: list[float], now: float) -> Refusal | None:
        for rate in self.rates:
            recent = [t for t in times if now - t < rate.seconds]
            if len(recent) >= rate.limit:
                # The attempt may pass once the oldest action that fills the window leaves it.
                leaves = recent[len(recent) - rate.limit] + rate.seconds
                return Refusal(rate, max(1, math.ceil(leaves - now)))
        return None
