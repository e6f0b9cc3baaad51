"""The worker that drains the Discord outbox (``DiscordPost``), off every request.

Per campaign, in the order of its rows: the head row is posted before any later one, and a head
that fails holds its campaign's rows back (in order) while other campaigns go on. A row is claimed
for a while (``LEASE``) by a conditional UPDATE before it is posted, so that two workers (one per
server process, or ``manage.py discord_worker`` beside the server) never post the same row: on
SQLite and PostgreSQL alike, and with no transaction held open while Discord answers.

A failure waits before the next try: Discord's own ``retry_after`` for a 429, 5 minutes for a
webhook Discord no longer knows (404, 401, 403: the GM has to mend it), else 2, 4, 8 ... seconds up
to 5 minutes. A message Discord refuses as malformed (another 4xx) would be refused forever: it is
dropped, and said on the health line. The clock and the sleep are the worker's own, for the tests.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import close_old_connections, connection
from django.db.models import Min, Q
from django.utils import timezone, translation

from gmtools.discord.messages import roll_message, text_message
from gmtools.discord.outbox import WAKE
from gmtools.discord.posting import Discord, Failed
from gmtools.models import DiscordHealth, DiscordMessage, DiscordPost, Roll

log = logging.getLogger("gmtools.discord")

LEASE = timedelta(seconds=60)  # longer than a request's timeout: a live worker's claim never runs out under it
BACKOFF_CAP = 300.0
UNKNOWN_WEBHOOK_WAIT = 300.0
POLL = 2.0  # how often a worker looks for rows written by another process


class Worker:
    def __init__(self, discord: Discord | None = None, *, clock: Callable[[], datetime] = timezone.now,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.discord = discord or Discord()
        self.clock = clock
        self.sleep = sleep

    # --- the loop -----------------------------------------------------------------------------

    def step(self) -> bool:
        """Try each campaign's head row that is due; True if one was tried (posted or failed)."""
        now = self.clock()
        heads = DiscordPost.objects.values("campaign_id").annotate(head=Min("pk")).values("head")
        due = (DiscordPost.objects.filter(pk__in=heads).filter(Q(not_before__isnull=True) | Q(not_before__lte=now))
               .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now)).select_related("campaign"))
        tried = False
        for post in due:
            claimed = (DiscordPost.objects.filter(pk=post.pk)
                       .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lte=now))
                       .update(claimed_until=now + LEASE))
            if claimed:  # else another worker took it between the two queries
                self._try(post)
                tried = True
        return tried

    def next_due(self) -> datetime | None:
        """When the earliest waiting head is due: past its backoff and any other worker's claim (None:
        the outbox is empty)."""
        heads = DiscordPost.objects.values("campaign_id").annotate(head=Min("pk")).values("head")
        now = self.clock()
        waits = [max(post.not_before or now, post.claimed_until or now) for post in DiscordPost.objects.filter(pk__in=heads)]
        return min(waits, default=None)

    def drain(self, wait_up_to: float = 0.0) -> None:
        """Post everything due, waiting (with the worker's sleep) for rows due within ``wait_up_to`` seconds."""
        while True:
            if self.step():
                continue
            due = self.next_due()
            if due is None:
                return
            wait = (due - self.clock()).total_seconds()
            if wait > wait_up_to:
                return
            self.sleep(max(wait, 0.0))

    def run(self, stop: threading.Event) -> None:
        """Until ``stop``: drain, then wait for a roll's wake-up (this process) or ``POLL`` (another's)."""
        try:
            while not stop.is_set():
                close_old_connections()
                try:
                    self.drain()
                    due = self.next_due()
                except Exception:  # the database away for a moment: the loop must outlive it
                    log.exception("The Discord worker could not read its outbox")
                    due = None
                wait = POLL if due is None else min(POLL, max((due - self.clock()).total_seconds(), 0.05))
                connection.close()  # back to the pool (PostgreSQL) while it waits: the streams need them
                WAKE.wait(wait)
                WAKE.clear()
        finally:
            self.discord.close()
            connection.close()

    # --- one row --------------------------------------------------------------------------------

    def _try(self, post: DiscordPost) -> None:
        try:
            self._deliver(post)
        except Failed as error:
            self._failed(post, error)
            return
        except Exception as error:  # a bug of ours: logged, retried as Discord's failure would be
            log.exception("Posting to Discord failed")
            self._failed(post, Failed(0, type(error).__name__))
            return
        DiscordPost.objects.filter(pk=post.pk).delete()
        DiscordHealth.objects.update_or_create(campaign_id=post.campaign_id, defaults={
            "last_post_at": self.clock(), "failing_since": None, "last_error": ""})

    def _deliver(self, post: DiscordPost) -> None:
        """Make Discord show what the row's roll is now (each entry of its card: the roll, its follow-ups),
        or post the row's text."""
        campaign = post.campaign
        webhook = campaign.discord_webhook
        if not webhook:
            return  # the GM took the webhook away: nothing to post to
        with translation.override(campaign.language), timezone.override(campaign.zone):
            if post.roll_id is None:
                self.discord.post(webhook, text_message(post.text))
                return
            family = Roll.objects.get(pk=post.roll_id).family()
            entries = (Roll.objects.filter(pk__in=family).select_related("scene__episode__story", "voided_by")
                       .order_by("id"))
            sent = {message.roll_id: message for message in DiscordMessage.objects.filter(roll__in=family)}
            for entry in entries:
                if entry.private:
                    continue  # secret (or its difficulty): posted once revealed
                message, voided = sent.get(entry.pk), entry.voided_at is not None
                if message is None:  # never posted: posted as it is now (struck through if voided)
                    message_id = self.discord.post(webhook, roll_message(entry))
                    DiscordMessage.objects.create(roll=entry, message_id=message_id, struck=voided)
                elif voided and not message.struck:
                    if message.message_id:  # never an edit without the message's id (a 204 gave none)
                        self.discord.edit(webhook, message.message_id, roll_message(entry))
                    DiscordMessage.objects.filter(pk=message.pk).update(struck=True)

    def _failed(self, post: DiscordPost, error: Failed) -> None:
        now = self.clock()
        attempts = post.attempts + 1
        if error.status == 429:
            wait: float | None = error.retry_after or 1.0
        elif error.status in (401, 403, 404):
            wait = UNKNOWN_WEBHOOK_WAIT
        elif 400 <= error.status < 500:
            wait = None  # refused as it is: it would be refused forever
        else:
            wait = min(2.0 ** attempts, BACKOFF_CAP)
        if wait is None:
            DiscordPost.objects.filter(pk=post.pk).delete()
        else:
            DiscordPost.objects.filter(pk=post.pk).update(attempts=attempts, claimed_until=None,
                                                          not_before=now + timedelta(seconds=wait))
        log.warning("Discord: %s (campaign %s, attempt %s)", error, post.campaign_id, attempts)
        health, _created = DiscordHealth.objects.get_or_create(campaign_id=post.campaign_id)
        if error.status == 429:  # Discord asked us to slow down: the link is fine
            return
        health.failing_since = health.failing_since or now
        health.last_error = (str(error) + (" (dropped)" if wait is None else ""))[:200]
        health.save()


class Background:
    """A worker in a thread of this server process (``gmtools.serve``, a browser test's server)."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=Worker().run, args=(self.stopping,), name="discord-worker", daemon=True)
        self.thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self.stopping.set()
        WAKE.set()
        self.thread.join(timeout)


def start_in_background() -> Background:
    return Background()
