"""A fifth game, installed from the tests alone, has campaigns and characters (issues 12 and 21, sheets).

The game (tests/fifth_game) gives little more than every game must: an id and a name, its categories and
standard sheet, an engine and a demo, and a resource of its own in its own table (grit). No rating bounds
(it rates 0 to 5), no campaign state or switch, no aspects, no NPC templates: the models, the admin and the
character panel take it as it is.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from gmtools import backup, games
from gmtools.characters import NPC_TEMPLATES, CharacterSheet, TemplateForm
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Trait, game_choices
from gmtools.sheets import TraitCategory, rating_bounds
from tests.fifth_game.game import GAME as D6
from tests.fifth_game.models import D6Resources
from tests.web.character_data import sheet_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def d6(gm) -> Campaign:
    """A campaign of the fifth game."""
    return Campaign.objects.create(name="Dice night", game=D6.id, gm=gm)


def test_the_game_is_offered_by_its_own_name(d6):
    assert (D6.id, "D6 pool") in game_choices()
    assert d6.get_game_display() == "D6 pool"


def test_its_characters_get_its_standard_sheet_with_default_bounds(d6):
    character = Character.objects.create_with_sheet(campaign=d6, name="Ana")
    assert character.standard_ratings() == {"body": 1, "mind": 1}
    character.full_clean()
    assert rating_bounds(D6.id, TraitCategory.ATTRIBUTE, character=character) == (0, 5)
    body = character.traits.get(key="body")
    body.rating = 5
    body.full_clean()
    body.rating = 6
    with pytest.raises(ValidationError):
        body.full_clean()
    with pytest.raises(ValidationError):
        Trait(character=character, category=TraitCategory.SKILL, name="Climb", rating=1).full_clean()
    with pytest.raises(ValidationError):
        Aspect(character=character, kind="other", text="Brave").full_clean()


def test_it_has_its_own_resource_and_no_state_switch_or_templates(d6):
    resources = games.get(D6.id).resources
    assert (resources.model, resources.fields, resources.rows) == (D6Resources, ("grit",), ("grit",))
    assert games.get(D6.id).state.fields == ()
    assert D6.id not in Campaign.TABLE_SWITCHES and d6.switch is None
    assert NPC_TEMPLATES[D6.id] == () and TemplateForm(campaign=d6).templates == {}
    d6.clean()
    ana = Character.objects.create_with_sheet(campaign=d6, name="Ana")
    assert D6Resources.objects.get(pk=ana.pk).grit == 3  # its row in the game's own table, made with it
    document = backup.export_campaign(d6)
    # The campaign's own columns and no state of the game's (it has none).
    assert document["campaign"] == {"name": "Dice night", "game": D6.id, "time_zone": d6.time_zone,
                                    "language": d6.language}
    assert document["characters"][0]["resources"] == {"d6pool_grit": 3}
    copy = backup.import_campaign({**document, "campaign": {**document["campaign"], "name": "Again"}}, d6.gm)
    assert copy.characters.get().resources.grit == 3


def test_its_sheet_is_made_and_edited_on_the_character_panel(d6, gm_client):
    page = gm_client.get(reverse("character-new", args=[d6.pk])).content.decode()
    assert 'data-trait="body"' in page and 'data-trait="mind"' in page
    # Two fieldsets, its grit and its Attributes: no aspects.
    assert page.count("<fieldset") == 2 and 'name="sheet-d6pool_grit"' in page and "aspects-TOTAL_FORMS" not in page
    sheet = CharacterSheet(d6, {**sheet_post(d6, name="Koi", ratings={"body": 3}), "sheet-d6pool_grit": "6"})
    assert sheet.save() is None and "Ensure this value is less than or equal to 5." in str(sheet.resources.errors)
    sheet = CharacterSheet(d6, {**sheet_post(d6, name="Koi", ratings={"body": 3}), "sheet-d6pool_grit": "1"})
    koi = sheet.save()
    assert koi is not None, sheet.form.errors
    assert koi.standard_ratings() == {"body": 3, "mind": 1} and koi.resources.grit == 1
    page = gm_client.get(reverse("character-edit", args=[d6.pk, koi.pk])).content.decode()
    assert 'data-testid="character-sheet"' in page and "Koi" in page
    sheet = CharacterSheet(d6, sheet_post(d6, koi, name="Koi the Quiet", ratings={"mind": 6}), instance=koi)
    assert sheet.save() is None and "Must be from 0 to 5." in str([f.errors for f in sheet.groups[0].formset])
    sheet = CharacterSheet(d6, sheet_post(d6, koi, name="Koi the Quiet", ratings={"mind": 4}), instance=koi)
    assert sheet.save() is not None
    koi.refresh_from_db()
    assert koi.name == "Koi the Quiet" and koi.standard_ratings() == {"body": 3, "mind": 4}


def test_the_admin_shows_its_campaign_and_characters(d6, staff_client):
    character = Character.objects.create_with_sheet(campaign=d6, name="Ana")
    for url in (reverse("admin:gmtools_campaign_change", args=[d6.pk]), reverse("admin:gmtools_campaign_changelist"),
                reverse("admin:gmtools_character_changelist")):
        response = staff_client.get(url)
        assert response.status_code == 200, url
        assert "D6 pool" in response.content.decode(), url  # its name, not its id
    response = staff_client.get(reverse("admin:gmtools_character_change", args=[character.pk]))
    # Its grit (its own table's inline), then its Attributes.
    assert [getattr(i.opts, "category", i.opts.model) for i in response.context["inline_admin_formsets"]] == [
        D6Resources, "attribute"]
    assert [fieldset.name for fieldset in response.context["adminform"]] == [None]
