import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.forms import modelform_factory
from django.utils.translation import override

import rules
from gmtools import games
from gmtools.games.fate.models import Aspect
from gmtools.models import Campaign, Character, Trait
from gmtools.sheets import TraitCategory, rating_bounds
from tests.games import Game

pytestmark = pytest.mark.django_db


def test_games_are_the_rules_engine_systems():
    assert set(Game.values) == set(rules.SYSTEMS)


# --- The standard sheet of each game ---------------------------------------------------------

EXALTED_ABILITIES = {
    "archery", "martial_arts", "melee", "thrown", "war",
    "integrity", "performance", "presence", "resistance", "survival",
    "craft", "investigation", "lore", "medicine", "occult",
    "athletics", "awareness", "dodge", "larceny", "stealth",
    "bureaucracy", "linguistics", "ride", "sail", "socialize",
}  # fmt: skip


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (Game.EXALTED, {TraitCategory.ATTRIBUTE: 9, TraitCategory.ABILITY: 25}),
        (Game.V5, {TraitCategory.ATTRIBUTE: 9, TraitCategory.SKILL: 27}),
        (Game.FATE, {TraitCategory.APPROACH: 6}),
        (Game.SCIFI, {TraitCategory.ATTRIBUTE: 6, TraitCategory.SKILL: 12}),
    ],
)
def test_a_new_character_gets_its_games_standard_sheet(make_character, game, expected):
    character = make_character(game)
    counts = {category: character.traits.filter(category=category).count() for category in expected}
    assert counts == expected
    assert character.traits.count() == sum(expected.values())
    # Every standard trait starts inside its game's bounds.
    for trait in character.traits.all():
        trait.full_clean()


def test_exalted_has_the_25_abilities_of_the_core_book(make_character):
    character = make_character(Game.EXALTED)
    assert set(character.traits.filter(category="ability").values_list("key", flat=True)) == EXALTED_ABILITIES


@pytest.mark.parametrize(
    ("game", "key", "english", "spanish"),
    [
        (Game.EXALTED, "resistance", "Resistance", "Vigor"),
        (Game.EXALTED, "stamina", "Stamina", "Resistencia"),
        (Game.EXALTED, "awareness", "Awareness", "Consciencia"),
        (Game.V5, "melee", "Melee", "Pelea con Armas"),
        (Game.V5, "resolve", "Resolve", "Resolución"),
        (Game.V5, "streetwise", "Streetwise", "Callejeo"),
        (Game.FATE, "forceful", "Forceful", "Vigoroso"),
        (Game.FATE, "flashy", "Flashy", "Llamativo"),
        (Game.SCIFI, "endurance", "Endurance", "Resistencia"),
        (Game.SCIFI, "animal_handling", "Animal Handling", "Trato con Animales"),
    ],
)
def test_standard_trait_labels_follow_the_language(make_character, game, key, english, spanish):
    trait = make_character(game).traits.get(key=key)
    with override("en"):
        assert str(trait.label) == english
    with override("es"):
        assert str(trait.label) == spanish


def test_every_standard_label_has_a_spanish_translation():
    untranslated = []
    for system in games.systems():
        for trait in system.standard_sheet:
            with override("en"):
                english = str(trait.label)
            with override("es"):
                spanish = str(trait.label)
            if spanish == english:
                untranslated.append((system.id, trait.key))
    assert untranslated == []


def test_custom_trait_shows_its_own_name(make_character):
    character = make_character(Game.V5)
    trait = Trait.objects.create(character=character, category="discipline", name="Auspex", rating=2)
    with override("es"):
        assert trait.label == "Auspex"


# --- Database constraints -------------------------------------------------------------------


def assert_rejected_by_database(queryset, **values):
    with pytest.raises(IntegrityError), transaction.atomic():
        queryset.update(**values)


@pytest.mark.parametrize(
    "values",
    [
        {"v5_hunger": 6},
        {"v5_hunger": 9},
        {"v5_humanity": 11},
        {"v5_health_superficial": -1},
        {"exalted_willpower": 0},
        {"exalted_willpower_temporary": -1},
        {"exalted_willpower": 5, "exalted_willpower_temporary": 6},
        {"exalted_motes": 4, "exalted_motes_max": 3},
        {"exalted_essence": 11},
        {"exalted_valor": 6},
        {"exalted_compassion": 0},
        {"fate_points": -1},
        {"fate_refresh": 0},
        {"scifi_action_slots": 0},
        {"kind": "gm"},  # short enough for the column: the check constraint must refuse it
    ],
)
def test_database_rejects_out_of_bounds_resources(make_character, values):
    game = next(iter(values)).partition("_")[0]
    if game in Game.values:  # a game's resources: a row of its own table
        columns = games.get(game).resources
        character = make_character(game)
        rows = columns.model.objects.filter(pk=character.pk)
        assert_rejected_by_database(rows, **{columns.public_fields[name]: value for name, value in values.items()})
    else:
        character = make_character(Game.V5)
        assert_rejected_by_database(Character.objects.filter(pk=character.pk), **values)


def test_database_accepts_the_bounds_themselves(make_character):
    bounds = {Game.V5: {"hunger": 5}, Game.EXALTED: {"willpower": 10, "willpower_temporary": 10, "motes": 0},
              Game.FATE: {"refresh": 1}}
    for game, values in bounds.items():
        character = make_character(game)
        games.get(game).resources.model.objects.filter(pk=character.pk).update(**values)


@pytest.mark.parametrize("values", [{"rating": 11}, {"rating": -1}, {"name": "Strength"}, {"category": "virtue"}])
def test_database_rejects_bad_standard_traits(make_character, values):
    character = make_character(Game.V5)
    assert_rejected_by_database(character.traits.filter(key="strength"), **values)


def test_database_rejects_a_nameless_custom_trait(make_character):
    character = make_character(Game.V5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Trait.objects.create(character=character, category="discipline", name="", rating=1)


def test_trait_names_are_unique_per_character_ignoring_case(make_character):
    character = make_character(Game.V5)
    Trait.objects.create(character=character, category="discipline", name="Auspex", rating=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Trait.objects.create(character=character, category="discipline", name="AUSPEX", rating=2)
    # Another character may have the same trait.
    Trait.objects.create(character=make_character(Game.V5), category="discipline", name="Auspex", rating=1)


def test_standard_traits_are_unique_per_character(make_character):
    character = make_character(Game.V5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Trait.objects.create(character=character, category="attribute", key="strength", rating=2)


def test_a_character_has_one_high_concept(make_character):
    character = make_character(Game.FATE)
    Aspect.objects.create(character=character, kind="high_concept", text="Wizard")
    Aspect.objects.create(character=character, kind="other", text="Bookish")
    Aspect.objects.create(character=character, kind="other", text="Curious")
    with pytest.raises(IntegrityError), transaction.atomic():
        Aspect.objects.create(character=character, kind="high_concept", text="Warrior")


def test_validation_rejects_an_unknown_game(gm):
    """The games are the registered ones (issue 12: a fifth game is one package), so the choices, not a
    database check naming four, refuse any other: in full_clean, and so in every form and import."""
    with pytest.raises(ValidationError) as error:
        Campaign(name="Chess", game="chess", gm=gm).full_clean()
    assert "game" in error.value.message_dict


# --- Form validation ------------------------------------------------------------------------

V5_FIELDS = list(games.get(Game.V5).resources.fields)
EXALTED_FIELDS = list(games.get(Game.EXALTED).resources.fields)


def form_data(character: Character, fields: list[str], **changes) -> dict:
    data = {field: getattr(character.resources, field) for field in fields}
    return {**data, **changes}


def test_form_reports_hunger_out_of_bounds(make_character):
    character = make_character(Game.V5)
    Form = modelform_factory(games.get(Game.V5).resources.model, fields=V5_FIELDS)
    form = Form(form_data(character, V5_FIELDS, hunger=9), instance=character.resources)
    assert not form.is_valid()
    assert list(form.errors) == ["hunger"]
    form = Form(form_data(character, V5_FIELDS, hunger=5), instance=character.resources)
    assert form.is_valid(), form.errors


def test_form_reports_temporary_willpower_above_permanent(make_character):
    character = make_character(Game.EXALTED)
    Form = modelform_factory(games.get(Game.EXALTED).resources.model, fields=EXALTED_FIELDS)
    form = Form(
        form_data(character, EXALTED_FIELDS, willpower=4, willpower_temporary=5), instance=character.resources
    )
    assert not form.is_valid()
    assert form.non_field_errors() == ["Temporary Willpower cannot exceed permanent Willpower."]


def test_form_reports_negative_willpower(make_character):
    character = make_character(Game.EXALTED)
    Form = modelform_factory(games.get(Game.EXALTED).resources.model, fields=EXALTED_FIELDS)
    form = Form(form_data(character, EXALTED_FIELDS, willpower_temporary=-1), instance=character.resources)
    assert "willpower_temporary" in form.errors


def test_form_reports_motes_above_the_pool(make_character):
    character = make_character(Game.EXALTED)
    Form = modelform_factory(games.get(Game.EXALTED).resources.model, fields=EXALTED_FIELDS)
    form = Form(form_data(character, EXALTED_FIELDS, motes=8, motes_max=7), instance=character.resources)
    assert form.non_field_errors() == ["Personal motes cannot exceed the personal mote pool."]


def test_v5_damage_must_fit_the_tracker_boxes(make_character, set_ratings):
    character = make_character(Game.V5)
    set_ratings(character, stamina=2, composure=3, resolve=4)
    character.resources.health_superficial, character.resources.health_aggravated = 3, 2  # 5 boxes: fits
    character.resources.willpower_superficial = 7  # 7 boxes: fits
    character.resources.full_clean()
    character.resources.health_aggravated = 3
    character.resources.willpower_aggravated = 1
    with pytest.raises(ValidationError) as error:
        character.resources.full_clean()
    assert set(error.value.message_dict) == {"health_aggravated", "willpower_aggravated"}


def test_bhavna_rolls_four_dice_of_willpower(make_character, set_ratings):
    bhavna = make_character(Game.V5, name="Bhavna")
    set_ratings(bhavna, composure=3, resolve=4)
    bhavna.resources.willpower_superficial = 3
    assert (bhavna.resources.willpower_boxes, bhavna.resources.willpower_dice) == (7, 4)
    bhavna.resources.willpower_superficial, bhavna.resources.willpower_aggravated = 4, 3
    assert bhavna.resources.willpower_dice == 1  # an empty tracker still rolls one die


def test_health_boxes_are_stamina_plus_three(make_character, set_ratings):
    character = make_character(Game.V5)
    set_ratings(character, stamina=4)
    assert character.resources.health_boxes == 7


def trait_form_errors(trait: Trait, **changes) -> dict:
    for field, value in changes.items():
        setattr(trait, field, value)
    try:
        trait.full_clean()
    except ValidationError as error:
        return error.message_dict
    return {}


def test_trait_ratings_follow_each_games_bounds(make_character):
    v5 = make_character(Game.V5)
    assert "rating" in trait_form_errors(v5.traits.get(key="strength"), rating=6)
    assert "rating" in trait_form_errors(v5.traits.get(key="strength"), rating=0)
    assert trait_form_errors(v5.traits.get(key="occult"), rating=0) == {}
    fate_pc, fate_npc = make_character(Game.FATE), make_character(Game.FATE, kind="npc")
    assert "rating" in trait_form_errors(fate_pc.traits.get(key="careful"), rating=4)
    assert trait_form_errors(fate_npc.traits.get(key="careful"), rating=4) == {}


def test_exalted_traits_may_exceed_five_up_to_essence(make_character):
    character = make_character(Game.EXALTED, exalted_essence=6, exalted_willpower=6)
    assert trait_form_errors(character.traits.get(key="melee"), rating=6) == {}
    assert "rating" in trait_form_errors(character.traits.get(key="melee"), rating=7)
    character.resources.essence = 2
    assert "rating" in trait_form_errors(character.traits.get(key="melee"), rating=6)


def test_a_trait_must_belong_to_its_games_categories(make_character):
    character = make_character(Game.FATE)
    trait = Trait(character=character, category="discipline", name="Auspex", rating=1)
    assert "category" in trait_form_errors(trait)


@pytest.mark.parametrize("name", ["Strength", "fuerza", "FUERZA"])
def test_a_custom_trait_cannot_shadow_a_standard_one_in_either_language(make_character, name):
    character = make_character(Game.EXALTED)
    trait = Trait(character=character, category="attribute", name=name, rating=2)
    assert "name" in trait_form_errors(trait)


def test_aspects_belong_to_fate_characters(make_character):
    aspect = Aspect(character=make_character(Game.V5), kind="other", text="Brooding")
    with pytest.raises(ValidationError):
        aspect.full_clean()


# --- The campaign's game --------------------------------------------------------------------


def test_the_game_cannot_change_once_a_campaign_has_characters(gm):
    campaign = Campaign.objects.create(name="Nights", game=Game.V5, gm=gm)
    campaign.game = Game.FATE
    campaign.full_clean()  # no characters yet: still free
    campaign.save()
    Character.objects.create_with_sheet(campaign=campaign, name="Brann")
    campaign.game = Game.EXALTED
    with pytest.raises(ValidationError) as error:
        campaign.full_clean()
    assert "game" in error.value.message_dict
    with pytest.raises(ValidationError):
        campaign.save()
    assert Campaign.objects.get(pk=campaign.pk).game == Game.FATE
    campaign.game, campaign.name = Game.FATE, "Into the fortress"
    campaign.save()  # other edits stay possible


def test_a_character_only_moves_to_a_campaign_of_its_game(make_character, gm):
    character = make_character(Game.V5)
    character.campaign = Campaign.objects.create(name="Other v5", game=Game.V5, gm=gm)
    character.full_clean()
    character.campaign = Campaign.objects.create(name="Fate", game=Game.FATE, gm=gm)
    with pytest.raises(ValidationError) as error:
        character.full_clean()
    assert "campaign" in error.value.message_dict


@pytest.mark.parametrize("deck", [[81], [0, 0], [-1], ["3"], {"cards": []}, [True]])
def test_the_fate_deck_holds_distinct_cards_0_to_80(gm, deck):
    campaign = Campaign(name="Deck", game=Game.FATE, gm=gm)
    campaign.state.deck = deck
    with pytest.raises(ValidationError) as error:
        campaign.state.full_clean()
    assert "deck" in error.value.message_dict


def test_a_new_campaign_deck_is_empty_so_the_first_draw_shuffles(gm):
    campaign = Campaign.objects.create(name="Deck", game=Game.FATE, gm=gm)
    assert campaign.state.deck == []  # valid: shuffled at the next draw, never dealt in order
    campaign.state.full_clean()
    campaign.state.deck = [3, 3]
    with pytest.raises(ValidationError):
        campaign.state.full_clean()


def test_campaign_names_are_unique_per_gm(gm, other_gm):
    Campaign.objects.create(name="Nights", game=Game.V5, gm=gm)
    Campaign.objects.create(name="Nights", game=Game.V5, gm=other_gm)
    with pytest.raises(ValidationError):
        Campaign(name="Nights", game=Game.FATE, gm=gm).full_clean()


# --- Queries and derived values -------------------------------------------------------------


def test_a_gm_sees_only_their_own_campaigns(gm, other_gm):
    mine = Campaign.objects.create(name="Mine", game=Game.V5, gm=gm)
    Campaign.objects.create(name="Theirs", game=Game.V5, gm=other_gm)
    assert list(Campaign.objects.for_gm(gm)) == [mine]


def test_an_anonymous_visitor_sees_no_campaigns(gm):
    Campaign.objects.create(name="Mine", game=Game.V5, gm=gm)
    assert not Campaign.objects.for_gm(AnonymousUser()).exists()


def test_scifi_distances_come_from_strength_and_endurance(make_character, set_ratings):
    character = make_character(Game.SCIFI)
    set_ratings(character, strength=3, endurance=2)
    assert character.resources.distances() == {
        "swim_m": 4,
        "vertical_jump_cm": 90,
        "running_jump_m": 6,
        "standing_jump_m": 3,
    }


def test_off_rol_is_closed_only_inside_an_open_adventure(make_character):
    character = make_character(Game.SCIFI)
    assert character.resources.off_rol_allowed
    character.resources.in_adventure = True
    assert character.resources.off_rol_allowed  # the adventure is not open yet
    character.campaign.state.adventure_open = True
    assert not character.resources.off_rol_allowed
    character.resources.in_adventure = False
    assert character.resources.off_rol_allowed


def test_duplicating_copies_traits_and_aspects(make_character):
    original = make_character(Game.FATE, name="Guard", kind="npc", fate_points=0)
    original.traits.filter(key="careful").update(rating=2, specialties="Gates")
    Trait.objects.create(character=original, category="stunt", name="Shield wall", rating=2)
    Aspect.objects.create(character=original, kind="high_concept", text="Bored guard", free_invocations=1)
    [copy] = Character.objects.filter(pk=original.pk).duplicate()
    assert copy.pk != original.pk
    assert (copy.name, copy.kind, copy.resources.points, copy.campaign) == ("Guard (copy)", "npc", 0, original.campaign)

    def sheet(character):
        return (
            list(character.traits.values_list("category", "key", "name", "rating", "specialties")),
            list(character.aspects.values_list("kind", "text", "free_invocations")),
        )

    assert sheet(copy) == sheet(original)
    assert original.traits.count() == 7  # the original keeps its own rows


def test_every_game_is_registered_once_in_order():
    assert [system.id for system in games.systems()] == list(Game.values)
    assert all(games.get(game).id == game for game in Game.values)


def test_rating_bounds_reject_a_category_the_game_lacks():
    with pytest.raises(KeyError):
        rating_bounds(Game.FATE, TraitCategory.DISCIPLINE)
    for system in games.systems():
        for category in system.categories:
            low, high = rating_bounds(system.id, category)
            assert 0 <= low <= high <= 10


def test_every_model_change_has_its_migration():
    from io import StringIO

    from django.core.management import call_command

    # --check exits non-zero when a model differs from the migrations; --dry-run writes nothing.
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())


# --- No NUL character in any text -----------------------------------------------------------------
# PostgreSQL refuses one in text and in jsonb (a DataError: a 500), SQLite stores it: the rows refuse
# it on both, so these tests pass alike on each (CI runs them on both).

NUL = "Null characters are not allowed."


def test_every_table_refuses_a_nul_character():
    """A table added later inherits the guard too, or this fails."""
    from django.apps import apps

    from gmtools.models import NulFree

    assert [model.__name__ for model in apps.get_app_config("gmtools").get_models()
            if not issubclass(model, NulFree)] == []


@pytest.mark.parametrize(("field", "value"), [
    ("name", "Ana\x00"), ("notes", "\x00"), ("fate_consequence_mild", "Bruised\x00ribs"),
])
def test_a_nul_character_is_a_fields_validation_error(make_character, field, value):
    character = make_character(Game.FATE)
    columns = games.get(Game.FATE).resources
    row, name = ((character.resources, columns.public_fields[field]) if field in columns.public_fields
                 else (character, field))
    setattr(row, name, value)
    with pytest.raises(ValidationError) as refused:
        row.full_clean()
    assert refused.value.message_dict == {name: [NUL]}


def test_a_nul_character_joins_the_other_errors_of_a_row(make_character):
    character = make_character(Game.FATE)
    character.name, character.player = "", "Bo\x00"
    with pytest.raises(ValidationError) as refused:
        character.full_clean()
    assert refused.value.message_dict == {"name": ["This field cannot be blank."], "player": [NUL]}
    character.full_clean(exclude=["name", "player"])  # excluded fields are not checked, as Django's own


@pytest.mark.parametrize("fields", [{"hidden": "\x00"}, {"team": ["1", "2\x00"]}, {"a\x00": "on"},
                                    {"deep": [{"er": ["\x00"]}]}])
def test_a_nul_character_anywhere_in_json_is_refused(make_character, fields):
    from gmtools.models import SavedRoll

    saved = SavedRoll(character=make_character(Game.V5), name="Sneak", fields=fields)
    with pytest.raises(ValidationError) as refused:
        saved.full_clean()
    assert refused.value.message_dict == {"fields": [NUL]}
    with pytest.raises(ValidationError):
        saved.save()
    assert not SavedRoll.objects.exists()


def test_saving_a_nul_character_is_refused_and_nothing_is_stored(make_character, gm):
    """The last guard, for a path that saves without validating: the database never sees the NUL."""
    with pytest.raises(ValidationError) as refused:
        Campaign.objects.create(name="Night\x00", game=Game.V5, gm=gm)
    assert refused.value.message_dict == {"name": [NUL]}
    character = make_character(Game.FATE)
    character.resources.consequence_mild = "Bruised\x00ribs"
    with pytest.raises(ValidationError):
        character.resources.save(update_fields=["consequence_mild"])
    with pytest.raises(ValidationError):
        Aspect.objects.create(character=character, text="Wiz\x00ard")
    assert not Campaign.objects.filter(name__startswith="Night").exists()
    character.refresh_from_db()
    assert character.resources.consequence_mild == "" and not character.aspects.exists()


def test_saving_other_fields_ignores_a_nul_not_saved(make_character):
    """update_fields saves those fields only, so only they are checked."""
    character = make_character(Game.V5)
    character.notes, character.name = "a\x00b", "Bo"
    character.save(update_fields=["name"])
    character.refresh_from_db()
    assert (character.name, character.notes) == ("Bo", "")


def test_the_check_reads_no_deferred_field(make_character, django_assert_num_queries):
    """A row loaded with only() saves its loaded fields: the check must not load the others (a query each)."""
    character = make_character(Game.V5)
    partial = Character.objects.only("name").get(pk=character.pk)
    partial.name = "Bo"
    with django_assert_num_queries(1):  # the UPDATE alone
        partial.save()
    assert Character.objects.get(pk=character.pk).name == "Bo"
