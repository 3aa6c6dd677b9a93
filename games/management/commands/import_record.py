import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.engines import get_game
from games.services import imports


class Command(BaseCommand):
    help = (
        "Read game records in the text format of docs/RECORDS.md (a file may hold several, "
        "one after the other; - reads standard input), replay each through its game's rules and "
        "print its result; with --save USERNAME, keep each as a finished, unrated match imported by "
        "that account (as POST /api/matches/import/ does). A record that does not replay, or is not a "
        "finished game, is refused with the line at fault, and the command fails having saved none."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a .tgr file, or - for standard input")
        parser.add_argument("--save", metavar="USERNAME", help="keep the records as matches imported by USERNAME")

    def handle(self, *args, file, save=None, **options):
        user = None
        if save:
            user = get_user_model().objects.filter(username__iexact=save).first()
            if user is None:
                raise CommandError(f"There is no account called {save!r}.")
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as fh:
                    text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        parts = imports.records.split(text)
        if not parts:
            raise CommandError(f"{file} holds no record.")
        checked = []
        for first, part in parts:
            try:
                checked.append((part, imports.checked(part)))
            except imports.RecordRefused as exc:
                where = f"line {exc.line + first - 1}: " if exc.line is not None else f"the record at line {first}: "
                raise CommandError(f"{file}, {where}{exc.reason}") from exc
        for part, (record, state, places) in checked:
            self._summary(record, state, places)
            if user is not None:
                match = imports.record_store(user=user, text=part)
                self.stdout.write(f"  saved as match {match.pk}")
        self.stdout.write(f"{len(parts)} record{'s' if len(parts) != 1 else ''} replayed.")

    def _summary(self, record, state, places):
        game = get_game(record.game)
        ended = "finished" if state.is_terminal() else f"ended before the last move ({record.end or 'not finished'})"
        label = f"match {record.headers['Match']}, " if "Match" in record.headers else ""
        self.stdout.write(f"{game.name}, {label}{len(record.moves)} moves, {ended}")
        for i, (seat, score, place) in enumerate(zip(record.seats, state.scores(), places, strict=True)):
            self.stdout.write(f"  {place}. {seat.name or f'Seat {i + 1}'}: {score} points")
