"""Pages of the forums. Anyone reads; signed-in users post; staff moderate.

Thin: reads come from selectors, writes go through services (which keep the posting limit,
see forums.ratelimits; search's limit belongs to the request and is checked here).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST

from portal import refusals
from portal.pagination import paginate

from . import ratelimits, selectors, services
from .forms import MoveForm, PostEditForm, PostForm, ReasonForm, ReportForm, SearchForm, TopicForm

RATE_LIMITED = 429
SEARCH_STOPPED = 503
SEARCH_TOO_SLOW = (
    "This search took too long and was stopped: the forum may be busy. Try again in a moment, "
    "or with a less common word."
)


@contextmanager
def _on_post_form(form) -> Iterator[refusals.Refusal]:
    """``refusals.on_form`` for a form that writes a post: the form is shown again with its
    text, which a refusal by the posting limit says."""
    with refusals.on_form(form) as refused:
        try:
            yield refused
        except services.PostingLimited as exc:
            exc.message = str(exc.page_message())  # in the language of the page
            raise


def _refused_status(refused: refusals.Refusal) -> int:
    """The status of a form shown again after a refusal: 429 past the posting limit."""
    return RATE_LIMITED if refused.error is not None and refused.error.code == "rate_limited" else 400


def _forum_or_404(slug):
    forum = selectors.forum_by_slug(slug)
    if forum is None:
        raise Http404("No such forum")
    return forum


def _topic_or_404(request, topic_id):
    topic = selectors.topic_for(topic_id, request.user)
    if topic is None:
        raise Http404("No such topic")
    return topic


def _post_or_404(request, post_id):
    post = selectors.post_for(post_id, request.user)
    if post is None:
        raise Http404("No such post")
    return post


def _require_moderator(request):
    if not selectors.can_moderate(request.user):
        raise PermissionDenied("Only moderators can do this.")


def forum_index(request):
    return render(request, "forums/index.html", {"forums": selectors.forum_list(), "search_form": SearchForm()})


def forum_detail(request, slug):
    forum = _forum_or_404(slug)
    page = paginate(selectors.forum_topics(forum), selectors.TOPICS_PER_PAGE, request.GET.get("page"))
    selectors.attach_last_posts(page.object_list)
    return render(request, "forums/forum_detail.html", {"forum": forum, "page": page})


def _can_reply(request, topic) -> bool:
    return request.user.is_authenticated and not topic.locked and not topic.is_hidden


def _render_topic(request, topic, *, form=None, page_number=None, status=200):
    number = page_number if page_number is not None else request.GET.get("page")
    page = paginate(selectors.topic_posts(topic), selectors.POSTS_PER_PAGE, number)
    can_reply = _can_reply(request, topic)
    if form is None and can_reply:
        initial = {}
        quoted = request.GET.get("quote", "")
        if quoted.isdigit():
            post = topic.posts.filter(pk=int(quoted), hidden_at__isnull=True).select_related("author").first()
            if post is not None:
                initial["body"] = selectors.quote_markdown(post)
        form = PostForm(initial=initial)
    # The Markdown each visible post would be quoted with, for the quote button's script.
    quotes = (
        {str(p.pk): selectors.quote_markdown(p) for p in page.object_list if not p.is_hidden} if can_reply else None
    )
    context = {
        "forum": topic.forum,
        "topic": topic,
        "page": page,
        "form": form,
        "can_reply": can_reply,
        "can_moderate": selectors.can_moderate(request.user),
        "first_post_id": selectors.first_post_id(topic),
        "quotes": quotes,
    }
    return render(request, "forums/topic_detail.html", context, status=status)


def topic_detail(request, topic_id):
    return _render_topic(request, _topic_or_404(request, topic_id))


@login_required
def topic_reply(request, topic_id):
    topic = _topic_or_404(request, topic_id)
    if request.method != "POST":
        return redirect(topic)
    form = PostForm(request.POST)
    last_page = Paginator(selectors.topic_posts(topic), selectors.POSTS_PER_PAGE).num_pages
    if not form.is_valid():
        return _render_topic(request, topic, form=form, page_number=last_page, status=400)
    with _on_post_form(form) as refused:
        post = services.post_create(topic_id=topic.pk, user=request.user, body=form.cleaned_data["body"])
        return redirect(post)
    return _render_topic(request, topic, form=form, page_number=last_page, status=_refused_status(refused))


@login_required
def topic_new(request, slug):
    forum = _forum_or_404(slug)
    form = TopicForm(request.POST or None)
    status = 200
    if request.method == "POST":
        done, status = _open_topic(
            request,
            form,
            lambda title, body: (
                services.topic_create(forum_id=forum.pk, user=request.user, title=title, body=body),
                True,
            ),
        )
        if done:
            return done
    return render(request, "forums/topic_new.html", {"forum": forum, "form": form}, status=status)


def _open_topic(request, form, create):
    """Check ``form``, then open the topic with ``create(title=, body=) -> (topic, created)``
    (the service keeps the posting limit). Returns (the redirect to the topic, None), or
    (None, the status to show the form again with, its errors added)."""
    if not form.is_valid():
        return None, 400
    with _on_post_form(form) as refused:
        topic, _created = create(**form.cleaned_data)
        return redirect(topic), None
    return None, _refused_status(refused)


def post_permalink(request, post_id):
    post = _post_or_404(request, post_id)
    url = reverse("forum-topic", args=[post.topic_id])
    page = selectors.post_page_number(post)
    if page > 1:
        url += f"?page={page}"
    return redirect(f"{url}#post-{post.pk}")


@login_required
def post_edit(request, post_id):
    post = _post_or_404(request, post_id)
    if post.author_id != request.user.pk:
        raise PermissionDenied("You can edit only your own posts.")
    if post.is_hidden:
        raise Http404("This post was deleted")
    topic = post.topic
    edits_title = selectors.first_post_id(topic) == post.pk
    initial = {"body": post.body, "title": topic.title}
    form = PostEditForm(request.POST or None, initial=initial, edits_title=edits_title)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            with refusals.on_form(form):
                services.post_edit(
                    post_id=post.pk,
                    user=request.user,
                    body=form.cleaned_data["body"],
                    title=form.cleaned_data.get("title") if edits_title else None,
                )
                messages.success(request, gettext("Your post was updated."))
                return redirect(post)
        status = 400
    return render(
        request,
        "forums/post_edit.html",
        {"post": post, "topic": topic, "forum": topic.forum, "form": form},
        status=status,
    )


@login_required
def post_report(request, post_id):
    """A member reports a post to the moderators, with a reason."""
    post = _post_or_404(request, post_id)
    if post.is_hidden:
        raise Http404("This post was deleted")
    form = ReportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            with refusals.on_form(form) as refused:
                services.post_report(post_id=post.pk, user=request.user, reason=form.cleaned_data["reason"])
                messages.success(request, gettext("Thank you: the moderators will look at the post."))
                return redirect(post)
            status = _refused_status(refused)
        else:
            status = 400
    context = {"post": post, "topic": post.topic, "forum": post.topic.forum, "form": form}
    return render(request, "forums/post_report.html", context, status=status)


@login_required
def discuss_match(request, match_id):
    """Discuss a match: go to its topic if one is open; otherwise a form with a proposed
    title and first post, which nothing posts until the person sends it."""
    existing = selectors.match_topic(match_id)
    if existing is not None:
        return redirect(existing)
    back = reverse("match", args=[match_id])
    with refusals.as_message(request) as refused:
        forum, title, body = services.discussion_draft(match_id=match_id, user=request.user)
    if refused:
        return redirect(back)
    form = TopicForm(request.POST or None, initial={"title": title, "body": body})
    status = 200
    if request.method == "POST":
        done, status = _open_topic(
            request,
            form,
            lambda title, body: services.topic_discuss_match(
                match_id=match_id, user=request.user, title=title, body=body
            ),
        )
        if done:
            return done
    context = {"forum": forum, "form": form, "match_url": back, "match_id": match_id}
    return render(request, "forums/topic_new.html", context, status=status)


def search(request):
    form = SearchForm(request.GET or None)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    page = None
    status = 200
    context = {
        "form": form,
        "query": query,
        "query_prefix": urlencode({"q": query}) + "&",
        "search_cap": selectors.SEARCH_CANDIDATES,
    }
    retry_after = None
    if query:
        refusal = ratelimits.search_refusal(request)
        if refusal:
            context["refusal"], status, retry_after = refusal.message, RATE_LIMITED, refusal.retry_after
        else:
            page, status, retry_after = _search_page(query, request.GET.get("page"), context)
    context["page"] = page
    response = render(request, "forums/search.html", context, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _search_page(query, number, context):
    """One page of results for ``query`` as (page, status, Retry-After seconds or None): a 429
    when every place for searching in this process is taken, a 503 when the database stopped
    the search for taking too long (the reason in ``context["refusal"]`` for both)."""
    with ratelimits.search_place() as admitted:
        if not admitted:
            context["refusal"] = ratelimits.SEARCH_BUSY
            return None, RATE_LIMITED, ratelimits.SEARCH_BUSY_RETRY_SECONDS
        try:
            page = paginate(selectors.search_results(query), selectors.POSTS_PER_PAGE, number)  # read here
        except selectors.SearchTimedOut:
            context["refusal"] = SEARCH_TOO_SLOW
            return None, SEARCH_STOPPED, None
    return page, 200, None


# --- Moderation ----------------------------------------------------------------------------

_TOGGLES = {
    "pin": (services.topic_set_pinned, "pinned", True, gettext_noop("The topic is pinned.")),
    "unpin": (services.topic_set_pinned, "pinned", False, gettext_noop("The topic is no longer pinned.")),
    "lock": (services.topic_set_locked, "locked", True, gettext_noop("The topic is locked.")),
    "unlock": (services.topic_set_locked, "locked", False, gettext_noop("The topic is unlocked.")),
}


@require_POST
@login_required
def topic_moderate(request, topic_id):
    """Pin, unpin, lock or unlock a topic (the ``action`` field)."""
    _require_moderator(request)
    topic = _topic_or_404(request, topic_id)
    toggle = _TOGGLES.get(request.POST.get("action", ""))
    if toggle is None:
        messages.error(request, gettext("Unknown moderation action."))
        return redirect(topic)
    call, field, value, done = toggle
    with refusals.as_message(request):
        call(topic_id=topic.pk, moderator=request.user, reason=request.POST.get("reason", ""), **{field: value})
        messages.success(request, gettext(done))
    return redirect(topic)


@login_required
def topic_move(request, topic_id):
    _require_moderator(request)
    topic = _topic_or_404(request, topic_id)
    form = MoveForm(request.POST or None, topic=topic)
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            services.topic_move(
                topic_id=topic.pk,
                moderator=request.user,
                forum_id=form.cleaned_data["forum"].pk,
                reason=form.cleaned_data["reason"],
            )
            messages.success(
                request, gettext("The topic moved to %(forum)s.") % {"forum": form.cleaned_data["forum"].name}
            )
            return redirect(topic)
    return render(request, "forums/topic_move.html", {"topic": topic, "forum": topic.forum, "form": form})


@login_required
def topic_delete(request, topic_id):
    _require_moderator(request)
    topic = _topic_or_404(request, topic_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            services.topic_hide(topic_id=topic.pk, moderator=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, gettext("The topic is deleted; the reason is in the moderation log."))
            return redirect(topic.forum)
    context = {"form": form, "topic": topic, "forum": topic.forum, "post": None}
    return render(request, "forums/confirm_delete.html", context)


@login_required
def post_delete(request, post_id):
    _require_moderator(request)
    post = _post_or_404(request, post_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            services.post_hide(post_id=post.pk, moderator=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, gettext("The post is deleted; the reason is in the moderation log."))
            return redirect(post)
    context = {"form": form, "topic": post.topic, "forum": post.topic.forum, "post": post}
    return render(request, "forums/confirm_delete.html", context)


@login_required
def moderation_log(request):
    _require_moderator(request)
    page = paginate(selectors.moderation_log(), 50, request.GET.get("page"))
    return render(request, "forums/moderation_log.html", {"page": page})


@login_required
def report_queue(request):
    """The moderators' queue of open reports, oldest first."""
    _require_moderator(request)
    page = paginate(selectors.open_reports(), 50, request.GET.get("page"))
    return render(request, "forums/reports.html", {"page": page})


@require_POST
@login_required
def report_dismiss(request, report_id):
    _require_moderator(request)
    with refusals.as_message(request):
        services.report_dismiss(report_id=report_id, moderator=request.user)
        messages.success(request, gettext("The report is dismissed; the post stays."))
    return redirect("forum-reports")
