import functools
import json
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from live.groups import match_group
from portal import page_cache, refusals
from portal.pagination import paginate
from portal.viewer import viewer

from . import analysis_chart, bot_strength, engine_text, exports, records, sections, selectors, services, state_cache
from .bots import bot_label, bot_names
from .engines import all_games, get_game
from .forms import MatchCreateForm, PlayComputerForm
from .models import Match
from .rules import rules_html


def _game_or_404(slug):
    try:
        return get_game(slug)
    except KeyError:
        raise Http404("No such game") from None


def game_list(request):
    return render(request, "games/game_list.html", {"games": all_games()})


def game_rules(request, slug):
    game = _game_or_404(slug)
    return render(request, "games/game_rules.html", {"game": game, "rules": rules_html(slug)})


# Open matches per page of the lobby: a screenful, however many are waiting.
LOBBY_PAGE_SIZE = 20


def _lobby_filters(request) -> tuple[str, int | None, int]:
    """The game (a slug or ""), the number of players (or None) and the page number asked
    for; anything else in the address is ignored, so it cannot multiply the cached pages."""
    game = request.GET.get("game", "")
    if game not in {g.slug for g in all_games()}:
        game = ""
    players = request.GET.get("players", "")
    players = int(players) if players.isdigit() and int(players) in _player_counts() else None
    number = request.GET.get("page", "")
    number = int(number) if number.isdigit() and 0 < int(number) < 10_000 else 1
    return game, players, number


@functools.cache
def _player_counts() -> list[int]:
    return sorted({n for g in all_games() for n in g.allowed_player_counts()})


OPEN_AREAS = ["open", "people"]
LOBBY_PERSONAL_SECONDS = 10
LIVE_AREAS = ["open", "finished", "people"]


async def _open_matches_fragment(request) -> page_cache.Rendered:
    """The lobby's list of open matches for the filters of ``request``: one page of them,
    kept in the page cache until the open matches change."""
    game, players, number = _lobby_filters(request)
    beyond = {}

    def build():
        page = paginate(selectors.open_matches(game=game, players=players), LOBBY_PAGE_SIZE, number)
        query = urlencode({k: v for k, v in (("game", game), ("players", players)) if v})
        context = {
            "page": page,
            "game": game,
            "players": players,
            "games": all_games(),
            "player_counts": _player_counts(),
            "query_prefix": f"{query}&" if query else "",
        }
        rendered = page_cache.render("games/_open_matches.html", context)
        if page.number != number:  # past the last page: shown, never kept
            beyond["page"] = rendered
            return None
        return rendered

    key = f"lobby:{game}:{players or ''}:{number}"
    shared = await page_cache.acached(key, OPEN_AREAS, {"open_matches": build})
    return shared["open_matches"] or beyond["page"]


@functools.lru_cache(maxsize=32)
def _lobby_forms(game: str | None, language: str) -> page_cache.Rendered:
    # The same for everyone but for the CSRF token (filled per request), and rendering
    # their fields costs more than the rest of the page: rendered once per process.
    forms = {"form": MatchCreateForm(initial={"game": game}), "computer_form": PlayComputerForm(initial={"game": game})}
    return page_cache.render("games/_lobby_forms.html", forms)


async def lobby(request):
    """The lobby, an async view: served in the event loop while its lists are in the page cache."""
    if request.GET.get("part") == "open":  # the page refreshing its list (static/js/lobby.js)

        async def build_part():
            await viewer(request)
            context = {"open_matches": await _open_matches_fragment(request)}
            return render(request, "games/_open_matches_part.html", context)

        return await page_cache.whole_page(request, OPEN_AREAS, build_part)

    async def build():
        user = await viewer(request)
        context = {"open_matches": await _open_matches_fragment(request)}
        # The watch list: public matches being played, shown whatever the list's filters.
        context.update(await page_cache.acached("lobby-live", LIVE_AREAS, {"live_matches": sections.live_matches}))
        if not user.is_authenticated:
            return render(request, "games/lobby.html", context)
        game = request.GET.get("game")
        known = game if game in {g.slug for g in all_games()} else None
        context["forms"] = _lobby_forms(known, translation.get_language())
        # Rendered in a thread: the page lists the challenges waiting for the viewer (a query).
        return await sync_to_async(render)(request, "games/lobby.html", context)

    # Kept for a signed-in visitor a little only: a challenge waiting for them leaves the list
    # when its time is up, which no write marks.
    return await page_cache.whole_page(
        request, [*OPEN_AREAS, *LIVE_AREAS], build, personal_seconds=LOBBY_PERSONAL_SECONDS
    )


@login_required
def match_new(request):
    form = MatchCreateForm(request.POST or None, initial={"game": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            match = services.match_create(user=request.user, **form.match_terms())
            messages.success(request, gettext("Your match is open. Share the link or fill the empty seats with bots."))
            return redirect(match)
    return render(request, "games/match_new.html", {"form": form})


@login_required
def play_computer(request):
    """One click: a new match with you in seat 0 and bots of your level in the others,
    untimed and casual unless you choose a clock and a rated match."""
    form = PlayComputerForm(request.POST or None, initial={"game": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        with refusals.on_form(form):
            match = services.match_create_against_bots(
                user=request.user, bot=form.cleaned_data["bot"], **form.match_terms()
            )
            return redirect(match)
    return render(request, "games/play_computer.html", {"form": form})


@login_required
def my_matches(request):
    return render(
        request,
        "games/my_matches.html",
        {"rows": selectors.my_matches(request.user), "finished": selectors.recent_finished_of(request.user)},
    )


def _token(request, match_id):
    return request.GET.get("token") or request.session.get("match_tokens", {}).get(str(match_id))


def _visible_match(request, match_id):
    match = selectors.match_with_seats(match_id)
    if match is None:
        raise Http404("No such match")
    user = request.user
    # A seated player may always look: the seats are at hand, no need to ask the database.
    seated = user.is_authenticated and any(seat.user_id == user.pk for seat in match.seats.all())
    if not (seated or services.can_view(match, user, _token(request, match_id))):
        raise Http404("No such match")
    if services.match_check_clock(match=match):
        match = selectors.match_with_seats(match_id)
    return match


# The page of a match being played is kept (``portal.page_cache.whole_page``: for a visitor
# who brings nothing of their own, or for one signed-in session) under the generation of the
# match's group in the live room, which every message to the match's sockets moves on (a move,
# a chat line, a seat given up, a takeback asked or answered: ``live.publishing``), and under
# the names of people. Each seat's page is its session's alone: no other seat or spectator is
# ever served it. Kept a minute at most, and never past the deadline of the move due, so that
# a clock that ran out is found when the page is made; the pages of matches not being played
# are made afresh each time.
MATCH_PAGE_SECONDS = 60.0


async def match_page(request, match_id):
    async def build():
        return await sync_to_async(_match_page)(request, match_id)

    areas = ["people", page_cache.live_area(match_group(match_id))]
    return await page_cache.whole_page(request, areas, build)


def _kept_seconds(match: Match) -> float:
    """How long the page of ``match`` as it is now may be kept (0: not at all)."""
    if match.status != Match.Status.ACTIVE:
        return 0
    if match.deadline is None:
        return MATCH_PAGE_SECONDS
    return min(MATCH_PAGE_SECONDS, (match.deadline - timezone.now()).total_seconds())


def _match_page(request, match_id):
    match = _visible_match(request, match_id)
    payload = selectors.match_payload(match, request.user)
    is_creator = request.user.is_authenticated and request.user.pk == match.creator_id
    mine = [s for s in match.seats.all() if request.user.is_authenticated and s.user_id == request.user.pk]
    context = {
        "match": match,
        # The engine's words in the compact form, which the page says with ``engine_text``.
        "payload": selectors.wired_payload(payload),
        "engine_text": engine_text.catalogue(match.game, translation.get_language() or settings.LANGUAGE_CODE),
        "headline": engine_text.translated(selectors.headline(payload)),
        "token": _token(request, match_id) or "",
        "is_creator": is_creator,
        "can_abort": is_creator and selectors.can_abort(match),
        "seated": bool(mine),
        "my_seat": mine[0] if mine else None,
        "has_free_seat": any(s.user_id is None for s in match.seats.all()),
        "bot_choices": [(name, bot_label(name)) for name in bot_names()],
        # Beside the choice of a level for the empty seats: where one is not shown better than
        # the level below at this table (the file is read once per process: no query).
        "level_notes": bot_strength.level_notes(match.game, match.num_players),
        "can_chat": services.can_chat(match, request.user),
        **_analysis_context(
            request, match, [engine_text.translated(n) for n in payload.get("seat_names") or []], seated=bool(mine)
        ),
    }
    return page_cache.keep_at_most(render(request, "games/match.html", context), _kept_seconds(match))


def _analysis_context(request, match, seat_names: list[str], seated: bool | None = None) -> dict:
    """The analysis panel's: whether the viewer may ask for one, and the analysis if any."""
    if match.status != Match.Status.FINISHED or not request.user.is_authenticated:
        return {"can_analyse": False}
    try:
        analysis = services.analysis_for(user=request.user, match_id=match.pk, match=match, seated=seated)
    except services.MatchError:
        return {"can_analyse": False}
    result = analysis.result if analysis is not None and analysis.status == analysis.Status.DONE else None
    return {
        "can_analyse": True,
        "analysis": analysis,
        "chart": analysis_chart.chart(result, seat_names) if result is not None else None,
    }


@require_POST
@login_required
def match_analysis_request_view(request, match_id):
    return _post_action(
        request, match_id, lambda: services.analysis_request(user=request.user, match_id=match_id), None
    )


@login_required
def match_analysis_view(request, match_id):
    """The analysis panel alone, for the match page to put in once the analysis is done."""
    match = _visible_match(request, match_id)
    names = selectors.match_payload(match, request.user, chat=False)["seat_names"]
    context = _analysis_context(request, match, [engine_text.translated(n) for n in names])
    if not context["can_analyse"]:
        raise Http404("No analysis of this match")
    return render(request, "games/_analysis.html", {"match": match, **context})


def match_invite(request, token):
    match = Match.objects.filter(invite_token=token).first()
    if match is None:
        raise Http404("No such invitation")
    tokens = request.session.get("match_tokens", {})
    tokens[str(match.pk)] = token
    request.session["match_tokens"] = tokens
    return redirect(match)


def _post_action(request, match_id, call, success):
    with refusals.as_message(request):
        call()
        if success:
            messages.success(request, success)
    return redirect("match", match_id=match_id)


@require_POST
@login_required
def match_join_view(request, match_id):
    return _post_action(
        request,
        match_id,
        lambda: services.match_join(match_id=match_id, user=request.user, token=_token(request, match_id)),
        gettext("You took a seat."),
    )


@require_POST
@login_required
def match_leave_view(request, match_id):
    return _post_action(
        request,
        match_id,
        lambda: services.match_leave(match_id=match_id, user=request.user),
        gettext("You left the match."),
    )


@require_POST
@login_required
def match_fill_bots_view(request, match_id):
    bot = request.POST.get("bot", "random")
    return _post_action(
        request,
        match_id,
        lambda: services.match_seat_bot(match_id=match_id, user=request.user, bot=bot),
        gettext("Bots took the empty seats."),
    )


@require_POST
@login_required
def match_resign_view(request, match_id):
    return _post_action(
        request, match_id, lambda: services.match_resign(match_id=match_id, user=request.user), gettext("You resigned.")
    )


@require_POST
@login_required
def match_abort_view(request, match_id):
    return _post_action(
        request,
        match_id,
        lambda: services.match_abort(match_id=match_id, user=request.user),
        gettext("The match was aborted."),
    )


def match_record(request, match_id):
    """The game record: enough to replay the match anywhere (``manage.py replay_record``). Its
    actions are the public ones: a secret stays one (the engine replays a masked record to the
    same result)."""
    match = _visible_match(request, match_id)
    if not match.is_over:
        raise Http404("The record is published when the match is over")
    seats = list(match.seats.all())  # with their players, in seat order
    record = {
        "game": match.game,
        "num_players": match.num_players,
        "options": match.options,
        "players": [s.user.username if s.user else None for s in seats],
        "seat_names": selectors.match_seat_names(match, seats, state_cache.load(match)),
        "actions": selectors.public_actions(match),
        "places": [s.place for s in seats],
        "scores": [s.score for s in seats],
        "end_reason": match.end_reason,
    }
    response = HttpResponse(json.dumps(record, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{match.game}-{match.pk}.json"'
    return response


def match_record_text(request, match_id):
    """The game record as text (docs/RECORDS.md): headers for the players, options, result and
    ratings, then one line per move, secrets masked as in the move list."""
    match = _visible_match(request, match_id)
    if match.status != Match.Status.FINISHED:
        raise Http404("The record is published when the match is finished")
    text = records.write(exports.match_record(exports.one(match.pk) or match))
    response = HttpResponse(text, content_type=f"{records.MEDIA_TYPE}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{match.game}-{match.pk}.{records.EXTENSION}"'
    return response


@gzip_page
def match_replay(request, match_id):
    """Every position of a finished match, for stepping through it on the match page. Sent
    compressed whoever serves it: a long match's is ten times smaller so (it holds no secret
    of the request for a compression attack to guess)."""
    match = _visible_match(request, match_id)
    if not match.is_over:
        raise Http404("The replay is published when the match is over")
    # The engine's words in the compact form the page says in its language (``engine_text``).
    replay = engine_text.wired(selectors.replay(match))
    return JsonResponse(replay, json_dumps_params={"separators": (",", ":")})
