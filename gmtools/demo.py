"""Demo data: one campaign per game, peopled with the characters of the rules' worked examples.

Each character's ratings reproduce the dice pools of its seed example (Smith's Strength +
Athletics of 6, Koi's Dexterity + Stealth of 6, Bhavna's Willpower 7 with 3 spent, the sci-fi
tracker's Perception + Survival of 5 against the fugitive's Agility + Stealth of 3, ...), so a GM
can replay the book at the table. The Fate seed names no characters; its demo party matches its
examples (a wizard hunting a spell in a library, a warrior who jumps between train cars, a guard
to distract).

The campaigns are written as campaign files and go through the importer, which validates every
row. Loading is idempotent: a demo campaign that the demo GM already has is left as it is, and so
are existing accounts (their passwords are never reset).
"""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from gmtools import backup
from gmtools.models import Campaign
from gmtools.sheets import STANDARD_SHEETS, Game

GM_USERNAME, GM_PASSWORD = "gm", "gm-demo-2026"
# A staff superuser so that the demo shows the admin, where sheets are edited. Demo only: the
# password is public, which is why an existing "admin" account is never touched.
ADMIN_USERNAME, ADMIN_PASSWORD = "admin", "admin-demo-2026"


def _character(
    game: str,
    name: str,
    *,
    ratings: dict[str, int],
    specialties: dict[str, str] | None = None,
    custom: tuple[tuple[str, str, int], ...] = (),
    aspects: tuple[tuple[str, str, int], ...] = (),
    resources: dict[str, Any] | None = None,
    kind: str = "pc",
    player: str = "",
    concept: str = "",
    notes: str = "",
) -> dict[str, Any]:
    """A character in campaign-file form: the full standard sheet, then the traits added by hand."""
    specialties = specialties or {}
    # A misspelt key would silently leave a rating at its default.
    if unknown := (set(ratings) | set(specialties)) - {trait.key for trait in STANDARD_SHEETS[game]}:
        raise ValueError(f"Not standard {game} traits: {sorted(unknown)}")
    traits = [
        {
            "category": trait.category,
            "key": trait.key,
            "name": "",
            "rating": ratings.get(trait.key, trait.default),
            "specialties": specialties.get(trait.key, ""),
        }
        for trait in STANDARD_SHEETS[game]
    ]
    traits += [
        {"category": category, "key": "", "name": trait_name, "rating": rating, "specialties": ""}
        for category, trait_name, rating in custom
    ]
    return {
        "name": name,
        "kind": kind,
        "player": player,
        "concept": concept,
        "notes": notes,
        "resources": resources or {},
        "traits": traits,
        "aspects": [{"kind": k, "text": text, "free_invocations": free} for k, text, free in aspects],
    }


def _campaign(name: str, game: str, characters: list[dict[str, Any]], **state: Any) -> dict[str, Any]:
    return {
        "format": backup.FORMAT,
        "version": backup.VERSION,
        "campaign": {"name": name, "game": game, **state},
        "characters": characters,
    }


EXALTED = _campaign(
    "Demo · Exalted: the Realm garrison",
    Game.EXALTED,
    [
        _character(
            Game.EXALTED,
            "Smith",
            player="Phyllis",
            concept="Solar Exalt and notorious bandit",
            notes="Strength + Athletics 6 (the oak); Stamina + Athletics 6 (climbing with a soldier on his boot); "
            "Perception + Athletics 8 (the botched leap); Intelligence + Linguistics 5 (the documents).",
            ratings={
                "strength": 3,
                "dexterity": 3,
                "stamina": 3,
                "charisma": 2,
                "manipulation": 2,
                "appearance": 2,
                "perception": 5,
                "intelligence": 3,
                "wits": 2,
                "archery": 3,
                "martial_arts": 3,
                "survival": 2,
                "athletics": 3,
                "awareness": 2,
                "dodge": 2,
                "stealth": 1,
                "linguistics": 2,
            },
            specialties={"martial_arts": "Kicks"},
            custom=(("background", "Resources", 1),),
            resources={
                "exalted_essence": 2,
                "exalted_willpower": 7,
                "exalted_willpower_temporary": 7,
                "exalted_motes": 13,
                "exalted_motes_max": 13,
                "exalted_compassion": 2,
                "exalted_conviction": 3,
                "exalted_temperance": 2,
                "exalted_valor": 4,
                "exalted_limit": 1,
            },
        ),
        _character(
            Game.EXALTED,
            "Koi",
            player="Rebecca",
            concept="Smith's companion, a silent infiltrator",
            notes="Dexterity + Athletics 6 (the wall, an extended action to 10); Dexterity + Stealth 6 against the "
            "guard's Perception + Awareness 4; Intelligence + Linguistics 7 (teamwork with Smith).",
            ratings={
                "strength": 2,
                "dexterity": 4,
                "stamina": 2,
                "charisma": 2,
                "manipulation": 3,
                "appearance": 3,
                "perception": 3,
                "intelligence": 4,
                "wits": 3,
                "martial_arts": 2,
                "athletics": 2,
                "awareness": 2,
                "dodge": 3,
                "larceny": 3,
                "stealth": 2,
                "linguistics": 3,
            },
            specialties={"larceny": "Documents"},
            resources={
                "exalted_essence": 2,
                "exalted_willpower": 6,
                "exalted_willpower_temporary": 6,
                "exalted_motes": 12,
                "exalted_motes_max": 12,
                "exalted_compassion": 2,
                "exalted_conviction": 3,
                "exalted_temperance": 3,
                "exalted_valor": 2,
            },
        ),
        _character(
            Game.EXALTED,
            "Garrison guard",
            kind="npc",
            concept="A Realm soldier left behind at the fort",
            ratings={"strength": 2, "stamina": 2, "perception": 2, "wits": 2, "melee": 2, "awareness": 2},
        ),
        _character(
            Game.EXALTED,
            "Garrison commander",
            kind="npc",
            concept="Wood Aspect Dragon-Blood, tracker of bandits",
            ratings={
                "strength": 3,
                "dexterity": 3,
                "stamina": 3,
                "perception": 3,
                "wits": 3,
                "melee": 3,
                "martial_arts": 2,
                "athletics": 3,
                "awareness": 3,
                "survival": 3,
                "war": 2,
            },
            resources={
                "exalted_essence": 2,
                "exalted_willpower": 6,
                "exalted_willpower_temporary": 6,
                "exalted_motes": 8,
                "exalted_motes_max": 8,
                "exalted_valor": 3,
                "exalted_conviction": 3,
            },
        ),
    ],
)

V5 = _campaign(
    "Demo · Vampire: nights in the neighbourhood",
    Game.V5,
    [
        _character(
            Game.V5,
            "Marcos Vidal",
            player="Juan",
            concept="Sounds out the neighbourhood",
            notes="Resolve + Investigation 6 against difficulty 2: three successes, a win with margin 1.",
            ratings={
                "strength": 2,
                "dexterity": 2,
                "stamina": 2,
                "charisma": 2,
                "manipulation": 2,
                "composure": 2,
                "intelligence": 2,
                "wits": 3,
                "resolve": 3,
                "investigation": 3,
                "streetwise": 2,
                "insight": 1,
            },
        ),
        _character(
            Game.V5,
            "Elias Crane",
            player="John",
            concept="Occult researcher",
            notes="Intelligence + Occult 5 in the arcane bookshop.",
            ratings={
                "stamina": 2,
                "composure": 2,
                "intelligence": 3,
                "wits": 2,
                "resolve": 2,
                "occult": 2,
                "academics": 2,
                "investigation": 1,
            },
            specialties={"occult": "Grimoires"},
            custom=(("discipline", "Auspex", 2),),
        ),
        _character(
            Game.V5,
            "Bhavna",
            concept="The coterie's negotiator",
            notes="Willpower 7 (Composure 3 + Resolve 4) with 3 spent this session: Willpower rolls take 4 dice.",
            ratings={
                "stamina": 2,
                "charisma": 3,
                "manipulation": 3,
                "composure": 3,
                "intelligence": 2,
                "wits": 2,
                "resolve": 4,
                "persuasion": 3,
                "etiquette": 2,
                "insight": 2,
                "subterfuge": 2,
            },
            custom=(("discipline", "Dominate", 2), ("background", "Contacts", 2)),
            resources={"v5_hunger": 2, "v5_willpower_superficial": 3},
        ),
        _character(
            Game.V5,
            "Leo Marsh",
            player="Sam",
            concept="Rooftop runner",
            notes="Missed a rooftop jump with no successes at all: a total failure, and the cold hard ground.",
            ratings={"dexterity": 2, "stamina": 2, "athletics": 1},
            resources={"v5_health_superficial": 2},
        ),
    ],
)

FATE = _campaign(
    "Demo · Fate Accelerated: into the fortress",
    Game.FATE,
    [
        _character(
            Game.FATE,
            "Vesper",
            concept="Wizard hunting a lost spell",
            ratings={"careful": 2, "clever": 3, "flashy": 1, "forceful": 0, "quick": 1, "sneaky": 2},
            custom=(("stunt", "Bookworm: +2 to Cleverly create advantages in a library", 2),),
            aspects=(
                ("high_concept", "Hedge wizard with a head full of spells", 0),
                ("trouble", "Cannot leave a locked book alone", 0),
                ("other", "The school library is my second home", 0),
            ),
        ),
        _character(
            Game.FATE,
            "Brann",
            concept="Sword for hire",
            ratings={"careful": 1, "clever": 1, "flashy": 2, "forceful": 3, "quick": 2, "sneaky": 0},
            custom=(("stunt", "Shield wall: +2 to Forcefully defend an ally", 2),),
            aspects=(
                ("high_concept", "Warrior sworn to the caravan", 0),
                ("trouble", "Never backs down from a challenge", 0),
                ("other", "Jumped between the cars of a moving train, on purpose", 0),
            ),
            resources={"fate_points": 2, "fate_stress_1": True, "fate_consequence_mild": "Bruised ribs"},
        ),
        _character(
            Game.FATE,
            "Fortress guard",
            kind="npc",
            concept="Someone has to distract him",
            ratings={"careful": 2, "forceful": 2, "quick": 1},
            aspects=(("high_concept", "Bored guard at the fortress gate", 0), ("other", "Easily distracted", 1)),
            resources={"fate_points": 0, "fate_refresh": 1},
        ),
    ],
    fate_uses_deck=True,
    # Empty: the first draw shuffles the whole deck (a deck listed in order would deal card 0, 1, 2...).
    fate_deck=[],
)

SCIFI = _campaign(
    "Demo · Sci-fi d10: the jungle pursuit",
    Game.SCIFI,
    [
        _character(
            Game.SCIFI,
            "Kade Ortiz",
            concept="Tracker (PJ1 in the seed)",
            notes="Perception + Survival 5 against the fugitive's Agility + Stealth 3: [4, 9, 2, 2, 7] beats [1, 5, 8]",
            ratings={
                "strength": 3,
                "agility": 2,
                "endurance": 2,
                "perception": 3,
                "intelligence": 2,
                "charisma": 1,
                "survival": 2,
                "athletics": 2,
                "firearms": 2,
                "animal_handling": 1,
            },
            resources={"scifi_in_adventure": True},
        ),
        _character(
            Game.SCIFI,
            "Lio Sarr",
            concept="Fugitive (PJ2 in the seed)",
            ratings={
                "strength": 2,
                "agility": 2,
                "endurance": 3,
                "perception": 2,
                "intelligence": 2,
                "charisma": 2,
                "stealth": 1,
                "athletics": 2,
                "computers": 2,
                "electronics": 1,
            },
            custom=(("augmentation", "Subdermal climbing grips", 1),),
            resources={"scifi_in_adventure": True},
        ),
        _character(
            Game.SCIFI,
            "Mara Quell",
            concept="Field medic, waiting at base",
            notes="Not in the adventure, so she can still shop and heal Off-Rol.",
            ratings={"intelligence": 3, "perception": 2, "medicine": 3, "science": 2},
        ),
    ],
    scifi_adventure_open=True,
)

DEMO_CAMPAIGNS = (EXALTED, V5, FATE, SCIFI)


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
