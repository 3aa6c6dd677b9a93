"""Learn by playing: a game's scripted lesson on the real board, without a match or a socket.

The server holds the lesson: the page shows the learner's view of the current position and
posts the action the learner chose; the answer is the next position, or a hint and the same
position. The learner's progress (how many of their actions they have played) lives in the
session, so a reload comes back to the same step. A game's first lesson lives at
``/games/<slug>/learn/``, the others at ``/games/<slug>/learn/<lesson>/``.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from portal import json_limits

from .catalog import all_games
from .engine_text import translated_all
from .forms import UNTIMED
from .seat_names import seat_names
from .tutorials import Position, Tutorial, answer, get_tutorial, lessons_of, position

SESSION_KEY = "lessons"
# The level the closing step offers: the gentlest thinking bot.
LESSON_BOT = "mcts-easy"


def _(text: str) -> str:
    """A lesson's English text in the reader's language ("" stays "": the catalogue's header
    is no text of a lesson)."""
    return gettext(text) if text else ""


def _tutorial_or_404(slug, lesson=None) -> Tutorial:
    try:
        return get_tutorial(slug, lesson)
    except KeyError:
        raise Http404("No such lesson for this game") from None


def _key(tutorial: Tutorial) -> str:
    """The lesson's key in the session: the game's slug for its first lesson (as it always
    was), "slug/lesson" for the others."""
    return tutorial.slug if tutorial.is_first else f"{tutorial.slug}/{tutorial.lesson}"


def lesson_url(tutorial: Tutorial, view: str = "") -> str:
    """The address of ``tutorial``'s page (``view`` "move" or "restart": of that action)."""
    suffix = f"-{view}" if view else ""
    if tutorial.is_first:
        return reverse(f"game-learn{suffix}", args=[tutorial.slug])
    return reverse(f"game-lesson{suffix}", args=[tutorial.slug, tutorial.lesson])


def learn_links() -> list[dict]:
    """Per game, its first lesson's address and the further lessons (title, address)."""
    links = []
    for game in all_games():
        first, *more = lessons_of(game.slug)
        more_links = [{"title": _(t.title), "url": lesson_url(t)} for t in more]
        links.append({"game": game, "url": lesson_url(first), "more": more_links})
    return links


def _progress(request, tutorial: Tutorial) -> int:
    value = request.session.get(SESSION_KEY, {}).get(_key(tutorial), 0)
    return value if isinstance(value, int) else 0


def _save_progress(request, tutorial: Tutorial, progress: int) -> None:
    lessons = dict(request.session.get(SESSION_KEY, {}))
    lessons[_key(tutorial)] = progress
    request.session[SESSION_KEY] = lessons


def lesson_payload(here: Position) -> dict:
    """What the page draws: the learner's view, their legal actions in words, the step's
    words, in the reader's language. The taught action itself is not in it: the server says
    whether a move is it."""
    tutorial = here.tutorial
    state = here.state
    view = state.view(tutorial.seat)
    label = tutorial.game.action_label
    steps = tutorial.steps
    current = None if here.finished else steps[here.step]
    names = [_(name) for name in tutorial.names]
    # The engine's own words (the view's, the actions' labels, the colours in the seats' names)
    # in the reader's language, as the match page says them.
    return translated_all(
        {
            "game": tutorial.slug,
            "lesson": tutorial.lesson,
            "seat": tutorial.seat,
            "seats": [{"index": i, "username": name} for i, name in enumerate(names)],
            "seat_names": seat_names(names, view.get("seat_colours")),
            "view": view,
            "legal_actions": (
                [] if here.finished else [{"action": a, "label": label(a)} for a in state.legal_actions()]
            ),
            "progress": here.progress,
            "step": here.step,
            "steps": [_(s.title) for s in steps],
            "title": _(current.title) if current else _finished_title(tutorial),
            "prompt": _(current.prompt if current else tutorial.closing),
            "done": _(here.just_done),
            "finished": here.finished,
        }
    )


def _finished_title(tutorial: Tutorial) -> str:
    if tutorial.is_first:
        return gettext("You know the basics")
    return gettext("Lesson done: %(lesson)s") % {"lesson": _(tutorial.title)}


def learn_page(request, slug, lesson=None):
    tutorial = _tutorial_or_404(slug, lesson)
    if lesson is not None and tutorial.is_first:  # one address per lesson: the game's learn page
        return redirect(lesson_url(tutorial))
    here = position(slug, _progress(request, tutorial), tutorial.lesson)
    following = tutorial.next
    context = {
        "game": tutorial.game,
        "tutorial": tutorial,
        "lesson_title": _(tutorial.title),
        "intro": _(tutorial.intro),
        "lesson": lesson_payload(here),
        "lessons": [{"title": _(t.title), "url": lesson_url(t), "current": t is tutorial} for t in lessons_of(slug)],
        "next_lesson": {"title": _(following.title), "url": lesson_url(following)} if following else None,
        "move_url": lesson_url(tutorial, "move"),
        "restart_url": lesson_url(tutorial, "restart"),
        "match_terms": {"game": slug, "num_players": tutorial.num_players, "bot": LESSON_BOT, "time_control": UNTIMED},
    }
    return render(request, "games/learn.html", context)


@require_POST
def learn_move(request, slug, lesson=None):
    """``{"action": "...", "progress": n}``: the learner's move at step ``progress``. Always
    answers the position to show; ``ok`` says whether the move was the taught one."""
    tutorial = _tutorial_or_404(slug, lesson)
    try:
        data = json_limits.loads(request.body)
    except json_limits.JSONRejected as exc:
        return JsonResponse({"code": "bad_request", "message": str(exc)}, status=400)
    action = data.get("action") if isinstance(data, dict) else None
    shown = data.get("progress") if isinstance(data, dict) else None
    if not isinstance(action, str) or not isinstance(shown, int) or isinstance(shown, bool):
        message = gettext('Send {"action": "...", "progress": n}: the move and the step the page shows.')
        return JsonResponse({"code": "bad_request", "message": message}, status=400)
    progress = _progress(request, tutorial)
    if shown != progress:  # another tab moved the lesson on, or back to its start
        here = position(slug, progress, tutorial.lesson)
        hint = gettext("The lesson moved on in another window: here is where it stands.")
        return JsonResponse({"ok": False, "hint": hint, "lesson": lesson_payload(here)})
    result = answer(slug, progress, action, tutorial.lesson)
    if result.ok:
        _save_progress(request, tutorial, result.position.progress)
    hint = " ".join(_(part) for part in (result.refusal, result.step_hint) if part)
    return JsonResponse({"ok": result.ok, "hint": hint, "lesson": lesson_payload(result.position)})


@require_POST
def learn_restart(request, slug, lesson=None):
    tutorial = _tutorial_or_404(slug, lesson)
    _save_progress(request, tutorial, 0)
    return redirect(lesson_url(tutorial))
