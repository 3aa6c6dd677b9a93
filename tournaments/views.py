"""Tournament pages: thin, over ``services`` (writes) and ``selectors`` (reads)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.bot_strength import level_notes
from games.catalog import all_games, game_slugs
from portal import refusals
from portal.pagination import paginate

from . import selectors, services, standings
from .forms import AddBotForm, TournamentForm
from .models import Tournament

PAGE_SIZE = 20
# On the page of all three lists, each shows this many (and links to its own paged list).
SECTION_SIZE = 10
SECTIONS = {
    "upcoming": gettext_lazy("Taking entries"),
    "running": gettext_lazy("Being played"),
    "finished": gettext_lazy("Finished"),
}


def tournament_list(request):
    status = request.GET.get("status", "")
    game = request.GET.get("game", "")
    if game not in game_slugs():
        game = ""
    if status in SECTIONS:
        page = paginate(selectors.listed(status, game), PAGE_SIZE, request.GET.get("page"))
        sections = [{"key": status, "title": SECTIONS[status], "rows": page.object_list, "page": page}]
    else:
        sections = []
        for key, title in SECTIONS.items():
            rows = list(selectors.listed(key, game)[: SECTION_SIZE + 1])
            sections.append({"key": key, "title": title, "rows": rows[:SECTION_SIZE], "more": len(rows) > SECTION_SIZE})
    query_prefix = f"status={status}&" + (f"game={game}&" if game else "")
    return render(
        request,
        "tournaments/list.html",
        {"sections": sections, "status": status, "game": game, "games": all_games(), "query_prefix": query_prefix},
    )


def _tournament_or_404(request, tournament_id) -> tuple[Tournament, str | None]:
    token = request.GET.get("token") or request.POST.get("token") or None
    tournament = Tournament.objects.select_related("creator", "winner", "forum_topic").filter(pk=tournament_id).first()
    if tournament is None or not services.can_view(tournament, request.user, token):
        raise Http404
    return tournament, token


def tournament_detail(request, tournament_id):
    tournament, token = _tournament_or_404(request, tournament_id)
    entrants = selectors.entrants_of(tournament)
    user = request.user
    context = {
        "tournament": tournament,
        "token": token,
        "entrants": entrants,
        "standings": selectors.standing_rows(tournament, entrants),
        "tie_break_names": standings.TIE_BREAKS,
        "rounds": selectors.rounds_of(tournament),
        "mine": next((e for e in entrants if user.is_authenticated and e.user_id == user.pk and not e.is_bot), None),
        "is_creator": user.is_authenticated and (user.pk == tournament.creator_id or user.is_staff),
        "bot_form": AddBotForm(),
        # Beside the choice of a bot: where a level is not shown better than the one below at
        # the tournament's tables.
        "level_notes": level_notes(tournament.game, tournament.table_size),
        "minimum": services.minimum_entrants(tournament),
        "entries_open": timezone.now() >= tournament.registration_opens_at,
    }
    # The live part is everything that changes as the tournament runs (its status, winner,
    # the buttons of this visitor, the standings and rounds): the page fetches it again
    # whenever its socket says the tournament changed.
    template = "tournaments/_live.html" if request.GET.get("part") == "live" else "tournaments/detail.html"
    return render(request, template, context)


@login_required
def tournament_new(request):
    form = TournamentForm(request.POST or None, initial={"rated": True, "table_size": 2})
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            tournament = services.tournament_create(user=request.user, **form.choices())
            messages.success(request, gettext("Your tournament is announced. Enter bots or share the link to fill it."))
            return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "title": gettext("Create a tournament")})


@login_required
def tournament_edit(request, tournament_id):
    tournament, _ = _tournament_or_404(request, tournament_id)
    if request.user.pk != tournament.creator_id and not request.user.is_staff:
        messages.error(request, gettext("Only the creator of the tournament can edit it."))
        return redirect(tournament)
    if tournament.status != Tournament.Status.REGISTRATION:
        messages.error(request, gettext("A tournament is edited only before it starts."))
        return redirect(tournament)
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_from(tournament))
    if request.method == "POST" and form.is_valid():
        # A refusal about a field is shown by it; any other (no longer the creator's to edit,
        # or started meanwhile) on the tournament's page.
        with refusals.on_form(form, others_to=request) as refused:
            services.tournament_edit(tournament_id=tournament.pk, user=request.user, **form.choices())
            messages.success(request, gettext("The tournament was saved."))
            return redirect(tournament)
        if refused and not refused.on_form:
            return redirect(tournament)
    return render(
        request,
        "tournaments/form.html",
        {"form": form, "title": gettext("Edit %(name)s") % {"name": tournament.name}, "tournament": tournament},
    )


def _act(request, tournament_id, action, success: str):
    tournament, token = _tournament_or_404(request, tournament_id)
    with refusals.as_message(request):
        action(tournament, token)
        messages.success(request, success)
    url = tournament.get_absolute_url()
    return redirect(f"{url}?token={token}" if token and tournament.invite_only else url)


@require_POST
@login_required
def tournament_join(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda t, token: services.tournament_join(tournament_id=t.pk, user=request.user, token=token),
        gettext("You are in. Your first match starts with the first round."),
    )


@require_POST
@login_required
def tournament_withdraw(request, tournament_id):
    entrant_id = request.POST.get("entrant")
    entrant_id = int(entrant_id) if entrant_id and entrant_id.isdigit() else None
    return _act(
        request,
        tournament_id,
        lambda t, token: services.tournament_withdraw(tournament_id=t.pk, user=request.user, entrant_id=entrant_id),
        gettext("The entry was withdrawn."),
    )


@require_POST
@login_required
def tournament_add_bot(request, tournament_id):
    form = AddBotForm(request.POST)

    def add(tournament, token):
        if not form.is_valid():
            raise services.TournamentError(_("Choose one of the bots."))
        services.tournament_add_bot(tournament_id=tournament.pk, user=request.user, bot=form.cleaned_data["bot"])

    return _act(request, tournament_id, add, "The bot is entered.")


@require_POST
@login_required
def tournament_start(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda t, token: services.tournament_start(tournament_id=t.pk, user=request.user),
        gettext("The tournament has started: round 1 is being played."),
    )


@require_POST
@login_required
def tournament_cancel(request, tournament_id):
    return _act(
        request,
        tournament_id,
        lambda t, token: services.tournament_cancel(tournament_id=t.pk, user=request.user),
        gettext("The tournament was cancelled."),
    )
