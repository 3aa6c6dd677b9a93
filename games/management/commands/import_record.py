import sys

from django.core.management.base import BaseCommand, CommandError

from games import records
from games.engines import get_game


class Command(BaseCommand):
    help = (
        "Read game records in the text format of docs/RECORDS.md (a file may hold several, "
        "one after the other; - reads standard input), replay each through its game's rules and "
        "print its result. A record that does not replay is refused with the line at fault, "
        "and the command fails."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a .tgr file, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as fh:
                    text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        parts = records.split(text)
        if not parts:
            raise CommandError(f"{file} holds no record.")
        for first, part in parts:
            try:
                record, state = records.read(part)
            except records.RecordError as exc:
                where = f"line {exc.line + first - 1}: " if exc.line is not None else f"the record at line {first}: "
                raise CommandError(f"{file}, {where}{exc.reason}") from exc
            self._summary(record, state)
        self.stdout.write(f"{len(parts)} record{'s' if len(parts) != 1 else ''} replayed.")

    def _summary(self, record, state):
        game = get_game(record.game)
        ended = "finished" if state.is_terminal() else f"ended before the last move ({record.end or 'not finished'})"
        label = f"match {record.headers['Match']}, " if "Match" in record.headers else ""
        self.stdout.write(f"{game.name}, {label}{len(record.moves)} moves, {ended}")
        places = record.places or (state.ranking() if state.is_terminal() else [None] * record.num_players)
        for i, (seat, score, place) in enumerate(zip(record.seats, state.scores(), places, strict=True)):
            self.stdout.write(f"  {place or '-'}. {seat.name or f'Seat {i + 1}'}: {score} points")
