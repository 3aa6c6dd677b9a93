import time

from django.core.management.base import BaseCommand, CommandError

from games.catalog import all_games
from rankings.services import ratings_recompute


class Command(BaseCommand):
    help = "Forget the ratings and replay every finished rated match in the order it finished."

    def add_arguments(self, parser):
        parser.add_argument("--game", metavar="SLUG", help="Only this game (default: every game).")

    def handle(self, *args, game=None, **options):
        slugs = [g.slug for g in all_games()]
        if game is not None and game not in slugs:
            raise CommandError(f"There is no game called {game!r}; the games are: {', '.join(slugs)}.")
        started = time.perf_counter()
        rated = ratings_recompute(game=game)
        seconds = time.perf_counter() - started
        self.stdout.write(f"Rated {rated} matches{f' of {game}' if game else ''} in {seconds:.1f} s.")
