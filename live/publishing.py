"""Publishing an outbox: the one way anything in the project reaches the sockets.

``publish`` on the event loop (a socket's edge): each message is awaited on the channel
layer, then each follow-up runs in the sockets' database threads. ``publish_now`` from sync
code after the commit, through the bridge when the thread works for the server (``bridge``).
``publish_on_commit`` from sync code inside a transaction: the outbox (or one event) is
published once the transaction commits, and never if it rolls back.

Every message and every follow-up is attempted on its own terms: a message that cannot be
sent stops the rest (they go through the same layer) and is reported to ``reach.send_failed``;
while the live path is known to be down (``reach.down``: Redis timed out or refused a moment
ago) none is tried, so a Redis that hangs holds no publish. Redis not answering is logged
once per outage by its breaker, any other fault with its traceback. A follow-up that fails
is logged and the next still runs. Nothing a publish does is raised into the change that was
committed: what is lost, the periodic checks and the pages' resync repair.

Every committed change of a match reaches its sockets here, so here too its kept page
(``portal.page_cache``) is made stale: each message to a match's group draws a new generation
of the match's area (``page_cache.live_area``), set in the same Redis command that publishes
the message (``live.layer``; with the in-memory layer of the embedded default, in the
process's cache right after the send). Not while the live path is known to be down (Redis with it): a
page kept then is kept a minute at most (``games.views.MATCH_PAGE_SECONDS``), and its
socket's first snapshot shows the change.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from portal import metrics, page_cache

from . import bridge, reach
from .executor import db
from .groups import page_group
from .outbox import Outbox

log = logging.getLogger(__name__)


async def publish(outbox: Outbox) -> bool:
    """Send ``outbox`` from the event loop; whether every message went out."""
    bridge.note_loop()
    sent, redis_down = True, False
    if outbox.messages:
        if reach.down():
            sent, redis_down = False, True
        else:
            layer = get_channel_layer()
            for group, message in outbox.messages:
                try:
                    await _send(layer, group, message)
                except Exception as exc:
                    sent, redis_down = False, _send_failed(exc, group, message)
                    break  # the next message goes through the same layer
            if sent:
                reach.sent()
    if not sent:
        metrics.broadcast_failed(redis_down)
        await db(reach.send_failed)(redis_down)
    for follow_up in outbox.follow_ups:
        try:
            await db(follow_up)()
        except Exception:
            log.exception("A follow-up of a committed change failed: %r", follow_up)
    return sent


def publish_now(outbox: Outbox) -> bool:
    """Send ``outbox`` from sync code, outside a transaction; whether every message went out."""
    sent, redis_down = True, False
    if outbox.messages:
        if reach.down():
            sent, redis_down = False, True
        else:
            layer = get_channel_layer()
            for group, message in outbox.messages:
                try:
                    bridge.call(_send, layer, group, message)
                except Exception as exc:
                    sent, redis_down = False, _send_failed(exc, group, message)
                    break
            if sent:
                reach.sent()
    if not sent:
        metrics.broadcast_failed(redis_down)
        reach.send_failed(redis_down)
    for follow_up in outbox.follow_ups:
        try:
            follow_up()
        except Exception:
            log.exception("A follow-up of a committed change failed: %r", follow_up)
    return sent


async def _send(layer, group: str, message: Mapping[str, Any]) -> None:
    """``group_send``; to a match's group, with a new generation of the match's page: set by
    the Redis layer in the same command when it can, here after the send otherwise."""
    await layer.group_send(group, message)
    shown = page_group(group)
    if shown is not None and not _layer_sets_generations(layer):
        await page_cache.abump(page_cache.live_area(shown))


def _layer_sets_generations(layer) -> bool:
    sets = getattr(type(layer), "sets_page_generations", None)
    return sets is not None and layer.sets_page_generations()


def _send_failed(exc: Exception, group: str, message: Mapping[str, Any]) -> bool:
    """A message did not go out: whether Redis did not answer (the breaker, now open, logs the
    outage once); any other fault is logged here with its traceback."""
    if reach.failed(exc):
        return True
    log.error("Could not send %s to %s", message.get("type"), group, exc_info=exc)
    return False


def publish_on_commit(target: Outbox | str, event: Mapping[str, Any] | None = None) -> None:
    """Publish ``target`` (an outbox, or a group to send ``event`` to) once the current
    transaction commits; at once outside a transaction."""
    if isinstance(target, str):
        if event is None:
            raise TypeError("publish_on_commit(group, event) needs the event")
        outbox = Outbox()
        outbox.send(target, event)
    else:
        outbox = target
    transaction.on_commit(lambda: publish_now(outbox), robust=True)
