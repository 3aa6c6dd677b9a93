import time

from django.core.management.base import BaseCommand

from challenges.tasks import expire_challenges
from games.tasks import enforce_clocks, expire_open_matches
from notifications.tasks import sweep_your_turn
from rankings.tasks import rate_unrated
from tournaments.tasks import run_tournaments

# Open matches expire after hours: looking once a minute is plenty.
EXPIRY_EVERY = 60.0


class Command(BaseCommand):
    help = (
        "Forfeit seats whose time ran out, rate finished matches left unrated, and start and "
        "advance tournaments, every few seconds; "
        "call off open matches, challenges and rematch offers left waiting too long and tell "
        "players away that correspondence matches wait for them, every minute (Celery beat does "
        "all of it when Redis is set)."
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
            repaired = rate_unrated()
            if repaired:
                self.stdout.write(f"{repaired} finished match(es) left unrated were rated")
            started, advanced = run_tournaments()
            if started or advanced:
                self.stdout.write(f"{started} tournament(s) started, {advanced} advanced to their next round")
            if time.monotonic() >= next_expiry:
                closed = expire_open_matches()
                if closed:
                    self.stdout.write(f"{closed} open match(es) called off after waiting too long")
                unanswered = expire_challenges()
                if unanswered:
                    self.stdout.write(f"{unanswered} challenge(s) or rematch offer(s) expired unanswered")
                mailed = sweep_your_turn()
                if mailed:
                    self.stdout.write(f"{mailed} player(s) away may be owed a your-turn e-mail")
                next_expiry = time.monotonic() + EXPIRY_EVERY
            if once:
                return
            time.sleep(interval)
