import time

from django.core.management.base import BaseCommand

from games.tasks import enforce_clocks, expire_open_matches
from notifications.tasks import sweep_your_turn

# Open matches expire after hours: looking once a minute is plenty.
EXPIRY_EVERY = 60.0


class Command(BaseCommand):
    help = (
        "Forfeit seats whose time ran out, every few seconds; call off open matches left "
        "waiting too long and tell players away that correspondence matches wait for them, "
        "every minute (Celery beat does all three when Redis is set)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=5.0)
        parser.add_argument("--once", action="store_true", help="Check once and exit.")

    def handle(self, *args, interval, once, **options):
        next_expiry = 0.0
        while True:
            expired = enforce_clocks()
            if expired:
                self.stdout.write(f"{expired} seat(s) ran out of time")
            if time.monotonic() >= next_expiry:
                closed = expire_open_matches()
                if closed:
                    self.stdout.write(f"{closed} open match(es) called off after waiting too long")
                mailed = sweep_your_turn()
                if mailed:
                    self.stdout.write(f"{mailed} player(s) away may be owed a your-turn e-mail")
                next_expiry = time.monotonic() + EXPIRY_EVERY
            if once:
                return
            time.sleep(interval)
