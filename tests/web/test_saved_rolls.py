"""Faster rolls (issue 10), the server side: a card's traits, the composer asked for a clicked trait,
saved rolls (save, use, delete), and what a wrong request gets (a refusal, never a 500).

The browser side (clicks, odds following, keys) is tests/web/test_browser_quick_rolls.py; who may
request each URL is tests/web/test_access.py.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from gmtools.composer import ComposerForm
from gmtools.games.exalted.models import ExaltedResources
from gmtools.models import Campaign, Change, Character, CharacterKind, Roll, SavedRoll, Trait
from gmtools.odds import odds_panel
from tests.games import Game
from gmtools.formatting import percent
from rules import exalted, v5
from tests.web.helpers import COMMON, DEFAULTS, Faces

pytestmark = pytest.mark.django_db

GAMES = [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI]


def character(gm, game: str, name: str = "Koi", **ratings: int) -> Character:
    campaign = Campaign.objects.filter(gm=gm, game=game).first() or Campaign.objects.create(
        name=f"{game} table", game=game, gm=gm)
    made = Character.objects.create_with_sheet(campaign=campaign, name=name)
    for key, rating in ratings.items():
        assert made.traits.filter(key=key).update(rating=rating) == 1, key
    return made


def trait(who: Character, key: str) -> Trait:
    return who.traits.get(key=key)


def composer_post(who: Character, **fields) -> dict:
    return {**COMMON, **DEFAULTS[who.campaign.game], "character": who.pk, **fields}


def selected(html: str, name: str) -> str | None:
    """The value chosen in the composer's select ``name``."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select.group(1))
    return chosen.group(1) if chosen else None


def first_chance(html: str) -> str:
    return re.search(r'<div class="p">([^<]+)</div>', html).group(1)


# --- 1. the card's traits, and the composer for a clicked trait --------------------------------------

def test_the_card_offers_the_rated_traits_of_the_composers_two_slots(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3, stealth=2, brawl=0)
    resources = Trait.objects.create(character=koi, category="background", name="Resources", rating=3)
    auspex = Trait.objects.create(character=koi, category="discipline", name="Auspex", rating=2)
    html = gm_client.get(reverse("table", args=[koi.campaign_id])).content.decode()
    card = html[html.index(f'id="character-{koi.pk}"'):]
    card = card[:card.index("</article>")]
    firsts = re.findall(r'data-quick="first" data-trait="(\d+)"', card)
    seconds = re.findall(r'data-quick="second" data-trait="(\d+)"', card)
    # V5 attributes start at 1: all nine are rollable; of the skills only Stealth is rated.
    assert len(firsts) == 9 and str(trait(koi, "dexterity").pk) in firsts
    assert seconds == [str(trait(koi, "stealth").pk), str(auspex.pk)]  # a Discipline is a second trait in V5
    assert "Resources" not in card and f'data-trait="{resources.pk}"' not in card  # a background is not rolled
    assert 'data-pool="willpower"' in card and 'data-pool="humanity"' in card
    assert "Attribute, then Skill" in card


def test_the_composer_takes_the_clicked_traits_and_prices_them(gm, gm_client):
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=4, stealth=2)
    url = reverse("composer", args=[swan.campaign_id])
    # The best pool first (Dexterity + Melee)...
    html = gm_client.get(url, {"character": swan.pk}).content.decode()
    assert selected(html, "second") == str(trait(swan, "melee").pk)
    # ... and the Ability clicked on the card.
    html = gm_client.get(url, {"character": swan.pk, "second": trait(swan, "stealth").pk}).content.decode()
    assert selected(html, "first") == str(trait(swan, "dexterity").pk)
    assert selected(html, "second") == str(trait(swan, "stealth").pk)
    assert first_chance(html) == percent(exalted.odds(exalted.Request(pool=5)).p_success)
    html = gm_client.get(url, {"character": swan.pk, "first": trait(swan, "strength").pk}).content.decode()
    assert selected(html, "first") == str(trait(swan, "strength").pk)
    assert first_chance(html) == percent(exalted.odds(exalted.Request(pool=5)).p_success)  # Strength 1 + Melee 4


def test_a_clicked_pool_rolls_from_the_sheet(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3)
    html = gm_client.get(reverse("composer", args=[koi.campaign_id]),
                         {"character": koi.pk, "pool_from": "humanity"}).content.decode()
    assert re.search(r'<option value="humanity" selected>', html)
    assert first_chance(html) == percent(v5.odds(v5.Request(pool=koi.resources.humanity, tracker=True)).p_win)


@pytest.mark.parametrize("asked", [
    {"first": "not-a-number"}, {"first": str(2**70)}, {"second": "-1"}, {"pool_from": "humanity"},  # Exalted has none
    {"pool_from": "<script>"},
])
def test_a_trait_or_pool_it_cannot_take_falls_back_to_the_defaults(gm, gm_client, asked):
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=4)
    response = gm_client.get(reverse("composer", args=[swan.campaign_id]), {"character": swan.pk, **asked})
    assert response.status_code == 200
    html = response.content.decode()
    assert selected(html, "first") == str(trait(swan, "dexterity").pk)
    assert selected(html, "second") == str(trait(swan, "melee").pk)
    assert 'data-testid="odds"' in html


def test_another_characters_trait_is_never_taken(gm, gm_client):
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=4)
    other = character(gm, Game.EXALTED, "Other", strength=5)
    html = gm_client.get(reverse("composer", args=[swan.campaign_id]),
                         {"character": swan.pk, "first": trait(other, "strength").pk}).content.decode()
    assert selected(html, "first") == str(trait(swan, "dexterity").pk)
    assert f'value="{trait(other, "strength").pk}"' not in html


# --- 2. saved rolls ---------------------------------------------------------------------------------

def save(client: Client, who: Character, name: str = "", **fields):
    return client.post(reverse("saved-roll-create", args=[who.campaign_id]),
                       {**composer_post(who, **fields), "saved_name": name})


def test_saving_a_roll_keeps_the_composers_fields_on_the_card(gm, gm_client):
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, stealth=2)
    ally = character(gm, Game.EXALTED, "Ally", dexterity=2)
    response = save(gm_client, swan, first=trait(swan, "dexterity").pk, second=trait(swan, "stealth").pk,
                    stunt=1, difficulty=2, label="", team=[ally.pk], csrfmiddlewaretoken="x")
    assert response.status_code == 200
    saved = SavedRoll.objects.get()
    assert saved.character == swan
    assert saved.name == "Dexterity + Stealth, stunt 1"  # the name, left empty: what the roll is
    assert saved.fields["first"] == str(trait(swan, "dexterity").pk) and saved.fields["stunt"] == "1"
    assert saved.fields["difficulty"] == "2" and saved.fields["team"] == [str(ally.pk)]
    assert not {"character", "csrfmiddlewaretoken", "saved_name", "extended", "invoke"} & saved.fields.keys()
    html = response.content.decode()
    assert "Saved “Dexterity + Stealth, stunt 1” on Swan’s card." in html
    # The card comes back out of band, with the saved roll to click.
    assert f'id="character-{swan.pk}"' in html and 'hx-swap-oob="true"' in html
    assert reverse("saved-roll-use", args=[swan.campaign_id, saved.pk]) in html
    # The GM's other tabs redraw the card; the players hear nothing of it.
    change = Change.objects.filter(campaign=swan.campaign).latest("id")
    assert change.kind == "character" and change.character_id == swan.pk and not change.public


def test_the_gm_names_a_saved_roll(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3, stealth=2)
    assert save(gm_client, koi, "  Sneak past the guards ", first=trait(koi, "dexterity").pk,
                second=trait(koi, "stealth").pk, specialty="on").status_code == 200
    assert SavedRoll.objects.get().name == "Sneak past the guards"
    assert SavedRoll.objects.get().fields["specialty"] == "on"
    SavedRoll.objects.all().delete()
    save(gm_client, koi, first=trait(koi, "dexterity").pk, second=trait(koi, "stealth").pk, specialty="on")
    assert SavedRoll.objects.get().name == "Dexterity + Stealth, specialty"


def test_a_saved_roll_named_by_what_it_is_reads_in_the_language_of_whoever_looks(gm, gm_client):
    """Saved at a Spanish table, "Destreza + Sigilo, especialidad" stayed Spanish on an English one; a
    name the GM typed stays as typed in every language."""
    koi = character(gm, Game.V5, dexterity=3, stealth=2)
    gm_client.cookies["django_language"] = "es"
    save(gm_client, koi, first=trait(koi, "dexterity").pk, second=trait(koi, "stealth").pk, specialty="on")
    save(gm_client, koi, "Colarse", first=trait(koi, "dexterity").pk)
    table = reverse("table", args=[koi.campaign_id])
    spanish = gm_client.get(table).content.decode()
    gm_client.cookies["django_language"] = "en"
    english = gm_client.get(table).content.decode()
    assert "★ Destreza + Sigilo, especialidad" in spanish and "★ Colarse" in spanish
    assert "★ Dexterity + Stealth, specialty" in english and "★ Colarse" in english
    assert "Destreza" not in english


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_roll_composes_then_rolls_in_every_game(gm, gm_client, game):
    """One click fills the composer with the saved fields and their odds; Roll rolls exactly that."""
    first, second = {Game.EXALTED: ("dexterity", "stealth"), Game.V5: ("dexterity", "stealth"),
                     Game.FATE: ("sneaky", None), Game.SCIFI: ("agility", "stealth")}[game]
    who = character(gm, game, **{first: 2, **({second: 2} if second else {})})
    extra = {Game.EXALTED: {"stunt": 1}, Game.V5: {"specialty": "on"}, Game.FATE: {"stunt_bonus": 1},
             Game.SCIFI: {}}[game]
    picked = {"first": trait(who, first).pk, **({"second": trait(who, second).pk} if second else {})}
    difficulty = {Game.EXALTED: 2, Game.V5: 2, Game.FATE: 1, Game.SCIFI: "hard"}[game]
    assert save(gm_client, who, **picked, **extra, difficulty=difficulty).status_code == 200
    saved = SavedRoll.objects.get()
    response = gm_client.get(reverse("saved-roll-use", args=[who.campaign_id, saved.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="composer"' in html
    assert selected(html, "character") == str(who.pk)
    assert selected(html, "first") == str(trait(who, first).pk)
    if second:
        assert selected(html, "second") == str(trait(who, second).pk)
    assert selected(html, "difficulty") == str(difficulty)
    # The odds are those of the saved fields, as ComposerForm prices them.
    form = ComposerForm(who.campaign, composer_post(who, **picked, **extra, difficulty=difficulty))
    assert form.is_valid(), form.errors
    assert first_chance(html) == percent(odds_panel(form.cleaned_data["composition"]).chances[0].p)
    if game == Game.EXALTED:
        assert selected(html, "stunt") == "1"
    elif game == Game.V5:
        assert re.search(r'name="specialty"[^>]*checked', html)
    elif game == Game.FATE:
        assert selected(html, "stunt_bonus") == "1"


def test_an_attribute_alone_stays_alone(gm, gm_client):
    """A saved roll of an Attribute with no Ability does not get the best Ability added on use."""
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=4)
    save(gm_client, swan, first=trait(swan, "dexterity").pk, second="")
    html = gm_client.get(reverse("saved-roll-use", args=[swan.campaign_id, SavedRoll.objects.get().pk])).content.decode()
    assert selected(html, "first") == str(trait(swan, "dexterity").pk)
    assert selected(html, "second") in (None, "")
    assert first_chance(html) == percent(exalted.odds(exalted.Request(pool=3)).p_success)


def test_a_saved_roll_whose_trait_is_gone_is_refused_clearly(gm, gm_client):
    koi = character(gm, Game.SCIFI, agility=3)
    named = Trait.objects.create(character=koi, category="skill", name="Lockpicking", rating=3)
    save(gm_client, koi, "Pick the lock", first=trait(koi, "agility").pk, second=named.pk)
    saved = SavedRoll.objects.get()
    named.delete()
    response = gm_client.get(reverse("saved-roll-use", args=[koi.campaign_id, saved.pk]))
    assert response.status_code == 422
    assert response["HX-Retarget"] == "#table-messages"
    assert "The saved roll “Pick the lock” uses a trait Koi no longer has" in response.content.decode()


def test_a_saved_roll_that_no_longer_fits_is_refused_not_a_500(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3)
    saved = SavedRoll.objects.create(character=koi, name="Odd", fields={"difficulty": "99", "team": ["abc"],
                                                                        "dice": "many"})
    response = gm_client.get(reverse("saved-roll-use", args=[koi.campaign_id, saved.pk]))
    assert response.status_code == 422
    assert "The saved roll “Odd” no longer fits" in response.content.decode()


def test_willpower_saved_but_not_on_offer_is_left_out(gm, gm_client):
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=2)
    save(gm_client, swan, first=trait(swan, "dexterity").pk, second=trait(swan, "melee").pk, willpower="on")
    saved = SavedRoll.objects.get()
    assert saved.name == "Dexterity + Melee, Willpower"
    ExaltedResources.objects.filter(character=swan).update(willpower_temporary=0)
    html = gm_client.get(reverse("saved-roll-use", args=[swan.campaign_id, saved.pk])).content.decode()
    assert re.search(r'name="willpower"[^>]*disabled', html)
    assert not re.search(r'name="willpower"[^>]*checked', html)
    assert 'data-testid="odds"' in html and 'data-testid="odds-error"' not in html


def test_saving_needs_a_character_and_valid_fields(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3)
    url = reverse("saved-roll-create", args=[koi.campaign_id])
    response = gm_client.post(url, {**composer_post(koi), "character": ""})
    assert response.status_code == 422 and "Pick a character first" in response.content.decode()
    response = gm_client.post(url, composer_post(koi, difficulty=99))
    assert response.status_code == 422 and "Difficulty" in response.content.decode()
    response = gm_client.post(url, {**composer_post(koi), "saved_name": "x" * 81})
    assert response.status_code == 422 and "at most 80 characters" in response.content.decode()
    assert not SavedRoll.objects.exists()


@pytest.mark.parametrize("field, value", [("hidden", "\x00"), ("specialty", "on\x00"), ("label", "a\x00b")])
def test_a_nul_character_in_a_saved_rolls_fields_is_refused_and_nothing_is_stored(gm, gm_client, field, value):
    """A checkbox reads any value as "on", but a saved roll keeps the fields as sent: a NUL character
    in one was stored on SQLite and was a 500 on PostgreSQL (found by tests/web/test_fuzz.py)."""
    koi = character(gm, Game.V5, dexterity=3)
    response = save(gm_client, koi, first=trait(koi, "dexterity").pk, **{field: value})
    assert response.status_code == 422 and response["HX-Retarget"] == "#table-messages"
    assert "Null characters are not allowed." in response.content.decode()
    assert not SavedRoll.objects.exists() and not Change.objects.exists()


def test_a_roll_the_rules_refuse_now_can_still_be_saved(gm, gm_client):
    """Saved for later: what the turn refuses now (no Willpower left) is the odds' business on use."""
    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, melee=2)
    ExaltedResources.objects.filter(character=swan).update(willpower_temporary=0)
    response = save(gm_client, swan, first=trait(swan, "dexterity").pk, willpower="on")
    assert response.status_code == 200 and SavedRoll.objects.count() == 1


def test_deleting_a_saved_roll_redraws_the_card(gm, gm_client):
    koi = character(gm, Game.V5, dexterity=3)
    save(gm_client, koi, "Sneak")
    saved = SavedRoll.objects.get()
    response = gm_client.post(reverse("saved-roll-delete", args=[koi.campaign_id, saved.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith(f'<article class="card character-card') and "Sneak" not in html
    assert not SavedRoll.objects.exists()
    # Deleted twice (a double click): nothing there, a 404, never a 500.
    assert gm_client.post(reverse("saved-roll-delete", args=[koi.campaign_id, saved.pk])).status_code == 404


def test_a_saved_roll_of_another_campaign_is_not_found(gm, gm_client, other_gm):
    mine = character(gm, Game.V5)
    theirs_campaign = Campaign.objects.create(name="Theirs", game=Game.V5, gm=other_gm)
    theirs = Character.objects.create_with_sheet(campaign=theirs_campaign, name="Bea")
    saved = SavedRoll.objects.create(character=theirs, name="Theirs", fields={})
    # Through my campaign's URL, their saved roll does not exist.
    assert gm_client.get(reverse("saved-roll-use", args=[mine.campaign_id, saved.pk])).status_code == 404
    assert gm_client.post(reverse("saved-roll-delete", args=[mine.campaign_id, saved.pk])).status_code == 404
    # Through theirs, neither does their campaign.
    assert gm_client.get(reverse("saved-roll-use", args=[theirs_campaign.pk, saved.pk])).status_code == 404
    assert gm_client.post(reverse("saved-roll-create", args=[theirs_campaign.pk]), composer_post(theirs)).status_code == 404
    assert SavedRoll.objects.count() == 1


def test_rolling_a_saved_roll_rolls_its_fields(gm, gm_client, monkeypatch):
    """The composer as a saved roll fills it, posted to Roll: the pool, stunt and difficulty saved."""
    import rules.dice

    swan = character(gm, Game.EXALTED, "Swan", dexterity=3, stealth=2)
    save(gm_client, swan, first=trait(swan, "dexterity").pk, second=trait(swan, "stealth").pk, stunt=1, difficulty=2)
    saved = SavedRoll.objects.get()
    data = {**saved.fields, "character": swan.pk}
    faces = Faces(7, 8, 2, 3, 1, 9)  # 5 dice + 1 stunt die
    monkeypatch.setattr(rules.dice, "system_random", lambda: faces)
    assert gm_client.post(reverse("roll", args=[swan.campaign_id]), data).status_code == 200
    assert faces.spent
    logged = Roll.objects.get()
    assert logged.label_parts == ["trait:dexterity", "trait:stealth"] and logged.request["stunt"] == 1
    assert logged.request["difficulty"] == 2


def test_an_npc_has_saved_rolls_too(gm, gm_client):
    guard = character(gm, Game.SCIFI, "Guard", agility=2, firearms=3)
    Character.objects.filter(pk=guard.pk).update(kind=CharacterKind.NPC)
    assert save(gm_client, guard, first=trait(guard, "agility").pk, second=trait(guard, "firearms").pk).status_code == 200
    html = gm_client.get(reverse("table", args=[guard.campaign_id])).content.decode()
    assert "★ Agility + Firearms" in html


def test_a_fate_card_offers_every_approach_even_at_mediocre(gm, gm_client):
    wizard = character(gm, Game.FATE, "Wizard", clever=3)
    html = gm_client.get(reverse("table", args=[wizard.campaign_id])).content.decode()
    assert len(re.findall(r'data-quick="first"', html)) == 6  # Careful, Clever, Flashy, Forceful, Quick, Sneaky
    assert 'data-quick="second"' not in html and "data-pool=" not in html
    assert "Traits <span" in html and "· Approach</span>" in html
