from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gmtools import backup
from gmtools.models import Campaign


class Command(BaseCommand):
    help = "Write a campaign (characters, traits, resources, aspects) to a versioned JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign_id", type=int, help="The campaign's id (see the admin).")
        parser.add_argument("-o", "--output", type=Path, help="File to write; standard output if omitted.")

    def handle(self, *args, campaign_id: int, output: Path | None, **options) -> None:
        try:
            campaign = Campaign.objects.get(pk=campaign_id)
        except Campaign.DoesNotExist:
            raise CommandError(f"No campaign has id {campaign_id}.") from None
        text = backup.dumps(backup.export_campaign(campaign))
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"Exported “{campaign.name}” to {output}.")
