"""Discord at the table, in a real browser (``make run``'s settings, a worker thread as
``gmtools.serve`` runs one): the GM sets the webhook in the campaign's settings, rolls, makes a
secret roll and reveals it, voids a roll; the local fake of Discord's API (tests/web/discord_fake.py)
receives each post once, in order, nothing of the secret roll before its reveal, and the void as an
edit of the message it struck through. Waits poll the fake's record and the outbox, never a fixed time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

# The fixtures (browser, gm_user, dice, page, asgi_server) are imported so that pytest finds them here.
from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    cards,
    dice,
    expect,
    gm_user,
    make_character,
    open_table,
    page,
    roll,
    trait,
)

from gmtools.discord.worker import start_in_background  # noqa: E402
from gmtools.models import Campaign, DiscordPost, Roll  # noqa: E402
from tests.games import Game  # noqa: E402
from tests.web.discord_fake import FakeDiscord  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WEBHOOK = "https://discord.com/api/webhooks/1234567890/Browser-tok3n"


def until(condition: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Poll ``condition`` (the fake's record, the outbox) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout}s for {what}"
        time.sleep(0.05)


@pytest.fixture
def discord(settings):
    with FakeDiscord() as fake:
        settings.DISCORD_API_BASE = fake.base
        worker = start_in_background()
        yield fake
        worker.stop()


def test_the_gm_sets_a_webhook_rolls_reveals_and_voids(page, gm_user, dice, discord):
    campaign = Campaign.objects.create(name="Harbour nights", game=Game.V5, gm=gm_user)
    koi = make_character(campaign, "Koi", {"strength": 2, "brawl": 2}, v5_hunger=1)
    open_table(page, campaign)

    settings = page.locator("[data-testid=campaign-settings]")
    settings.locator("summary").click()
    page.fill("#settings-webhook", "https://example.com/api/webhooks/1/abc")
    page.click("[data-testid=settings-save]")
    expect(page.locator("[data-testid=settings-error]")).to_contain_text("not a Discord webhook URL")
    page.fill("#settings-webhook", WEBHOOK)
    page.click("[data-testid=settings-save]")
    expect(page.locator("[data-testid=webhook-masked]")).to_contain_text("…/webhooks/1234567890/••••")
    assert "Browser-tok3n" not in page.content()
    assert Campaign.objects.get(pk=campaign.pk).discord_webhook == WEBHOOK
    page.locator("[data-testid=campaign-settings] summary").click()  # closed again

    page.select_option("#composer [name=first]", trait(koi, "strength"))
    page.select_option("#composer [name=second]", trait(koi, "brawl"))
    dice.script(6, 7, 2, 10)
    roll(page, expected_cards=1)
    until(lambda: len(discord.posts()) == 1, "the public roll's post")
    public = Roll.objects.get()

    page.check("#composer [name=hidden]")
    dice.script(1, 2, 3, 4)
    roll(page, expected_cards=2)
    secret = Roll.objects.get(hidden=True)
    until(lambda: not DiscordPost.objects.exists(), "the worker to take the secret roll's row")
    assert len(discord.requests) == 1  # nothing of the secret roll

    page.locator(f"#roll-{secret.pk} [data-testid=reveal]").click()
    until(lambda: len(discord.posts()) == 2, "the revealed roll's post")
    assert discord.posts()[1].title.startswith("Koi")

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#roll-{public.pk} .void-button").first.click()
    until(lambda: len(discord.edits()) == 1, "the void's edit")
    edit = discord.edits()[0]
    assert edit.path.endswith("/webhooks/1234567890/Browser-tok3n/messages/1001")
    assert edit.title.startswith("~~")
    assert [r.method for r in discord.requests] == ["POST", "POST", "PATCH"]  # each once, in order

    page.reload()
    expect(page.locator("[data-testid=discord-health]")).to_contain_text("Discord: last post")
