import time

from django.core.management.base import BaseCommand
from django.utils.module_loading import import_string

from portal.celery import PERIODIC_JOBS


class Command(BaseCommand):
    help = (
        "Run the periodic jobs of portal.celery.PERIODIC_JOBS, each at its own interval, as Celery "
        "beat does when Redis is set: forfeit seats whose time ran out, start and advance "
        "tournaments, call off open matches, challenges and rematch offers left waiting too long, "
        "and tell players away that correspondence matches wait for them."
    )

    def add_arguments(self, parser):
        shortest = min(job.every for job in PERIODIC_JOBS)
        parser.add_argument(
            "--interval", type=float, default=shortest, help="Seconds between looks for jobs that are due."
        )
        parser.add_argument("--once", action="store_true", help="Run every job once and exit.")

    def handle(self, *args, interval, once, **options):
        tasks = [(job, import_string(job.task)) for job in PERIODIC_JOBS]
        due = dict.fromkeys(PERIODIC_JOBS, 0.0)
        # The last line each job printed: a job that finds the same thing again and again (a
        # match whose bot keeps stalling) says it once, and again only when it changes.
        said: dict = {}
        while True:
            for job, task in tasks:
                now = time.monotonic()
                if now < due[job]:
                    continue
                due[job] = now + job.every
                result = task()
                counts = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                line = job.said.format(*counts) if job.said and any(counts) else ""
                if line and line != said.get(job):
                    self.stdout.write(line)
                said[job] = line
            if once:
                return
            time.sleep(interval)
