import json

from django.core.management.base import BaseCommand, CommandError

from games.engines import IllegalAction, get_game


class Command(BaseCommand):
    help = (
        "Replay a downloaded game record (JSON) and print the result: the final places and "
        "the points of the replayed position."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                record = json.load(fh)
            game = get_game(record["game"])
            num_players = record["num_players"]
            state = game.replay(num_players, record.get("options") or {}, record["actions"])
        except (OSError, ValueError, KeyError, TypeError, IllegalAction) as exc:
            raise CommandError(f"Cannot replay {file}: {exc}") from exc
        players = record.get("players") or [None] * num_players
        # The record's places count resignations and timeouts (a quitter is last), which the
        # moves alone cannot show; without them, a finished game's places are the engine's.
        places = record.get("places")
        recorded = isinstance(places, list) and len(places) == num_players and all(isinstance(p, int) for p in places)
        if state.is_terminal():
            status = "finished"
            places = places if recorded else state.ranking()
        elif recorded:
            status = f"ended before the last move ({record.get('end_reason') or 'resignation or time-out'})"
        else:
            status = "not finished"
            places = [None] * num_players
        self.stdout.write(f"{game.name}, {len(record['actions'])} actions, {status}")
        for i, (score, place) in enumerate(zip(state.scores(), places, strict=True)):
            self.stdout.write(f"  {place or '-'}. {players[i] or f'Seat {i + 1}'}: {score} points")
