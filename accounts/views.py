from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views import i18n
from django.views.decorators.http import require_POST

from portal import refusals

from . import selectors, services, time_zones
from .forms import BioForm, BotAccountForm, LanguageForm, TimeZoneForm
from .middleware import LANGUAGE_SESSION_KEY


@login_required
def profile_edit(request):
    # Only ever the signed-in user's own profile: there is no user id in this URL to tamper with.
    form = BioForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        services.user_update_bio(user=request.user, bio=form.cleaned_data["bio"])
        messages.success(request, gettext("Your profile was saved."))
        return redirect("player", username=request.user.username)
    return render(request, "accounts/profile_edit.html", _profile_context(request, form))


def _profile_context(request, form, zone_form=None) -> dict[str, Any]:
    return {
        "form": form,
        "zone_form": zone_form or _zone_form(request.user),
        "language_form": LanguageForm(initial={"language": request.user.language}),
    }


def _zone_form(user, data=None) -> TimeZoneForm:
    return TimeZoneForm(data, initial={"time_zone": user.time_zone}, prefix="zone")


@login_required
@require_POST
def time_zone_edit(request):
    """The zone the person's times are shown in, chosen on the profile page."""
    form = _zone_form(request.user, request.POST)
    if form.is_valid():
        with refusals.on_form(form):
            services.user_set_time_zone(user=request.user, time_zone=form.cleaned_data["time_zone"])
            messages.success(request, gettext("Times are now shown in %(zone)s.") % {"zone": request.user.time_zone})
            return redirect("profile-edit")
    return render(
        request, "accounts/profile_edit.html", _profile_context(request, BioForm(instance=request.user), form)
    )


@require_POST
def language_set(request):
    """The language of the pages, from the footer's switcher or the profile page: Django's
    ``set_language`` keeps it in the language cookie (for a visitor who is not signed in too)
    and goes back to ``next``; a signed-in person's choice is saved on the account and in the
    session. Empty (profile page only): follow the browser again. 400 for an unknown code."""
    language = request.POST.get("language", "")
    if language and language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(f"{language[:16]} is not a language of the site.", content_type="text/plain")
    response = i18n.set_language(request)
    if not language:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, path=settings.LANGUAGE_COOKIE_PATH)
    if request.user.is_authenticated:
        services.user_set_language(user=request.user, language=language)
        request.session[LANGUAGE_SESSION_KEY] = language
    return response


@require_POST
def browser_time_zone(request):
    """The zone the browser reports (static/js/times.js), on a first visit: saved on the
    account of a signed-in person who has none (never over their own choice), kept in a
    cookie for a visitor who is not signed in. 204, or 400 for a name that is no zone."""
    name = request.POST.get("time_zone", "")
    if not time_zones.is_zone(name):
        return JsonResponse(
            {"code": "bad_request", "message": f"{name[:64]} is not a time zone we know.", "field": "time_zone"},
            status=400,
        )
    response = HttpResponse(status=204)
    if request.user.is_authenticated:
        services.user_adopt_browser_time_zone(user=request.user, time_zone=name)
    else:
        response.set_cookie(
            settings.TIME_ZONE_COOKIE_NAME,
            name,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


@login_required
def bot_accounts(request):
    """The signed-in person's bot accounts, and the form that registers one. A new bot's API
    token is shown on the answer to that form, once."""
    form = BotAccountForm(request.POST or None)
    context: dict[str, Any] = {"form": form}
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            bot, token = services.bot_account_create(
                owner=request.user, name=form.cleaned_data["name"], description=form.cleaned_data["description"]
            )
            context.update(new_token=token, token_bot=bot, form=BotAccountForm())
    context.update(bots=selectors.bot_accounts_of(request.user), cap=settings.BOT_ACCOUNTS_PER_PERSON)
    return render(request, "accounts/bot_accounts.html", context)


@login_required
@require_POST
def bot_token(request, username):
    """A new token for one of the person's bots, shown once; the old one stops working."""
    context: dict[str, Any] = {"form": BotAccountForm()}
    with refusals.as_message(request) as refused:
        token = services.bot_token_reissue(owner=request.user, username=username)
        context.update(new_token=token, token_bot=services.bot_account_of(owner=request.user, username=username))
    if refused:
        return redirect("bot-accounts")
    context.update(bots=selectors.bot_accounts_of(request.user), cap=settings.BOT_ACCOUNTS_PER_PERSON)
    return render(request, "accounts/bot_accounts.html", context)


@login_required
@require_POST
def bot_unpause(request, username):
    with refusals.as_message(request):
        bot = services.bot_unpause(owner=request.user, username=username)
        messages.success(
            request, gettext("%(name)s may join matches and be challenged again.") % {"name": bot.username}
        )
    return redirect("player", username=username)
