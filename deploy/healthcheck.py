"""Health probes for the container stack (compose.yaml) and the systemd units, on the standard
library alone: exit status 0 when healthy, 1 with the reason on standard error otherwise.

    python deploy/healthcheck.py web [URL]   the site answers URL (default http://127.0.0.1:8000/healthz) with 200
    python deploy/healthcheck.py beat PATH   Celery beat saved its schedule PATH within BEAT_STALE_SECONDS

The web probe asks as the proxy does: with a host the site serves (the first of ALLOWED_HOSTS)
and ``X-Forwarded-Proto: https``, so production's host check and HTTPS redirect answer it as
they answer a visitor. Beat writes its schedule file at least every 3 minutes (Celery's
``beat_sync_every`` default) while it runs; a file older than that by far means beat stopped.
"""

import glob
import os
import sys
import time
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8000/healthz"
BEAT_STALE_SECONDS = 600


def probe_headers(environ=os.environ) -> dict[str, str]:
    """The headers of the web probe: a host ALLOWED_HOSTS accepts, and HTTPS as the proxy says."""
    hosts = [h.strip() for h in environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]
    host = hosts[0].lstrip(".") if hosts else "localhost"
    if host == "*":
        host = "localhost"
    return {"Host": host, "X-Forwarded-Proto": "https"}


def check_web(url: str = DEFAULT_URL) -> str | None:
    """None when ``url`` answers 200, else what went wrong."""
    request = urllib.request.Request(url, headers=probe_headers())
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except OSError as exc:
        return f"{url} did not answer: {exc}"
    return None if status == 200 else f"{url} answered {status}"


def check_beat(path: str, now: float | None = None) -> str | None:
    """None when beat's schedule (``path`` and the files dbm makes beside it) was written within
    BEAT_STALE_SECONDS, else what went wrong."""
    files = glob.glob(glob.escape(path) + "*")
    if not files:
        return f"no beat schedule at {path}: beat has not started"
    age = (time.time() if now is None else now) - max(os.path.getmtime(f) for f in files)
    if age > BEAT_STALE_SECONDS:
        return f"beat's schedule {path} was last written {age:.0f} s ago (more than {BEAT_STALE_SECONDS} s)"
    return None


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "web":
        problem = check_web(argv[1] if len(argv) > 1 else DEFAULT_URL)
    elif len(argv) == 2 and argv[0] == "beat":
        problem = check_beat(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
