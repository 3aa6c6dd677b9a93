from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from portal.pagination import paginate

from . import selectors, services
from .forms import NotificationSettingsForm

PAGE_SIZE = 30
# Where a notification's post was deleted since: said instead of a missing page.
GONE = gettext_noop("The post this notification was about has been deleted since, so there is nothing to show.")


@login_required
def notification_list(request):
    page = paginate(selectors.recent(request.user), PAGE_SIZE, request.GET.get("page"))
    context = {"page": page, "waiting": selectors.waiting_matches(request.user) if page.number == 1 else []}
    return render(request, "notifications/list.html", context)


@login_required
def notification_open(request, notification_id: int):
    """Follow a notification to its match or topic, marking it read."""
    notification = services.notification_open(user=request.user, notification_id=notification_id)
    safe = notification is not None and url_has_allowed_host_and_scheme(
        notification.url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    if notification is None or not safe:
        return redirect("notifications")
    if selectors.gone_from_forum(notification, request.user):
        messages.info(request, gettext(GONE))
        return redirect("notifications")
    return redirect(notification.url)


@login_required
@require_POST
def notification_read_all(request):
    marked = services.notification_mark_all_read(user=request.user)
    messages.success(
        request,
        ngettext("%(count)d notification marked as read.", "%(count)d notifications marked as read.", marked)
        % {"count": marked}
        if marked
        else gettext("Nothing was unread."),
    )
    return redirect("notifications")


@login_required
@require_POST
def notification_settings(request):
    form = NotificationSettingsForm(request.POST)
    if form.is_valid():
        services.settings_update(user=request.user, email_your_turn=form.cleaned_data["email_your_turn"])
        messages.success(request, gettext("Your notification settings were saved."))
    return redirect("profile-edit")


# A mail client's one-click unsubscribe (RFC 8058) POSTs here with no cookie and no CSRF
# token: the signed token in the address is the proof.
@csrf_exempt
def unsubscribe(request, token: str):
    person, problem = services.unsubscribe_link(token)
    if person is None:
        refused = {"invalid": True, "problem": problem, "days": services.UNSUBSCRIBE_LINK_DAYS}
        return render(request, "notifications/unsubscribe.html", refused, status=400)
    if request.method == "POST":
        services.unsubscribe(token=token)
        return render(request, "notifications/unsubscribe.html", {"done": True, "person": person})
    ask = {"person": person, "token": token, "days": services.UNSUBSCRIBE_LINK_DAYS}
    return render(request, "notifications/unsubscribe.html", ask)
