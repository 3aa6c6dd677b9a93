"""`run_clocks` (what `make run` keeps going beside the server) says a finding once, not
every minute it finds it again."""

import io

import pytest
from django.core.management import call_command

from portal.celery import PeriodicJob
from portal.management.commands import run_clocks

COUNTS = [1, 1, 1, 2, 2, 0, 2]


class Stop(Exception):
    pass


@pytest.fixture
def one_job(monkeypatch):
    counts = iter(COUNTS)
    job = PeriodicJob("tests.portal.test_run_clocks.stalled", 0.0, "{} stalled bot move(s) queued again")
    monkeypatch.setattr(run_clocks, "PERIODIC_JOBS", (job,))
    monkeypatch.setattr(run_clocks, "import_string", lambda path: lambda: next(counts))
    sleeps = iter(range(len(COUNTS) - 1))

    def sleep(seconds):
        try:
            next(sleeps)
        except StopIteration:
            raise Stop from None

    monkeypatch.setattr(run_clocks.time, "sleep", sleep)


def test_the_same_finding_is_printed_once_and_a_new_one_again(one_job):
    out = io.StringIO()
    with pytest.raises(Stop):
        call_command("run_clocks", "--interval", "0", stdout=out)
    assert out.getvalue().splitlines() == [
        "1 stalled bot move(s) queued again",
        "2 stalled bot move(s) queued again",
        "2 stalled bot move(s) queued again",  # after a quiet round it is news again
    ]
