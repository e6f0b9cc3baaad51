"""Demo data: one campaign per game, peopled with the characters of the rules' worked examples.

Each character's ratings reproduce the dice pools of its seed example (Smith's Strength +
Athletics of 6, Koi's Dexterity + Stealth of 6, Bhavna's Willpower 7 with 3 spent, the sci-fi
tracker's Perception + Survival of 5 against the fugitive's Agility + Stealth of 3, ...), so a GM
can replay the book at the table. The Fate seed names no characters; its demo party matches its
examples (a wizard hunting a spell in a library, a warrior who jumps between train cars, a guard
to distract).

Each game's demo campaign lives with the game (``gmtools.games``, its ``demo``); here it becomes a
campaign file and goes through the importer, which validates every row. Loading is idempotent: a
demo campaign that the demo GM already has (``Campaign.demo``: its game, whatever the GM renamed it
to) is left as it is, and so are existing accounts.

The demo's passwords are printed in the README: fine on the GM's own laptop (``make run``, loopback
only), never on the local network, where any player could log in with them and read every campaign,
secret rolls included. So ``load(lan=True)`` (``make table``) gives the accounts it creates generated
passwords, and a new one to any account that still has a password of the README
(``has_known_password``); ``gmtools.serve --lan`` refuses to start while one does.
"""

import copy
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.hashers import check_password
from django.db import transaction

from gmtools import backup, games
from gmtools.games.base import DemoCharacter, BaseGame
from gmtools.models import Campaign

GM_USERNAME, GM_PASSWORD = "gm", "gm-demo-2026"
# A staff superuser so that the demo shows the admin. Demo only: the password is public, which is
# why the local network's demo generates its own (``load(lan=True)``).
ADMIN_USERNAME, ADMIN_PASSWORD = "admin", "admin-demo-2026"
KNOWN_PASSWORDS = (GM_PASSWORD, ADMIN_PASSWORD)


def _character(system: BaseGame, character: DemoCharacter) -> dict[str, Any]:
    """A character in campaign-file form: the full standard sheet, then the traits added by hand."""
    ratings, specialties = character.ratings, character.specialties
    # A misspelt key would silently leave a rating at its default.
    if unknown := (set(ratings) | set(specialties)) - set(system.standard_traits):
        raise ValueError(f"Not standard {system.id} traits: {sorted(unknown)}")
    traits = [
        {
            "category": trait.category,
            "key": trait.key,
            "name": "",
            "rating": ratings.get(trait.key, trait.default),
            "specialties": specialties.get(trait.key, ""),
        }
        for trait in system.standard_sheet
    ]
    traits += [
        {"category": category, "key": "", "name": trait_name, "rating": rating, "specialties": ""}
        for category, trait_name, rating in character.custom
    ]
    return {
        "name": character.name,
        "kind": character.kind,
        "player": character.player,
        "concept": character.concept,
        "notes": character.notes,
        "resources": {system.resources.public(name): value for name, value in character.resources.items()},
        "traits": traits,
        "aspects": [{"kind": k, "text": text, "free_invocations": free} for k, text, free in character.aspects],
    }


def campaign_document(system: BaseGame) -> dict[str, Any]:
    """A game's demo campaign (``system.demo``) as a campaign file."""
    return {
        "format": backup.FORMAT,
        "version": backup.VERSION,
        "campaign": {"name": system.demo.name, "game": system.id,
                     **{system.state.public(name): copy.deepcopy(value) for name, value in system.demo.state.items()}},
        "characters": [_character(system, character) for character in system.demo.characters],
    }


# One campaign file per registered game, in the registry's order.
DEMO_CAMPAIGNS = tuple(campaign_document(system) for system in games.systems())


@dataclass
class DemoAccount:
    username: str
    staff: bool
    # "created", "kept" (its password untouched) or "renewed" (it had a password of the README).
    outcome: str
    password: str | None  # what to log in with, when this load set it: printed once, never stored


@dataclass
class DemoResult:
    campaigns_created: list[Campaign]
    campaigns_kept: list[str]  # their names now
    campaigns_left_out: list[str]  # a campaign of the GM's own already has the demo's name
    accounts: list[DemoAccount]


def load(*, lan: bool = False) -> DemoResult:
    """Load what is missing of the demo, in one transaction; ``lan``: for the local network, no
    account left with a password of the README (module docstring)."""
    with transaction.atomic():
        renewed = {user.get_username(): _renewed(user) for user in users_with_known_passwords()} if lan else {}
        accounts = [renewed.pop(username, None) or _ensure_user(username, password, staff=staff, lan=lan)
                    for username, password, staff in ((GM_USERNAME, GM_PASSWORD, False),
                                                      (ADMIN_USERNAME, ADMIN_PASSWORD, True))]
        accounts += renewed.values()  # accounts of others that had a password of the README
        gm = get_user_model().objects.get(username=GM_USERNAME)
        created, kept, left_out = [], [], []
        for document in DEMO_CAMPAIGNS:
            game, name = document["campaign"]["game"], document["campaign"]["name"]
            if (mine := Campaign.objects.filter(gm=gm, demo=game).first()) is not None:
                kept.append(mine.name)
            elif Campaign.objects.filter(gm=gm, name=name).exists():
                left_out.append(name)
            else:
                campaign = backup.import_campaign(document, gm)
                campaign.demo = game
                campaign.save(update_fields=["demo"])
                created.append(campaign)
    return DemoResult(created, kept, left_out, accounts)


def has_known_password(user: AbstractBaseUser) -> bool:
    """Does this account log in with a password printed in the README? (No upgrade of the stored
    hash on the way, unlike ``user.check_password``: this is a check, not a login.)"""
    return any(check_password(known, user.password) for known in KNOWN_PASSWORDS)


def users_with_known_passwords() -> list[AbstractBaseUser]:
    """Every account, active or not, whose password is one of the README's.

    Each check hashes the password (0.4 s of CPU here, twice per account); the hashing releases
    the GIL, so the accounts are checked in parallel.
    """
    users = [user for user in get_user_model().objects.all() if user.has_usable_password()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        known = list(pool.map(has_known_password, users))
    return [user for user, is_known in zip(users, known, strict=True) if is_known]


def new_password() -> str:
    return secrets.token_urlsafe(12)  # 96 random bits, 16 characters to type


def _renewed(user: AbstractBaseUser) -> DemoAccount:
    password = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return DemoAccount(user.get_username(), user.is_staff, "renewed", password)


def _ensure_user(username: str, known_password: str, *, staff: bool, lan: bool) -> DemoAccount:
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        return DemoAccount(username, staff, "kept", None)
    password = new_password() if lan else known_password
    if staff:
        User.objects.create_superuser(username, password=password)
    else:
        User.objects.create_user(username, password=password)
    return DemoAccount(username, staff, "created", password)
