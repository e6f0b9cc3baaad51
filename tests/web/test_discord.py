"""Each roll posted to the campaign's Discord (issue 25), through the real posting code against a
local server that answers as Discord's webhook API does (tests/web/discord_fake.py).

The outbox is written in the roll's transaction; the worker (``gmtools.discord.worker.Worker``) posts
it in order per campaign, waits as Discord says (429), backs off on failures, and keeps the link's
health. Its clock and sleep are injected: no test waits for real.
"""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import backup, services
from gmtools.discord import messages
from gmtools.discord.posting import Discord
from gmtools.discord.worker import Worker
from gmtools.models import Campaign, Character, DiscordHealth, DiscordMessage, DiscordPost, Roll, Scene
from gmtools.models.campaigns import validate_discord_webhook
from tests.games import Game
from tests.web.discord_fake import UNKNOWN_WEBHOOK, Answer, FakeDiscord
from tests.web.helpers import Faces, compose_and_roll

pytestmark = pytest.mark.django_db

WEBHOOK = "https://discord.com/api/webhooks/1234567890/Tok3n_secret-XYZ"
WEBHOOK_PATH = "/api/webhooks/1234567890/Tok3n_secret-XYZ"


class Clock:
    """The worker's clock and sleep: sleeping moves the clock, nothing waits."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 7, 20, 0, tzinfo=dt_timezone.utc)
        self.slept: list[float] = []

    def __call__(self) -> datetime:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def discord(settings):
    with FakeDiscord() as fake:
        settings.DISCORD_API_BASE = fake.base
        yield fake


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def worker(discord, clock):
    made = Worker(Discord(timeout=2.0), clock=clock, sleep=clock.sleep)
    yield made
    made.discord.close()


@pytest.fixture
def table(gm):
    campaign = Campaign.objects.create(name="Harbour nights", game=Game.V5, gm=gm, discord_webhook=WEBHOOK,
                                       time_zone="Europe/Madrid")
    services.start_scene(campaign, "The docks")
    koi = Character.objects.create_with_sheet(campaign=campaign, name="Koi", player="Ana")
    koi.traits.filter(key__in=["strength", "brawl"]).update(rating=2)  # four dice: (6, 7, 2, 10)
    return campaign, koi


def roll(table, faces=(6, 7, 2, 10), **data) -> Roll:
    campaign, koi = table
    return compose_and_roll(campaign, koi, faces, **data)


# --- the webhook's setting -----------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    WEBHOOK, "https://discordapp.com/api/webhooks/1/abc", "https://ptb.discord.com/api/webhooks/1/abc",
    "https://canary.discord.com/api/v10/webhooks/1/abc", "",
])
def test_discords_webhook_urls_are_taken(url):
    validate_discord_webhook(url)


@pytest.mark.parametrize("url", [
    "http://discord.com/api/webhooks/1/abc",  # not https
    "https://discord.com.evil.example/api/webhooks/1/abc", "https://evil.example/api/webhooks/1/abc",
    "https://discord.com/api/webhooks/abc/def", "https://discord.com/api/channels/1/messages",
    "https://discord.com/api/webhooks/1/abc?x=1", "https://discord.com/api/webhooks/١٢/abc",  # other digits
    "javascript:alert(1)", "https://discord.com/api/webhooks/1/a b",
])
def test_anything_else_is_refused(url):
    with pytest.raises(Exception, match="not a Discord webhook"):
        validate_discord_webhook(url)


def test_the_gm_sets_the_webhook_from_the_table_and_sees_it_masked(gm_client, gm):
    campaign = Campaign.objects.create(name="Plain", game=Game.V5, gm=gm)
    url = reverse("campaign-settings", args=[campaign.pk])
    refused = gm_client.post(url, {"time_zone": "Europe/Madrid", "language": "es",
                                   "discord_webhook": "https://example.com/api/webhooks/1/abc"})
    assert refused.status_code == 200 and "not a Discord webhook URL" in refused.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == ""  # nothing changed
    bad_zone = gm_client.post(url, {"time_zone": "Mars/Olympus", "language": "es", "discord_webhook": WEBHOOK})
    assert "Unknown time zone" in bad_zone.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == ""
    saved = gm_client.post(url, {"time_zone": "Europe/Madrid", "language": "es", "discord_webhook": WEBHOOK})
    page = saved.content.decode()
    assert "…/webhooks/1234567890/••••" in page and "Tok3n_secret" not in page
    stored = Campaign.objects.get(pk=campaign.pk)
    assert (stored.discord_webhook, stored.language, stored.time_zone) == (WEBHOOK, "es", "Europe/Madrid")
    # A blank field keeps the webhook (the page never holds it); the box takes it away.
    gm_client.post(url, {"time_zone": "UTC", "language": "en", "discord_webhook": ""})
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == WEBHOOK
    table_page = gm_client.get(reverse("table", args=[campaign.pk])).content.decode()
    assert "Tok3n_secret" not in table_page and "1234567890/••••" in table_page
    gm_client.post(url, {"time_zone": "UTC", "language": "en", "discord_webhook": "", "remove_webhook": "1"})
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == ""


def test_another_gm_cannot_read_or_set_the_webhook(gm, other_gm):
    campaign = Campaign.objects.create(name="Mine", game=Game.V5, gm=gm, discord_webhook=WEBHOOK)
    client = Client()
    client.force_login(other_gm)
    answer = client.post(reverse("campaign-settings", args=[campaign.pk]),
                         {"time_zone": "UTC", "language": "en", "discord_webhook": ""})
    assert answer.status_code == 404
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == WEBHOOK


def test_the_webhook_is_never_exported_nor_shown_to_players(table, gm_client):
    campaign, _koi = table
    roll(table)
    document = json.dumps(backup.export_campaign(campaign))
    assert "Tok3n_secret" not in document and "1234567890" not in document
    for url in (reverse("export", args=[campaign.pk]) + "?part=campaign&format=csv",
                reverse("export", args=[campaign.pk]) + "?part=campaign&format=md",
                reverse("player", args=[campaign.player_token]),
                reverse("player-recap", args=[campaign.player_token]) + "?part=campaign"):
        client = gm_client if "campaigns" in url else Client()
        text = client.get(url).content.decode()
        assert "Tok3n_secret" not in text and "1234567890" not in text, url


def test_a_new_campaign_posts_in_the_gms_language(gm_client):
    gm_client.post(reverse("set_language"), {"language": "es", "next": "/"})
    gm_client.post(reverse("campaign-create"), {"name": "Noches", "game": Game.V5})
    assert Campaign.objects.get(name="Noches").language == "es"


# --- the outbox and the worker --------------------------------------------------------------------

def test_every_roll_is_posted_once_in_order_with_its_message_kept(table, discord, worker):
    first, second, third = roll(table), roll(table, (1, 1, 1, 1)), roll(table, (10, 10, 3, 4))
    assert DiscordPost.objects.count() == 3 and discord.requests == []  # nothing posted by the roll itself
    worker.drain()
    posts = discord.posts()
    assert [p.path for p in posts] == [WEBHOOK_PATH] * 3
    assert all(p.query == {"wait": ["true"]} for p in posts)
    assert [DiscordMessage.objects.get(roll=r).message_id for r in (first, second, third)] == ["1001", "1002", "1003"]
    assert all(p.title.startswith("Koi") for p in posts)
    assert all(p.body["allowed_mentions"] == {"parse": []} for p in posts)
    assert DiscordPost.objects.count() == 0
    worker.drain()
    assert len(discord.requests) == 3  # posted once


def test_the_embed_says_who_the_dice_the_verdict_the_luck_and_where(table, discord, worker):
    campaign, koi = table
    logged = roll(table, (6, 7, 2, 10))
    Roll.objects.filter(pk=logged.pk).update(rolled_by="Ana")
    worker.drain()
    embed = discord.posts()[0].body["embeds"][0]
    assert "rolled by Ana" in embed["description"]
    assert "`" in embed["description"] and "**" in embed["description"]  # the dice, then the verdict
    assert len(embed["title"]) <= 256 and len(embed["description"]) <= 4096
    stored = Roll.objects.get(pk=logged.pk)
    if stored.luck is not None:
        assert str(stored.luck_line(player=True).words) in embed["description"]


def test_the_embed_is_in_the_campaigns_language(table, discord, worker):
    campaign, _koi = table
    Campaign.objects.filter(pk=campaign.pk).update(language="es")
    logged = roll(table, (6, 7, 2, 10))
    Roll.objects.filter(pk=logged.pk).update(rolled_by="Ana")
    worker.drain()
    assert "tirada por Ana" in discord.posts()[0].description


def test_a_name_that_pings_pings_nobody(table, discord, worker):
    campaign, koi = table
    Character.objects.filter(pk=koi.pk).update(name="@everyone **bold**")
    koi.refresh_from_db()
    compose_and_roll(campaign, koi, (6, 7, 2, 10))
    worker.drain()
    title = discord.posts()[0].title
    assert "\\@everyone" in title and "\\*\\*bold" in title


def test_a_void_edits_the_posted_message_to_struck_through(table, discord, worker, gm):
    logged = roll(table)
    worker.drain()
    services.void_roll(Roll.objects.get(pk=logged.pk), gm)
    worker.drain()
    [edit] = discord.edits()
    assert edit.path == f"{WEBHOOK_PATH}/messages/1001"
    assert edit.title.startswith("~~") and edit.title.endswith("~~")
    assert "Voided by the GM" in edit.description
    assert DiscordMessage.objects.get(roll=logged).struck
    assert len(discord.posts()) == 1


def test_a_roll_voided_before_it_was_posted_is_posted_struck_and_never_edited(table, discord, worker, gm):
    logged = roll(table)
    services.void_roll(Roll.objects.get(pk=logged.pk), gm)
    worker.drain()
    [post] = discord.posts()
    assert post.title.startswith("~~") and discord.edits() == []


def test_a_message_discord_gave_no_id_for_is_never_edited(table, discord, worker, gm):
    discord.then(Answer(204))
    logged = roll(table)
    worker.drain()
    services.void_roll(Roll.objects.get(pk=logged.pk), gm)
    worker.drain()
    assert [r.method for r in discord.requests] == ["POST"]  # no PATCH to .../messages/
    assert DiscordMessage.objects.get(roll=logged).struck


def test_a_secret_roll_is_posted_only_once_revealed(table, discord, worker):
    secret = roll(table, hidden="on", label="Spot the ambush")
    worker.drain()
    assert discord.requests == []
    follow = services.follow_up(Roll.objects.get(pk=secret.pk), "reroll", Faces(9), dice=[0])
    worker.drain()
    assert discord.requests == []
    services.reveal(Roll.objects.get(pk=secret.pk))
    worker.drain()
    posts = discord.posts()
    assert len(posts) == 2  # the roll and its reroll, in order
    assert DiscordMessage.objects.get(roll=secret).message_id == "1001"
    assert DiscordMessage.objects.get(roll=follow).message_id == "1002"
    assert "Willpower" in posts[1].title or "reroll" in posts[1].title.lower()


def test_a_secret_difficulty_is_posted_once_revealed(table, discord, worker):
    logged = roll(table, secret="on", difficulty=4)
    worker.drain()
    assert discord.requests == []
    services.reveal(Roll.objects.get(pk=logged.pk))
    worker.drain()
    assert len(discord.posts()) == 1


def test_a_429_waits_what_discord_says_then_posts(table, discord, worker, clock):
    discord.then(Answer(429, {"message": "You are being rate limited.", "retry_after": 2.5, "global": False}))
    first, second = roll(table), roll(table)
    worker.drain(wait_up_to=10)
    assert clock.slept == [2.5]
    assert [r.status for r in discord.requests] == [429, 200, 200]
    assert DiscordMessage.objects.get(roll=first).message_id == "1002"  # the retry's message, in order
    assert DiscordMessage.objects.get(roll=second).message_id == "1003"
    health = DiscordHealth.objects.get(campaign=first.campaign)
    assert health.failing_since is None and health.last_post_at == clock.now


def test_a_429_without_a_body_honours_the_retry_after_header(table, discord, worker, clock):
    discord.then(Answer(429, {}, headers={"Retry-After": "7"}))
    roll(table)
    worker.drain(wait_up_to=10)
    assert clock.slept == [7.0] and len(discord.posts()) == 1


def test_a_failing_head_holds_its_campaign_back_then_posts_in_order(table, discord, worker, clock):
    discord.then(Answer(500, {"message": "Internal Server Error"}), Answer(500, {"message": "oops"}))
    rolls = [roll(table), roll(table), roll(table)]
    worker.drain()
    assert [r.status for r in discord.requests] == [500]  # the other two wait behind it
    assert DiscordPost.objects.count() == 3
    health = DiscordHealth.objects.get(campaign=rolls[0].campaign)
    assert health.failing_since == clock.now and health.last_error.startswith("500")
    worker.drain(wait_up_to=600)
    assert clock.slept == [2.0, 4.0]  # backing off: 2 s, then 4 s
    assert [DiscordMessage.objects.get(roll=r).message_id for r in rolls] == ["1003", "1004", "1005"]
    assert DiscordHealth.objects.get(campaign=rolls[0].campaign).failing_since is None


def test_an_unknown_webhook_is_said_on_the_health_line_and_retried_slowly(table, discord, worker, clock, gm_client):
    campaign, _koi = table
    discord.then(Answer(404, UNKNOWN_WEBHOOK))
    roll(table)
    worker.drain(wait_up_to=60)
    assert DiscordPost.objects.get().not_before == clock.now + timedelta(minutes=5)
    line = gm_client.get(reverse("discord-health", args=[campaign.pk])).content.decode()
    # 20:00 UTC is 21:00 in Madrid: the campaign's zone.
    assert "Discord: nothing posted yet · " in line and "failing since 21:00: 404 unknown webhook" in line
    clock.sleep(300)
    worker.drain()
    line = gm_client.get(reverse("discord-health", args=[campaign.pk])).content.decode()
    assert "Discord: last post 21:05" in line and "failing" not in line


def test_a_slow_discord_times_out_and_the_retry_posts(table, discord, clock):
    slow = Worker(Discord(timeout=0.3), clock=clock, sleep=clock.sleep)
    discord.then(Answer(503, {"message": "slow"}, delay=1.0))
    logged = roll(table)
    slow.drain()
    health = DiscordHealth.objects.get(campaign=logged.campaign)
    assert "timed out" in health.last_error and DiscordPost.objects.count() == 1
    slow.drain(wait_up_to=10)
    assert DiscordMessage.objects.filter(roll=logged).exists()
    slow.discord.close()


def test_a_worker_stopped_mid_queue_loses_nothing_and_posts_nothing_twice(table, discord, clock):
    rolls = [roll(table) for _ in range(4)]
    first = Worker(Discord(), clock=clock, sleep=clock.sleep)
    assert first.step() and len(discord.requests) == 1  # one row posted, then the worker stops
    first.discord.close()
    again = Worker(Discord(), clock=clock, sleep=clock.sleep)
    again.drain()
    again.discord.close()
    assert [DiscordMessage.objects.get(roll=r).message_id for r in rolls] == ["1001", "1002", "1003", "1004"]
    assert len(discord.requests) == 4


def test_a_row_claimed_by_another_worker_is_left_to_it(table, discord, worker, clock):
    roll(table)
    DiscordPost.objects.update(claimed_until=clock.now + timedelta(seconds=30))
    worker.drain()
    assert discord.requests == []
    clock.sleep(31)  # that worker died: its claim runs out
    worker.drain()
    assert len(discord.posts()) == 1


def test_a_roll_with_discord_down_succeeds_at_once(table, settings):
    settings.DISCORD_API_BASE = "http://127.0.0.1:9"  # nothing listens: the roll never asks it
    started = time.monotonic()
    logged = roll(table)
    assert time.monotonic() - started < 2
    assert Roll.objects.filter(pk=logged.pk).exists() and DiscordPost.objects.filter(roll=logged).exists()


def test_a_campaign_without_a_webhook_queues_nothing(gm):
    campaign = Campaign.objects.create(name="Quiet", game=Game.V5, gm=gm)
    koi = Character.objects.create_with_sheet(campaign=campaign, name="Koi")
    compose_and_roll(campaign, koi, (6,))
    assert Roll.objects.exists() and not DiscordPost.objects.exists()


def test_a_roll_rolled_back_queues_nothing(table):
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        roll(table)
        raise RuntimeError("the roll's transaction fails")
    assert not DiscordPost.objects.exists()


# --- a scene's recap -------------------------------------------------------------------------------

def test_the_split_keeps_lines_whole_and_under_the_limit():
    text = "\n".join(f"- line {n} " + "x" * 90 for n in range(100))
    parts = list(messages.split(text))
    assert all(len(part) < 2000 for part in parts) and len(parts) > 1
    assert "\n".join(parts) == text
    assert list(messages.split("y" * 4500)) == ["y" * 1999, "y" * 1999, "y" * 502]


def test_a_scenes_recap_is_posted_in_messages_under_2000_characters(table, discord, worker, gm_client):
    campaign, koi = table
    scene = Scene.objects.current(campaign)
    for _ in range(30):
        compose_and_roll(campaign, koi, (6, 7, 2, 10), label="A long label to fill the recap " * 3)
    answer = gm_client.post(reverse("discord-recap", args=[campaign.pk]), {"part": f"scene-{scene.pk}"})
    assert answer.status_code == 200 and "on its way to Discord" in answer.content.decode()
    worker.drain()
    texts = [r.body["content"] for r in discord.posts() if "content" in r.body]
    assert len(texts) > 1 and all(len(t) < 2000 for t in texts)
    assert texts[0].startswith("# Harbour nights")
    joined = "\n".join(texts)
    assert joined.index("Luck") > joined.index("Koi")  # in order: the rolls, then the luck


def test_a_failing_campaign_holds_back_only_its_own_rows(table, discord, worker, gm):
    other = Campaign.objects.create(name="Other table", game=Game.V5, gm=gm,
                                    discord_webhook="https://discord.com/api/webhooks/42/other")
    ana = Character.objects.create_with_sheet(campaign=other, name="Ana")
    ana.traits.filter(key__in=["strength", "brawl"]).update(rating=2)
    discord.then(Answer(404, UNKNOWN_WEBHOOK))
    roll(table)  # its campaign's webhook is the one Discord no longer knows
    theirs = compose_and_roll(other, ana, (6, 7, 2, 10))
    worker.drain()
    assert [r.path for r in discord.requests] == [WEBHOOK_PATH, "/api/webhooks/42/other"]
    assert DiscordMessage.objects.filter(roll=theirs).exists()
    assert DiscordPost.objects.filter(campaign=table[0]).count() == 1


def test_the_management_command_drains_the_outbox_once(table, discord):
    from django.core.management import call_command

    rolls = [roll(table), roll(table)]
    call_command("discord_worker", "--once")
    assert [DiscordMessage.objects.get(roll=r).message_id for r in rolls] == ["1001", "1002"]
    assert not DiscordPost.objects.exists()


def test_a_webhook_taken_away_drops_what_was_queued_for_it(table, discord, worker):
    campaign, _koi = table
    roll(table)
    Campaign.objects.filter(pk=campaign.pk).update(discord_webhook="")
    worker.drain()
    assert discord.requests == [] and not DiscordPost.objects.exists()


# --- the worker of `python -m gmtools.serve` (make run) ------------------------------------------

SEED = """
from django.contrib.auth.models import User
from gmtools.models import Campaign, DiscordPost
gm = User.objects.create_user("serve-gm", password="serve-secret-1")
campaign = Campaign.objects.create(name="Served", game="v5", gm=gm, discord_webhook="%s")
DiscordPost.objects.create(campaign=campaign, text="Queued before the server started")
"""


@pytest.mark.django_db(transaction=True)
def test_the_server_posts_what_was_queued_before_it_started(tmp_path, discord):
    import os
    import secrets
    import subprocess
    import sys

    from tests.web.servers import ROOT, free_port

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gmtools.settings", "SECRET_KEY": secrets.token_urlsafe(50),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DISCORD_API_BASE": discord.base}
    for name in ("REDIS_URL", "DEBUG", "GMTOOLS_LAN"):
        env.pop(name, None)
    for command in (["migrate", "--noinput"], ["shell", "-c", SEED % WEBHOOK]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True,
                       timeout=300)
    process = subprocess.Popen([sys.executable, "-m", "gmtools.serve", "--port", str(free_port())], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not discord.posts():  # the fake's record, polled: the server's worker thread posts it
            assert process.poll() is None and time.monotonic() < deadline, "the server posted nothing"
            time.sleep(0.1)
        assert discord.posts()[0].body["content"] == "Queued before the server started"
    finally:
        process.terminate()
        process.wait(timeout=10)
