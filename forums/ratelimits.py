"""How often one person may post: one post every 15 seconds and 30 an hour, over a sliding
window (``portal.rate_limits``), so no two posts are ever less than 15 seconds apart. How
often one person, or one client address when signed out, may search (django-ratelimit), and
how many searches one server process runs at once, whoever asks (``search_place``).

The posting limit is the services' (``forums.services``): every topic and reply counts,
whoever opens it (the forum's pages, a match's discussion, a tournament's announcement). A
service writes inside ``with posting(user) as attempt``, refuses with ``PostingLimited`` when
``attempt.refusal`` says so, and calls ``attempt.count()`` once the post is written, so a
refused or invalid attempt costs nothing. Inside the block the user holds a claim, so two
posts sent at the same moment cannot both pass the check before either is counted. The
times live in the default cache (Redis when configured, so every process shares them); with
the cache unreachable, posts go through unthrottled.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage

from portal.errors import lazy_message
from portal.rate_limits import Attempt, Rate, Refusal, SlidingWindow, wait_words

log = logging.getLogger(__name__)

POSTS = SlidingWindow(
    "forums.post",
    Rate(1, 15, _("one post every 15 seconds")),
    Rate(30, 3600, _("30 posts an hour")),
)

# Reports of posts to the moderators: enough for a member who meets a bad thread, too few to
# flood the moderators' queue.
REPORTS = SlidingWindow(
    "forums.report",
    Rate(5, 600, _("5 reports in 10 minutes")),
    Rate(20, 86400, _("20 reports a day")),
)

_wait = wait_words


def report_refusal_words(refusal: Refusal) -> str | Promise:
    """Why a report of a post is refused for now."""
    if refusal.rate is None:
        return _("Your previous report is still being saved. Try again in a moment.")
    return lazy_message(
        _("You are reporting too often: the moderators take %(rate)s. Try again in %(wait)s."),
        rate=refusal.rate.words,
        wait=_wait(refusal.wait),
    )


def refusal_words(refusal: Refusal, *, text_kept: bool) -> str | Promise:
    """Why a post is refused; ``text_kept``: a page shows the form again with the text."""
    if refusal.rate is None:
        return _("Your previous post is still being saved. Try again in a moment.")
    if text_kept:
        sentence = _(
            "You are posting too quickly: the forum takes %(rate)s. Try again in %(wait)s; your text is kept below."
        )
    else:
        sentence = _("You are posting too quickly: the forum takes %(rate)s. Try again in %(wait)s.")
    return lazy_message(sentence, rate=refusal.rate.words, wait=_wait(refusal.wait))


@contextmanager
def posting(user) -> Iterator[Attempt]:
    """Hold the user's claim for one attempt to post, and give it up on the way out whatever
    happens (written, refused, failed). A second attempt while the claim is held is refused."""
    with POSTS.attempt(user.pk) as attempt:
        yield attempt


# A search reads the whole index: a person needs a few a minute, a script wanting more is refused.
SEARCH_GROUP = "forums.search"
SEARCH_RATE = "20/m"


@dataclass(frozen=True)
class SearchRefusal:
    """Why a search is refused, and the seconds to wait before the next (its Retry-After)."""

    message: str
    retry_after: int


def search_refusal(request) -> SearchRefusal | None:
    """Count one search by the user (or the client address when signed out) and say why it
    is refused when there were too many, and after how many seconds it may be tried again;
    None when it may go ahead, and when the cache cannot be reached (logged)."""
    try:
        usage = get_usage(request, group=SEARCH_GROUP, key="user_or_ip", rate=SEARCH_RATE, increment=True)
    except Exception:
        log.warning("Search rate limit not checked: the cache is unreachable", exc_info=True)
        return None
    if usage is None or not usage["should_limit"]:
        return None
    # The window's end, in whole seconds, at least one (Retry-After is a whole number).
    wait = max(1, math.ceil(usage["time_left"]))
    message = f"You are searching too quickly: the forum takes 20 searches a minute. Try again in {_wait(wait)}."
    return SearchRefusal(message=message, retry_after=wait)


# Seconds a search refused for want of a place is told to wait (Retry-After): about a search's length.
SEARCH_BUSY_RETRY_SECONDS = 2
SEARCH_BUSY = "The forum is answering many searches at the moment. Try again in a few seconds."

_places_lock = threading.Lock()
_places: dict[int, threading.BoundedSemaphore] = {}


def _search_places(size: int) -> threading.BoundedSemaphore:
    with _places_lock:
        if size not in _places:
            _places[size] = threading.BoundedSemaphore(size)
        return _places[size]


@contextmanager
def search_place():
    """Hold one of this process's ``FORUM_SEARCHES_AT_ONCE`` places for searching while the
    block runs, waiting up to ``FORUM_SEARCH_WAIT_SECONDS`` for one to come free. Yields True
    with a place, False without one (the search must not run: refuse it with SEARCH_BUSY).

    Each search holds a database connection while it runs; the bound keeps searches from
    taking the whole pool (the pages, sockets and moves share it) however many arrive."""
    places = _search_places(max(1, settings.FORUM_SEARCHES_AT_ONCE))
    held = places.acquire(timeout=max(0.0, settings.FORUM_SEARCH_WAIT_SECONDS))
    try:
        yield held
    finally:
        if held:
            places.release()
