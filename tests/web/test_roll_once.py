"""Issue 23, items 1 and 2, server side: a roll goes into an extended action only when the GM picks
it and only for that action's roller; one click on Roll is one roll, whatever reaches the server
twice (a second request with the composer's key is refused: nothing rolled or spent again), also
when both arrive at once. The browser side, under the settings ``make run`` gives, is
tests/web/test_browser_roll_once.py.
"""

from __future__ import annotations

import re
import threading
import uuid
from html import unescape

import pytest
from django.db import IntegrityError
from django.urls import reverse

from gmtools import board, services
from gmtools.composer import ComposerForm
from gmtools.models import Campaign, Character, ExtendedAction, Roll, Scene
from gmtools.services import rolls as roll_service
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS, Faces, run_at_once
from tests.web.test_concurrency import Rendezvous

GAMES = [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI]
WALL = {"name": "Climb the wall", "goal": 10, "interval": "10 minutes"}
# What the "New extended action" form posts besides.
POSTED = {"kind": "solo", "pool": 0, "difficulty": 0, "botch": "reset", "limit": "", "opponent": "", "opponent_pool": 0}


def roll_data(campaign: Campaign, character: Character | None, **data) -> dict:
    """What the composer posts for the character's usual pool (``POOL_TRAITS``), or an unnamed NPC's 3 dice."""
    out = {**COMMON, **DEFAULTS[campaign.game]}
    if character is None:
        out["dice"] = 3
    else:
        out["character"] = character.pk
        for name, key in zip(("first", "second"), POOL_TRAITS[campaign.game]):
            if key:
                out[name] = character.traits.get(key=key).pk
    return {**out, **data}


def html(response) -> str:
    return response.content.decode()


def refusal(response) -> str:
    assert response.status_code == 422, (response.status_code, html(response)[:500])
    match = re.search(r'data-testid="refusal">(.*?)\s*<button', html(response), re.S)
    assert match, html(response)
    return unescape(match.group(1).strip())


def next_key(response) -> str:
    """The key the answer gives the composer for its next roll (out of band)."""
    match = re.search(r'<input type="hidden" name="once" value="([0-9a-f-]+)" id="composer-once" hx-swap-oob="true">',
                      html(response))
    assert match, html(response)[-600:]
    return match.group(1)


class Steady:
    """Every die shows the same face (clamped to the die): as many dice as any game asks."""

    def __init__(self, face: int = 7) -> None:
        self.face, self.drawn = face, 0

    def randint(self, a: int, b: int) -> int:
        self.drawn += 1
        return max(a, min(b, self.face))


@pytest.fixture
def steady(monkeypatch) -> Steady:
    import rules.dice
    import rules.fate
    import rules.scifi

    source = Steady()
    for module in (rules.dice, rules.fate, rules.scifi):
        monkeypatch.setattr(module, "system_random", lambda: source)
    return source


# --- item 1: an extended action takes its roller's rolls only ----------------------------------

@pytest.fixture
def garrison(gm) -> Campaign:
    return Campaign.objects.create(name="The Realm garrison", game=Game.EXALTED, gm=gm)


@pytest.fixture
def koi(garrison, set_ratings) -> Character:
    koi = Character.objects.create_with_sheet(campaign=garrison, name="Koi")
    set_ratings(koi, strength=2, melee=3, dexterity=3)
    return koi


@pytest.fixture
def commander(garrison, set_ratings) -> Character:
    commander = Character.objects.create_with_sheet(campaign=garrison, name="Garrison commander", kind="npc")
    set_ratings(commander, strength=3, melee=3, dexterity=2)
    return commander


def offered(response_or_html) -> dict[int, str]:
    """The actions the composer's "Roll into" list offers (id → data-roller), from a page or a fragment."""
    text = response_or_html if isinstance(response_or_html, str) else html(response_or_html)
    select = re.search(r'<select name="extended".*?</select>', text, re.S)
    assert select, text[:500]
    return {int(pk): roller for pk, roller in re.findall(r'<option value="(\d+)" data-roller="([^"]*)"', select.group(0))}


def composer_for(client, campaign: Campaign, character: Character | None) -> str:
    response = client.get(reverse("composer", args=[campaign.pk]), {"character": character.pk if character else ""})
    assert response.status_code == 200
    return html(response)


@pytest.mark.django_db
def test_a_new_extended_action_is_on_offer_not_chosen(garrison, koi, commander, gm_client):
    """The walkthrough: "Climb the wall" made for Koi came into the composer chosen, and the Garrison
    commander's next roll went into it."""
    response = gm_client.post(reverse("extended-create", args=[garrison.pk]), {**WALL, **POSTED, "character": koi.pk})
    assert response.status_code == 200, html(response)[:500]
    wall = ExtendedAction.objects.get()
    select = re.search(r'<select name="extended"[^>]*hx-swap-oob="true"[^>]*>.*?</select>', html(response), re.S).group(0)
    assert offered(select) == {wall.pk: str(koi.pk)}
    assert re.search(r'<option value="" selected>', select) and select.count("selected") == 1


@pytest.mark.django_db
def test_the_composer_offers_the_characters_own_actions_and_those_nobody_rolls_yet(garrison, koi, commander, gm_client):
    kois = services.create_extended(garrison, None, **{**WALL, "character": koi})
    commanders = services.create_extended(garrison, None, **{**WALL, "name": "Hold the gate", "character": commander})
    anyones = services.create_extended(garrison, None, **{**WALL, "name": "Search the cellar"})
    npcs = services.create_extended(garrison, None, **{**WALL, "name": "Guards batter the door"})
    services.record_roll(garrison, _composition(garrison, None, extended=npcs.pk), Faces(7, 7, 7))
    assert ExtendedAction.objects.get(pk=npcs.pk).roller == ""  # an unnamed NPC's first roll made it theirs

    assert offered(composer_for(gm_client, garrison, commander)) == {commanders.pk: str(commander.pk),
                                                                     anyones.pk: "any"}
    assert offered(composer_for(gm_client, garrison, koi)) == {kois.pk: str(koi.pk), anyones.pk: "any"}
    assert offered(composer_for(gm_client, garrison, None)) == {anyones.pk: "any", npcs.pk: ""}
    # Redrawn for every tab at once (after a roll, a new action, a live change): all of them, each marked
    # with its roller, for static/gmtools.js to fit to the tab's composer.
    assert offered(board.roll_into(garrison)) == {kois.pk: str(koi.pk), commanders.pk: str(commander.pk),
                                                  anyones.pk: "any", npcs.pk: ""}


def _composition(campaign: Campaign, character: Character | None, **data):
    form = ComposerForm(campaign, roll_data(campaign, character, **data))
    assert form.is_valid(), form.errors
    return form.cleaned_data["composition"]


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [
    ("en", "“Climb the wall” is rolled by Koi: only Koi's rolls go into it. Choose Koi as the character, or another extended action."),
    ("es", "«Climb the wall» la tira Koi: solo las tiradas de Koi se suman a ella. Elige a Koi como personaje, u otra acción extendida."),
])
def test_a_roll_into_another_characters_action_is_refused_inline_and_nothing_changes(
        garrison, koi, commander, gm_client, scripted_dice, language, words):
    wall = services.create_extended(garrison, None, **{**WALL, "character": koi})
    gm_client.cookies["django_language"] = language
    scripted_dice(*(7,) * 6)
    response = gm_client.post(reverse("roll", args=[garrison.pk]),
                              roll_data(garrison, commander, first=commander.traits.get(key="strength").pk,
                                        extended=wall.pk), HTTP_ACCEPT_LANGUAGE=language)
    assert refusal(response) == words
    assert scripted_dice.faces == [7] * 6  # not a die drawn
    assert not Roll.objects.exists()
    wall.refresh_from_db()
    assert (wall.character, wall.traits, wall.total, wall.rolls) == (koi, "", 0, 0)  # never "Koi · Strength + Melee"
    # Koi's own roll goes in, and names Koi's traits.
    scripted_dice(7, 7, 7, 7, 7)
    assert gm_client.post(reverse("roll", args=[garrison.pk]),
                          roll_data(garrison, koi, first=koi.traits.get(key="strength").pk, extended=wall.pk)).status_code == 200
    wall.refresh_from_db()
    assert (wall.character, wall.total, wall.rolls) == (koi, 5, 1)
    assert wall.traits == Roll.objects.get().label  # Koi's, as rolled ("Strength + Melee")


@pytest.mark.django_db
def test_a_contest_takes_its_first_sides_rolls_only(garrison, koi, commander):
    """A race's second side is a name and its dice come with the first side's roll (Opposed by): the
    opponent's character rolling into it would add its successes to the first side's total."""
    race = services.create_extended(garrison, None, **{**WALL, "name": "Race to the tower", "kind": "race",
                                                       "character": koi, "opponent": "Garrison commander"})
    form = ComposerForm(garrison, roll_data(garrison, commander, extended=race.pk, opponent_dice=3))
    assert not form.is_valid()
    assert "only Koi's rolls go into it" in " ".join(form.errors["__all__"])
    services.record_roll(garrison, _composition(garrison, koi, extended=race.pk, opponent_dice=3),
                         Faces(7, 7, 7, 2, 2, 2, 7, 2, 2))  # Dexterity 3 + Melee 3: 3 against 1
    race.refresh_from_db()
    assert (race.character, race.total, race.opponent_total, race.rolls) == (koi, 3, 1, 1)


@pytest.mark.django_db
def test_the_first_roll_into_an_open_action_makes_it_its_rollers(garrison, koi, commander):
    """Decision: an action nobody was named for takes the first roll of anyone; that roll's roller (a
    character, or an unnamed NPC) is its roller from then on."""
    cellar = services.create_extended(garrison, None, **{**WALL, "name": "Search the cellar"})
    door = services.create_extended(garrison, None, **{**WALL, "name": "Guards batter the door"})
    stale = _composition(garrison, koi, extended=cellar.pk)  # composed while it was anyone's
    services.record_roll(garrison, _composition(garrison, commander, extended=cellar.pk), Faces(*(7,) * 6))
    with pytest.raises(services.Refused, match="only Garrison commander's rolls go into it"):
        services.record_roll(garrison, stale, Faces())  # re-checked under the action's lock
    assert Roll.objects.count() == 1 and ExtendedAction.objects.get(pk=cellar.pk).rolls == 1

    services.record_roll(garrison, _composition(garrison, None, extended=door.pk), Faces(7, 7, 7))
    services.record_roll(garrison, _composition(garrison, None, extended=door.pk), Faces(7, 7, 7))
    form = ComposerForm(garrison, roll_data(garrison, koi, extended=door.pk))
    assert not form.is_valid() and "only an unnamed NPC's roll goes into it" in " ".join(form.errors["__all__"])
    door.refresh_from_db()
    assert (door.character, door.rolls, door.total) == (None, 2, 6)


# --- item 2: one click, one roll ----------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_the_same_key_twice_is_one_roll_and_one_spend(make_character, gm_client, steady, game):
    """Two clicks on Roll 80 ms apart made two rolls and spent two actions, in every game."""
    character = make_character(game, name="Koi")
    campaign = character.campaign
    services.start_scene(campaign)
    key = str(uuid.uuid4())
    url = reverse("roll", args=[campaign.pk])
    first = gm_client.post(url, roll_data(campaign, character, once=key))
    assert first.status_code == 200, html(first)[:500]
    drawn = steady.drawn
    resources = {f.name: getattr(character.resources.__class__.objects.get(pk=character.resources.pk), f.name)
                 for f in character.resources._meta.concrete_fields}

    second = gm_client.post(url, roll_data(campaign, character, once=key))

    assert refusal(second) == "This roll was already made (one click, one roll): nothing was rolled or spent again."
    assert steady.drawn == drawn  # not a die drawn the second time
    assert Roll.objects.filter(campaign=campaign).count() == 1
    assert str(Roll.objects.get(campaign=campaign).once_key) == key
    fresh = character.resources.__class__.objects.get(pk=character.resources.pk)
    assert {name: getattr(fresh, name) for name in resources} == resources
    # Each answer brings the composer a new key: the next click is a new roll.
    assert len({key, next_key(first), next_key(second)}) == 3
    services.change_turn(Scene.objects.current(campaign), 1)
    third = gm_client.post(url, roll_data(campaign, character, once=next_key(second)))
    assert third.status_code == 200 and Roll.objects.filter(campaign=campaign).count() == 2


@pytest.mark.django_db
def test_the_willpower_of_a_double_click_is_spent_once(make_character, gm_client, steady):
    solar = make_character(Game.EXALTED, name="Solar", exalted_willpower=5, exalted_willpower_temporary=3)
    key = str(uuid.uuid4())
    url = reverse("roll", args=[solar.campaign.pk])
    assert gm_client.post(url, roll_data(solar.campaign, solar, willpower="on", once=key)).status_code == 200
    refusal(gm_client.post(url, roll_data(solar.campaign, solar, willpower="on", once=key)))
    assert Character.objects.get(pk=solar.pk).resources.willpower_temporary == 2


@pytest.mark.django_db
def test_a_key_is_the_campaigns_own_and_a_roll_without_one_is_still_rolled(make_character, gm_client, steady):
    """The key is unique within a campaign (another GM's campaign may draw the same by chance, in
    theory); a roll posted without one (an older page) is rolled as before, every time."""
    one, other = make_character(Game.V5, name="A"), make_character(Game.V5, name="B")
    key = str(uuid.uuid4())
    for character in (one, other):
        assert gm_client.post(reverse("roll", args=[character.campaign.pk]),
                              roll_data(character.campaign, character, once=key)).status_code == 200
    for _ in range(2):
        assert gm_client.post(reverse("roll", args=[one.campaign.pk]), roll_data(one.campaign, one)).status_code == 200
    assert Roll.objects.filter(campaign=one.campaign).count() == 3
    assert Roll.objects.filter(once_key__isnull=True).count() == 2
    bad = gm_client.post(reverse("roll", args=[one.campaign.pk]), roll_data(one.campaign, one, once="not a key"))
    assert "valid UUID" in refusal(bad) and Roll.objects.filter(campaign=one.campaign).count() == 3


@pytest.mark.django_db
def test_a_key_the_check_missed_is_refused_by_the_constraint_not_a_500(make_character, monkeypatch):
    """Two requests of one unnamed NPC's roll (no character to lock) both find no roll of the key and
    both roll: the unique key lets the first in and rolls the second back, a refusal."""
    character = make_character(Game.EXALTED)
    campaign = character.campaign
    key = uuid.uuid4()
    services.record_roll(campaign, _composition(campaign, None), Faces(7, 7, 7), once=key)
    real = roll_service.refuse_made
    monkeypatch.setattr(roll_service, "refuse_made", lambda campaign, once: None)
    with pytest.raises(IntegrityError):  # the constraint itself
        services.record_roll(campaign, _composition(campaign, None), Faces(7, 7, 7), once=key)
    calls = []

    def missed_once(campaign, once):
        calls.append(once)
        if len(calls) > 1:
            real(campaign, once)  # the check under way saw nothing yet; asked again after the constraint

    monkeypatch.setattr(roll_service, "refuse_made", missed_once)
    with pytest.raises(services.Refused, match="already made"):
        services.record_roll(campaign, _composition(campaign, None), Faces(7, 7, 7), once=key)
    assert len(calls) == 2 and Roll.objects.filter(campaign=campaign).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["character", "unnamed NPC"])
def test_two_requests_with_one_key_at_once_make_one_roll(make_character, set_ratings, who):
    """Both requests at once, each in its own connection (SQLite's write lock or PostgreSQL's row
    lock and unique index queue them): one roll, one spend, the other refused."""
    solar = make_character(Game.EXALTED, name="Solar", exalted_willpower=5, exalted_willpower_temporary=3)
    set_ratings(solar, dexterity=3, melee=2)
    campaign = solar.campaign
    character = solar if who == "character" else None
    data = {"willpower": "on"} if character else {}
    comps = [_composition(campaign, character, **data), _composition(campaign, character, **data)]
    key = uuid.uuid4()
    meet = threading.Barrier(2)
    dice = [Rendezvous(meet, 7), Rendezvous(meet, 7)]

    results = run_at_once(*(lambda i=i: services.record_roll(campaign, comps[i], dice[i], once=key) for i in range(2)))

    assert sorted(type(r).__name__ for r in results) == ["Refused", "Roll"], results
    assert "already made" in str(next(r for r in results if isinstance(r, services.Refused)))
    assert Roll.objects.filter(campaign=campaign).count() == 1
    assert Character.objects.get(pk=solar.pk).resources.willpower_temporary == (2 if character else 3)


@pytest.mark.django_db
def test_a_saved_roll_keeps_no_key_and_its_composer_draws_a_fresh_one(make_character, gm_client, steady):
    """A saved roll kept the key of the composer it was saved from: composed again, its Roll was
    "already made" (issue 23, found by the saved rolls' browser test)."""
    swan = make_character(Game.EXALTED, name="Swan")
    campaign = swan.campaign
    key = str(uuid.uuid4())
    assert gm_client.post(reverse("roll", args=[campaign.pk]), roll_data(campaign, swan, once=key)).status_code == 200
    assert gm_client.post(reverse("saved-roll-create", args=[campaign.pk]),
                          roll_data(campaign, swan, once=key, saved_name="")).status_code == 200
    saved = swan.saved_rolls.get()
    assert "once" not in saved.fields
    saved.fields["once"] = key  # one saved before this fix
    saved.save()
    composer = html(gm_client.get(reverse("saved-roll-use", args=[campaign.pk, saved.pk])))
    drawn = re.search(r'name="once" value="([0-9a-f-]+)"', composer).group(1)
    assert drawn != key
