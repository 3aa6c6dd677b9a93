"""What operators and their tools read: ``/readyz`` (can the site serve?) and ``/metrics``
(Prometheus). ``/healthz`` (the process answers) is in ``portal.views``.

``/readyz``: 200 and each check's finding as JSON when every dependency answers, else 503
with ``failing`` naming the ones that do not (``portal.readiness``).

``/metrics``: only with ``METRICS_TOKEN`` set, and only to a scraper that sends it as
``Authorization: Bearer <token>``; without the setting it is refused to everyone (403), so
nothing about the site's traffic is public by default.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterator

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client.core import Metric

from games.bot_runner import runner

from . import metrics, readiness
from .celery import PERIODIC_JOBS

log = logging.getLogger(__name__)
_last_failing: list[str] = []

# The queue bots' moves (and every other task) are sent to.
BOT_QUEUE = "celery"


@never_cache
@require_GET
def readyz(request):
    results = readiness.run_checks(readiness.checks(beat_period=min(job.every for job in PERIODIC_JOBS)))
    failing = [check.name for check in results if not check.ok]
    body = {
        "status": "failing" if failing else "ready",
        "failing": failing,
        "checks": {check.name: {"ok": check.ok, "detail": check.detail} for check in results},
    }
    response = JsonResponse(body, status=503 if failing else 200)
    # Not a server error to mail ADMINS about every few seconds while a dependency is down
    # (Django logs every 5xx): logged here once when what fails changes.
    response._has_been_logged = True  # type: ignore[attr-defined]
    global _last_failing
    if failing != _last_failing:
        _last_failing = failing
        if failing:
            log.warning("Not ready: %s", "; ".join(f"{c.name}: {c.detail}" for c in results if not c.ok))
        else:
            log.warning("Ready again")
    return response


def _bot_queue() -> Iterator[Metric]:
    """Bots' moves waiting: the Celery queue's length on the broker, or the embedded bot
    threads' backlog when Celery is eager."""
    doc = "Bot moves (and, with a broker, other tasks) waiting for a worker."
    if settings.CELERY_TASK_ALWAYS_EAGER:
        yield metrics.gauge("portal_bot_queue_depth", doc, runner.pending)
        return
    try:
        depth = readiness.broker().llen(BOT_QUEUE)
    except Exception:
        return  # the broker not answering: the gauge is absent, and /readyz says why
    yield metrics.gauge("portal_bot_queue_depth", doc, depth)


@never_cache
@require_GET
def metrics_view(request):
    token = settings.METRICS_TOKEN
    if not token:
        return HttpResponse(
            "Metrics are off: set METRICS_TOKEN to serve them.\n", status=403, content_type="text/plain"
        )
    sent = request.headers.get("Authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        response = HttpResponse("Send the metrics token as 'Authorization: Bearer <token>'.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        response["Content-Type"] = "text/plain"
        return response
    return HttpResponse(metrics.render(_bot_queue), content_type=CONTENT_TYPE_LATEST)
