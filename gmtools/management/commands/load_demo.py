from django.core.management.base import BaseCommand

from gmtools import demo


class Command(BaseCommand):
    help = "Load the demo campaigns (one per game) and the demo accounts; running it again changes nothing."

    def handle(self, *args, **options) -> None:
        result = demo.load()
        for campaign in result.campaigns_created:
            self.stdout.write(f"Created the demo campaign “{campaign.name}”.")
        for name in result.campaigns_kept:
            self.stdout.write(f"Kept the demo campaign “{name}” as it is.")
        self._login(demo.GM_USERNAME, demo.GM_PASSWORD, result.gm_created, "game master", "/accounts/login/")
        self._login(demo.ADMIN_USERNAME, demo.ADMIN_PASSWORD, result.admin_created, "staff superuser", "/admin/")

    def _login(self, username: str, password: str, created: bool, role: str, url: str) -> None:
        if created:
            self.stdout.write(self.style.SUCCESS(f"Demo {role}: log in at {url} as {username} / {password}"))
        else:
            self.stdout.write(f"Demo {role}: log in at {url} as {username} (an existing account; password unchanged)")
