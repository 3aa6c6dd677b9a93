import time

from django.core.management.base import BaseCommand

from games.tasks import enforce_clocks


class Command(BaseCommand):
    help = "Forfeit seats whose time ran out, every few seconds (Celery beat does this when Redis is set)."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--once", action="store_true", help="Check once and exit.")

    def handle(self, *args, interval, once, **options):
        while True:
            expired = enforce_clocks()
            if expired:
                self.stdout.write(f"{expired} seat(s) ran out of time")
            if once:
                return
            time.sleep(interval)
