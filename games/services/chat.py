"""The match chat: who may write, a message posted, the site's own notices, and other news
about a match sent to its sockets."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

import live
from live.events import CHAT_HIDDEN, CHAT_MESSAGE, ChatHidden, ChatPosted
from live.groups import match_group
from portal.errors import lazy_message
from portal.rate_limits import Rate, SlidingWindow

from ..models import ChatMessage, Match, ModerationLog
from ..selectors import chat_json
from .writes import MatchError, outbox_for

# Everyone's chat, players' and spectators', over the socket or the API: a flood limit per person.
CHAT_RATE = Rate(5, 10, _("5 messages in 10 seconds"))
CHAT_LIMIT = SlidingWindow("games.chat", CHAT_RATE)


def can_chat(match: Match, user) -> bool:
    """Who may write in a match's chat: any logged-in person in a public match, only the
    players in an invite-only one."""
    if not user.is_authenticated:
        return False
    if match.visibility == Match.Visibility.INVITE:
        return any(seat.user_id == user.pk for seat in match.seats.all())
    return True


def chat_post(*, match_id: int, user, text, outbox: live.Outbox | None = None) -> ChatMessage:
    """Write ``text`` in the match's chat as ``user`` and send it to every socket of the match."""
    if not user.is_authenticated:
        raise MatchError(_("Sign in to chat."), "forbidden")
    if not isinstance(text, str) or not text.strip():
        raise MatchError(_("Write something first."), "bad_request")
    text = text.strip()
    if "\x00" in text:  # no database keeps it in text
        raise MatchError(_("A chat message cannot contain a NUL character."), "bad_request")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise MatchError(
            lazy_message(_("A chat message is at most %(max)s characters."), max=ChatMessage.MAX_LENGTH), "bad_request"
        )
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise MatchError(_("There is no such match."), "not_found")
    if not can_chat(match, user):
        raise MatchError(_("Only the players chat in an invite-only match."), "forbidden")
    with CHAT_LIMIT.attempt(user.pk) as attempt:
        if attempt.refusal is not None:
            wait = attempt.refusal.wait
            raise MatchError(
                lazy_message(
                    ngettext_lazy(
                        "You are sending messages too quickly: the chat takes %(rate)s. Try again in %(wait)s second.",
                        "You are sending messages too quickly: the chat takes %(rate)s. Try again in %(wait)s seconds.",
                        "wait",
                    ),
                    rate=CHAT_RATE.words,
                    wait=wait,
                ),
                "rate_limited",
            )
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        attempt.count()
    with outbox_for(outbox) as box:
        _send(message, box)
    return message


def chat_notice(match_id: int, text: str, outbox: live.Outbox) -> ChatMessage:
    """Write the site's own notice in the match's chat (a clock moved on, a move taken back)."""
    message = ChatMessage.objects.create(match_id=match_id, user=None, text=text[: ChatMessage.MAX_LENGTH])
    _send(message, outbox)
    return message


def chat_hide(*, message_id: int, moderator, hidden: bool = True) -> bool:
    """Hide a chat message (``hidden=False``: show it again), as staff: it is no longer served
    to anyone, the open pages drop it, and the moderation log records who did it and when.
    False when it was so already (nothing is written)."""
    if not (moderator.is_authenticated and moderator.is_staff):
        raise MatchError(_("Only staff moderate the chat."), "forbidden")
    with transaction.atomic():
        locked = ChatMessage.objects.select_for_update(of=("self",))  # not its author's row
        message = locked.select_related("user").filter(pk=message_id).first()
        if message is None:
            raise MatchError(_("There is no such chat message."), "not_found")
        if message.is_hidden == hidden:
            return False
        message.hidden_at, message.hidden_by = (timezone.now(), moderator) if hidden else (None, None)
        message.save(update_fields=["hidden_at", "hidden_by"])
        author = message.user.username if message.user is not None else "the site"
        ModerationLog.objects.create(
            moderator=moderator,
            action=ModerationLog.Action.HIDE_CHAT if hidden else ModerationLog.Action.SHOW_CHAT,
            match_id=message.match_id,
            chat_message=message,
            detail=f"{author}: {message.text}"[:600],
        )
        if hidden:
            outbox = live.Outbox()
            event: ChatHidden = {"type": CHAT_HIDDEN, "id": message.pk}
            outbox.send_on_commit(match_group(message.match_id), event)
            live.publish_on_commit(outbox)
    return True


def _send(message: ChatMessage, outbox: live.Outbox) -> None:
    event: ChatPosted = {"type": CHAT_MESSAGE, "message": chat_json(message)}
    outbox.send_on_commit(match_group(message.match_id), event)


def match_broadcast(match_id: int, event: dict) -> None:
    """Send ``event`` (a ``type`` and its data) to every socket of the match, players first,
    once the transaction commits: for news about the match other than a new version (a rematch
    offered). Each socket's consumer handles the type."""
    outbox = live.Outbox()
    outbox.send_on_commit(match_group(match_id), event)
    live.publish_on_commit(outbox)
