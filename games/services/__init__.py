"""Every write to matches goes through here: the single door for players, bots and clocks.

A package on one write layer (``writes``: lock, record, bump, outbox), with the services on
top of it: ``seating`` (terms, opening, seats, bots seated, start, abort, expiry), ``play``
(actions, resigning), ``chat``, ``clocks`` (time run out), ``outages`` (clocks stopped while
the live path is down) and ``takebacks``. Each service that a socket calls takes the socket's
``live.Outbox`` and fills it once committed; called without one, it publishes its own once
committed. The public names are re-exported here: ``from games import services``.
"""

from . import owner
from .analysis import analysis_for, analysis_json, analysis_request, analysis_run
from .chat import CHAT_LIMIT, CHAT_RATE, can_chat, chat_hide, chat_notice, chat_post, match_broadcast
from .clocks import match_check_clock, match_timeout
from .outages import OUTAGE_NOTICE, clocks_may_run, clocks_stopped, outage_begin, outage_end
from .play import ActResult, match_act, match_resign
from .seating import (
    BOTS_NOT_ACCEPTED,
    bot_account,
    can_view,
    clock_terms,
    match_abort,
    match_call_off,
    match_create,
    match_create_against_bots,
    match_expire,
    match_join,
    match_leave,
    match_seat_bot,
    match_staff_end,
    match_start,
    match_terms,
    watcher,
)
from .takebacks import TakebackResult, takeback_answer, takeback_request
from .writes import TAKEOVER_BOT, MatchError, read_position

__all__ = [
    "owner",
    "CHAT_LIMIT",
    "CHAT_RATE",
    "OUTAGE_NOTICE",
    "TAKEOVER_BOT",
    "ActResult",
    "analysis_for",
    "analysis_json",
    "analysis_request",
    "analysis_run",
    "MatchError",
    "TakebackResult",
    "bot_account",
    "can_chat",
    "can_view",
    "chat_hide",
    "chat_notice",
    "chat_post",
    "clock_terms",
    "clocks_may_run",
    "clocks_stopped",
    "match_abort",
    "match_act",
    "match_broadcast",
    "match_call_off",
    "match_check_clock",
    "BOTS_NOT_ACCEPTED",
    "match_create",
    "match_create_against_bots",
    "match_expire",
    "match_join",
    "match_leave",
    "match_resign",
    "match_seat_bot",
    "match_staff_end",
    "match_start",
    "match_terms",
    "match_timeout",
    "outage_begin",
    "outage_end",
    "read_position",
    "takeback_answer",
    "takeback_request",
    "watcher",
]
