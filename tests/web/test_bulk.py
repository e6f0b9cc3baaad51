"""``gmtools.bulk.validate`` says what ``full_clean()`` says (issue 28, item 5).

The campaign import checks its rows in bulk, without a query per row: each row's fields and
``clean()`` as Django checks them, its model's check constraints evaluated on the row, its unique
constraints among the rows written together. Here each case is given both ways: to
``bulk.validate`` as new rows, and to ``full_clean()`` row by row, each row saved once it passed (so
that the next one's unique check sees it, as the rows given together see each other). Both must
refuse the same row, with the same message, or both take them all. Parents are new and empty, as
an import's are (the case ``bulk`` is exact for).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmtools import bulk, games
from gmtools.games.fate.models import Aspect
from gmtools.models import (
    Campaign,
    Character,
    Episode,
    ExtendedAction,
    ResourceChange,
    Roll,
    SavedRoll,
    Scene,
    SceneParticipant,
    Story,
    Trait,
    TurnDeclaration,
)
from tests.games import Game
from rules.extended import TieBreak

pytestmark = pytest.mark.django_db

# The tables the import writes through ``bulk.validate`` (gmtools.backup).
BULK_MODELS = (Character, Trait, Aspect, SavedRoll, Story, Episode, Scene, SceneParticipant, TurnDeclaration,
               ExtendedAction, Roll, ResourceChange)


def by_django(rows: list) -> tuple[int, str] | None:
    """The first row ``full_clean()`` refuses (each one before it saved), with its message; None if none."""
    with transaction.atomic():
        try:
            for i, row in enumerate(rows):
                try:
                    row.full_clean()
                except ValidationError as error:
                    return i, bulk.describe(error)
                row.save()
            return None
        finally:
            transaction.set_rollback(True)


def by_bulk(rows: list) -> tuple[int, str] | None:
    try:
        bulk.validate([(str(i), row) for i, row in enumerate(rows)])
    except bulk.Invalid as refused:
        return int(refused.where), bulk.describe(refused.error)
    return None


def agree(make: Callable[[], list]) -> tuple[int, str] | None:
    """What both say of the rows ``make`` builds (built twice: saving changes a row)."""
    verdict = by_bulk(make())
    assert verdict == by_django(make())
    return verdict


@pytest.fixture
def parents(gm):
    """An empty campaign of each game with one character (no sheet: no row a new one could clash with)."""
    class Parents:
        def campaign(self, game: str) -> Campaign:
            return Campaign.objects.get_or_create(name=f"{game} table", game=game, gm=gm)[0]

        def character(self, game: str = Game.FATE, name: str = "Zara") -> Character:
            return Character.objects.get_or_create(campaign=self.campaign(game), name=name)[0]

        def bare(self, game: str = Game.FATE, name: str = "Zara") -> Character:
            """A character without its row of resources yet, as the import writes them (``bulk_create``)."""
            found = Character.objects.filter(campaign=self.campaign(game), name=name).first()
            return found or Character.objects.bulk_create([Character(campaign=self.campaign(game), name=name)])[0]

        def scene(self, game: str = Game.FATE) -> Scene:
            story = Story.objects.get_or_create(campaign=self.campaign(game), number=1)[0]
            episode = Episode.objects.get_or_create(story=story, number=1)[0]
            return Scene.objects.get_or_create(episode=episode, number=1)[0]

    return Parents()


def test_bulk_leaves_nothing_to_the_unique_checks_of_fields():
    """``bulk`` does not run ``validate_unique()``: no table it writes has a unique column besides its id
    (their unique rules are constraints, which it checks)."""
    for model in BULK_MODELS:
        checks, _dates = model()._get_unique_checks(include_meta_constraints=False)
        assert [fields for _model, fields in checks] == [("id",)], model


# --- each kind of rule, in each model that has one -----------------------------------------------

def trait(character: Character, **fields) -> Trait:
    return Trait(character=character, **{"category": "approach", "key": "", "name": "", "rating": 1, **fields})


TRAIT_CASES = {
    "fine": (lambda c: [trait(c, key="careful"), trait(c, name="Shield wall", category="stunt")], None),
    "field validator": (lambda c: [trait(c, key="careful", rating=6)], 0),
    "negative rating": (lambda c: [trait(c, key="careful", rating=-1)], 0),
    "check constraint": (lambda c: [trait(c)], 0),  # neither a standard trait nor named
    "both": (lambda c: [trait(c, key="careful", name="Careful too")], 0),
    "clean": (lambda c: [trait(c, key="strength", category="attribute")], 0),  # not a Fate category
    "unique name among the rows": (lambda c: [trait(c, name="Shield wall", category="stunt"),
                                              trait(c, name="SHIELD WALL", category="stunt")], 1),
    "unique key among the rows": (lambda c: [trait(c, key="careful"), trait(c, key="careful", rating=2)], 1),
    "unknown category": (lambda c: [trait(c, name="Luck", category="luck")], 0),
    "name too long and empty": (lambda c: [trait(c, name="x" * 81)], 0),
}


@pytest.mark.parametrize("case", TRAIT_CASES)
def test_traits(parents, case):
    make, refused = TRAIT_CASES[case]
    character = parents.character()
    verdict = agree(lambda: make(character))
    assert (verdict and verdict[0]) == refused


def test_a_trait_named_twice_is_refused_with_the_constraints_message(parents):
    character = parents.character()
    assert agree(lambda: [trait(character, name="Shield wall", category="stunt"),
                          trait(character, name="shield wall", category="stunt")]) == (
        1, "This character already has a trait with this name.")


def aspect(**fields) -> Aspect:
    return Aspect(**{"kind": "other", "text": "On fire", **fields})


ASPECT_CASES = {
    "fine": (lambda p: [aspect(character=p.character(), kind="high_concept"), aspect(scene=p.scene())], None),
    "two high concepts": (lambda p: [aspect(character=p.character(), kind="high_concept"),
                                     aspect(character=p.character(), kind="high_concept", text="Other")], 1),
    "two others": (lambda p: [aspect(character=p.character()), aspect(character=p.character())], None),
    "nobody's": (lambda p: [aspect()], 0),
    "empty text": (lambda p: [aspect(character=p.character(), text="")], 0),
    "free invocations": (lambda p: [aspect(character=p.character(), free_invocations=10)], 0),
    "unknown kind": (lambda p: [aspect(character=p.character(), kind="weird")], 0),
    "clean: not Fate": (lambda p: [aspect(character=p.character(Game.V5))], 0),
}


@pytest.mark.parametrize("case", ASPECT_CASES)
def test_aspects(parents, case):
    make, refused = ASPECT_CASES[case]
    verdict = agree(lambda: make(parents))
    assert (verdict and verdict[0]) == refused


def character(campaign: Campaign, **fields) -> Character:
    return Character(campaign=campaign, **{"name": "Koi", **fields})


def resources(character: Character, **fields):
    """The character's row of its game's resources, its columns given by their public names (``v5_hunger``)."""
    columns = games.get(character.game).resources
    return columns.model(character=character, **{columns.public_fields[name]: value for name, value in fields.items()})


def split(game: str, fields: dict) -> tuple[dict, dict]:
    """The fields of the character's own row, and those of its row of resources (by public name)."""
    public = games.get(game).resources.public_fields
    return ({k: v for k, v in fields.items() if k not in public}, {k: v for k, v in fields.items() if k in public})


CHARACTER_CASES = {
    "fine": (Game.EXALTED, {"exalted_willpower": 6, "exalted_willpower_temporary": 6}, None),
    "range": (Game.EXALTED, {"exalted_essence": 11}, 0),
    "across columns": (Game.EXALTED, {"exalted_willpower": 3, "exalted_willpower_temporary": 4}, 0),
    "motes": (Game.EXALTED, {"exalted_motes": 9, "exalted_motes_max": 8}, 0),
    "a field and an unrelated constraint": (Game.EXALTED, {"name": "", "exalted_motes": 9, "exalted_motes_max": 8}, 0),
    "a field and the constraint on it": (Game.EXALTED, {"exalted_willpower": 11, "exalted_willpower_temporary": 10}, 0),
    "v5 hunger": (Game.V5, {"v5_hunger": 6}, 0),
    "fate points": (Game.FATE, {"fate_points": 100}, 0),
    "fate refresh": (Game.FATE, {"fate_refresh": 0}, 0),
    "scifi health": (Game.SCIFI, {"scifi_health": 12, "scifi_health_max": 10}, 0),
    "unknown kind": (Game.SCIFI, {"kind": "god"}, 0),
    "name too long": (Game.V5, {"name": "K" * 121}, 0),
}


@pytest.mark.parametrize("case", CHARACTER_CASES)
def test_characters(parents, case):
    game, fields, refused = CHARACTER_CASES[case]
    campaign = parents.campaign(game)
    own, columns = split(game, fields)
    verdict = agree(lambda: [character(campaign, name="Other"), character(campaign, **own)])
    assert (verdict and verdict[0]) == (1 if refused == 0 and own else None)
    other, koi = parents.bare(game, "Other"), parents.bare(game, "Koi")
    verdict = agree(lambda: [resources(other), resources(koi, **columns)])
    assert (verdict and verdict[0]) == (1 if refused == 0 and columns else None)


def test_a_field_error_and_an_unrelated_constraint_are_both_said(parents):
    """``full_clean()`` reports every error it finds (a constraint is skipped only for a field already
    in error): so must the import, or a fixed file is refused again for the next one."""
    campaign = parents.campaign(Game.EXALTED)
    verdict = agree(lambda: [character(campaign, name="")])
    assert verdict is not None and "name: This field cannot be blank." in verdict[1]
    # The resources are a row of their own: a field in error there and the constraint on two others.
    koi = parents.bare(Game.EXALTED, "Koi")
    verdict = agree(lambda: [resources(koi, exalted_essence=11, exalted_motes=9, exalted_motes_max=8)])
    assert verdict is not None and "essence: Ensure this value is less than or equal to 10." in verdict[1]
    assert "exalted_motes_within_pool" in verdict[1] or "motes" in verdict[1].lower()


def test_time_and_turns(parents):
    campaign = parents.campaign(Game.EXALTED)
    story = Story.objects.create(campaign=campaign, number=1)
    episode = Episode.objects.create(story=story, number=1)
    scene = Scene.objects.create(episode=episode, number=1)
    koi = parents.character(Game.EXALTED, "Koi")
    cases = [
        (lambda: [Story(campaign=campaign, number=2), Story(campaign=campaign, number=2)], 1),
        (lambda: [Episode(story=story, number=2), Episode(story=story, number=3)], None),
        (lambda: [Scene(episode=episode, number=2, combat=True, calm=True)], 0),
        (lambda: [Scene(episode=episode, number=2, turn=0)], 0),
        (lambda: [Scene(episode=episode, number=2), Scene(episode=episode, number=2)], 1),
        (lambda: [SceneParticipant(scene=scene, character=koi), SceneParticipant(scene=scene, character=koi)], 1),
        (lambda: [TurnDeclaration(scene=scene, turn=1, character=koi, actions=11)], 0),
        (lambda: [TurnDeclaration(scene=scene, turn=1, character=koi, actions=0)], 0),
        (lambda: [TurnDeclaration(scene=scene, turn=1, character=koi, actions=2),
                  TurnDeclaration(scene=scene, turn=2, character=koi, actions=2),
                  TurnDeclaration(scene=scene, turn=1, character=koi, actions=3)], 2),
    ]
    for make, refused in cases:
        verdict = agree(make)
        assert (verdict and verdict[0]) == refused, make()
    assert agree(cases[2][0]) == (0, "A combat scene is never calm.")


def test_extended_actions_rolls_and_the_rest(parents):
    campaign = parents.campaign(Game.EXALTED)
    koi = parents.character(Game.EXALTED, "Koi")
    root = Roll.objects.create(campaign=campaign, actor="Koi", system=Game.EXALTED, outcome="success")

    def act(**fields) -> ExtendedAction:
        return ExtendedAction(campaign=campaign, **{"name": "Climb", "goal": 10, **fields})

    def follow_up(kind: str) -> Roll:
        return Roll(campaign=campaign, actor="Koi", system=Game.EXALTED, outcome="success", parent=root, kind=kind,
                    request={"pool": 1}, result={"successes": 1})

    cases = [
        (lambda: [act(), act(kind="race", tie_break=TieBreak.ROLL_OFF)], None),
        (lambda: [act(goal=0)], 0),
        (lambda: [act(goal=201)], 0),
        (lambda: [act(tie_break=TieBreak.ROLL_OFF)], 0),  # clean(): only a race has a dead heat
        (lambda: [act(kind="tug", limit=10**4)], 0),
        (lambda: [act(botch="explode")], 0),
        # Two kinds under one roll (an entry's kind is its game's own: "reroll" is no Exalted kind).
        (lambda: [follow_up("reward"), follow_up("roll")], None),
        (lambda: [follow_up("reward"), follow_up("reward")], 1),
        (lambda: [follow_up("sing")], 0),
        (lambda: [SavedRoll(character=koi, name="")], 0),
        (lambda: [SavedRoll(character=koi, name="Usual", fields={"first": "1"})], None),
        (lambda: [ResourceChange(campaign=campaign, character=koi, action="x" * 41)], 0),
    ]
    for make, refused in cases:
        verdict = agree(make)
        assert (verdict and verdict[0]) == refused, make()
    assert agree(cases[7][0]) == (1, "This roll has already been followed up that way.")


# --- random values, each game's resources and ratings ---------------------------------------------

def _resources(game: str) -> st.SearchStrategy[dict]:
    # The inclusive bounds of the game's numeric columns, beside its model (``bounded``).
    columns = games.get(game).resources
    bounds = {columns.public(name): limits for name, limits in import_module(columns.model.__module__).BOUNDS.items()}
    return st.fixed_dictionaries({name: st.integers(low - 2, high + 2) for name, (low, high) in bounds.items()})


@pytest.mark.parametrize("game", Game.values)
def test_random_resources_get_the_same_verdict(parents, game):
    campaign = parents.campaign(game)
    koi = parents.bare(game, "Koi")

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(values=_resources(game), name=st.sampled_from(["Koi", "", "K" * 121]))
    def check(values, name):
        agree(lambda: [character(campaign, name=name)])
        agree(lambda: [resources(koi, **values)])

    check()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ratings=st.lists(st.integers(-1, 7), min_size=1, max_size=4),
       names=st.lists(st.sampled_from(["", "Shield wall", "shield WALL", "Cuidadoso", "Luck"]), min_size=4, max_size=4),
       keys=st.lists(st.sampled_from(["", "careful", "clever", "strength"]), min_size=4, max_size=4))
def test_random_traits_get_the_same_verdict(parents, ratings, names, keys):
    zara = parents.character()
    agree(lambda: [trait(zara, key=key, name=name, rating=rating, category="stunt" if name and not key else "approach")
                   for rating, name, key in zip(ratings, names, keys)])
