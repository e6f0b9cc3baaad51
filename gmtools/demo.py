"""Demo data: one campaign per game, peopled with the characters of the rules' worked examples.

Each character's ratings reproduce the dice pools of its seed example (Smith's Strength +
Athletics of 6, Koi's Dexterity + Stealth of 6, Bhavna's Willpower 7 with 3 spent, the sci-fi
tracker's Perception + Survival of 5 against the fugitive's Agility + Stealth of 3, ...), so a GM
can replay the book at the table. The Fate seed names no characters; its demo party matches its
examples (a wizard hunting a spell in a library, a warrior who jumps between train cars, a guard
to distract).

Each game's demo campaign lives with the game (``gmtools.games``, its ``demo``); here it becomes a
campaign file and goes through the importer, which validates every row. Loading is idempotent: a demo campaign that the demo GM already has is left as it is, and so
are existing accounts (their passwords are never reset).
"""

import copy
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from gmtools import backup, games
from gmtools.games.base import DemoCharacter, GameSystem
from gmtools.models import Campaign

GM_USERNAME, GM_PASSWORD = "gm", "gm-demo-2026"
# A staff superuser so that the demo shows the admin, where sheets are edited. Demo only: the
# password is public, which is why an existing "admin" account is never touched.
ADMIN_USERNAME, ADMIN_PASSWORD = "admin", "admin-demo-2026"


def _character(system: GameSystem, character: DemoCharacter) -> dict[str, Any]:
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
        "resources": dict(character.resources),
        "traits": traits,
        "aspects": [{"kind": k, "text": text, "free_invocations": free} for k, text, free in character.aspects],
    }


def campaign_document(system: GameSystem) -> dict[str, Any]:
    """A game's demo campaign (``system.demo``) as a campaign file."""
    return {
        "format": backup.FORMAT,
        "version": backup.VERSION,
        "campaign": {"name": system.demo.name, "game": system.id, **copy.deepcopy(dict(system.demo.state))},
        "characters": [_character(system, character) for character in system.demo.characters],
    }


# One campaign file per registered game, in the registry's order.
DEMO_CAMPAIGNS = tuple(campaign_document(system) for system in games.systems())


@dataclass
class DemoResult:
    campaigns_created: list[Campaign]
    campaigns_kept: list[str]
    gm_created: bool
    admin_created: bool


def load() -> DemoResult:
    """Load what is missing of the demo, in one transaction."""
    with transaction.atomic():
        gm, gm_created = _ensure_user(GM_USERNAME, GM_PASSWORD, superuser=False)
        _admin, admin_created = _ensure_user(ADMIN_USERNAME, ADMIN_PASSWORD, superuser=True)
        created, kept = [], []
        for document in DEMO_CAMPAIGNS:
            name = document["campaign"]["name"]
            if Campaign.objects.filter(gm=gm, name=name).exists():
                kept.append(name)
            else:
                created.append(backup.import_campaign(document, gm))
    return DemoResult(created, kept, gm_created, admin_created)


def _ensure_user(username: str, password: str, *, superuser: bool) -> tuple[AbstractBaseUser, bool]:
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    if superuser:
        return User.objects.create_superuser(username, password=password), True
    return User.objects.create_user(username, password=password), True
