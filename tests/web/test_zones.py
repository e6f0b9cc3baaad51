"""Every time shown in the campaign's time zone (issue 25), the times stored staying UTC: the cards on
the GM's table and the players' page, the Markdown recap and the CSV, for a campaign in Europe/Madrid
across the spring change of 2026 and one in America/Sao_Paulo across the last change it kept (February
2018); another request reads in the server's zone. A new campaign takes the GM's browser's zone, else
the server's (``tzlocal``)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from gmtools.models import Campaign, Roll
from tests.games import Game
from tests.web.helpers import compose_and_roll

pytestmark = pytest.mark.django_db

# (zone, two instants on either side of a change, how each reads there, its offset)
CHANGES = [
    ("Europe/Madrid", datetime(2026, 3, 29, 0, 30, tzinfo=UTC), "01:30", "+01:00",
     datetime(2026, 3, 29, 1, 30, tzinfo=UTC), "03:30", "+02:00"),
    ("America/Sao_Paulo", datetime(2018, 2, 18, 1, 30, tzinfo=UTC), "23:30", "-02:00",
     datetime(2018, 2, 18, 2, 30, tzinfo=UTC), "23:30", "-03:00"),
]


@pytest.mark.parametrize("zone, first, first_read, first_offset, second, second_read, second_offset", CHANGES)
def test_times_read_in_the_campaigns_zone_across_a_change(make_character, set_ratings, gm_client, zone, first,
                                                          first_read, first_offset, second, second_read, second_offset):
    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, melee=2)
    campaign = koi.campaign
    Campaign.objects.filter(pk=campaign.pk).update(time_zone=zone)
    for moment in (first, second):
        roll = compose_and_roll(campaign, koi, [8, 8, 3, 2, 1])
        Roll.objects.filter(pk=roll.pk).update(created_at=moment)
    table = gm_client.get(reverse("table", args=[campaign.pk])).content.decode()
    players = gm_client.get(reverse("player", args=[campaign.player_token])).content.decode()
    for page in (table, players):
        assert f"{first_read}</time>" in page and f"{second_read}</time>" in page
    exported = gm_client.get(reverse("export", args=[campaign.pk]), {"part": "campaign", "format": "csv"})
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert sorted(row["when"][-6:] for row in rows) == sorted([first_offset, second_offset])
    assert {datetime.fromisoformat(row["when"]) for row in rows} == {first, second}  # the same instants
    recap = gm_client.get(reverse("export", args=[campaign.pk]), {"part": "campaign", "format": "md"}).content.decode()
    assert f"{first_read} **Koi**" in recap and f"{second_read} **Koi**" in recap
    assert timezone.get_current_timezone_name() == "UTC"  # the test's own thread: nothing leaked
    home = gm_client.get("/")
    assert home.status_code == 200


def test_a_new_campaign_takes_the_browsers_zone_else_the_servers(gm_client, gm, monkeypatch):
    monkeypatch.setattr("tzlocal.get_localzone_name", lambda: "Europe/Madrid")
    for name, posted, stored in (("Told", "America/Sao_Paulo", "America/Sao_Paulo"), ("Untold", None, "Europe/Madrid"),
                                 ("Unknown", "Mars/Olympus_Mons", "Europe/Madrid")):
        data = {"name": name, "game": Game.FATE, **({"time_zone": posted} if posted else {})}
        assert gm_client.post(reverse("campaign-create"), data).status_code == 302
        assert Campaign.objects.get(name=name).time_zone == stored


def test_a_live_card_is_drawn_in_the_campaigns_zone_outside_its_requests(make_character, set_ratings):
    """A stream's reader draws a change after its own request has answered: the card still reads in
    the campaign's zone (gmtools.live.render_drawn)."""
    from gmtools import board, live
    from gmtools.models import ChangeKind

    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, melee=2)
    Campaign.objects.filter(pk=koi.campaign_id).update(time_zone="Europe/Madrid")
    campaign = Campaign.objects.get(pk=koi.campaign_id)
    roll = compose_and_roll(campaign, koi, [8, 8, 3, 2, 1])
    Roll.objects.filter(pk=roll.pk).update(created_at=datetime(2026, 3, 29, 1, 30, tzinfo=UTC))
    roll = Roll.objects.for_log().get(pk=roll.pk)
    for audience in ("gm", "player"):
        html = live.render_drawn(board.Redraw(campaign, ChangeKind.ROLL, roll=roll), live.Viewer(audience, "en"))
        assert "03:30</time>" in html, audience


@pytest.mark.parametrize("model", ["campaign", "character"])
def test_the_admins_history_of_a_campaign_or_character_reads_in_its_zone(make_character, staff, staff_client, model):
    """The admin's history lists when each change was made: for a campaign's own rows, in its zone."""
    from django.contrib.admin.models import CHANGE, LogEntry
    from django.contrib.contenttypes.models import ContentType

    koi = make_character(Game.EXALTED, name="Koi")
    Campaign.objects.filter(pk=koi.campaign_id).update(time_zone="Europe/Madrid")
    row = koi.campaign if model == "campaign" else koi
    entry = LogEntry.objects.create(user=staff, content_type=ContentType.objects.get_for_model(row),
                                    object_id=str(row.pk), object_repr=str(row), action_flag=CHANGE,
                                    change_message="[]")
    LogEntry.objects.filter(pk=entry.pk).update(action_time=datetime(2026, 3, 29, 1, 30, tzinfo=UTC))
    page = staff_client.get(reverse(f"admin:gmtools_{model}_history", args=[row.pk])).content.decode()
    assert "3:30" in page and "1:30" not in page  # 03:30 in Madrid (summer time), not the stored UTC


@pytest.mark.django_db(transaction=True)
def test_the_asgi_path_reads_in_the_campaigns_zone_too(make_character, set_ratings, gm):
    """Under the ASGI server (``make run``) the zone is found in the middleware's async hook and the sync
    view runs in it; a stream's async view is not held for it (its drawings take the zone themselves)."""
    import asyncio

    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, melee=2)
    Campaign.objects.filter(pk=koi.campaign_id).update(time_zone="Europe/Madrid", gm=gm)
    roll = compose_and_roll(koi.campaign, koi, [8, 8, 3, 2, 1])
    Roll.objects.filter(pk=roll.pk).update(created_at=datetime(2026, 3, 29, 1, 30, tzinfo=UTC))

    async def pages() -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(gm)
        table = await client.get(reverse("table", args=[koi.campaign_id]))
        players = await client.get(reverse("player", args=[koi.campaign.player_token]))
        return [table.content.decode(), players.content.decode()]

    for page in asyncio.run(pages()):
        assert "03:30</time>" in page


def test_the_recap_dates_a_roll_not_made_today(make_character, set_ratings, gm_client):
    """Walkthrough B7: a July roll read a bare "00:30" among December ones; the cards date it, so does the recap."""
    koi = make_character(Game.EXALTED, name="Koi")
    set_ratings(koi, dexterity=3, melee=2)
    Campaign.objects.filter(pk=koi.campaign_id).update(time_zone="Europe/Madrid")
    old = compose_and_roll(koi.campaign, koi, [8, 8, 3, 2, 1])
    Roll.objects.filter(pk=old.pk).update(created_at=datetime(2026, 7, 15, 22, 30, tzinfo=UTC))
    new = compose_and_roll(koi.campaign, koi, [8, 8, 3, 2, 1])
    recap = gm_client.get(reverse("export", args=[koi.campaign_id]), {"part": "campaign", "format": "md"}).content.decode()
    assert "2026-07-16 00:30 **Koi**" in recap  # Madrid's date and time of it
    with timezone.override("Europe/Madrid"):
        made, today = timezone.localtime(new.created_at), timezone.localdate()
    assert f"{made:%H:%M} **Koi**" in recap
    if made.date() == today:  # (not across Madrid's midnight since the roll) today's roll: its time alone
        assert f"{made:%Y-%m-%d %H:%M} **Koi**" not in recap
