"""Campaigns: a GM's campaign, the game it plays, its player link, and each game's own row of it.

A Campaign belongs to one GM and plays one game; the game is fixed once the campaign has
characters, because their sheets are that game's. What each registered game says of one thing is
read through ``PerGame``, and the games a campaign may play are ``game_choices()``. A campaign's
state (Fate's deck, the scifi adventure) is a row of its game's own table (``Campaign.state``),
made with it; ``_own_row`` and ``_save_new_row`` read and make such a row, a character's too.
"""

import re
import secrets
import zoneinfo
from collections.abc import Callable, Iterator, Mapping
from typing import ClassVar, Self

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import tzlocal

from gmtools import games
from gmtools.nulfree import NulFree
from gmtools.games.base import BaseGame


class PerGame[T](Mapping[str, T]):
    """What each registered game says of one thing, by game id; a game that says None is left out.

    Read from the registry at each look-up, so that a game registered after this module was
    imported (as a test registers one) is in it.
    """

    def __init__(self, read: Callable[[BaseGame], T | None]) -> None:
        self._read = read

    def __getitem__(self, game: str) -> T:
        value = self._read(games.get(game))
        if value is None:
            raise KeyError(game)
        return value

    def __iter__(self) -> Iterator[str]:
        return (system.id for system in games.systems() if self._read(system) is not None)

    def __len__(self) -> int:
        return sum(1 for _game in self)


def game_choices() -> list[tuple[str, Promise | str]]:
    """Every registered game, as the campaign form and the admin offer it (a game registered later too)."""
    return [(system.id, system.label or system.id) for system in games.systems()]


def new_player_token() -> str:
    """An unguessable token for a campaign's player link (32 URL-safe characters, 192 bits)."""
    return secrets.token_urlsafe(24)


class CampaignQuerySet(models.QuerySet):
    def for_gm(self, user: AbstractBaseUser | AnonymousUser) -> Self:
        """The campaigns this user runs; none for an anonymous visitor."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(gm=user)

    def visible_to(self, user: AbstractBaseUser | AnonymousUser) -> Self:
        """What a user may open: their own campaigns, or every campaign for a superuser. Staff status
        alone opens none (it only lets a user into the admin, where permissions decide)."""
        if user.is_authenticated and user.is_superuser:
            return self.all()
        return self.for_gm(user)


def _own_row(owner: models.Model, model: type[models.Model] | None) -> models.Model | None:
    """The owner's row of its game's table (``model``): cached, or read, or a new one at the table's
    defaults (saved with an owner not saved yet; see ``Character.save``)."""
    if model is None:
        return None
    name = model._meta.app_label  # the link's name on the owner (gmtools.games.base.models)
    try:
        return getattr(owner, name)
    except model.DoesNotExist:
        row = model()
        setattr(owner, name, row)  # cached on both sides, as if read
        return row


def _save_new_row(row: models.Model | None, **owner: models.Model) -> None:
    """A new owner's row of its game's table (``_own_row``), inserted with the owner's id."""
    if row is not None and row._state.adding:
        for name, value in owner.items():
            setattr(row, name, value)
        row.save(force_insert=True)


def validate_time_zone(name: str) -> None:
    """An IANA time zone this machine knows ("Europe/Madrid")."""
    if name not in zoneinfo.available_timezones():
        raise ValidationError(_("Unknown time zone: %(zone)s."), params={"zone": name}, code="time_zone")


def default_time_zone() -> str:
    """The server's own zone (``tzlocal``), for a campaign whose GM's browser told none; else UTC."""
    try:
        name = tzlocal.get_localzone_name()
    except Exception:  # an odd /etc/localtime: the times still read right, in UTC  # noqa: BLE001
        return "UTC"
    return name if name in zoneinfo.available_timezones() else "UTC"


# Discord's webhook URL as Discord gives it (Server settings → Integrations → Webhooks → Copy URL): https
# only, discord.com or the older discordapp.com, the ptb./canary. clients' hosts, an optional API version.
DISCORD_WEBHOOK = re.compile(
    r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v\d{1,2}/)?webhooks/(?P<id>\d{1,25})/(?P<token>[A-Za-z0-9_-]{1,100})/?",
    re.ASCII)  # \d and \w as ASCII: no other script's digits in a URL we build requests from


def validate_discord_webhook(url: str) -> None:
    """A Discord webhook URL (``https://discord.com/api/webhooks/<id>/<token>``), or nothing."""
    if url and DISCORD_WEBHOOK.fullmatch(url) is None:
        raise ValidationError(_("This is not a Discord webhook URL (https://discord.com/api/webhooks/…)."),
                              code="discord_webhook")


class Campaign(NulFree):
    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=10, choices=game_choices)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        # Deleting an account must not silently take its campaigns with it.
        on_delete=models.PROTECT,
        related_name="campaigns",
        verbose_name=_("game master"),
    )
    # The player link's secret: whoever has it reads the table (never changes it). A new token
    # cuts off the old link at once, open streams included.
    player_token = models.CharField(_("player link token"), max_length=64, unique=True, default=new_player_token,
                                    editable=False)
    # Players roll their own characters from their phones, through each character's own link
    # (``Character.player_token``); off, every link stays read-only.
    players_roll = models.BooleanField(_("players roll their own characters"), default=False)
    # The game whose demo this campaign was loaded from (gmtools.demo), else None: the demo knows
    # its campaigns by this, not by their names, which the GM may change.
    demo = models.CharField(_("demo of"), max_length=10, null=True, blank=True, editable=False)
    # Every time shown of the campaign (cards, logs, recap, CSV, luck page, admin) is in this zone; the
    # times stored stay UTC (``gmtools.zones`` makes it the request's). Set from the GM's browser on
    # creation, else the server's own.
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone,
                                 validators=[validate_time_zone],
                                 help_text=_("Times are shown in this zone, e.g. Europe/Madrid."))
    # What the campaign posts to Discord is in this language (the GM's when the campaign was made).
    language = models.CharField(_("language"), max_length=5, choices=settings.LANGUAGES, default="en")
    # Where each roll is posted (gmtools.discord); a secret: never exported, never shown to players,
    # shown to the GM masked (``discord_webhook_masked``).
    discord_webhook = models.CharField(_("Discord webhook URL"), max_length=300, blank=True,
                                       validators=[validate_discord_webhook])

    objects = CampaignQuerySet.as_manager()

    # The switch a GM flips from the table, for the games that have one (staff edit the rest in the admin).
    TABLE_SWITCHES: ClassVar[Mapping[str, str]] = PerGame(lambda system: system.state.switch)

    @property
    def discord_webhook_masked(self) -> str:
        """The webhook as the GM sees it once saved: its id, never its token ("…/webhooks/1234/••••")."""
        found = DISCORD_WEBHOOK.fullmatch(self.discord_webhook)
        return f"…/webhooks/{found['id']}/••••" if found else ""

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)

    class Meta:
        ordering = ["name"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        constraints = [
            # No database check of the game: the games are those registered (gmtools.games), a
            # fifth one from its own package; the choices (forms, admin, full_clean, imports) refuse others.
            models.UniqueConstraint(
                fields=["gm", "name"],
                name="campaign_name_unique_per_gm",
                violation_error_message=_("This game master already has a campaign with this name."),
            ),
            models.UniqueConstraint(fields=["gm", "demo"], condition=Q(demo__isnull=False),
                                    name="campaign_demo_unique_per_gm"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self._game_change_blocked():
            raise ValidationError({"game": _("The game cannot change once the campaign has characters.")})

    def save(self, *args, **kwargs) -> None:
        stored = self._stored_game()
        # Forms report this through clean(); this catches every other path.
        if stored is not None and stored != self.game and self.characters.exists():
            raise ValidationError(_("The game cannot change once the campaign has characters."))
        self.refuse_nul(kwargs.get("update_fields"))  # before the transaction, which a refusal inside would break
        with transaction.atomic(savepoint=False):
            super().save(*args, **kwargs)
            if stored != self.game:  # a new campaign, or one that took another game: that game's state
                _save_new_row(self.state, campaign=self)

    @property
    def state(self) -> models.Model | None:
        """The campaign's row of its game's state (``BaseGame.state``), None for a game without one."""
        return _own_row(self, games.get(self.game).state.model)

    def plays(self, other: str) -> bool:
        """Does this campaign play the game another row or file names? (Not a branch on a game.)"""
        return other == self.game

    def flip(self) -> None:
        """Flip this game's table switch (the Fate deck, or the scifi adventure being open)."""
        field, state = self.TABLE_SWITCHES[self.game], self.state
        flipped = models.Case(models.When(**{field: True}, then=models.Value(False)), default=models.Value(True))
        type(state).objects.filter(pk=self.pk).update(**{field: flipped})
        state.refresh_from_db(fields=[field])

    def regenerate_player_token(self) -> None:
        self.player_token = new_player_token()
        Campaign.objects.filter(pk=self.pk).update(player_token=self.player_token)

    @property
    def switch(self) -> bool | None:
        field = self.TABLE_SWITCHES.get(self.game)
        return getattr(self.state, field) if field else None

    def _stored_game(self) -> str | None:
        """The game the database holds for this campaign (None: not saved yet)."""
        if self._state.adding:
            return None
        return Campaign.objects.filter(pk=self.pk).values_list("game", flat=True).first()

    def _game_change_blocked(self) -> bool:
        stored = self._stored_game()
        return stored is not None and stored != self.game and self.characters.exists()
