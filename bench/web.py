"""The table's server times, measured through Django's test client on the demo data: the odds
fragment, a roll (which fills the log's first page) and the table page with a full log, both as
a GM reloads it (its body drawn once per change at the table, gmtools.live.render_page) and as
first drawn after a change; then the luck page (gmtools.stats) of a campaign with 5,000 rolls,
the same two ways, for the GM and the players.

The baseline in the same run is the cheapest page we serve (the home page of a logged-in GM),
so each ratio says what the page adds on top of Django's own request cycle.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time


def run() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gmtools.settings")
    os.environ["DATABASE_URL"] = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from gmtools import live
    from gmtools.models import Campaign
    from gmtools.views import LOG_PAGE

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))
    client = Client()
    client.force_login(User.objects.get(username="gm"))

    def median_ms(url: str, params: dict | None = None, n: int = 40, post: bool = False, cold: bool = False) -> float:
        send = client.post if post else client.get
        send(url, params)
        times = []
        for _ in range(n):
            if cold:
                live._cache.clear()  # as after a change at the table: the page's body is drawn again
            start = time.perf_counter()
            response = send(url, params)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, (url, response.status_code)
        return statistics.median(times) * 1000

    baseline = median_ms("/")
    print(f"\nweb: home page (baseline) median {baseline:.2f} ms")
    for campaign in Campaign.objects.order_by("game"):
        character = campaign.characters.order_by("kind", "name").first()
        traits = list(character.traits.order_by("-rating"))
        first = next(t for t in traits if t.category in ("attribute", "approach"))
        second = next((t for t in traits if t.category in ("ability", "skill")), None)
        params = {"character": character.pk, "first": first.pk, "dice": 2, "modifier": 0, "difficulty": 2,
                  "stunt": 1, "stunt_bonus": 0, "helpers": 0, "action": "overcome", "shortcut": "roll",
                  "pool_from": "traits", "kind": "short"}
        if campaign.game == "scifi":
            params["difficulty"] = "hard"
        if second is not None:
            params["second"] = second.pk
        odds = median_ms(f"/campaigns/{campaign.pk}/odds/", params)
        rolled = median_ms(f"/campaigns/{campaign.pk}/roll/", params, n=LOG_PAGE, post=True)  # fills the log's first page
        table = median_ms(f"/campaigns/{campaign.pk}/", n=15)
        drawn = median_ms(f"/campaigns/{campaign.pk}/", n=15, cold=True)
        phone = phone_roll_ms(campaign, character, params)
        posted = discord_roll_ms(median_ms, campaign, params)
        print(f"web: {campaign.game:8} odds fragment {odds:6.2f} ms ({odds / baseline:4.1f}x the home page; goal < 50 ms)"
              f"  roll {rolled:6.2f} ms ({rolled / baseline:4.1f}x); the same roll from the character's phone"
              f" {phone:6.2f} ms ({phone / rolled:4.2f}x the GM's); with a Discord webhook {posted:6.2f} ms"
              f" ({posted / rolled:4.2f}x)")
        print(f"web: {campaign.game:8} table page with {LOG_PAGE} cards {table:6.2f} ms ({table / baseline:4.1f}x; goal <= 3x);"
              f" its first view after a change {drawn:6.2f} ms ({drawn / baseline:4.1f}x)")
    luck_page(median_ms, baseline)


def phone_roll_ms(campaign, character, params: dict, n: int = 15) -> float:
    """The same roll posted from the character's own link (issue 24: the player's composer drawn again
    in the answer), the rolls' limit per link lifted between rolls (``gmtools.throttle``, out of the timing)."""
    from django.core.cache import cache
    from django.test import Client

    from gmtools import services

    services.set_players_roll(campaign, True)
    services.set_character_link(character, True)
    url, phone, times = f"/p/{character.player_token}/roll/", Client(), []
    for _ in range(n + 1):
        cache.delete_many([f"player-rolls:{character.pk}", f"player-posts:{character.pk}"])
        start = time.perf_counter()
        response = phone.post(url, params)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
    return statistics.median(times[1:]) * 1000


def discord_roll_ms(median_ms, campaign, params: dict) -> float:
    """The same roll in a campaign with a Discord webhook (issue 25): what the roll's request pays for
    it is the outbox row its transaction writes (the posting is the worker's, after commit; none runs
    here, so no post leaves the machine)."""
    from gmtools.models import Campaign
    from gmtools.views import LOG_PAGE

    Campaign.objects.filter(pk=campaign.pk).update(discord_webhook="https://discord.com/api/webhooks/1/bench")
    try:
        return median_ms(f"/campaigns/{campaign.pk}/roll/", params, n=LOG_PAGE, post=True)
    finally:
        Campaign.objects.filter(pk=campaign.pk).update(discord_webhook="")


LUCK_ROLLS = 5_000


def luck_page(median_ms, baseline: float) -> None:
    """The luck page of a campaign whose log holds 5,000 rolls: copies of the rolls the bench made
    (their results and luck as the table stored them), in every game."""
    from gmtools.models import Campaign, Roll

    for campaign in Campaign.objects.order_by("game"):
        made = list(Roll.objects.filter(campaign=campaign, parent__isnull=True))
        Roll.objects.bulk_create([
            Roll(campaign=campaign, character_id=r.character_id, actor=r.actor, system=r.system, kind=r.kind,
                 label=r.label, label_parts=r.label_parts, request=r.request, result=r.result, outcome=r.outcome,
                 spends=r.spends, luck=r.luck, scene_id=r.scene_id, turn=r.turn)
            for i in range(LUCK_ROLLS - len(made)) for r in [made[i % len(made)]]], batch_size=1000)
        assert Roll.objects.filter(campaign=campaign).count() >= LUCK_ROLLS
        url, players = f"/campaigns/{campaign.pk}/luck/", f"/p/{campaign.player_token}/luck/"
        reloaded = median_ms(url, n=15)
        drawn = median_ms(url, n=5, cold=True)
        for_players = median_ms(players, n=15)
        print(f"web: {campaign.game:8} luck page, {LUCK_ROLLS:,} rolls {reloaded:6.2f} ms ({reloaded / baseline:4.1f}x; "
              f"goal <= 3x); players' {for_players:6.2f} ms ({for_players / baseline:4.1f}x); its first view after a "
              f"change {drawn:6.1f} ms ({drawn / baseline:4.1f}x)")
