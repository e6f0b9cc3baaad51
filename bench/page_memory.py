"""A worker's memory over changes at a large table (issue 28, item 4): ``python -m bench.page_memory [CLICKS]``.

Each change at the table makes a new GM page (the page's drawing is keyed by the change cursor),
and a process keeps its drawings: bounded by 512 entries before 1161c5b, by 64 MB after. On a
table of 1,197 characters the page is ~18 MB as a Python string, so kept by entries it grew a
worker by about that much per click. Here: a campaign of 1,197 characters (the Vampire demo's,
renamed) through ``backup.import_campaign``, its GM logged in with Django's test client, the
table's page viewed once, then CLICKS times (12) a one-click change (Hunger up or down, the
``adjust`` view) followed by the table's page again. Printed: this process's RSS (VmRSS) after
the first view and after each click, and MB per click over the run; the first view is the
baseline of the same run. Only what both the old and the new code have is used, so the same file
runs in a worktree of ``1161c5b^`` (run it from inside that worktree with ``PYTHONPATH=.``, and
check the ``gmtools from`` line). SQLite in a temporary folder. Not part of ``make test``.
"""

from __future__ import annotations

import copy
import os
import sys
import tempfile

CHARACTERS = 1197  # the table of the report


def rss_mb() -> float:
    """This process's resident memory, as the report measured it (VmRSS, kB)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def run(clicks: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
    os.environ.setdefault("DATABASE_URL", "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.sqlite3"))
    os.environ.pop("DEBUG", None)  # DEBUG keeps every query in memory: growth that is not the cache's
    import django

    django.setup()
    import gmtools
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from gmtools import backup, demo, live

    call_command("migrate", verbosity=0)
    gm = User.objects.create_user("bench-gm", password="bench-secret-1")
    [v5] = [d for d in demo.DEMO_CAMPAIGNS if d["campaign"]["game"] == "v5"]
    document = copy.deepcopy(v5)
    document["characters"] = []
    for n in range(CHARACTERS):  # the demo's characters, renamed, as bench/imports.py makes its 3.6 MB file
        character = copy.deepcopy(v5["characters"][n % len(v5["characters"])])
        character["name"] = f"{character['name']} {n + 1}"
        document["characters"].append(character)
    campaign = backup.import_campaign(document, gm, name="Bench 1,197")
    character = campaign.characters.order_by("pk").first()
    assert character is not None and campaign.characters.count() == CHARACTERS
    del document  # what stays is the server's, not the script's
    client = Client()
    client.force_login(gm)
    table = reverse("table", args=[campaign.pk])
    adjust = reverse("adjust", args=[campaign.pk, character.pk])
    print(f"gmtools from {os.path.dirname(gmtools.__file__)}; database {django.db.connection.vendor}; "
          f"{CHARACTERS} characters")

    def view() -> int:
        response = client.get(table)
        assert response.status_code == 200, response.status_code
        return len(response.content)  # the response is dropped here: only what the process keeps stays

    size = view()
    first = rss_mb()
    print(f"first view: page {size / 1e6:.1f} MB (UTF-8), RSS {first:.0f} MB")
    # Hunger up, then down, and so on: every click is a real change (never refused at 0 or 5).
    # Hunger: on the character's row of Vampire's own table (before issue 21, a column of every character).
    up = (character.resources.hunger if hasattr(type(character), "resources") else character.v5_hunger) < 5
    for click in range(1, clicks + 1):
        response = client.post(adjust, {"action": "hunger-up" if up else "hunger-down"})
        assert response.status_code == 200, (response.status_code, response.content[:300])
        up = not up
        view()
        rss = rss_mb()
        print(f"click {click:2}: RSS {rss:5.0f} MB  (+{rss - first:4.0f} MB since the first view; "
              f"{len(live._cache)} drawings kept)", flush=True)
    print(f"{(rss - first) / clicks:.1f} MB per click over {clicks} clicks ({first:.0f} -> {rss:.0f} MB)")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
