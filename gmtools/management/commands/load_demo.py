from django.core.management.base import BaseCommand, CommandParser

from gmtools import demo


class Command(BaseCommand):
    help = ("Load the demo campaigns (one per game) and the demo accounts; running it again changes nothing. "
            "--lan (make table): generated passwords, and a new one for any account with a password of the README.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--lan", action="store_true",
                            help="for the local network: no account keeps a password printed in the README")

    def handle(self, *args, lan: bool = False, **options) -> None:
        result = demo.load(lan=lan)
        for campaign in result.campaigns_created:
            self.stdout.write(f"Created the demo campaign “{campaign.name}”.")
        for name in result.campaigns_kept:
            self.stdout.write(f"Kept the demo campaign “{name}” as it is.")
        for name in result.campaigns_left_out:
            self.stdout.write(f"Left out the demo campaign “{name}”: a campaign of {demo.GM_USERNAME}'s has its name.")
        for account in result.accounts:
            role = "staff superuser" if account.staff else "game master"
            url = "/admin/" if account.staff else "/accounts/login/"
            if account.outcome == "kept":
                self.stdout.write(f"Demo {role}: log in at {url} as {account.username} "
                                  "(an existing account; password unchanged)")
                continue
            said = {"created": f"Demo {role}", "renewed": f"A new password for {account.username}, whose password "
                    "was printed in the README"}[account.outcome]
            self.stdout.write(self.style.SUCCESS(f"{said}: log in at {url} as {account.username} / {account.password}"))
        if lan and any(account.outcome != "kept" for account in result.accounts):
            self.stdout.write(self.style.WARNING("These passwords are shown once: note them now (manage.py "
                                                 "changepassword USER sets another)."))
