import json

from django.core.management.base import BaseCommand, CommandError

from games.engines import IllegalAction, get_game


class Command(BaseCommand):
    help = "Replay a downloaded game record (JSON) and print the final position's result."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                record = json.load(fh)
            game = get_game(record["game"])
            state = game.replay(record["num_players"], record.get("options") or {}, record["actions"])
        except (OSError, ValueError, KeyError, TypeError, IllegalAction) as exc:
            raise CommandError(f"Cannot replay {file}: {exc}") from exc
        players = record.get("players") or [f"Seat {i + 1}" for i in range(record["num_players"])]
        self.stdout.write(
            f"{game.name}, {len(record['actions'])} actions, {'finished' if state.is_terminal() else 'not finished'}"
        )
        ranking = state.ranking() if state.is_terminal() else [None] * record["num_players"]
        for i, (score, place) in enumerate(zip(state.scores(), ranking, strict=True)):
            self.stdout.write(f"  {place or '-'}. {players[i]}: {score} points")
