"""The migration that moved each game's columns into its own tables (issue 21) moves every existing
character's resources and campaign's state, and the one-click changes' names of them; backwards, they
come back. Rows are written as the database stood before it, through the historical models."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("gmtools", "0014_extended_tie_break"), ("exalted", None), ("v5", None), ("fate", None), ("scifi", None)]
AFTER = [("gmtools", "0015_game_columns_to_their_games"), ("exalted", "0001_initial"), ("v5", "0001_initial"),
         ("fate", "0001_initial"), ("scifi", "0001_initial")]

# Each game's columns as they stood on every character (campaign), none at its default.
CHARACTER_COLUMNS = {
    "exalted": {"exalted_essence": 3, "exalted_willpower": 8, "exalted_willpower_temporary": 6, "exalted_motes": 9,
                "exalted_motes_max": 15, "exalted_compassion": 2, "exalted_conviction": 4, "exalted_temperance": 3,
                "exalted_valor": 5, "exalted_limit": 2},
    "v5": {"v5_hunger": 4, "v5_humanity": 6, "v5_blood_potency": 2, "v5_health_superficial": 1,
           "v5_health_aggravated": 2, "v5_willpower_superficial": 3, "v5_willpower_aggravated": 1},
    "fate": {"fate_points": 5, "fate_refresh": 2, "fate_stress_1": True, "fate_stress_3": True,
             "fate_consequence_mild": "Bruised ribs", "fate_consequence_severe": "Broken arm"},
    "scifi": {"scifi_action_slots": 3, "scifi_health": 4, "scifi_health_max": 12, "scifi_in_adventure": True},
}
CAMPAIGN_COLUMNS = {"fate": {"fate_uses_deck": True, "fate_deck": [80, 3, 41]}, "scifi": {"scifi_adventure_open": True}}
MODELS = {"exalted": "ExaltedResources", "v5": "V5Resources", "fate": "FateResources", "scifi": "ScifiResources"}
STATES = {"fate": "FateState", "scifi": "ScifiState"}


def _migrate(targets):
    """The database migrated to ``targets`` (an app at None: none of its migrations), and its models then."""
    MigrationExecutor(connection).migrate(targets)
    return MigrationExecutor(connection).loader.project_state([t for t in targets if t[1] is not None]).apps


def _fill(apps, user_id: int) -> dict[str, list[int]]:
    """Two characters of each game (one with its columns set, one at the defaults) and a one-click change."""
    Campaign, Character = apps.get_model("gmtools", "Campaign"), apps.get_model("gmtools", "Character")
    ResourceChange = apps.get_model("gmtools", "ResourceChange")
    made = {}
    for game, columns in CHARACTER_COLUMNS.items():
        campaign = Campaign.objects.create(name=f"Old {game}", game=game, gm_id=user_id, player_token=f"token-{game}-0123456789",
                                           **CAMPAIGN_COLUMNS.get(game, {}))
        set_up = Character.objects.create(campaign=campaign, name="Set", **columns)
        plain = Character.objects.create(campaign=campaign, name="Plain")
        name, value = next(iter(columns.items()))
        ResourceChange.objects.create(campaign=campaign, character=set_up, action="click", before={name: value},
                                      after={name: value})
        made[game] = [set_up.pk, plain.pk, campaign.pk]
    return made


def test_every_character_and_campaign_keeps_its_columns_in_its_games_table_and_back(django_user_model):
    user = django_user_model.objects.create_user("old-gm")
    old = _migrate(BEFORE)
    made = _fill(old, user.pk)
    Character = old.get_model("gmtools", "Character")
    defaults = {game: {f.name: f.get_default() for f in Character._meta.local_fields if f.name.startswith(f"{game}_")}
                for game in CHARACTER_COLUMNS}

    new = _migrate(AFTER)
    for game, columns in CHARACTER_COLUMNS.items():
        rows = new.get_model(game, MODELS[game]).objects
        set_up, plain, campaign = made[game]
        assert {f"{game}_{k}": v for k, v in rows.filter(pk=set_up).values().get().items() if k != "character_id"} \
            == {**defaults[game], **columns}
        assert {f"{game}_{k}": v for k, v in rows.filter(pk=plain).values().get().items() if k != "character_id"} \
            == defaults[game]
        change = new.get_model("gmtools", "ResourceChange").objects.get(campaign_id=campaign)
        name, value = next(iter(columns.items()))
        assert change.before == change.after == {name.removeprefix(f"{game}_"): value}
        if game in STATES:
            state = new.get_model(game, STATES[game]).objects.get(pk=campaign)
            assert {f"{game}_{k}": v for k, v in state.__dict__.items() if f"{game}_{k}" in CAMPAIGN_COLUMNS[game]} \
                == CAMPAIGN_COLUMNS[game]
    # No game's row for another game's character.
    assert new.get_model("v5", "V5Resources").objects.count() == 2

    back = _migrate(BEFORE)
    Character = back.get_model("gmtools", "Character")
    for game, columns in CHARACTER_COLUMNS.items():
        set_up, plain, campaign = made[game]
        assert Character.objects.filter(pk=set_up).values(*columns).get() == columns
        name, value = next(iter(columns.items()))
        assert back.get_model("gmtools", "ResourceChange").objects.get(campaign_id=campaign).before == {name: value}
        if game in STATES:
            assert back.get_model("gmtools", "Campaign").objects.filter(pk=campaign).values(
                *CAMPAIGN_COLUMNS[game]).get() == CAMPAIGN_COLUMNS[game]
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_fates_aspects_move_to_fates_app_rows_and_ids_kept_and_back(django_user_model):
    user = django_user_model.objects.create_user("old-fate-gm")
    before = [("gmtools", "0016_roll_kinds_are_the_games"), ("fate", "0001_initial")]
    after = [("gmtools", "0017_aspects_to_fate"), ("fate", "0002_aspect")]
    old = _migrate(before)
    campaign = old.get_model("gmtools", "Campaign").objects.create(name="Old fate", game="fate", gm_id=user.pk,
                                                                     player_token="token-aspects-0123456789")
    hero = old.get_model("gmtools", "Character").objects.create(campaign=campaign, name="Zara")
    Aspect = old.get_model("gmtools", "Aspect")
    rows = [Aspect.objects.create(character=hero, kind="high_concept", text="Daring pilot"),
            Aspect.objects.create(character=hero, text="Owes the mob", free_invocations=2, boost=True)]
    stored = list(Aspect.objects.values().order_by("id"))

    new = _migrate(after)
    moved = new.get_model("fate", "Aspect")
    assert list(moved.objects.values().order_by("id")) == stored
    assert moved._meta.db_table == "fate_aspect"
    # A new aspect takes an id after the moved ones, and the table's rules still hold there.
    assert moved.objects.create(character_id=hero.pk, text="Lucky").pk > rows[-1].pk
    with pytest.raises(IntegrityError), transaction.atomic():
        moved.objects.create(character_id=hero.pk, kind="high_concept", text="A second high concept")

    back = _migrate(before)
    assert list(back.get_model("gmtools", "Aspect").objects.values("id", "text").order_by("id"))[:2] == \
        [{"id": row["id"], "text": row["text"]} for row in stored]
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def _old_campaign(apps, user, game: str):
    """A campaign of ``game`` written through the historical models."""
    return apps.get_model("gmtools", "Campaign").objects.create(name=f"Old {game}", game=game, gm_id=user.pk,
                                                                player_token=f"token-old-{game}-0123456789")


def test_fates_consequences_keep_their_text_and_are_nobodys_free_invocation_and_back(django_user_model):
    """Issue 23: whose free invocation a consequence is (Fate Core) is a new column per consequence;
    every consequence already taken keeps its text and is nobody's, and backwards the texts stay."""
    user = django_user_model.objects.create_user("old-consequences-gm")
    before = [("gmtools", "0019_roll_once_key"), ("fate", "0002_aspect")]
    after = [("fate", "0003_consequence_free_invocation")]
    old = _migrate(before)
    campaign = _old_campaign(old, user, "fate")
    Character, Resources = old.get_model("gmtools", "Character"), old.get_model("fate", "FateResources")
    hurt = Resources.objects.create(character=Character.objects.create(campaign=campaign, name="Zara"), points=1,
                                    consequence_mild="Bruised ribs", consequence_severe="Broken arm")
    whole = Resources.objects.create(character=Character.objects.create(campaign=campaign, name="Koi"))
    stored = list(Resources.objects.values().order_by("pk"))

    new = _migrate(after)
    rows = list(new.get_model("fate", "FateResources").objects.values().order_by("pk"))
    nobody = {f"consequence_{severity}_free_for_id": None for severity in ("mild", "moderate", "severe")}
    assert rows == [{**row, **nobody} for row in stored]
    new.get_model("fate", "FateResources").objects.filter(pk=hurt.pk).update(consequence_mild_free_for_id=whole.pk)

    back = _migrate(before)
    assert list(back.get_model("fate", "FateResources").objects.values().order_by("pk")) == stored
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_an_extended_actions_traits_are_new_columns_empty_on_the_actions_made_before(django_user_model):
    """Issue 23: an extended action keeps the traits it is rolled with; an action made before keeps
    every column and names none (its next roll with traits will), and backwards it is as it was."""
    user = django_user_model.objects.create_user("old-extended-gm")
    before = [("gmtools", "0019_roll_once_key"), ("fate", "0003_consequence_free_invocation")]
    after = [("gmtools", "0020_extended_action_traits")]
    old = _migrate(before)
    campaign = _old_campaign(old, user, "exalted")
    koi = old.get_model("gmtools", "Character").objects.create(campaign=campaign, name="Koi")
    Action = old.get_model("gmtools", "ExtendedAction")
    Action.objects.create(campaign=campaign, character=koi, name="Climb the wall", traits="Strength + Athletics",
                          goal=10, pool=4, total=3, rolls=2)
    Action.objects.create(campaign=campaign, name="Research", goal=5)
    stored = list(Action.objects.values().order_by("id"))

    new = _migrate(after)
    assert list(new.get_model("gmtools", "ExtendedAction").objects.values().order_by("id")) == [
        {**row, "first_id": None, "second_id": None} for row in stored]

    back = _migrate(before)
    assert list(back.get_model("gmtools", "ExtendedAction").objects.values().order_by("id")) == stored
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
