"""The player link: its address on the table's network and its QR code.

Phones at the table reach the GM's laptop over the local network, so the link must carry the
laptop's LAN address, not 127.0.0.1. ``make table`` serves on every interface and sets
``GMTOOLS_PUBLIC_URL`` from ``lan_address()``; without it (``make run``, loopback only) the link
is built from the address the GM's browser used, and the table says that phones cannot reach it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from gmtools.models import Campaign, Character
from gmtools.sheets import CharacterKind

def on_player_link(request: HttpRequest) -> dict[str, bool]:
    """A context processor: ``on_player_link`` is True on any page under the player links' addresses
    (the player's page, a dead link, a 404 or an expired form met there), where the visitor is a
    player, who has no account: base.html offers no "Log in" there."""
    token = "a" * 16  # any string of a token's shape: only the address before it is wanted
    prefix = reverse("player", args=[token]).removesuffix(f"{token}/")
    return {"on_player_link": request.path.startswith(prefix)}


def base_url(request: HttpRequest) -> str:
    """Where phones should go: the configured public address, else the one the GM's browser used."""
    return (settings.PUBLIC_URL or request.build_absolute_uri("/")).rstrip("/")


@dataclass(frozen=True)
class PlayerLink:
    url: str
    qr: SafeString
    local_only: bool


def player_link(campaign: Campaign, base: str) -> PlayerLink:
    return _link(campaign.player_token, base)


@dataclass(frozen=True)
class CharacterLink:
    """A character's own player link (None: it has none), for the GM's Players' link panel."""

    character: Character
    link: PlayerLink | None


def character_links(campaign: Campaign, base: str) -> list[CharacterLink]:
    """The links of the campaign's player characters, each its own (``Character.player_token``)."""
    return [CharacterLink(c, _link(c.player_token, base) if c.player_token else None)
            for c in campaign.characters.filter(kind=CharacterKind.PC).order_by("name")]


def _link(token: str, base: str) -> PlayerLink:
    url = base.rstrip("/") + reverse("player", args=[token])
    host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    local_only = host in ("localhost", "testserver") or _is_loopback(host)
    return PlayerLink(url=url, qr=qr_code(url), local_only=local_only)


@lru_cache(maxsize=256)
def qr_code(url: str) -> SafeString:
    """The link's QR code as inline SVG, drawn by segno on the server: no image service, works
    offline. A few milliseconds each, the same for the same link: drawn once per process."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, dark="#212529", light="#ffffff", omitsize=True)
    return mark_safe(svg)  # noqa: S308 - segno's own SVG


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
