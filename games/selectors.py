"""Reads of matches: what each person may see, in the shape the page, the socket and the API share."""

from __future__ import annotations

import functools
import json

from django.conf import settings
from django.db.models import Exists, OuterRef, Prefetch
from django.utils import timezone

from . import replays, state_cache
from .engine_text import wired, wired_view
from .engines import get_game
from .models import ChatMessage, Match, Move, Seat
from .outcome import outcome_words
from .seat_names import seat_names

CHAT_HISTORY = 50


def seat_of(match: Match, user, seats: list[Seat] | None = None) -> int | None:
    """The seat ``user`` plays in ``match`` (None for spectators and quitters)."""
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all() if seats is None else seats:
        if seat.user_id == user.pk and not seat.quit:
            return seat.index
    return None


def seats_json(match: Match, seats: list[Seat] | None = None) -> list[dict]:
    result = []
    # An imported match seats no account: its players are the names its record gave.
    names = (match.imported_from or {}).get("names") or []
    for seat in match.seats.all() if seats is None else seats:
        user = seat.user
        result.append(
            {
                "index": seat.index,
                "username": user.username if user else None,
                "url": user.get_absolute_url() if user else None,
                "is_bot": bool(user and user.is_bot),
                "bot": seat.bot_name() or None,
                "resigned": seat.resigned,
                "timed_out": seat.timed_out,
                "place": seat.place,
                "score": seat.score,
                "record_name": names[seat.index] if user is None and seat.index < len(names) else None,
            }
        )
    return result


@functools.lru_cache(maxsize=64)
def _colours_at_start(game: str, num_players: int, options: str) -> tuple[str, ...] | None:
    colours = get_game(game).new_state(num_players, json.loads(options)).view(None).get("seat_colours")
    return tuple(colours) if colours else None


def match_seat_names(match: Match, seats: list[Seat] | None = None, state=None) -> list[str]:
    """Each seat's name for people (``games.seat_names``), in seat order. Without a state to
    read the colours from, those every match of the game starts with (only Territories draws
    them by lot, and its two names repeat only when one bot plays both sides)."""
    if seats is None:
        seats = sorted(match.seats.all(), key=lambda seat: seat.index)
    colours = state.view(None).get("seat_colours") if state is not None else None
    if colours is None:
        colours = _colours_at_start(match.game, match.num_players, json.dumps(match.options or {}, sort_keys=True))
    return seat_names([seat.user.username if seat.user else None for seat in seats], colours)


def clock_json(match: Match) -> dict:
    seconds_left = None
    if match.deadline is not None:
        seconds_left = max(0.0, (match.deadline - timezone.now()).total_seconds())
    return {
        "speed": match.speed,
        "seconds_per_move": match.seconds_per_move,
        "to_move": match.to_move,
        "deadline": match.deadline.isoformat() if match.deadline else None,
        "seconds_left": seconds_left,
    }


def takeback_json(match: Match) -> dict | None:
    """The request to take back a move, as everyone may see it, while it holds (asked at the
    match's current version; any move lapses it): who asked, who accepted, who is still to
    answer, and who declined (then it is over until the next move). None when there is none."""
    return public_takeback(match.takeback, match.version, match.status)


def public_takeback(request: dict | None, version: int, status: str) -> dict | None:
    """``takeback_json`` from the match row's columns alone."""
    if not request or request.get("version") != version or status != Match.Status.ACTIVE:
        return None
    return {
        "seat": request["seat"],
        "accepted": request["accepted"],
        "waiting": request["waiting"],
        "declined_by": request.get("declined_by"),
    }


@functools.lru_cache(maxsize=16384)
def action_label(game: str, action: str) -> str:
    """``action`` of ``game`` in plain words (a pure function of the two: kept once known)."""
    return get_game(game).action_label(action)


@functools.lru_cache(maxsize=16384)
def _legal_action_text(game: str, action: str) -> str:
    """One entry of ``legal_actions_json`` as JSON text, its label in the compact form the match
    page says in its language (``engine_text.wired``; a pure function of the two)."""
    return json.dumps({"action": action, "label": wired(action_label(game, action))})


def _to_act(match: Match, state, seat: int | None) -> bool:
    """Whether ``seat`` has actions to choose from now (the match is on and it is its turn)."""
    return seat is not None and match.status == Match.Status.ACTIVE and state.current_player() == seat


def legal_actions_text(match: Match, state, seat: int | None) -> str:
    """``legal_actions_json`` as JSON text, joined from the entries' kept texts."""
    if not _to_act(match, state, seat):
        return "[]"
    game = match.game
    return "[" + ", ".join([_legal_action_text(game, action) for action in state.legal_actions()]) + "]"


def legal_actions_json(match: Match, state, seat: int | None) -> list[dict]:
    if not _to_act(match, state, seat):
        return []
    game = match.game
    return [{"action": action, "label": action_label(game, action)} for action in state.legal_actions()]


def _payload(match: Match, state, seat: int | None, seats_part: list[dict], clocks: dict) -> dict:
    return {**_shared_payload(match, state, seats_part, clocks), **_own_payload(match, state, seat, seats_part)}


def _shared_payload(match: Match, state, seats_part: list[dict], clocks: dict) -> dict:
    """What every audience's snapshot of one version holds alike."""
    return {
        "id": match.pk,
        "game": match.game,
        "game_name": match.game_name,
        "status": match.status,
        "end_reason": match.end_reason,
        "version": match.version,
        "rated": match.rated,
        "num_players": match.num_players,
        "options": match.options,
        "seats": seats_part,
        "clocks": clocks,
        "moves": len(state.history),
        "takeback": takeback_json(match),
        "prompt_others": state.prompt_others(),
        "outcome": _outcome(match, state, seats_part),
    }


def _outcome(match: Match, state, seats_part: list[dict]) -> str:
    """A finished match's result in one sentence (``games.outcome``); "" before it ends."""
    if match.status != Match.Status.FINISHED:
        return ""
    names = seat_names([s["username"] for s in seats_part], state.view(None).get("seat_colours"))
    return outcome_words(names, seats_part, match.end_reason, state.end_words() if state.is_terminal() else "")


def _own_payload(match: Match, state, seat: int | None, seats_part: list[dict], view: dict | None = None) -> dict:
    """What one audience's snapshot holds of its own: its seat, its view, its legal actions.
    ``view``: the view of that audience, when the caller has it already."""
    if view is None:
        view = state.view(None if match.is_over else seat)
    return {
        "seat": seat,
        "seat_names": seat_names([s["username"] for s in seats_part], view.get("seat_colours")),
        "view": view,
        "legal_actions": legal_actions_json(match, state, seat),
    }


def headline(payload: dict) -> str:
    """The line above the board for whoever ``payload`` is for: the view's ``prompt`` ("You
    rolled 6: place a marker...") for the seat to move, the shared ``prompt_others`` naming
    that seat ("Blue rolled 6 and places a marker...") for the other seats and spectators.
    The match page picks the same way (static/js/match.js, ``headline``)."""
    if payload.get("outcome"):
        return payload["outcome"]  # a finished match: who won and why
    view = payload["view"]
    mine = payload["seat"] is not None and payload["seat"] == view.get("current_player")
    return view.get("prompt", "") if mine else payload["prompt_others"]


# The parts of a snapshot in which the engines' words are, in the compact form on the match page.
_WIRED_KEYS = ("prompt_others", "outcome", "seat_names", "view", "legal_actions", "new_moves")


def wired_payload(payload: dict) -> dict:
    """``payload`` as the match page reads it: every engine text in it in its compact form
    (``engine_text.wired``), which the page says in its own language."""
    return {**payload, **{k: wired(payload[k]) for k in _WIRED_KEYS if k in payload}}


def match_payload(match: Match, user, *, chat: bool = True, wire: bool = False) -> dict:
    """The snapshot a person gets: their seat's view, their legal actions, seats, clocks (who
    is to move and by when), chat. ``wire``: for the match page (``wired_payload``); without
    it every text is the engine's English (the API)."""
    seats = list(match.seats.all())
    state = state_cache.load(match)
    payload = _payload(match, state, seat_of(match, user, seats), seats_json(match, seats), clock_json(match))
    if wire:
        payload = wired_payload(payload)
    if chat:
        shown = ChatMessage.objects.filter(match=match, hidden_at__isnull=True)  # not hidden by a moderator
        messages = list(shown.select_related("user").order_by("-created_at")[:CHAT_HISTORY])
        payload["chat"] = [chat_json(m) for m in reversed(messages)]
    return payload


def new_moves_json(match: Match, state, new_moves: list[tuple[int, int | None, str]]) -> list[dict]:
    """Move-list rows for ``new_moves`` (index, seat, action), masked as the whole list is, so
    a page extends its list from the update instead of asking for it again."""
    public = state.public_history()
    return [
        {"index": index, "seat": seat, "action": public[index], "label": action_label(match.game, public[index])}
        for index, seat, _ in new_moves
    ]


@functools.lru_cache(maxsize=4096)
def _seat_names_text(usernames: tuple, colours: tuple | None) -> str:
    """``seat_names`` as the match page reads them (``engine_text.wired``), as JSON text: a pure
    function of the players and their colours, which a match keeps from move to move."""
    return json.dumps(wired(seat_names(usernames, colours)))


def audience_payloads(
    match: Match,
    seats: list[Seat],
    state,
    new_moves: list | None = None,
    seats_part: list[dict] | None = None,
    spectator_view: dict | None = None,
) -> dict:
    """Every audience's snapshot of one version, serialised once, from what the writer holds
    (no query): ``spectator`` (JSON text), ``seats`` (one JSON text per seat; None for a seat
    whose player left, who now watches as a spectator), ``players`` (user id as text -> seat).

    This is what ``match.updated`` carries: each socket forwards its own audience's text. What
    every audience shares is serialised once and each audience's own part joined to it.
    ``seats_part`` (``seats_json`` of the seats) and ``spectator_view`` (``state.view(None)``):
    when the caller holds them already."""
    if seats_part is None:
        seats_part = seats_json(match, seats)
    shared = _shared_payload(match, state, seats_part, clock_json(match))
    if new_moves is not None:
        shared["new_moves"] = new_moves_json(match, state, new_moves)
    for key in ("prompt_others", "outcome", "new_moves"):  # the engine's words (``wired_payload``)
        if key in shared:
            shared[key] = wired(shared[key])
    head = '{"type": "snapshot", ' + json.dumps(shared)[1:-1] + ", "
    usernames = tuple(s["username"] for s in seats_part)
    # Audiences that see the same share one serialised view, with the seat names it implies:
    # every seat of a game whose views are alike (``State.views_alike``) sees the spectator's,
    # and a seat's own view equal to one already serialised reuses its text. A view that
    # differs in anything is serialised on its own.
    encoded: list[tuple[dict, str]] = []

    def view_and_names(view: dict) -> str:
        for known, part in encoded:
            if known is view or known == view:
                return part
        colours = view.get("seat_colours")
        names = _seat_names_text(usernames, tuple(colours) if colours else None)
        part = '"seat_names": ' + names + ', "view": ' + json.dumps(wired_view(view, text_keys))
        encoded.append((view, part))
        return part

    public = spectator_view if spectator_view is not None else state.view(None)
    text_keys = state.text_keys

    def text(seat: int | None) -> str:
        # The keys and their order as ``_own_payload``'s.
        view = public if seat is None or match.is_over or state.views_alike else state.view(seat)
        legal = legal_actions_text(match, state, seat)
        return f'{head}"seat": {json.dumps(seat)}, {view_and_names(view)}, "legal_actions": {legal}}}'

    texts: list[str | None] = []
    players: dict[str, int] = {}
    for seat in seats:
        if seat.user_id is None or seat.quit:
            texts.append(None)
            continue
        players[str(seat.user_id)] = seat.index
        texts.append(text(seat.index))
    return {"version": match.version, "spectator": text(None), "seats": texts, "players": players}


def chat_of(match: Match):
    """Every chat line of the match a moderator has not hidden, oldest first."""
    shown = ChatMessage.objects.filter(match=match, hidden_at__isnull=True)
    return shown.select_related("user").order_by("created_at", "id")


def chat_json(message: ChatMessage) -> dict:
    """A chat line; the site's own notices (no user) are signed with the site's name."""
    return {
        "id": message.pk,
        "user": message.user.username if message.user_id else settings.SITE_NAME,
        "text": message.text,
        "at": message.created_at.isoformat(),
        "notice": message.user_id is None,
    }


def moves_json(match: Match) -> list[dict]:
    """The move list, secret chance outcomes masked (for good: a secret stays one after the
    end, as the dice game's face-down card does)."""
    public = public_actions(match)
    rows = list(match.moves.order_by("index").values("index", "seat", "action", "created_at"))
    for row, action in zip(rows, public, strict=False):
        row["action"] = action
    engine = match.engine
    for row in rows:
        row["label"] = engine.action_label(row["action"])
    return rows


def can_abort(match: Match) -> bool:
    """Whether the match may still be called off, in one query: being played, nobody has moved
    yet (the chance outcomes of the set-up do not count), and not a table of a tournament
    (tournaments.Table, related name ``tournament_table``: the round waits on it)."""
    if match.status != Match.Status.ACTIVE:
        return False
    played = Move.objects.filter(match=OuterRef("pk"), seat__isnull=False)
    return Match.objects.filter(pk=match.pk, tournament_table__isnull=True).exclude(Exists(played)).exists()


def in_tournament(match: Match) -> bool:
    """Whether the match is a table of a tournament."""
    return Match.objects.filter(pk=match.pk, tournament_table__isnull=False).exists()


def match_holding(seats: list[Seat]) -> Match:
    """The match of ``seats`` (read joined to it, in seat order), handed them as its
    prefetched seats, so ``match.seats.all()`` asks the database nothing more."""
    match = seats[0].match
    prefetched = match.seats.all()
    prefetched._result_cache, prefetched._prefetch_done = seats, True
    match._prefetched_objects_cache = {"seats": prefetched}
    for seat in seats:
        seat.match = match
    return match


def match_with_seats(match_id: int) -> Match | None:
    """The match with its seats and their players, in one query (every match has its seats
    from the moment it is created)."""
    try:
        seats = list(Seat.objects.filter(match_id=match_id).select_related("match", "user").order_by("index"))
    except (ValueError, TypeError):
        return None
    return match_holding(seats) if seats else None


def open_matches(game: str | None = None, players: int | None = None):
    """The public matches waiting for players, newest first (of one game, of one number of
    players, when given)."""
    qs = Match.objects.filter(status=Match.Status.OPEN, visibility=Match.Visibility.PUBLIC)
    if game:
        qs = qs.filter(game=game)
    if players:
        qs = qs.filter(num_players=players)
    return qs.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    ).order_by("-created_at", "-id")


def live_matches(game: str | None = None, limit: int = 12):
    """Public matches being played now, newest first, for the watch lists (never an
    invite-only match)."""
    qs = Match.objects.filter(status=Match.Status.ACTIVE, visibility=Match.Visibility.PUBLIC)
    if game:
        qs = qs.filter(game=game)
    return qs.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    ).order_by("-started_at", "-pk")[:limit]


def latest_finished(game: str | None = None, limit: int = 10):
    qs = Match.objects.filter(
        status=Match.Status.FINISHED, visibility=Match.Visibility.PUBLIC, imported_from__isnull=True
    )
    if game:
        qs = qs.filter(game=game)
    return qs.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("place", "index"))
    ).order_by("-finished_at")[:limit]


def my_matches(user):
    """The user's matches: yours to move first, then the others being played, then open ones."""
    mine = (
        Match.objects.filter(seats__user=user)
        .exclude(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
        .distinct()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))
    )
    rows = []
    for match in mine:
        seat = seat_of(match, user)
        rows.append((match.status == Match.Status.ACTIVE and match.to_move == seat and seat is not None, match))
    rows.sort(key=lambda row: (not row[0], row[1].status != Match.Status.ACTIVE, -(row[1].pk)))
    return rows


def recent_finished_of(user, limit: int = 20, *, public_only: bool = False):
    """``user``'s latest finished matches; for a page strangers see, ``public_only``: an
    invite-only match is nobody else's business."""
    qs = Match.objects.filter(seats__user=user, status=Match.Status.FINISHED)
    if public_only:
        qs = qs.filter(visibility=Match.Visibility.PUBLIC)
    return (
        qs.distinct()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("place", "index")))
        .order_by("-finished_at")[:limit]
    )


def public_actions(match: Match) -> list[str]:
    """The match's actions as anyone may see them: the stored moves with every secret chance
    outcome masked. The stored moves keep the real ones, from which the server replays the
    match exactly."""
    return state_cache.load(match).public_history()


def replay(match: Match) -> dict:
    """Every position of a match, compact (``games.replays``): the first position's view, then
    each step's seat, public action, its words and the patch of the view, as a spectator sees
    it at that step (actions as in the public move list)."""
    stored = list(match.moves.order_by("index").values_list("action", "seat"))
    return replays.build(get_game(match.game), match.num_players, match.options, stored)
