from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_POST

from portal import refusals

from . import selectors, services
from .forms import ChallengeForm

User = get_user_model()


@login_required
def challenges_page(request):
    return render(request, "challenges/challenges.html", selectors.challenges_of(request.user))


@login_required
def challenge_new(request, username):
    """Challenge a player: the form (also shown on their page), and its answer."""
    profile = get_object_or_404(User, username__iexact=username, is_active=True)
    levels = [profile.bot_name] if profile.is_site_bot else None  # what its level is shown to do
    form = ChallengeForm(request.POST or None, note_levels=levels)
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            challenge = services.challenge_create(user=request.user, to=profile, **form.match_terms())
            if challenge.match_id:  # a bot takes the challenge at once
                return redirect(challenge.match)
            messages.success(
                request,
                gettext("%(name)s is challenged. The match starts as soon as they accept it.")
                % {"name": profile.username},
            )
            return redirect("challenges")
    return render(request, "challenges/challenge_new.html", {"form": form, "profile": profile})


def _back(request, default):
    """Where a refused answer returns: the page it came from (``next``, on this site only)."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


def _answer(request, call, success, then):
    with refusals.as_message(request) as refused:
        result = call()
    if refused:
        return redirect(_back(request, then))
    if success:
        messages.success(request, gettext(success))
    return redirect(result)


@require_POST
@login_required
def challenge_accept(request, challenge_id):
    def accept():
        return services.challenge_accept(challenge_id=challenge_id, user=request.user).match

    return _answer(request, accept, None, "challenges")


def _close_challenge_view(call, success: str):
    @require_POST
    @login_required
    def view(request, challenge_id):
        def close():
            call(challenge_id=challenge_id, user=request.user)
            return "challenges"

        return _answer(request, close, success, "challenges")

    return view


challenge_decline = _close_challenge_view(services.challenge_decline, gettext_noop("You declined the challenge."))
challenge_cancel = _close_challenge_view(services.challenge_cancel, gettext_noop("You withdrew the challenge."))


@require_POST
@login_required
def rematch_offer(request, match_id):
    def offer():
        made = services.rematch_offer(match_id=match_id, user=request.user)
        return made.new_match or made.match

    return _answer(request, offer, None, f"/matches/{match_id}/")


def _rematch_answer_view(accept: bool, success: str | None):
    @require_POST
    @login_required
    def view(request, offer_id):
        def answer():
            offer = services.rematch_answer(offer_id=offer_id, user=request.user, accept=accept)
            return offer.new_match or offer.match

        return _answer(request, answer, success, "lobby")

    return view


rematch_accept = _rematch_answer_view(True, None)
rematch_decline = _rematch_answer_view(False, gettext_noop("You declined the rematch."))


@require_POST
@login_required
def rematch_cancel(request, offer_id):
    def cancel():
        return services.rematch_cancel(offer_id=offer_id, user=request.user).match

    return _answer(request, cancel, gettext_noop("You withdrew the rematch offer."), "lobby")
