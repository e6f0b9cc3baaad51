from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from gmtools import backup


class Command(BaseCommand):
    help = "Create a new campaign from a file written by export_campaign; a file with any error is refused whole."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--gm", required=True, help="Username of the game master who will own the campaign.")
        parser.add_argument("--name", default="", help="A new name for the campaign; the file's name if omitted.")

    def handle(self, *args, file: Path, gm: str, name: str, **options) -> None:
        User = get_user_model()
        try:
            owner = User.objects.get_by_natural_key(gm)
        except User.DoesNotExist:
            raise CommandError(f"No user is called {gm!r}.") from None
        try:
            text = file.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            campaign = backup.import_campaign(backup.loads(text), owner, name)
        except backup.BackupError as error:
            raise CommandError(f"{file} was not imported: {error}") from None
        self.stdout.write(f"Imported “{campaign.name}” (id {campaign.pk}) for {gm}.")
