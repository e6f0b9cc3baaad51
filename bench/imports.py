"""Campaign imports timed (issue 28 item 5, issue 22): ``python -m bench.imports [ROUNDS]``.

The files are made here from the Vampire demo campaign, compact as a file sent by hand is:
  - "14 KB": the demo's 4 characters, as the probe's 14 KB campaign (4 characters);
  - "3.6 MB": 1,149 characters (the demo's, renamed), as the probe's 3.6 MB import.
Each is imported four ways: the GM's import into a campaign of the table (the view, through
Django's test client), ``backup.import_campaign`` as a new campaign (the admin's import and the
``import_campaign`` command call it), and the baseline of the same run: the GM's import refused
(a file of another game), the cheapest answer the view gives. Only what both the old and the new
code have is used, so the same file runs in a worktree of an older commit (``python -m
bench.imports`` from inside it imports that worktree's ``gmtools``). SQLite in a temporary
folder; ``DATABASE_URL`` to time another database. Not part of ``make test``.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
import time

CHARACTERS_LARGE = 1149


def _files() -> dict[str, bytes]:
    from gmtools import demo

    [v5] = [d for d in demo.DEMO_CAMPAIGNS if d["campaign"]["game"] == "v5"]
    small = copy.deepcopy(v5)
    small["campaign"]["name"] = "Probe 14 KB"
    large = copy.deepcopy(v5)
    large["campaign"]["name"] = "Probe 3.6 MB"
    large["characters"] = []
    for n in range(CHARACTERS_LARGE):
        character = copy.deepcopy(v5["characters"][n % len(v5["characters"])])
        character["name"] = f"{character['name']} {n + 1}"
        large["characters"].append(character)
    other = copy.deepcopy(v5)
    other["campaign"]["game"] = "fate"
    dump = lambda document: json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    return {"14 KB": dump(small), "3.6 MB": dump(large), "refused": dump(other)}


def run(rounds: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
    os.environ.setdefault("DATABASE_URL", "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.sqlite3"))
    import django

    django.setup()
    import gmtools
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from gmtools import backup
    from gmtools.models import Campaign

    call_command("migrate", verbosity=0)
    gm = User.objects.create_user("bench-gm", password="bench-secret-1")
    client = Client()
    client.force_login(gm)
    files = _files()
    print(f"gmtools from {os.path.dirname(gmtools.__file__)}; database {django.db.connection.vendor}")
    print("  ".join(f"{name}: {len(data) / 1000:,.1f} kB" for name, data in files.items()))
    made = 0

    def gm_import(data: bytes, status: int) -> float:
        nonlocal made
        made += 1
        campaign = Campaign.objects.create(name=f"Table {made}", game="v5", gm=gm)
        upload = SimpleUploadedFile("campaign.json", data, content_type="application/json")
        start = time.perf_counter()
        response = client.post(reverse("character-import", args=[campaign.pk]), {"file": upload, "name": ""})
        seconds = time.perf_counter() - start
        assert response.status_code == status, (response.status_code, response.content[:500])
        return seconds

    def new_campaign(data: bytes) -> float:
        nonlocal made
        made += 1
        start = time.perf_counter()
        backup.import_campaign(backup.loads(data), gm, name=f"Imported {made}")
        return time.perf_counter() - start

    cases = [
        ("refused (baseline)", lambda: gm_import(files["refused"], 422)),
        ("GM's import, 14 KB", lambda: gm_import(files["14 KB"], 200)),
        ("new campaign, 14 KB", lambda: new_campaign(files["14 KB"])),
        ("GM's import, 3.6 MB", lambda: gm_import(files["3.6 MB"], 200)),
        ("new campaign, 3.6 MB", lambda: new_campaign(files["3.6 MB"])),
    ]
    refused = None
    for name, case in cases:
        times = sorted(case() for _ in range(rounds))
        refused = refused or times[0]
        print(f"{name:22} best {times[0]:9.3f} s  worst {times[-1]:9.3f} s  best/refusal {times[0] / refused:8.1f}x",
              flush=True)

if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
