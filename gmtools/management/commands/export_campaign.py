from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gmtools import backup
from gmtools.models import Campaign


class Command(BaseCommand):
    help = "Write a campaign (characters, traits, resources, aspects) to a versioned JSON file, or every campaign to a folder."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("campaign_id", type=int, nargs="?", help="The campaign's id (see the admin).")
        which.add_argument("--all", type=Path, metavar="FOLDER",
                           help="Write every campaign to FOLDER/campaign-<id>.json (a scheduled backup).")
        parser.add_argument("-o", "--output", type=Path, help="File to write; standard output if omitted.")

    def handle(self, *args, campaign_id: int | None, all: Path | None, output: Path | None, **options) -> None:
        if all is not None:
            all.mkdir(parents=True, exist_ok=True)
            for campaign in Campaign.objects.order_by("pk"):
                self._write(campaign, all / f"campaign-{campaign.pk}.json")
            return
        try:
            campaign = Campaign.objects.get(pk=campaign_id)
        except Campaign.DoesNotExist:
            raise CommandError(f"No campaign has id {campaign_id}.") from None
        if output is None:
            self.stdout.write(backup.dumps(backup.export_campaign(campaign)), ending="")
        else:
            self._write(campaign, output)

    def _write(self, campaign: Campaign, path: Path) -> None:
        # Written beside, then renamed: a backup interrupted halfway never replaces the last good one.
        partial = path.with_name(path.name + ".partial")
        partial.write_text(backup.dumps(backup.export_campaign(campaign)), encoding="utf-8")
        partial.replace(path)
        self.stderr.write(f"Exported “{campaign.name}” to {path}.")
