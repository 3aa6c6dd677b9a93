"""After the game: the analysis of a finished match (``games.bots.analysis``), asked for by a
player or, for a public match, by anyone signed in; computed once per match and budget by a
worker of the ``analysis`` queue (``games.tasks.analyse_match``) and kept, so asking again
costs nothing. Nothing is told of a match still going: no help during play.

An analysis steps aside while a live bot thinks (``games.bot_activity``): it waits for the
bots, at most ``bot_activity.MAX_WAIT`` seconds at a time and at most half the task's soft time
limit (``ANALYSIS_SECONDS``) in all, so the waits alone never make it run out of time (at the
default budget an analysis's own work takes a minute or two, docs/BENCHMARKS.md); not with
``ANALYSIS_PAUSES_FOR_BOTS`` off."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from live.events import analysis_progress
from portal.errors import lazy_message

from .. import bot_activity, signals
from ..bots.analysis import FORMAT, analyse
from ..engines import get_game
from ..models import Match, MatchAnalysis
from .chat import match_broadcast
from .writes import MatchError

# How often a running analysis writes its progress, in percent of the match's positions.
PROGRESS_STEP = 5


def analysis_budget() -> str:
    """The budget the site analyses at today, as stored with each result."""
    return f"mcts{settings.ANALYSIS_ITERATIONS}-seed0-f{FORMAT}"


def _analysable(match_id: int, user, *, match: Match | None = None, seated: bool | None = None) -> Match:
    """The match ``user`` may have analysed; refuses one they may not see (as if there were
    none) and one not finished (saying only that). A caller that has read the match and the
    user's seats already passes them."""
    if match is None:
        match = Match.objects.filter(pk=match_id).first()
    if seated is None:
        seated = match is not None and user.is_authenticated and match.seats.filter(user=user).exists()
    if match is None or not user.is_authenticated or not (seated or match.visibility == Match.Visibility.PUBLIC):
        raise MatchError(_("No such match."), "not_found")
    if match.status != Match.Status.FINISHED:
        raise MatchError(_("Only a finished match can be analysed."), "not_finished")
    return match


def analysis_for(
    *, user, match_id: int, match: Match | None = None, seated: bool | None = None
) -> MatchAnalysis | None:
    """The analysis of the match at today's budget, if one was asked for (the same refusals
    as ``analysis_request``); ``match`` and ``seated`` (whether ``user`` has a seat in it)
    when the caller has read them."""
    match = _analysable(match_id, user, match=match, seated=seated)
    return MatchAnalysis.objects.filter(match=match, budget=analysis_budget()).first()


def analysis_request(*, user, match_id: int) -> MatchAnalysis:
    """Ask for the analysis of a finished match: the stored one when there is one (done,
    queued or running), else a new one queued for the workers. One that failed is queued
    again, and so is one left unfinished for twice a worker's time limit (its task was lost).
    A person has at most ``ANALYSIS_QUEUED_PER_PERSON`` of theirs waiting or running."""
    match = _analysable(match_id, user)
    key = analysis_budget()
    found = MatchAnalysis.objects.filter(match=match, budget=key).first()
    if found is not None and not _to_queue_again(found):
        return found
    lost = timezone.now() - timedelta(seconds=2 * settings.ANALYSIS_SECONDS)
    waiting = MatchAnalysis.objects.filter(
        requested_by=user,
        status__in=(MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING),
        created_at__gte=lost,
    ).count()
    if waiting >= settings.ANALYSIS_QUEUED_PER_PERSON:
        raise MatchError(
            lazy_message(
                ngettext_lazy(
                    "You have %(waiting)s analysis waiting already: ask for another once it is done.",
                    "You have %(waiting)s analyses waiting already: ask for another once one of them is done.",
                    "waiting",
                ),
                waiting=waiting,
            ),
            "too_many_pending",
        )
    with transaction.atomic():
        if found is not None:
            MatchAnalysis.objects.filter(pk=found.pk).update(
                status=MatchAnalysis.Status.QUEUED,
                progress=0,
                result=None,
                requested_by=user,
                created_at=timezone.now(),  # asked for anew: its time limits count from now
                finished_at=None,
            )
            analysis = MatchAnalysis.objects.get(pk=found.pk)
        else:
            try:
                with transaction.atomic():
                    analysis = MatchAnalysis.objects.create(match=match, budget=key, requested_by=user)
            except IntegrityError:  # asked for at the same moment by somebody else
                return MatchAnalysis.objects.get(match=match, budget=key)
        analysis_id = analysis.pk
        transaction.on_commit(
            lambda: signals.analysis_requested.send(sender=MatchAnalysis, analysis_id=analysis_id), robust=True
        )
    return analysis


def _to_queue_again(analysis: MatchAnalysis) -> bool:
    if analysis.status == MatchAnalysis.Status.FAILED:
        return True
    lost = timezone.now() - timedelta(seconds=2 * settings.ANALYSIS_SECONDS)
    return analysis.status != MatchAnalysis.Status.DONE and analysis.created_at < lost


def analysis_run(*, analysis_id: int) -> bool:
    """Compute a queued analysis (a worker's task), writing its progress as it goes; False
    when there was nothing to do (done already, or taken by another worker)."""
    taken = MatchAnalysis.objects.filter(
        pk=analysis_id, status__in=(MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING)
    ).update(status=MatchAnalysis.Status.RUNNING, progress=0)
    if not taken:
        return False
    analysis = MatchAnalysis.objects.select_related("match").get(pk=analysis_id)
    match = analysis.match
    actions = list(match.moves.order_by("index").values_list("action", flat=True))
    written = [0]

    def progress(done: int, total: int) -> None:
        percent = min(99, done * 100 // max(1, total))
        if percent >= written[0] + PROGRESS_STEP:
            written[0] = percent
            MatchAnalysis.objects.filter(pk=analysis_id).update(progress=percent)
            _tell(match.pk, MatchAnalysis.Status.RUNNING, percent)

    try:
        result = analyse(
            get_game(match.game),
            match.num_players,
            match.options,
            actions,
            iterations=settings.ANALYSIS_ITERATIONS,
            seed=0,
            progress=progress,
            pause=bot_activity.pauser(total=settings.ANALYSIS_SECONDS / 2)
            if settings.ANALYSIS_PAUSES_FOR_BOTS
            else None,
        )
    except Exception:
        MatchAnalysis.objects.filter(pk=analysis_id).update(status=MatchAnalysis.Status.FAILED)
        _tell(match.pk, MatchAnalysis.Status.FAILED, written[0])
        raise
    MatchAnalysis.objects.filter(pk=analysis_id).update(
        status=MatchAnalysis.Status.DONE, progress=100, result=result, finished_at=timezone.now()
    )
    _tell(match.pk, MatchAnalysis.Status.DONE, 100)
    return True


def _tell(match_id: int, status: str, progress: int) -> None:
    """The match's open pages follow the analysis over their socket (the page also asks now and
    then, so a message lost on the way costs nothing)."""
    match_broadcast(match_id, dict(analysis_progress(status=status, progress=progress)))


def analysis_json(analysis: MatchAnalysis | None) -> dict:
    """What the API and the page are told of an analysis: its state, and its result once done."""
    if analysis is None:
        return {"status": "none", "progress": 0, "budget": analysis_budget(), "result": None}
    return {
        "status": analysis.status,
        "progress": analysis.progress,
        "budget": analysis.budget,
        "result": analysis.result if analysis.status == MatchAnalysis.Status.DONE else None,
    }
