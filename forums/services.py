"""Writes of the forums: forums for the games, topics, posts and moderation.

Keyword-only ``<noun>_<verb>`` functions. A user's mistake raises ``ForumError`` with a message
to show; an action the user may not take raises ``PermissionDenied`` (a 403). Either way nothing
changes. Every topic and reply counts against the one posting limit (``forums.ratelimits``),
whoever opens it: the forum's pages, a match's discussion, a tournament's announcement.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.catalog import all_games
from games.models import Match
from portal.errors import ServiceError, lazy_message
from portal.markdown import render_markdown
from portal.phrases import phrase
from portal.rate_limits import Attempt, Refusal

from . import ratelimits, selectors
from .models import GENERAL_SLUG, Forum, ModerationLog, Post, PostReport, Topic
from .signals import post_replied, post_reported


class ForumError(ServiceError):
    """A refused forum request; the message is for people."""

    def __init__(self, message: str | Promise, code: str = "bad_request"):
        super().__init__(code, message)


class PostingLimited(ForumError):
    """Refused by the posting limit (``rate_limited``): ``refusal`` says which and for how long."""

    def __init__(self, refusal: Refusal):
        super().__init__(ratelimits.refusal_words(refusal, text_kept=False), "rate_limited")
        self.refusal = refusal

    def page_message(self) -> str | Promise:
        """The refusal as a page that shows the form again, text and all, says it."""
        return ratelimits.refusal_words(self.refusal, text_kept=True)


def game_forum_description(name: str) -> str:
    return f"Everything about {name}: rules questions, strategy, memorable matches."


GENERAL_NAME = "General"
GENERAL_DESCRIPTION = "The portal, the community, and anything that is not about one game."


def forum_ensure_for_games(*, using: str = "default") -> list[Forum]:
    """Create the general forum and one forum per registered game where missing.

    Idempotent: existing forums are left as they are (a moderator may have renamed them).
    Called after every ``migrate`` (post_migrate), so a game added to the registry later gets
    its forum without a migration. Returns the forums it created.
    """
    created = []
    forums = Forum.objects.using(using)
    with transaction.atomic(using=using):
        if not forums.filter(slug=GENERAL_SLUG).exists():
            created.append(
                forums.create(slug=GENERAL_SLUG, name=GENERAL_NAME, description=GENERAL_DESCRIPTION, position=0)
            )
        have = set(forums.exclude(game="").values_list("game", flat=True))
        position = max(forums.values_list("position", flat=True), default=0)
        for game in all_games():
            if game.slug in have:
                continue
            slug = game.slug if not forums.filter(slug=game.slug).exists() else f"{game.slug}-game"
            position += 1
            created.append(
                forums.create(
                    slug=slug,
                    name=game.name,
                    description=game_forum_description(game.name),
                    game=game.slug,
                    position=position,
                )
            )
    return created


# --- Topics and posts ----------------------------------------------------------------------


def _require_user(user) -> None:
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to post in the forum.")


def _clean_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise ForumError(_("Give the topic a title."))
    if len(title) > Topic.TITLE_MAX:
        raise ForumError(
            lazy_message(
                _("A title has at most %(max)s characters; this one has %(count)s."),
                max=Topic.TITLE_MAX,
                count=len(title),
            )
        )
    return title


def _clean_body(body: str) -> str:
    body = (body or "").replace("\r\n", "\n").strip("\n").rstrip()
    if not body.strip():
        raise ForumError(_("Write something first: the post is empty."))
    if len(body) > Post.BODY_MAX:
        raise ForumError(
            lazy_message(
                _("A post has at most %(max)s characters; this one has %(count)s."),
                max=f"{Post.BODY_MAX:,}",
                count=f"{len(body):,}",
            )
        )
    return body


@contextmanager
def _posting(user, limited: bool) -> Iterator[Attempt | None]:
    """Refuse a post over the posting limit; the caller counts it once written. ``limited``
    is False only for the site's own scripts (the demo data), never for a person's request."""
    if not limited:
        yield None
        return
    with ratelimits.posting(user) as attempt:
        if attempt.refusal is not None:
            raise PostingLimited(attempt.refusal)
        yield attempt


def _new_post(*, topic: Topic, user, body: str) -> Post:
    return Post.objects.create(topic=topic, author=user, body=body, body_html=render_markdown(body))


def topic_create(
    *, forum_id: int, user, title: str, body: str, match_id: int | None = None, limited: bool = True
) -> Topic:
    """Open a topic in a forum with its first post (a post under the posting limit)."""
    _require_user(user)
    title = _clean_title(title)
    body = _clean_body(body)
    forum = Forum.objects.filter(pk=forum_id).first()
    if forum is None:
        raise ForumError(_("That forum does not exist."))
    with _posting(user, limited) as attempt, transaction.atomic():
        topic = Topic.objects.create(
            forum=forum, title=title, author=user, last_activity_at=timezone.now(), match_id=match_id
        )
        post = _new_post(topic=topic, user=user, body=body)
        Topic.objects.filter(pk=topic.pk).update(last_activity_at=post.created_at)
        topic.last_activity_at = post.created_at
        if attempt is not None:
            attempt.count()
    return topic


def post_create(*, topic_id: int, user, body: str, limited: bool = True) -> Post:
    """Reply to a topic (a post under the posting limit). A locked or deleted topic takes no
    replies."""
    _require_user(user)
    body = _clean_body(body)
    with _posting(user, limited) as attempt, transaction.atomic():
        topic = Topic.objects.select_for_update().filter(pk=topic_id).first()
        if topic is None or topic.is_hidden:
            raise ForumError(_("That topic does not exist or was deleted."))
        if topic.locked:
            raise ForumError(_("This topic is locked: it takes no new replies."))
        post = _new_post(topic=topic, user=user, body=body)
        topic.last_activity_at = post.created_at
        topic.save(update_fields=["last_activity_at"])
        # The others who wrote in the topic hear of the reply.
        transaction.on_commit(lambda: post_replied.send_robust(sender=Post, post_id=post.pk), robust=True)
        if attempt is not None:
            attempt.count()
    return post


def post_edit(*, post_id: int, user, body: str, title: str | None = None) -> Post:
    """The author edits their own post (and, on a topic's first post, the topic's title)."""
    _require_user(user)
    with transaction.atomic():
        post = Post.objects.select_for_update().select_related("topic").filter(pk=post_id).first()
        if post is None or post.is_hidden or post.topic.is_hidden:
            raise ForumError(_("That post does not exist or was deleted."))
        if post.author_id != user.pk:
            raise PermissionDenied("You can edit only your own posts.")
        if post.topic.locked:
            raise ForumError(_("This topic is locked: its posts can no longer be edited."))
        body = _clean_body(body)
        topic = post.topic
        if title is not None and selectors.first_post_id(topic) == post.pk:
            topic.title = _clean_title(title)
            topic.save(update_fields=["title"])
        if body != post.body:
            post.body = body
            post.body_html = render_markdown(body)
            post.edited_at = timezone.now()
            post.save(update_fields=["body", "body_html", "edited_at"])
    return post


def discussion_draft(*, match_id: int, user) -> tuple[Forum, str, str]:
    """The forum, title and first post proposed for discussing a match: the person reads
    and edits them before anything is posted (``topic_discuss_match``).

    Only public matches that are over are discussed in the open: talking about a match being
    played would help its players."""
    _require_user(user)
    match = Match.objects.filter(pk=match_id).prefetch_related("seats__user").first()
    if match is None or match.visibility != Match.Visibility.PUBLIC:
        raise ForumError(_("That match does not exist or is not public."))
    if not match.is_over:
        raise ForumError(_("A match is discussed in the forum once it is over; use the match chat meanwhile."))
    forum = Forum.objects.filter(game=match.game).first() or Forum.objects.filter(slug=GENERAL_SLUG).first()
    if forum is None:
        raise ForumError(_("The forum of this game does not exist yet."))
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    players = ", ".join(s.user.username if s.user else "empty seat" for s in seats)
    title = f"{match.game_name} match #{match.pk}: {players}"
    if len(title) > Topic.TITLE_MAX:
        title = title[: Topic.TITLE_MAX - 1] + "…"
    lines = [f"Let's talk about [{match.game_name} match #{match.pk}]({reverse('match', args=[match.pk])})."]
    if match.status == Match.Status.FINISHED:
        lines.append("")
        for seat in sorted(seats, key=lambda s: (s.place or 99, s.index)):
            name = seat.user.username if seat.user else "empty seat"
            score = "" if seat.score is None else f", {seat.score} point{'' if seat.score == 1 else 's'}"
            lines.append(f"{seat.place or '-'}. {name}{score}")
    else:
        lines.append("")
        lines.append("The match was aborted.")
    return forum, title, "\n".join(lines)


def topic_discuss_match(*, match_id: int, user, title: str, body: str) -> tuple[Topic, bool]:
    """Open the topic about a match in its game's forum with the person's own title and
    first post, or return the one already open.

    Returns (topic, created)."""
    existing = selectors.match_topic(match_id)
    if existing is not None:
        _require_user(user)
        return existing, False
    forum, _, _ = discussion_draft(match_id=match_id, user=user)
    try:
        with transaction.atomic():
            topic = topic_create(forum_id=forum.pk, user=user, title=title, body=body, match_id=match_id)
    except IntegrityError:  # someone opened it a moment ago
        topic = selectors.match_topic(match_id)
        if topic is None:
            raise
        return topic, False
    return topic, True


# --- Moderation ----------------------------------------------------------------------------


def _require_moderator(user) -> None:
    if user is None or not user.is_authenticated or not user.is_staff:
        raise PermissionDenied("Only moderators can do this.")


def _locked_topic(topic_id: int) -> Topic:
    topic = Topic.objects.select_for_update().select_related("forum").filter(pk=topic_id).first()
    if topic is None:
        raise ForumError(_("That topic does not exist."))
    return topic


def _log(*, moderator, action, topic=None, post=None, reason="", detail="") -> ModerationLog:
    return ModerationLog.objects.create(
        moderator=moderator, action=action, topic=topic, post=post, reason=reason.strip(), detail=detail
    )


def topic_set_pinned(*, topic_id: int, moderator, pinned: bool, reason: str = "") -> Topic:
    _require_moderator(moderator)
    with transaction.atomic():
        topic = _locked_topic(topic_id)
        if topic.pinned == pinned:
            raise ForumError(_("The topic is already pinned.") if pinned else _("The topic is not pinned."))
        topic.pinned = pinned
        topic.save(update_fields=["pinned"])
        action = ModerationLog.Action.PIN if pinned else ModerationLog.Action.UNPIN
        _log(moderator=moderator, action=action, topic=topic, reason=reason, detail=topic.title)
    return topic


def topic_set_locked(*, topic_id: int, moderator, locked: bool, reason: str = "") -> Topic:
    _require_moderator(moderator)
    with transaction.atomic():
        topic = _locked_topic(topic_id)
        if topic.locked == locked:
            raise ForumError(_("The topic is already locked.") if locked else _("The topic is not locked."))
        topic.locked = locked
        topic.save(update_fields=["locked"])
        action = ModerationLog.Action.LOCK if locked else ModerationLog.Action.UNLOCK
        _log(moderator=moderator, action=action, topic=topic, reason=reason, detail=topic.title)
    return topic


def topic_move(*, topic_id: int, moderator, forum_id: int, reason: str = "") -> Topic:
    _require_moderator(moderator)
    with transaction.atomic():
        topic = _locked_topic(topic_id)
        target = Forum.objects.filter(pk=forum_id).first()
        if target is None:
            raise ForumError(_("That forum does not exist."))
        if target.pk == topic.forum_id:
            raise ForumError(lazy_message(_("The topic is already in %(forum)s."), forum=target.name))
        detail = f"{topic.title}: from {topic.forum.name} to {target.name}"
        topic.forum = target
        topic.save(update_fields=["forum"])
        _log(moderator=moderator, action=ModerationLog.Action.MOVE, topic=topic, reason=reason, detail=detail)
    return topic


def _clean_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ForumError(_("Give a reason: it is kept in the moderation log."))
    return reason


def topic_hide(*, topic_id: int, moderator, reason: str) -> Topic:
    """Delete a topic for readers. The rows stay, with who hid it and why."""
    _require_moderator(moderator)
    reason = _clean_reason(reason)
    with transaction.atomic():
        topic = _locked_topic(topic_id)
        if topic.is_hidden:
            raise ForumError(_("The topic is already deleted."))
        topic.hidden_at = timezone.now()
        topic.hidden_by = moderator
        topic.hidden_reason = reason
        topic.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
        action = ModerationLog.Action.HIDE_TOPIC
        _log(moderator=moderator, action=action, topic=topic, reason=reason, detail=topic.title)
    return topic


def post_hide(*, post_id: int, moderator, reason: str) -> Post:
    """Delete a post for readers: a placeholder shows where it was; the text stays for moderators."""
    _require_moderator(moderator)
    reason = _clean_reason(reason)
    with transaction.atomic():
        post = Post.objects.select_for_update().select_related("topic").filter(pk=post_id).first()
        if post is None:
            raise ForumError(_("That post does not exist."))
        if post.is_hidden:
            raise ForumError(_("The post is already deleted."))
        post.hidden_at = timezone.now()
        post.hidden_by = moderator
        post.hidden_reason = reason
        post.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
        _resolve_reports(post.reports.all(), moderator, PostReport.Outcome.POST_DELETED)
        author = post.author.username if post.author else "a deleted user"
        _log(
            moderator=moderator,
            action=ModerationLog.Action.HIDE_POST,
            topic=post.topic,
            post=post,
            reason=reason,
            detail=f"post by {author} in {post.topic.title}",
        )
    return post


# --- Reports of posts ------------------------------------------------------------------------


def post_report(*, post_id: int, user, reason: str) -> PostReport:
    """A signed-in member tells the moderators that a visible post breaks the rules, once per
    post, within the reporting limit (``ratelimits.REPORTS``); the moderators are told."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Sign in to report a post.")
    reason = (reason or "").strip()
    if not reason:
        raise ForumError(_("Say what is wrong with the post: the moderators read it."))
    if len(reason) > PostReport.REASON_MAX:
        raise ForumError(lazy_message(_("Keep the reason under %(max)s characters."), max=PostReport.REASON_MAX))
    post = Post.objects.select_related("topic", "author").filter(pk=post_id).first()
    if post is None or post.is_hidden or post.topic.is_hidden:
        raise ForumError(_("That post does not exist."), "not_found")
    if post.author_id == user.pk:
        raise ForumError(_("You cannot report your own post; edit it instead."))
    if PostReport.objects.filter(post=post, reporter=user).exists():
        raise ForumError(_("You have already reported this post; the moderators will look at it."), "already_reported")
    with ratelimits.REPORTS.attempt(user.pk) as attempt:
        if attempt.refusal is not None:
            raise ForumError(ratelimits.report_refusal_words(attempt.refusal), "rate_limited")
        try:
            with transaction.atomic():
                report = PostReport.objects.create(post=post, reporter=user, reason=reason)
        except IntegrityError:
            raise ForumError(
                _("You have already reported this post; the moderators will look at it."), "already_reported"
            ) from None
        attempt.count()
    author = post.author.username if post.author else phrase(gettext_noop("a former member"))
    words = phrase(
        gettext_noop("%(reporter)s reported a post by %(author)s in “%(topic)s”."),
        reporter=user.username,
        author=author,
        topic=post.topic.title,
    )
    transaction.on_commit(
        lambda: post_reported.send_robust(
            sender=PostReport, report_id=report.pk, phrase=words, url=report.get_absolute_url()
        )
    )
    return report


def report_dismiss(*, report_id: int, moderator) -> PostReport:
    """A moderator finds nothing wrong: the post's open reports leave the queue, the post stays."""
    _require_moderator(moderator)
    with transaction.atomic():
        report = PostReport.objects.select_for_update().filter(pk=report_id).first()
        if report is None:
            raise ForumError(_("That report does not exist."), "not_found")
        if not report.is_open:
            raise ForumError(_("That report is already dealt with."))
        _resolve_reports(PostReport.objects.filter(post_id=report.post_id), moderator, PostReport.Outcome.DISMISSED)
        report.refresh_from_db()
    return report


def _resolve_reports(reports, moderator, outcome: str) -> int:
    """Close the open ones among ``reports`` with ``outcome``."""
    return reports.filter(outcome=PostReport.Outcome.OPEN).update(
        outcome=outcome, resolved_by=moderator, resolved_at=timezone.now()
    )
