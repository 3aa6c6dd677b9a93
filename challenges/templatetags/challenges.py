"""The challenges' and rematches' parts of other apps' pages: the rematch panel of a finished
match, the challenge form on a player's page, the challenges waiting in the lobby."""

from django import template
from django.urls import reverse

from games.models import Match

from .. import selectors, services
from ..forms import ChallengeForm

register = template.Library()


def _url_pattern(name: str) -> str:
    """A URL with ``{id}`` where its id goes, for the page's script."""
    return reverse(name, args=[0]).replace("/0/", "/{id}/")


@register.inclusion_tag("challenges/_rematch.html", takes_context=True)
def rematch_panel(context, match):
    """Data for static/js/rematch.js, which draws the panel and follows the offer live. The
    latest offer is read (one query) only for a finished match and a signed-in visitor. No
    panel for a match that may not be played again on its own (a tournament's table)."""
    user = context["request"].user
    data = {"offer": None, "me": None, "seated": False}
    if user.is_authenticated and match.status == Match.Status.FINISHED:
        if services.rematch_refusal(match.pk):  # a tournament's table: no rematch outside it
            return {"match": match, "refused": True}
        offer, answers = selectors.latest_rematch(match.pk)
        data = {
            "offer": selectors.rematch_json(offer, answers) if offer else None,
            "me": user.pk,
            "seated": any(seat.user_id == user.pk for seat in match.seats.all()),
        }
    data["urls"] = {
        "offer": reverse("rematch-offer", args=[match.pk]),
        "accept": _url_pattern("rematch-accept"),
        "decline": _url_pattern("rematch-decline"),
        "cancel": _url_pattern("rematch-cancel"),
    }
    return {"match": match, "data": data, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("challenges/_challenge_box.html", takes_context=True)
def challenge_box(context, profile):
    """On a player's page: the form to challenge them (not oneself; a bot plays at once). On
    a site bot's page it says at which tables its level has not been shown to play better than
    the level below."""
    user = context["request"].user
    show = user.is_authenticated and not user.is_bot and user.pk != profile.pk
    levels = [profile.bot_name] if profile.is_site_bot else None
    return {
        "profile": profile,
        "form": ChallengeForm(note_levels=levels) if show else None,
        "signed_in": user.is_authenticated,
        "request": context["request"],
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("challenges/_waiting.html", takes_context=True)
def challenges_waiting(context):
    """In the lobby: the challenges waiting for the signed-in visitor's answer (one query)."""
    user = context["request"].user
    received = selectors.pending_received(user) if user.is_authenticated else []
    return {"received": received, "csrf_token": context.get("csrf_token"), "request": context["request"]}
