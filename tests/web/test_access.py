"""Who may read and who may change what: every URL pattern of the project, for every kind of visitor.

The walk flattens ``django.urls.get_resolver()`` (the ``i18n/`` include too) and looks each URL name
up in ``ACCESS``, which says how to request it for a campaign with a character, a logged roll, a
secret roll, an extended action and a scene in play. A URL pattern without an entry fails every
test of the walk, so a new view cannot slip past it. The visitors:

- anonymous: no login, no player token;
- another GM: a second user with a campaign of their own;
- a player: someone who has only the campaign's player link (a session without a login); a
  character's own link, from which its player rolls it (issue 24), has its walk in
  tests/web/test_player_rolls.py;
- the same player after the GM makes a new link (the old one must be dead: 404);
- the owning GM, with and without the CSRF token.

"Nothing changes" compares every row (all of its columns: the models keep no ``updated`` column,
so the whole row is the stricter check) of the campaign's campaigns, characters, traits, aspects,
rolls, changes, stories, episodes, scenes, participants, declarations and extended actions, the
player token included, before and after each request.

The owner's requests also run in each of the four games (no server error anywhere). Django's admin
is left to tests/web/test_admin.py. tests/web/test_table.py checks the GM views of four games
against anonymous visitors and another GM; this walk covers every pattern and the player link.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, URLResolver, get_resolver, resolve, reverse

from gmtools import games, services
from gmtools.characters import NPC_TEMPLATES
from gmtools.composer import ComposerForm
from gmtools.games.exalted.models import ExaltedResources
from gmtools.games.fate.models import Aspect
from gmtools.models import (
    Campaign,
    Change,
    Character,
    CharacterKind,
    Episode,
    ExtendedAction,
    Roll,
    SavedRoll,
    Scene,
    SceneParticipant,
    Story,
    Trait,
    TurnDeclaration,
)
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS
from tests.web.character_data import character_file, confirmed_import, sheet_post

pytestmark = pytest.mark.django_db

GAMES = [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI]

# --- the URL patterns -----------------------------------------------------------------------------

# Django's admin (namespace "admin") is staff-only and has its own walk in tests/web/test_admin.py:
# its patterns are skipped here, by namespace, and nothing else is.
SKIPPED_NAMESPACES = frozenset({"admin"})


def flatten(resolver: URLResolver, prefix: str = "",
            namespaces: tuple[str, ...] = ()) -> Iterator[tuple[str, tuple[str, ...], str]]:
    """(qualified name, namespaces, route) of every pattern under a resolver, includes followed."""
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from flatten(pattern, route, namespaces + ((pattern.namespace,) if pattern.namespace else ()))
        else:
            # An unnamed pattern cannot be in ACCESS: it fails the walk until it gets a name.
            yield (":".join((*namespaces, pattern.name)) if pattern.name else f"<unnamed {route}>"), namespaces, route


ALL_PATTERNS = list(flatten(get_resolver()))
WALKED = [name for name, namespaces, _route in ALL_PATTERNS if not SKIPPED_NAMESPACES & set(namespaces)]

# --- a campaign in play -----------------------------------------------------------------------------

SECRET_LABEL = "Ambush behind the door, GM only"
PUBLIC_LABEL = "Climb the harbour wall"
UNKNOWN_TOKEN = "nobodys-token-0123456789abcdef"  # well formed (the URL converter takes it), nobody's


class HighFaces:
    """Every die shows a high face: a success in every game, so every follow-up is on offer.

    A d10 shows 9, not 10: scifi's 10s explode, and a source that always answers 10 never stops.
    """

    def randint(self, a: int, b: int) -> int:
        return b - 1 if b == 10 else b


@dataclass
class World:
    campaign: Campaign
    pc: Character  # rolled before the scene, so it may still declare actions in the scene's turn
    npc: Character  # not in the scene's turn order; made the secret roll
    roll: Roll  # the PC's public roll (stunted in Exalted)
    secret: Roll  # the NPC's secret roll (hidden=True), not revealed
    scene: Scene
    extended: ExtendedAction
    theirs: Campaign  # the other GM's own campaign

    @property
    def token(self) -> str:
        return Campaign.objects.values_list("player_token", flat=True).get(pk=self.campaign.pk)


def composer_data(character: Character, **data) -> dict:
    game = character.campaign.game
    first, second = POOL_TRAITS[game]
    out = {**COMMON, **DEFAULTS[game], "character": character.pk, "first": character.traits.get(key=first).pk}
    if second:
        out["second"] = character.traits.get(key=second).pk
    return {**out, **data}


def compose(character: Character, **data) -> Roll:
    campaign = character.campaign
    form = ComposerForm(campaign, composer_data(character, **data), scene=Scene.objects.current(campaign))
    assert form.is_valid(), form.errors
    return services.record_roll(campaign, form.cleaned_data["composition"], HighFaces())


def character(campaign: Campaign, name: str, **fields) -> Character:
    made = Character.objects.create_with_sheet(campaign=campaign, name=name, **fields)
    first, second = POOL_TRAITS[campaign.game]
    made.traits.filter(key=first).update(rating=3)
    if second:
        made.traits.filter(key=second).update(rating=2)
    return made


def build_world(gm: User, other_gm: User, game: str) -> World:
    campaign = Campaign.objects.create(name="The Drowned Court", game=game, gm=gm)
    pc = character(campaign, "Ana", player="Lucía")
    if game == Game.EXALTED:
        # Room for a stunt reward's motes (a reward that would regain nothing is refused).
        ExaltedResources.objects.filter(character=pc).update(motes_max=10, motes=2)
    npc = character(campaign, "Harbour guard", kind=CharacterKind.NPC)
    if game == Game.FATE:
        Aspect.objects.create(character=pc, kind="high_concept", text="Daring pilot", free_invocations=1)
    roll = compose(pc, label=PUBLIC_LABEL, **({"stunt": 2} if game == Game.EXALTED else {}))
    scene = services.start_scene(campaign, title="The docks")
    secret = compose(npc, label=SECRET_LABEL, hidden="on")
    assert secret.hidden and secret.revealed_at is None
    if game == Game.FATE:
        # Fate has no extended actions (the service refuses one); a row made by hand still lets the
        # walk call the extended-action URLs of a Fate campaign.
        extended = ExtendedAction.objects.create(campaign=campaign, scene=scene, name="Pick the lock", goal=5, character=pc)
    else:
        extended = services.create_extended(campaign, scene, name="Pick the lock", goal=5, character=pc)
    services.adjust(pc, ADJUST[game])  # a one-click change for the Undo button to undo
    if game == Game.FATE:
        Aspect.objects.create(scene=scene, text="Crates everywhere", free_invocations=1)  # a situation aspect
    SavedRoll.objects.create(character=pc, name="Strike", fields={k: v for k, v in composer_data(pc).items() if k != "character"})
    theirs = Campaign.objects.create(name="Their own table", game=game, gm=other_gm)
    Character.objects.create_with_sheet(campaign=theirs, name="Bea")
    campaign.refresh_from_db()
    return World(campaign, pc, npc, roll, secret, scene, extended, theirs)


@pytest.fixture
def make_world(gm, other_gm):
    return lambda game=Game.V5: build_world(gm, other_gm, game)


# --- how to request each URL, and who may ---------------------------------------------------------

CAMPAIGN = "campaign"  # a GM URL of one campaign: its owner only (staff aside: see test_table.py)
PLAYER = "player"  # a player-link URL: whoever has the campaign's current token, read-only (a roll is refused)
SITE = "site"  # not about one campaign: the home page, creating a campaign, accounts, language

ANONYMOUS, OTHER_GM, PLAYER_VISITOR, OWNER = "anonymous", "another GM", "player link", "owner"

ADJUST = {Game.EXALTED: "willpower-spend", Game.V5: "hunger-up", Game.FATE: "stress-1", Game.SCIFI: "health-damage"}
# Each game's follow-up of a roll (its kind, and what its card's form posts); scifi has none (refused).
FOLLOW_UP = {
    Game.EXALTED: ("reward", lambda w: {"choice": "motes"}),
    Game.V5: ("reroll", lambda w: {"dice": ["0"]}),
    Game.FATE: ("invoke", lambda w: {"aspect": _aspect(w), "mode": "bonus"}),
    Game.SCIFI: ("reroll", lambda w: {"dice": ["0"]}),
}


def _pk(world: World) -> dict:
    return {"pk": world.campaign.pk}


def _token(world: World) -> dict:
    return {"token": world.token}


def _nothing(world: World) -> dict:
    return {}


@dataclass(frozen=True)
class Entry:
    scope: str
    method: str  # the method the page uses: "get" or "post"
    kwargs: Callable[[World], dict] = _nothing
    data: Callable[[World], dict] = _nothing
    game: str = Game.V5  # the game in which the owner's request does something
    owner: frozenset[int] = frozenset({200})  # what the owner gets (CAMPAIGN and PLAYER)
    writes: bool = False  # the owner's request changes the campaign (so a visitor's would, if let through)
    # SITE only: what each visitor gets; needs_login: an anonymous visitor is sent to log in.
    visitors: dict[str, frozenset[int]] = field(default_factory=dict)
    needs_login: bool = False
    post_data: Callable[[World], dict] | None = None  # a GET page whose form also POSTs (the login page)


def _site(method: str, status: int, **fields) -> Entry:
    return Entry(SITE, method, visitors={v: frozenset({status}) for v in (ANONYMOUS, OTHER_GM, PLAYER_VISITOR, OWNER)},
                 **fields)


def _gm(method: str, **fields) -> Entry:
    kwargs = fields.pop("kwargs", _pk)
    return Entry(CAMPAIGN, method, kwargs=kwargs, **fields)


def _player(method: str = "get", **fields) -> Entry:
    kwargs = fields.pop("kwargs", _token)
    return Entry(PLAYER, method, kwargs=kwargs, **fields)


def _character(world: World) -> dict:
    return {"pk": world.campaign.pk, "character_pk": world.pc.pk}


def _roll(world: World) -> dict:
    return {"pk": world.campaign.pk, "roll_pk": world.roll.pk}


def _aspect(world: World) -> str:
    aspect = world.pc.aspects.first()
    return str(aspect.pk) if aspect else ""


ACCESS: dict[str, Entry] = {
    # the site
    "home": _site("get", 200),
    "campaign-create": _site("post", 302, data=lambda w: {"name": "A brand new table", "game": Game.FATE},
                             needs_login=True),
    "login": _site("get", 200, post_data=lambda w: {"username": "gm1", "password": "table-secret-1"}),
    "logout": _site("post", 302),
    "set_language": _site("post", 302, data=lambda w: {"language": "es", "next": "/"}),
    # the GM's table
    "table": _gm("get"),
    "composer": _gm("get", data=lambda w: {"character": w.pc.pk}),
    "odds": _gm("get", data=lambda w: composer_data(w.pc)),
    "roll": _gm("post", data=lambda w: composer_data(w.pc, label="One more try"), writes=True),
    "log": _gm("get", data=lambda w: {"page": 1}),
    "luck": _gm("get", data=lambda w: {"scene": w.scene.pk, "character": w.pc.pk}),
    "adjust": _gm("post", kwargs=_character, data=lambda w: {"action": ADJUST[w.campaign.game]}, writes=True),
    # A game's own follow-ups and checks, one route each: each game's follow-up (the owner's request
    # is V5's Willpower reroll; the fuzz tries each game's).
    "check": _gm("post", kwargs=lambda w: {**_character(w), "kind": "rouse"}, writes=True),
    # The world's PC has no phone link: the owner's ask is refused (422), nothing written (tests/web/test_ask_phone.py).
    "ask-phone": _gm("post", data=lambda w: composer_data(w.pc), owner=frozenset({422})),
    "follow-up": _gm("post", kwargs=lambda w: {**_roll(w), "kind": FOLLOW_UP[w.campaign.game][0]},
                     data=lambda w: FOLLOW_UP[w.campaign.game][1](w), writes=True),
    "time": _gm("post", data=lambda w: {"do": "next-turn"}, writes=True),
    "flip": _gm("post", game=Game.FATE, writes=True),
    "turn-order": _gm("post", data=lambda w: {"verb": "join", "character": w.npc.pk}, writes=True),
    "declare": _gm("post", kwargs=_character, data=lambda w: {"actions": 2}, game=Game.EXALTED, writes=True),
    "extended-list": _gm("get"),
    "extended-create": _gm("post", data=lambda w: {
        "name": "Break the seal", "character": w.pc.pk, "traits": "", "kind": "solo", "goal": 6, "pool": 0,
        "interval": "1 hour", "difficulty": 0, "botch": "reset", "limit": "", "opponent": "", "opponent_pool": 0,
    }, writes=True),
    "extended-stop": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "action_pk": w.extended.pk}, writes=True),
    "reveal": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "roll_pk": w.secret.pk}, writes=True),
    # characters and NPCs from the table (gmtools/character_views.py)
    "character-new": _gm("post", data=lambda w: sheet_post(w.campaign, name="Newcomer"), writes=True),
    "character-edit": _gm("post", kwargs=_character, data=lambda w: sheet_post(w.campaign, w.pc, name="Ana the Bold"),
                          writes=True),
    "character-delete": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "character_pk": w.npc.pk}, writes=True),
    "character-duplicate": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "character_pk": w.npc.pk},
                               data=lambda w: {"count": 2}, writes=True),
    "character-copy": _gm("post", kwargs=_character, data=lambda w: {"campaign": w.campaign.pk}, writes=True),
    "npc-quick": _gm("post", data=lambda w: {"name": "Dock worker", "pool": 2}, writes=True),
    "npc-template": _gm("post", data=lambda w: {"template": NPC_TEMPLATES[w.campaign.game][0].key, "name": "",
                                                "count": 2}, writes=True),
    "character-import": _gm("post", data=lambda w: {"file": character_file(w.pc)}, writes=True),
    "character-import-confirm": _gm("post", data=lambda w: confirmed_import(w.pc), writes=True),
    "void": _gm("post", kwargs=_roll, writes=True),
    "undo": _gm("post", data=lambda w: {"change": ""}, writes=True),  # undoes the world's one-click change
    "saved-roll-create": _gm("post", data=lambda w: {**composer_data(w.pc), "saved_name": "Strike again"}, writes=True),
    "saved-roll-use": _gm("get", kwargs=lambda w: {"pk": w.campaign.pk, "saved_pk": w.pc.saved_rolls.get().pk}),
    "saved-roll-delete": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "saved_pk": w.pc.saved_rolls.get().pk},
                             writes=True),
    # the scene: Fate's situation aspects and boosts, the notes of any game (gmtools/scene_views.py)
    # Fate's change of the scene (a situation aspect added; its removal is test_aspects.py's).
    "scene-change": _gm("post", kwargs=lambda w: {"pk": w.campaign.pk, "kind": "aspect-add"},
                        data=lambda w: {"text": "Smoke fills the hall", "free_invocations": 1},
                        game=Game.FATE, writes=True),
    "scene-notes": _gm("post", data=lambda w: {"notes": "The warehouse is on fire"}, writes=True),
    "composer-field": _gm("get", kwargs=lambda w: {"pk": w.campaign.pk, "name": "invoke"},
                          data=lambda w: {"character": w.pc.pk}),
    "player-link": _gm("post", writes=True),
    # Issue 24: the players roll their own characters (the switch), each through its own link.
    "players-roll": _gm("post", data=lambda w: {"on": "1"}, writes=True),
    "character-link": _gm("post", kwargs=_character, data=lambda w: {"do": "new"}, writes=True),
    "export": _gm("get", data=lambda w: {"part": "campaign", "format": "md"}),
    # The campaign's settings and its Discord (issue 25): the world's campaign has no webhook, so its
    # recap is refused (422) and nothing is queued (tests/web/test_discord.py posts one).
    "campaign-settings": _gm("post", data=lambda w: {"time_zone": "Europe/Madrid", "language": "es",
                                                     "discord_webhook": "https://discord.com/api/webhooks/1234/abcDEF"},
                             writes=True),
    "discord-health": _gm("get"),
    "discord-recap": _gm("post", data=lambda w: {"part": f"scene-{w.scene.pk}"}, owner=frozenset({422})),
    # Streams answer 204 under the test client (not ASGI): the page falls back to polling.
    "stream": _gm("get", owner=frozenset({204})),
    "poll": _gm("get", data=lambda w: {"after": 0}),
    # the player link
    "player": _player(),
    "player-tv": _player(),
    "player-log": _player(data=lambda w: {"page": 1}),
    "player-recap": _player(data=lambda w: {"part": "campaign"}),
    "player-luck": _player(data=lambda w: {"scene": w.scene.pk, "character": w.pc.pk}),
    "player-stream": _player(owner=frozenset({204})),
    "player-poll": _player(data=lambda w: {"after": 0}),
    # A character's link rolls it (issue 24); the campaign's own link, walked here, rolls for no one:
    # its odds say so, its composer's fields are empty, its roll is refused (422), nothing written.
    "player-odds": _player(data=lambda w: composer_data(w.pc)),
    "player-composer-field": _player(kwargs=lambda w: {**_token(w), "name": "invoke"},
                                     data=lambda w: {"character": w.pc.pk}),
    "player-roll": _player("post", data=lambda w: composer_data(w.pc), owner=frozenset({422})),
    # A player's follow-up of their own last roll from the phone: the world's roll is the GM's, refused (422).
    "player-follow-up": _player("post", kwargs=lambda w: {**_token(w), "roll_pk": w.roll.pk,
                                                          "kind": FOLLOW_UP[w.campaign.game][0]},
                                data=lambda w: FOLLOW_UP[w.campaign.game][1](w), owner=frozenset({422})),
    "player-follow-ups": _player(),  # what of them is open to the player: none on the campaign's link
}

PLAYER_NAMES = [name for name in WALKED if name in ACCESS and ACCESS[name].scope == PLAYER]
CAMPAIGN_NAMES = [name for name in WALKED if name in ACCESS and ACCESS[name].scope == CAMPAIGN]
POST_NAMES = [name for name in WALKED if name in ACCESS and (ACCESS[name].method == "post" or ACCESS[name].post_data)]
# The player pages show the log: the public roll is there (so its absence would not hide a leak).
SHOWS_THE_LOG = {"player", "player-tv", "player-log", "player-recap", "player-poll"}
# Where a player page may post: the language switch, and nothing else (a character's link's page
# posts its roll: tests/web/test_player_rolls.py).
PLAYER_POST_TARGETS = {"set_language"}


def entry_of(name: str) -> Entry:
    entry = ACCESS.get(name)
    if entry is None:
        pytest.fail(f"The URL pattern {name!r} has no entry in ACCESS: say how to request it and who may.")
    return entry


def url_of(name: str, world: World, token: str | None = None) -> str:
    entry = entry_of(name)
    kwargs = entry.kwargs(world)
    if token is not None:
        kwargs["token"] = token
    return reverse(name, kwargs=kwargs)


def send(client: Client, method: str, url: str, data: dict, **extra):
    return getattr(client, method)(url, data, **extra)


def other_method(method: str) -> str:
    return "get" if method == "post" else "post"


def sent_to_login(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(reverse("login") + "?next=")


def visitor(kind: str, world: World, gm: User | None = None, other_gm: User | None = None) -> Client:
    client = Client()
    if kind == OWNER:
        client.force_login(gm)
    elif kind == OTHER_GM:
        client.force_login(other_gm)
    elif kind == PLAYER_VISITOR:
        # The player opened the link: whatever session or cookie that gives, the client now has.
        assert client.get(reverse("player", kwargs={"token": world.token})).status_code == 200
    return client


# --- nothing changes --------------------------------------------------------------------------------

TABLES = [
    (Campaign, "pk"), (Character, "campaign"), (Trait, "character__campaign"), (Aspect, "character__campaign"),
    (Roll, "campaign"), (Change, "campaign"), (Story, "campaign"), (Episode, "story__campaign"),
    (Scene, "episode__story__campaign"), (SceneParticipant, "scene__episode__story__campaign"),
    (TurnDeclaration, "scene__episode__story__campaign"), (ExtendedAction, "campaign"),
    (SavedRoll, "character__campaign"),
    # A situation aspect has no character: it is the campaign's through its scene.
    (Aspect, "scene__episode__story__campaign"),
    # Each game's own row of a character (its resources) and of a campaign (its state).
    *((system.resources.model, "character__campaign") for system in games.systems() if system.resources.model),
    *((system.state.model, "campaign") for system in games.systems() if system.state.model),
]


def snapshot(campaign: Campaign | None = None) -> dict[str, list[dict]]:
    """Every row of those tables (of one campaign, or of all), every column."""
    return {
        f"{model.__name__} by {path}": list((model.objects.all() if campaign is None else model.objects.filter(**{path: campaign.pk}))
                             .order_by("pk").values())
        for model, path in TABLES
    }


def changed(before: dict, after: dict) -> list[str]:
    return [table for table in before if before[table] != after[table]]


# --- what a player page may contain ---------------------------------------------------------------

URL_ATTRIBUTE = re.compile(
    r'\b(?:href|src|action|hx-get|hx-post|hx-put|hx-patch|hx-delete|data-stream|data-poll)="([^"]*)"')
WRITING_HTMX = re.compile(r"\bhx-(?:post|put|patch|delete)\b")
FORM = re.compile(r"<form\b[^>]*>", re.IGNORECASE)


def page_text(name: str, response) -> str:
    """What the player receives; for the poll, the fragments it draws (and the JSON itself)."""
    text = response.content.decode()
    if name == "player-poll" and response.status_code == 200:
        body = json.loads(text)
        text += "\n".join(event["html"] for event in body.get("events", ()))
    return text


def url_name(url: str) -> tuple[str | None, tuple[str, ...]]:
    path = urlsplit(unescape(url)).path
    if not path.startswith("/"):
        return None, ()
    try:
        match = resolve(path)
    except Resolver404:
        return None, ()  # static files, anchors
    return match.view_name, tuple(match.namespaces)


def player_page_problems(name: str, response, world: World) -> list[str]:
    """What a page the players receive must not have: the secret roll, a write, a way into the GM's side."""
    text = page_text(name, response)
    secret = world.secret.pk
    problems = []
    if SECRET_LABEL in text:
        problems.append("the secret roll's label")
    if re.search(rf"\broll-{secret}\b", text) or f'data-roll="{secret}"' in text:
        problems.append("the secret roll's card")
    problems += [f"an attribute {found}" for found in sorted(set(WRITING_HTMX.findall(text)))]
    for tag in FORM.findall(text):
        method = re.search(r'\bmethod="([^"]*)"', tag, re.IGNORECASE)
        if method and method.group(1).lower() == "post":
            action = re.search(r'\baction="([^"]*)"', tag)
            target, _namespaces = url_name(action.group(1)) if action else (name, ())
            if target not in PLAYER_POST_TARGETS:
                problems.append(f"a form posting to {target!r}")
    for url in URL_ATTRIBUTE.findall(text):
        target, namespaces = url_name(url)
        if target is not None and ((target in ACCESS and ACCESS[target].scope == CAMPAIGN)
                                   or SKIPPED_NAMESPACES & set(namespaces)):
            problems.append(f"a link to the GM's {target!r}")
    if name in SHOWS_THE_LOG and PUBLIC_LABEL not in text:
        problems.append("no public roll (so its secret one's absence proves nothing)")
    return problems


# --- the walk ---------------------------------------------------------------------------------------


def test_every_url_pattern_is_in_the_walk():
    assert len(WALKED) == len(set(WALKED)), "two URL patterns share a name"
    assert sorted(set(WALKED) - ACCESS.keys()) == [], "URL patterns without an entry in ACCESS"
    assert sorted(ACCESS.keys() - set(WALKED)) == [], "entries in ACCESS for URL patterns that are gone"
    skipped = [route for _name, namespaces, route in ALL_PATTERNS if SKIPPED_NAMESPACES & set(namespaces)]
    assert skipped and all(route.startswith("admin/") for route in skipped)
    assert "set_language" in WALKED  # the i18n/ include is walked
    routes = {name: route for name, _namespaces, route in ALL_PATTERNS}
    # The scopes follow the routes: every /p/<token>/ URL is a player URL, every campaign URL a GM one.
    for name in WALKED:
        scope = ACCESS[name].scope
        assert (scope == PLAYER) == routes[name].startswith("p/<token:token>/"), name
        assert (scope == CAMPAIGN) == routes[name].startswith("campaigns/<int:pk>/"), name
    assert len(PLAYER_NAMES) == 12 and len(WALKED) == len(ACCESS)


def secrets_in(response, world: World) -> list[str]:
    """What a visitor who is not the owner must not read in any answer: the campaign's name, its player token."""
    return [what for what, value in (("the campaign's name", world.campaign.name), ("the player token", world.token))
            if value.encode() in response.content]


def refused(response, allowed: set[int]) -> bool:
    """Sent to log in, or one of the allowed refusals (404, and 405 for the method a URL does not take)."""
    return sent_to_login(response) or response.status_code in allowed


@pytest.mark.parametrize("name", WALKED)
def test_anonymous_visitors_read_and_change_nothing(name, make_world):
    entry = entry_of(name)
    world = make_world(entry.game)
    client = visitor(ANONYMOUS, world)
    before = snapshot()
    if entry.scope == PLAYER:
        # Without the link there is nothing to see: a well-formed token that is nobody's.
        response = send(client, entry.method, url_of(name, world, token=UNKNOWN_TOKEN), entry.data(world))
        assert response.status_code == 404, (name, response.status_code)
    elif entry.scope == CAMPAIGN:
        url, data = url_of(name, world), entry.data(world)
        response = send(client, entry.method, url, data)
        assert refused(response, {404}), (name, entry.method, response.status_code, response.get("Location"))
        assert secrets_in(response, world) == [], name
        response = send(client, other_method(entry.method), url, data)
        assert refused(response, {404, 405}), (name, other_method(entry.method), response.status_code)
    else:
        response = send(client, entry.method, url_of(name, world), entry.data(world))
        assert response.status_code in entry.visitors[ANONYMOUS], (name, response.status_code)
        if entry.needs_login:
            assert sent_to_login(response), (name, response.get("Location"))
    assert secrets_in(response, world) == [], name
    assert changed(before, snapshot()) == [], name


@pytest.mark.parametrize("name", WALKED)
def test_another_gm_finds_nothing_of_the_campaign(name, make_world, gm, other_gm):
    entry = entry_of(name)
    world = make_world(entry.game)
    client = visitor(OTHER_GM, world, other_gm=other_gm)
    # Only this campaign: creating a campaign of their own is the other GM's right.
    before = snapshot(world.campaign)
    if entry.scope == CAMPAIGN:
        url, data = url_of(name, world), entry.data(world)
        response = send(client, entry.method, url, data)
        assert response.status_code == 404, (name, entry.method, response.status_code)
        assert secrets_in(response, world) == [], name
        # The other method is refused too, and never says more than "no such page" or "wrong method".
        response = send(client, other_method(entry.method), url, data)
        assert response.status_code in (404, 405), (name, other_method(entry.method), response.status_code)
    elif entry.scope == PLAYER:
        # The player URLs are keyed by the token alone (whoever holds it reads, by design); without
        # this campaign's token, which no answer to this GM contains, there is nothing.
        response = send(client, entry.method, url_of(name, world, token=UNKNOWN_TOKEN), entry.data(world))
        assert response.status_code == 404, (name, response.status_code)
    else:
        response = send(client, entry.method, url_of(name, world), entry.data(world))
        assert response.status_code in entry.visitors[OTHER_GM], (name, response.status_code)
        if name == "home":
            assert world.theirs.name.encode() in response.content
    assert secrets_in(response, world) == [], name
    assert changed(before, snapshot(world.campaign)) == [], name


@pytest.mark.parametrize("name", CAMPAIGN_NAMES)
def test_a_staff_user_without_permissions_finds_nothing_of_the_campaign(name, make_world, gm):
    """Staff status opens the admin (where permissions decide), not the GMs' tables: a 404 everywhere."""
    entry = entry_of(name)
    world = make_world(entry.game)
    clerk = User.objects.create_user("clerk", password="clerk-secret-1", is_staff=True)
    client = Client()
    client.force_login(clerk)
    before = snapshot(world.campaign)
    response = send(client, entry.method, url_of(name, world), entry.data(world))
    assert response.status_code == 404, (name, entry.method, response.status_code)
    assert secrets_in(response, world) == [], name
    assert changed(before, snapshot(world.campaign)) == [], name


@pytest.mark.parametrize("name", WALKED)
def test_a_player_link_reads_its_pages_and_nothing_else(name, make_world):
    entry = entry_of(name)
    world = make_world(entry.game)
    client = visitor(PLAYER_VISITOR, world)
    url, data = url_of(name, world), entry.data(world)
    before = snapshot()
    if entry.scope == PLAYER:
        response = send(client, entry.method, url, data)
        assert response.status_code in entry.owner, (name, response.status_code)
        assert player_page_problems(name, response, world) == [], name
        response = send(client, other_method(entry.method), url, data)
        assert response.status_code == 405, (name, other_method(entry.method), response.status_code)
    elif entry.scope == CAMPAIGN:
        # Holding the token opens nothing of the GM's: every GM URL of the campaign, either method.
        for method, allowed in ((entry.method, {404}), (other_method(entry.method), {404, 405})):
            response = send(client, method, url, data)
            assert refused(response, allowed), (name, method, response.status_code, response.get("Location"))
    else:
        response = send(client, entry.method, url, data)
        assert response.status_code in entry.visitors[PLAYER_VISITOR], (name, response.status_code)
        if entry.needs_login:
            assert sent_to_login(response), (name, response.get("Location"))
        assert secrets_in(response, world) == [], name
    assert changed(before, snapshot()) == [], name


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_the_old_player_link_is_dead_after_a_new_one(name, make_world):
    entry = entry_of(name)
    world = make_world(entry.game)
    old = world.token
    client = visitor(PLAYER_VISITOR, world)  # opened with the old link
    services.regenerate_player_link(world.campaign)
    new = world.token
    assert new != old
    before = snapshot()
    response = send(client, entry.method, url_of(name, world, token=old), entry.data(world))
    assert response.status_code == 404, (name, "old token", response.status_code)
    assert changed(before, snapshot()) == [], name
    response = send(Client(), entry.method, url_of(name, world, token=new), entry.data(world))
    assert response.status_code in entry.owner, (name, "new token", response.status_code)


@pytest.mark.parametrize("name", WALKED)
def test_the_owner_reads_and_changes_their_campaign(name, make_world, gm):
    entry = entry_of(name)
    world = make_world(entry.game)
    client = visitor(OWNER, world, gm=gm)
    before = snapshot(world.campaign)
    response = send(client, entry.method, url_of(name, world), entry.data(world))
    expected = entry.visitors[OWNER] if entry.scope == SITE else entry.owner
    assert response.status_code in expected, (name, response.status_code, response.content[:300])
    after = snapshot(world.campaign)
    if entry.writes:
        # Else the visitors' "nothing changed" would prove nothing.
        assert changed(before, after), f"{name}: the owner's request changed nothing"
    else:
        assert changed(before, after) == [], f"{name}: a read (or a site request) changed the campaign"
    if name == "home":
        assert world.campaign.name.encode() in response.content
        assert world.theirs.name.encode() not in response.content
    if name == "campaign-create":
        created = Campaign.objects.get(name="A brand new table")
        assert created.gm == gm and response["Location"] == reverse("table", args=[created.pk])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", CAMPAIGN_NAMES)
def test_the_owner_never_gets_a_server_error_in_any_game(name, game, make_world, gm):
    entry = entry_of(name)
    world = make_world(game)
    client = visitor(OWNER, world, gm=gm)
    response = send(client, entry.method, url_of(name, world), entry.data(world))
    assert response.status_code < 500, (name, game, response.status_code)
    if entry.method == "get":
        assert response.status_code in entry.owner, (name, game, response.status_code)
    elif response.status_code != 200:
        assert response.status_code == 422 and response["HX-Retarget"] == "#table-messages", \
            (name, game, response.status_code)


@pytest.mark.parametrize("name", POST_NAMES)
def test_every_post_of_the_owner_needs_the_csrf_token(name, make_world, gm):
    entry = entry_of(name)
    world = make_world(entry.game)
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    url = url_of(name, world)
    data = (entry.post_data or entry.data)(world)
    before = snapshot()
    response = client.post(url, data)
    assert response.status_code == 403, (name, response.status_code)
    assert changed(before, snapshot()) == [], name
    # With the token the table hands out (htmx sends it as X-CSRFToken), the same request passes the check.
    assert client.get(reverse("table", args=[world.campaign.pk])).status_code == 200
    response = client.post(url, data, headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    assert response.status_code != 403, (name, "with the token", response.status_code)


def test_the_player_page_check_finds_what_the_gms_table_shows(make_world, gm):
    """The check of the player pages is not blind: on the GM's own table it finds each thing it looks for."""
    world = make_world()
    response = visitor(OWNER, world, gm=gm).get(reverse("table", args=[world.campaign.pk]))
    problems = player_page_problems("player", response, world)
    for expected in ("the secret roll's label", "the secret roll's card", "an attribute hx-post",
                     "a link to the GM's 'reveal'"):
        assert expected in problems, (expected, problems)
