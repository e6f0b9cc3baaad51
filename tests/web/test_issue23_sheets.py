"""Issue 23, items 9 and 12, on the server: the sheet editor adds rows in place (each category's and
each game's own rows' empty form, copied by static/characters.js, counted in the management form,
any number saved together or none), and a cast change (the admin's, the editor's, in another tab)
redraws every list of the table that names characters or traits, for the GM and the players.

The browser side is test_browser_issue23_sheets.py.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import live
from gmtools.games.fate.models import Aspect
from gmtools.live import Viewer
from gmtools.models import Campaign, Change, ChangeKind, Character, ExtendedAction, Trait
from tests.games import Game
from tests.web.character_data import sheet_post

pytestmark = pytest.mark.django_db

REFUSED = 422

# Each game's category of traits added by hand (its formset's prefix: the admin's, by category order),
# and Fate's own rows (aspects).
ADDED = [(Game.V5, "traits-3", "discipline"), (Game.EXALTED, "traits-3", "background"),
         (Game.FATE, "traits-2", "stunt"), (Game.SCIFI, "traits-3", "advantage")]


def edit_url(campaign: Campaign, character: Character) -> str:
    return reverse("character-edit", kwargs={"pk": campaign.pk, "character_pk": character.pk})


def empty_row(page: str, prefix: str) -> list[str]:
    """The field names of the row that "Add" copies for the formset ``prefix`` (its <template>)."""
    fieldset = re.search(rf'<fieldset[^>]*data-rows="{prefix}".*?</fieldset>', page, re.S)
    assert fieldset, prefix
    template = re.search(r"<template data-empty-row>(.*?)</template>", fieldset.group(0), re.S)
    assert template and 'data-add-row' in fieldset.group(0)
    return re.findall(r'name="([^"]+)"', template.group(1))


def added(data: dict, page: str, prefix: str, rows: list[dict[str, str]]) -> dict:
    """``data`` with ``rows`` added as the page's "Add" adds them: the empty row at the next index, counted."""
    names = empty_row(page, prefix)
    total = int(data[f"{prefix}-TOTAL_FORMS"])
    data = dict(data)
    for row in rows:
        for name in names:
            field = name.replace("__prefix__", str(total)).removeprefix(f"{prefix}-{total}-")
            if field in row:
                data[name.replace("__prefix__", str(total))] = row[field]
        total += 1
    data[f"{prefix}-TOTAL_FORMS"] = str(total)
    return data


@pytest.mark.parametrize(("game", "prefix", "category"), ADDED)
def test_three_traits_added_in_place_are_saved_in_one_save(gm_client, gm, game, prefix, category):
    campaign = Campaign.objects.create(name="Rows", game=game, gm=gm)
    ana = Character.objects.create_with_sheet(campaign=campaign, name="Ana")
    page = gm_client.get(edit_url(campaign, ana)).content.decode()
    assert f'name="{prefix}-TOTAL_FORMS"' in page
    names = ["Alpha", "Beta", "Gamma"]
    data = added(sheet_post(campaign, ana), page, prefix, [{"name": n, "rating": "1"} for n in names])
    response = gm_client.post(edit_url(campaign, ana), data)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert sorted(ana.traits.filter(category=category).values_list("name", flat=True)) == names


@pytest.mark.parametrize(("game", "prefix", "category"), ADDED)
def test_rows_added_in_place_are_all_refused_when_one_is_bad(gm_client, gm, game, prefix, category):
    campaign = Campaign.objects.create(name="Rows", game=game, gm=gm)
    ana = Character.objects.create_with_sheet(campaign=campaign, name="Ana")
    page = gm_client.get(edit_url(campaign, ana)).content.decode()
    # The third row repeats the first's name: refused, and none of the three is written.
    data = added(sheet_post(campaign, ana), page, prefix,
                 [{"name": "Alpha", "rating": "1"}, {"name": "Beta", "rating": "1"}, {"name": "alpha", "rating": "1"}])
    before = list(Trait.objects.order_by("pk").values())
    response = gm_client.post(edit_url(campaign, ana), data)
    assert response.status_code == REFUSED
    assert list(Trait.objects.order_by("pk").values()) == before
    refused = response.content.decode()
    # Drawn again with every row typed, counted as posted: the GM fixes one and saves again.
    total = data[f"{prefix}-TOTAL_FORMS"]
    assert re.search(rf'name="{prefix}-TOTAL_FORMS" value="{total}"', refused)
    for name in ("Alpha", "Beta", "alpha"):
        assert f'value="{name}"' in refused
    assert "Another trait of this character has this name." in refused
    assert "data-refused" in refused  # closing it asks first (static/characters.js)


def test_a_new_character_takes_rows_added_in_place(gm_client, gm):
    campaign = Campaign.objects.create(name="Rows", game=Game.V5, gm=gm)
    page = gm_client.get(reverse("character-new", kwargs={"pk": campaign.pk})).content.decode()
    data = added(sheet_post(campaign, name="Mara"), page, "traits-3",
                 [{"name": "Dominate", "rating": "2"}, {"name": "Auspex", "rating": "1"}, {"name": "Obfuscate", "rating": "3"}])
    assert gm_client.post(reverse("character-new", kwargs={"pk": campaign.pk}), data).status_code == 200
    mara = Character.objects.get(name="Mara")
    assert dict(mara.traits.filter(category="discipline").values_list("name", "rating")) == {
        "Dominate": 2, "Auspex": 1, "Obfuscate": 3}


def test_fate_aspects_are_added_in_place(gm_client, gm):
    campaign = Campaign.objects.create(name="Rows", game=Game.FATE, gm=gm)
    zird = Character.objects.create_with_sheet(campaign=campaign, name="Zird")
    page = gm_client.get(edit_url(campaign, zird)).content.decode()
    texts = ["Arcane scholar", "Owes the guild", "Sees ghosts", "Cat person"]
    kinds = ["high_concept", "trouble", "other", "other"]
    data = added(sheet_post(campaign, zird), page, "aspects",
                 [{"kind": k, "text": t, "free_invocations": "0"} for k, t in zip(kinds, texts)])
    assert gm_client.post(edit_url(campaign, zird), data).status_code == 200
    assert list(Aspect.objects.filter(character=zird).order_by("id").values_list("kind", "text")) == list(zip(kinds, texts))


def test_the_sheet_says_what_closing_it_would_throw_away(gm_client, gm):
    campaign = Campaign.objects.create(name="Rows", game=Game.V5, gm=gm)
    ana = Character.objects.create_with_sheet(campaign=campaign, name="Ana")
    page = gm_client.get(edit_url(campaign, ana)).content.decode()
    assert 'data-unsaved="Close without saving? Your changes to this sheet will be lost."' in page
    assert "data-refused" not in page
    assert page.count("data-add-row") == 6  # one per V5 category
    page = gm_client.get(edit_url(campaign, ana), headers={"accept-language": "es"}).content.decode()
    assert "¿Cerrar sin guardar?" in page and "Añadir" in page


# --- item 12: every list follows a cast change -------------------------------------------------------

def admin_edit(staff_client, character: Character, ratings: dict[str, int]) -> None:
    """The admin's change page of ``character``, posted back with ``ratings`` changed (as staff would)."""
    from tests.web.test_admin import form_data, inline_prefix, row_index

    change = reverse("admin:gmtools_character_change", args=[character.pk])
    page = staff_client.get(change)
    data = form_data(page)
    for key, rating in ratings.items():
        trait = Trait.objects.get(character=character, key=key)
        data[f"{inline_prefix(page, trait.category)}-{row_index(page, trait.category, key)}-rating"] = str(rating)
    response = staff_client.post(change, data)
    assert response.status_code == 302, response.context["errors"]


def test_an_admin_edit_redraws_the_lists_that_name_characters_for_every_table(gm_client, gm, staff_client):
    campaign = Campaign.objects.create(name="Garrison", game=Game.EXALTED, gm=gm)
    koi = Character.objects.create_with_sheet(campaign=campaign, name="Koi")
    koi.traits.filter(key="dexterity").update(rating=4)
    ExtendedAction.objects.create(campaign=campaign, name="Climb the wall", character=koi, goal=10, pool=5)
    Character.objects.create_with_sheet(campaign=campaign, name="Garrison commander", kind="npc")
    admin_edit(staff_client, koi, {"dexterity": 5})
    change = Change.objects.filter(campaign=campaign).latest("id")
    assert (change.kind, change.character_id) == (ChangeKind.CHARACTER, None)

    gm_page = live.render_change(change.id, Viewer("gm", "en"))
    # The composer's character list, marked for the page to ask the rest of its composer again.
    assert re.search(r'id="composer-character"[^>]*data-composer-follow', gm_page)
    # The extended actions: the new action's character select offers the new NPC; the running one names Koi.
    extended = gm_page[gm_page.index('id="extended-list"'):]
    select = re.search(r'<select name="character".*?</select>', extended, re.S).group(0)
    assert "Garrison commander" in select and "Koi" in select
    assert "Climb the wall" in extended
    # The cards with their new ratings.
    assert re.search(r"Dexterity\s*<b>5</b>", gm_page)
    players = live.render_change(change.id, Viewer("player", "en"))
    assert 'id="extended-list"' in players and "Climb the wall" in players and "<select" not in players


def test_a_game_without_extended_actions_redraws_none(gm_client, gm):
    from gmtools.characters import announce_cast

    campaign = Campaign.objects.create(name="Rows", game=Game.FATE, gm=gm)
    Character.objects.create_with_sheet(campaign=campaign, name="Zird")
    announce_cast(campaign.pk)
    change = Change.objects.filter(campaign=campaign).latest("id")
    assert 'id="extended-list"' not in live.render_change(change.id, Viewer("gm", "en"))


def test_the_composer_asked_again_keeps_the_traits_chosen_by_id_with_their_new_ratings(gm_client, gm, staff_client):
    campaign = Campaign.objects.create(name="Garrison", game=Game.EXALTED, gm=gm)
    koi = Character.objects.create_with_sheet(campaign=campaign, name="Koi")
    koi.traits.filter(key="dexterity").update(rating=4)
    koi.traits.filter(key="dodge").update(rating=3)
    koi.traits.filter(key="strength").update(rating=2)
    dexterity, dodge = (koi.traits.get(key=k).pk for k in ("dexterity", "dodge"))
    # Strength becomes the best Attribute: a composer drawn afresh would offer it first; the GM's Dexterity stays.
    admin_edit(staff_client, koi, {"dexterity": 5, "strength": 5, "melee": 5})
    page = gm_client.get(reverse("composer", kwargs={"pk": campaign.pk}),
                         {"character": koi.pk, "first": dexterity, "second": dodge}).content.decode()
    assert f'<option value="{dexterity}" selected>Dexterity 5</option>' in page
    assert f'<option value="{dodge}" selected>Dodge 3</option>' in page
    # A trait the character no longer has (deleted since): its best instead.
    gone = gm_client.get(reverse("composer", kwargs={"pk": campaign.pk}),
                         {"character": koi.pk, "first": dexterity, "second": 10**6}).content.decode()
    assert re.search(r'<option value="\d+" selected>Melee 5</option>', gone)
