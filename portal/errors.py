"""The one error model of the services: every refusal a service gives is a ``ServiceError``.

``code`` is one of the protocol's error codes (the same on the socket and in the API),
``message`` is for people, and ``field`` names the form field at fault when there is one.
Each app has its own subclass (``games.services.MatchError``, ``forums.services.ForumError``,
``tournaments.services.TournamentError``, ``challenges.services.ChallengeError``); the API's
exception handler (``portal.api_errors``) answers any of them with ``HTTP_STATUS`` below, and
pages show them through ``portal.refusals``. Views do not catch them one by one.

A message is marked for translation lazily (``gettext_lazy``): it becomes text in the language
of whoever reads it, when it is shown (a page's language, the API's ``Accept-Language``, a
socket's page), not when it is raised. A message with values is ``lazy_message(_("... %(name)s ..."),
name=...)``: interpolated then too, in the language of the reader.
"""

from __future__ import annotations

from typing import cast

from django.utils.functional import Promise, lazy

BAD_REQUEST = 400
FORBIDDEN = 403
NOT_FOUND = 404
CONFLICT = 409
TOO_MANY_REQUESTS = 429

# The HTTP status of every code a service raises. A code missing here is a bad request.
HTTP_STATUS: dict[str, int] = {
    # The request itself is wrong: a bad value, an illegal action.
    "bad_request": BAD_REQUEST,
    "illegal": BAD_REQUEST,
    "bad_record": BAD_REQUEST,  # a game record that does not replay (games.services.imports)
    # Not allowed to the caller.
    "forbidden": FORBIDDEN,
    "not_seated": FORBIDDEN,
    "not_your_turn": FORBIDDEN,
    "not_entered": FORBIDDEN,  # tournaments: that player has not entered
    "rated": FORBIDDEN,  # takebacks: never in a rated match
    "own_bot": FORBIDDEN,  # a bot account never plays a rated match against its owner
    "bots_not_accepted": FORBIDDEN,  # a bot account where the creator did not let bots in
    "not_yours": FORBIDDEN,  # takebacks: the asker does not answer their own request
    # Nothing there (or not visible to the caller).
    "not_found": NOT_FOUND,
    # The state of things says no: too late, already done, or over a limit.
    "stale": CONFLICT,
    "finished": CONFLICT,
    "too_many_open": CONFLICT,
    "too_many_bot_matches": CONFLICT,  # games: one person's matches against bots going at once
    "full": CONFLICT,  # tournaments
    "nothing_to_take_back": CONFLICT,  # takebacks, down to bots_decline
    "chance": CONFLICT,
    "moved_since": CONFLICT,
    "pending": CONFLICT,
    "declined": CONFLICT,
    "no_request": CONFLICT,
    "bots_decline": CONFLICT,
    "closed": CONFLICT,  # challenges and rematch offers, down to not_finished
    "already_pending": CONFLICT,
    "too_many_pending": CONFLICT,
    "not_finished": CONFLICT,
    "too_many_bots": CONFLICT,  # bot accounts: one person's cap
    "name_taken": CONFLICT,
    "bot_paused": CONFLICT,  # a bot account paused after timing out in a row
    "already_reported": CONFLICT,  # forums: one report per member and post
    # Too often.
    "rate_limited": TOO_MANY_REQUESTS,
    "throttled": TOO_MANY_REQUESTS,
}


def _interpolate(template, values: dict) -> str:
    # ``%`` on a marked template translates it now: a plural one (``ngettext_lazy`` with the
    # name of its count) chooses its form from ``values`` then too.
    return template % values


_lazy_interpolate = lazy(_interpolate, str)


def lazy_message(template: str | Promise, **values) -> str:
    """``template % values``, lazily: a marked template (``gettext_lazy``, or ``ngettext_lazy``
    given the name of its count) is translated, and its named placeholders filled, each time
    the message is shown, in the language active then."""
    return _lazy_interpolate(template, values)


def http_status(code: str) -> int:
    """The HTTP status of an error code: 400 for a code the table does not know."""
    return HTTP_STATUS.get(code, BAD_REQUEST)


class ServiceError(Exception):
    """A refused request: ``code`` (see ``HTTP_STATUS``), a ``message`` for people, and the
    form ``field`` at fault, if any. ``str()`` is the message.

    ``extra`` holds what an edge adds to the API's error body beside the code and the message
    (the games' API adds the caller's snapshot to a stale or finished refusal)."""

    def __init__(self, code: str, message: str | Promise, field: str | None = None):
        super().__init__(message)
        self.code = code
        # Read as a str: a lazy message is one, in the language active when it is read.
        self.message = cast(str, message)
        self.field = field
        self.extra: dict = {}

    def __str__(self) -> str:
        return str(self.message)

    @property
    def http_status(self) -> int:
        return http_status(self.code)
