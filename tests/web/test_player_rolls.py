"""Players roll their own characters from the phone (issue 24): each character's own link, the GM's
switch, the composer restricted to the character, the same service, and every refusal with rows unchanged."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from gmtools import backup, player_rolls, services, throttle
from gmtools.games.exalted.models import ExaltedResources
from gmtools.models import Campaign, Change, ChangeKind, Character, CharacterKind, Roll, Scene
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, POOL_TRAITS, set_resources
from tests.web.test_access import changed, make_world, snapshot  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

GAMES = [Game.EXALTED, Game.V5, Game.FATE, Game.SCIFI]
# Faces that make each game's usual pool (3 + 2 dice; Fate's four dF) a success.
FACES = {Game.EXALTED: (8, 8, 3, 2, 1), Game.V5: (7, 8, 2, 3, 4), Game.FATE: (1, 1, 0, 0), Game.SCIFI: (9, 8, 3, 2, 1)}


def table(gm, game: str = Game.V5, *, players_roll: bool = True) -> tuple[Campaign, Character, Character]:
    """A campaign where players roll, with Ana (Lucía's, with a link of her own) and a guard NPC."""
    campaign = Campaign.objects.create(name=f"{game} table", game=game, gm=gm, players_roll=players_roll)
    characters = []
    for name, kind, player in (("Ana", CharacterKind.PC, "Lucía"), ("Guard", CharacterKind.NPC, "")):
        character = Character.objects.create_with_sheet(campaign=campaign, name=name, kind=kind, player=player)
        first, second = POOL_TRAITS[game]
        character.traits.filter(key=first).update(rating=3)
        if second:
            character.traits.filter(key=second).update(rating=2)
        characters.append(character)
    ana, guard = characters
    services.set_character_link(ana, True)
    return campaign, ana, guard


def posted(character: Character, **data) -> dict:
    game = character.campaign.game
    first, second = POOL_TRAITS[game]
    out = {**COMMON, **DEFAULTS[game], "character": character.pk, "first": character.traits.get(key=first).pk}
    if second:
        out["second"] = character.traits.get(key=second).pk
    return {**out, **data}


def roll_url(character: Character) -> str:
    return reverse("player-roll", args=[Character.objects.get(pk=character.pk).player_token])


@pytest.mark.parametrize("game", GAMES)
def test_a_player_rolls_their_character_into_the_log_scene_and_turn(game, gm, scripted_dice):
    campaign, ana, _guard = table(gm, game)
    scene = services.start_scene(campaign, title="The docks")
    phone = Client()
    page = phone.get(reverse("player", args=[ana.player_token]))
    assert page.status_code == 200
    assert b'data-testid="player-composer"' in page.content and b"Roll for Ana" in page.content
    assert b"they appear here as the table rolls" in page.content  # not "as the GM rolls": Lucía rolls too
    scripted_dice(*FACES[game])
    response = phone.post(roll_url(ana), posted(ana, once="7c9e6679-7425-40de-944b-e07fc1f90ae7"))
    assert response.status_code == 200, response.content[:500]
    roll = Roll.objects.get(campaign=campaign)
    assert (roll.character, roll.rolled_by, roll.scene, roll.turn) == (ana, "Lucía", scene, scene.turn)
    assert not roll.hidden and not roll.secret
    assert Change.objects.filter(campaign=campaign, kind=ChangeKind.ROLL, roll=roll, public=True).exists()
    assert b'data-testid="rolled"' in response.content  # the composer again, fresh, saying it rolled
    # The GM's table says who rolled it.
    gm_client = Client()
    gm_client.force_login(gm)
    assert "rolled by Lucía" in gm_client.get(reverse("table", args=[campaign.pk])).content.decode()


class Composer(HTMLParser):
    """What a drawn composer (``#composer``) would post: each field's value as drawn (a checkbox:
    "on" when ticked; a list: its selected options)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        name = attr.get("name")
        ticked = attr.get("type") in ("checkbox", "radio")
        if tag == "input" and name and (not ticked or "checked" in attr):
            self.values.setdefault(name, []).append(attr.get("value") or ("on" if ticked else ""))
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in attr:
            self.values[self._select].append(attr.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


# Each game's one-roll choice (its ``reset_after_roll``), posted with the roll: the next starts without it.
ONE_ROLL = {Game.EXALTED: {"stunt": "1"}, Game.V5: {"specialty": "on"}, Game.FATE: {"stunt_bonus": "1"},
            Game.SCIFI: {"knowledge": "on"}}


@pytest.mark.parametrize("game", GAMES)
def test_after_a_roll_the_phones_composer_keeps_the_players_choices_but_the_one_rolls(game, gm, scripted_dice):
    """The walkthrough of issue 24 (B1): each roll drew the phone's composer afresh, its difficulty and
    traits back to the defaults. As the GM's keeps them, the phone's keeps what the player chose; the
    one roll's choices (the same list: ``ComposerForm.one_roll_fields``) and the faces go, and the
    one-click key is new."""
    campaign, ana, _guard = table(gm, game)
    first = POOL_TRAITS[game][0]
    trait = ana.traits.get(key=first)
    other = ana.traits.filter(category=trait.category).exclude(pk=trait.pk).first()
    other.rating = 1
    other.save()  # a weaker trait than the drawn default (the best pool): the player's own choice
    drawn = Composer(Client().get(reverse("player", args=[ana.player_token])).content.decode()).values
    difficulties = player_rolls.PlayerComposerForm(campaign, ana).fields["difficulty"].choices
    harder = next(str(value) for value, _label in difficulties if str(value) not in drawn["difficulty"])
    once = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
    chosen = posted(ana, first=other.pk, difficulty=harder, modifier=2, once=once, **ONE_ROLL[game])
    # A stunt's dice the more (Exalted's 1 is 2 dice; Fate's four dF stay four): enough either way.
    scripted_dice(*(FACES[game] if game == Game.FATE else (*FACES[game], 9, 9, 9, 9)))
    response = Client().post(roll_url(ana), chosen)
    assert response.status_code == 200, response.content[:500]
    assert Roll.objects.filter(character=ana).count() == 1
    after = Composer(response.content.decode()).values
    assert after["first"] == [str(other.pk)] and after["difficulty"] == [harder] and after["modifier"] == ["2"]
    for name in ONE_ROLL[game]:
        assert after.get(name, []) in ([], ["0"]), name
    assert after["once"] != [once] and after["faces"] == [""]
    assert b'data-testid="rolled"' in response.content
@pytest.mark.parametrize("language, by_table, by_gm", [
    ("en", "they appear here as the table rolls", "they appear here as the GM rolls"),
    ("es", "a medida que tira la mesa", "a medida que tira el DJ"),
])
@pytest.mark.parametrize("players_roll", [True, False])
def test_an_empty_log_says_who_rolls_on_the_gms_table_and_every_link(gm, language, by_table, by_gm, players_roll):
    """The empty log names the table when the campaign lets players roll, the GM when it keeps the
    dice: on the GM's table, the campaign's own link and a character's, the same words."""
    campaign, ana, _guard = table(gm, players_roll=players_roll)
    gm_client = Client()
    gm_client.force_login(gm)
    headers = {"accept-language": language}
    pages = [gm_client.get(reverse("table", args=[campaign.pk]), headers=headers),
             Client().get(reverse("player", args=[campaign.player_token]), headers=headers),
             Client().get(reverse("player", args=[ana.player_token]), headers=headers)]
    said, unsaid = (by_table, by_gm) if players_roll else (by_gm, by_table)
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200 and said in html and unsaid not in html, page.wsgi_request.path


def test_a_character_without_a_player_is_rolled_by_its_name(gm, scripted_dice):
    campaign, ana, _guard = table(gm)
    Character.objects.filter(pk=ana.pk).update(player="")
    scripted_dice(*FACES[Game.V5])
    assert Client().post(roll_url(ana), posted(ana)).status_code == 200
    assert Roll.objects.get(campaign=campaign).rolled_by == "Ana"
    # Its card does not say "Ana · ... · rolled by Ana" (the walkthrough of issue 24): it was the phone.
    gm_client = Client()
    gm_client.force_login(gm)
    page = gm_client.get(reverse("table", args=[campaign.pk])).content.decode()
    assert '<span data-testid="rolled-by">rolled from the phone</span>' in page and "rolled by Ana" not in page


def test_forged_posts_for_another_character_or_campaign_are_refused_rows_unchanged(gm, other_gm):
    campaign, ana, guard = table(gm)
    theirs, bea, _ = table(other_gm)
    phone = Client()
    forged = [
        posted(guard),  # another character of the campaign
        {**posted(ana), "first": guard.traits.get(key="strength").pk},  # another character's trait
        posted(bea),  # another campaign's character
        {**posted(ana), "character": ""},  # an unnamed NPC's roll
        {**posted(ana), "opponent_character": guard.pk, "team": [guard.pk]},  # these fields are the GM's...
    ]
    for data in forged[:4]:
        before = snapshot()
        response = phone.post(roll_url(ana), data)
        assert response.status_code == 422, (data, response.status_code)
        assert changed(before, snapshot()) == [], data
    # ...not the player's: ignored, the roll is Ana's own, unopposed, alone.
    before = Roll.objects.count()
    # (no dice scripted: the system's own; what is checked is what the roll was made of)
    assert phone.post(roll_url(ana), {**forged[4], "hidden": "on", "secret": "on"}).status_code == 200
    roll = Roll.objects.get(campaign=campaign)
    assert Roll.objects.count() == before + 1
    assert "opponent" not in roll.result and "helpers" not in roll.result and not roll.hidden and not roll.secret
    assert not Roll.objects.filter(campaign=theirs).exists()


def test_the_campaigns_link_and_a_closed_table_roll_nothing(gm):
    campaign, ana, _guard = table(gm, players_roll=False)
    phone = Client()
    before = snapshot()
    response = phone.post(roll_url(ana), posted(ana))
    assert response.status_code == 422 and b"rolling from the phone is off" in response.content
    page = phone.get(reverse("player", args=[ana.player_token]))
    assert b'data-testid="rolling-closed"' in page.content and b"hx-post" not in page.content
    services.set_players_roll(campaign, True)
    response = phone.post(reverse("player-roll", args=[campaign.player_token]), posted(ana))
    assert response.status_code == 422 and b"rolls for no character" in response.content
    assert b"player-composer" not in phone.get(reverse("player", args=[campaign.player_token])).content
    assert [t for t in changed(before, snapshot()) if t != "Campaign by pk" and not t.startswith("Change")] == []
    assert not Roll.objects.exists()


def test_a_cut_off_or_renewed_character_link_is_dead_at_once(gm):
    campaign, ana, _guard = table(gm)
    old = Character.objects.get(pk=ana.pk).player_token
    services.set_character_link(ana, True)
    new = Character.objects.get(pk=ana.pk).player_token
    assert new != old
    assert Client().get(reverse("player", args=[old])).status_code == 404
    assert Client().post(reverse("player-roll", args=[old]), posted(ana)).status_code == 404
    assert Client().get(reverse("player", args=[new])).status_code == 200
    services.set_character_link(ana, False)
    assert Client().get(reverse("player", args=[new])).status_code == 404
    assert Client().post(reverse("player-roll", args=[new]), posted(ana)).status_code == 404
    assert not Roll.objects.exists()


def test_a_stuck_button_is_stopped_with_a_clear_message_and_nothing_lost(gm):
    campaign, ana, _guard = table(gm)
    phone = Client()
    for _ in range(throttle.PLAYER_ROLLS):
        assert phone.post(roll_url(ana), posted(ana)).status_code == 200
    before = snapshot()
    response = phone.post(roll_url(ana), posted(ana))
    assert response.status_code == 422
    assert b"Too many rolls in a minute from this phone: nothing was rolled." in response.content
    assert changed(before, snapshot()) == []
    assert Roll.objects.count() == throttle.PLAYER_ROLLS


def test_refused_rolls_do_not_count_toward_the_limit(gm, scripted_dice):
    """The walkthrough of issue 24 (C4): a player fixing typos in the faces was locked out, each refused
    roll counted as one rolled. Only what is recorded counts: after a dozen refusals (faces that are
    none, a count short, a roll the service refuses), the player still has the minute's ten rolls."""
    campaign, ana, _guard = table(gm, Game.EXALTED)
    ExaltedResources.objects.filter(character=ana).update(willpower_temporary=0)
    phone = Client()
    refusals = [{"physical": "on", "faces": "7 8 x 0 1"}, {"physical": "on", "faces": "7 8"},
                {"willpower": "on"}]  # the last one the service refuses: no Willpower left
    for data in refusals * 4:
        before = snapshot()
        assert phone.post(roll_url(ana), posted(ana, **data)).status_code == 422, data
        assert changed(before, snapshot()) == []
    for _ in range(throttle.PLAYER_ROLLS):
        assert phone.post(roll_url(ana), posted(ana, physical="on", faces="7 8 2 0 1")).status_code == 200
    response = phone.post(roll_url(ana), posted(ana, physical="on", faces="7 8 2 0 1"))
    assert response.status_code == 422 and b"Too many rolls in a minute" in response.content
    assert Roll.objects.count() == throttle.PLAYER_ROLLS


def test_refused_follow_ups_do_not_count_toward_the_limit_and_one_taken_does(gm, scripted_dice):
    campaign, ana, _guard = table(gm, Game.V5)
    roll = phone_roll(ana, scripted_dice)
    phone = Client()
    for _ in range(12):
        response = phone.post(follow_up_url(ana, roll, "reroll"), {})  # no die chosen
        assert response.status_code == 422 and b"Pick up to 3" in response.content
    scripted_dice(10)
    assert phone.post(follow_up_url(ana, roll, "reroll"), {"dice": ["0"]}).status_code == 200
    for _ in range(throttle.PLAYER_ROLLS - 2):  # the roll and its reroll made, the rest of the minute's
        phone_roll(ana, scripted_dice)
    response = phone.post(roll_url(ana), posted(ana))
    assert response.status_code == 422 and b"Too many rolls in a minute" in response.content


def test_a_stuck_button_posting_the_same_roll_is_refused_by_its_key_and_counts_once(gm):
    """The same roll posted again and again (a stuck button: the same one-click key) is refused as
    already made before it is counted: the player's next rolls are still theirs to make."""
    campaign, ana, _guard = table(gm)
    phone = Client()
    once = "5b0f7a52-3c1e-4d2a-9e6b-8f4c2d1a0b9e"
    assert phone.post(roll_url(ana), posted(ana, once=once)).status_code == 200
    for _ in range(throttle.PLAYER_ROLLS + 2):
        response = phone.post(roll_url(ana), posted(ana, once=once))
        assert response.status_code == 422 and b"already made" in response.content
    assert Roll.objects.count() == 1
    assert phone.post(roll_url(ana), posted(ana)).status_code == 200  # a new key: a new roll, within the limit
    assert Roll.objects.count() == 2


def test_a_script_posting_refused_rolls_in_a_loop_is_stopped_too(gm, scripted_dice):
    """Refused posts are not free either: past ``throttle.PLAYER_POSTS`` a minute, whatever is posted
    is refused before it is read, a roll that would pass included; nothing written."""
    campaign, ana, _guard = table(gm)
    phone = Client()
    for _ in range(throttle.PLAYER_POSTS):
        assert phone.post(roll_url(ana), posted(ana, physical="on", faces="x")).status_code == 422
    before = snapshot()
    response = phone.post(roll_url(ana), posted(ana))
    assert response.status_code == 422 and b"Too many tries in a minute from this phone" in response.content
    assert changed(before, snapshot()) == [] and not Roll.objects.exists()
    phone.cookies["django_language"] = "es"
    assert "Demasiados intentos en un minuto" in phone.post(roll_url(ana), posted(ana)).content.decode()


def test_one_click_one_roll_from_the_phone_too(gm):
    campaign, ana, _guard = table(gm)
    phone = Client()
    once = "2f1d3c5e-0a4b-4c6d-8e7f-9a0b1c2d3e4f"
    assert phone.post(roll_url(ana), posted(ana, once=once)).status_code == 200
    response = phone.post(roll_url(ana), posted(ana, once=once))
    assert response.status_code == 422 and b"already made" in response.content
    assert Roll.objects.count() == 1


def test_exalteds_willpower_once_a_turn_holds_for_a_player(gm):
    campaign, ana, _guard = table(gm, Game.EXALTED)
    ExaltedResources.objects.filter(character=ana).update(willpower_temporary=3)
    services.start_scene(campaign, title="Duel")
    services.declare_actions(Scene.objects.current(campaign), ana, 2)
    phone = Client()
    assert phone.post(roll_url(ana), posted(ana, willpower="on")).status_code == 200
    before = snapshot()
    response = phone.post(roll_url(ana), posted(ana, willpower="on"))
    assert response.status_code == 422
    assert changed(before, snapshot()) == []
    assert ExaltedResources.objects.get(character=ana).willpower_temporary == 2


def test_the_players_odds_price_the_characters_roll_and_keep_the_gms_fields_out(gm):
    campaign, ana, guard = table(gm)
    phone = Client()
    odds = phone.get(reverse("player-odds", args=[ana.player_token]), posted(ana))
    assert odds.status_code == 200 and b'data-testid="odds"' in odds.content
    odds = phone.get(reverse("player-odds", args=[ana.player_token]), posted(guard))
    assert b'data-testid="odds-error"' in odds.content
    page = phone.get(reverse("player", args=[ana.player_token])).content.decode()
    for name in ("hidden", "secret", "opponent_character", "team", "extended", "shortcut"):
        assert f'name="{name}"' not in page, name
    assert 'name="specialty"' in page and 'name="improvised"' in page  # V5's own fields


def test_the_gm_switches_rolling_on_and_makes_cuts_and_renews_a_characters_link(gm):
    campaign, ana, guard = table(gm, players_roll=False)
    Character.objects.filter(pk=ana.pk).update(player_token=None)
    client = Client()
    client.force_login(gm)
    panel = client.post(reverse("players-roll", args=[campaign.pk]), {"on": "1"})
    assert panel.status_code == 200 and Campaign.objects.get(pk=campaign.pk).players_roll
    assert b'data-testid="make-link"' in panel.content and f"character-link-{guard.pk}".encode() not in panel.content
    panel = client.post(reverse("character-link", args=[campaign.pk, ana.pk]), {"do": "new"})
    token = Character.objects.get(pk=ana.pk).player_token
    assert token and f"/p/{token}/".encode() in panel.content and b'data-testid="character-qr"' in panel.content
    client.post(reverse("character-link", args=[campaign.pk, ana.pk]), {"do": "cut"})
    assert Character.objects.get(pk=ana.pk).player_token is None
    assert client.post(reverse("character-link", args=[campaign.pk, ana.pk]), {"do": "?"}).status_code == 422
    client.post(reverse("players-roll", args=[campaign.pk]), {})
    assert not Campaign.objects.get(pk=campaign.pk).players_roll


def test_the_campaign_file_carries_no_characters_link(gm):
    campaign, ana, _guard = table(gm)
    token = Character.objects.get(pk=ana.pk).player_token
    document = backup.export_campaign(campaign)
    assert token not in str(document)
    copy = backup.import_campaign(document, gm, name="A copy")
    assert not copy.characters.filter(player_token__isnull=False).exists()


# --- a character's link, through the access walk's eyes (tests/web/test_access.py) ------------------

def test_a_characters_link_opens_the_player_pages_and_nothing_of_the_gms(make_world):
    from tests.web.test_access import ACCESS, CAMPAIGN, PLAYER, PLAYER_NAMES, other_method, refused, send, url_of

    world = make_world(Game.V5)
    services.set_players_roll(world.campaign, True)
    services.set_character_link(world.pc, True)
    token = Character.objects.get(pk=world.pc.pk).player_token
    phone = Client()
    for name in PLAYER_NAMES:
        entry = ACCESS[name]
        if name == "player-roll":
            continue  # it writes: below
        response = send(phone, entry.method, url_of(name, world, token=token), entry.data(world))
        # The world's roll is the GM's: not the player's to follow up (their own: the tests below).
        expected = 204 if name == "player-stream" else 422 if name == "player-follow-up" else 200
        assert response.status_code == expected, (name, response.status_code)
        assert world.secret.label.encode() not in response.content, name
    before = snapshot()
    for name, entry in ACCESS.items():
        if entry.scope != CAMPAIGN:
            continue
        for method in (entry.method, other_method(entry.method)):
            response = send(phone, method, url_of(name, world), entry.data(world))
            assert refused(response, {404, 405}), (name, method, response.status_code)
    assert changed(before, snapshot()) == []
    assert PLAYER in {entry.scope for entry in ACCESS.values()}


def test_a_players_roll_needs_the_csrf_token(gm):
    campaign, ana, _guard = table(gm)
    phone = Client(enforce_csrf_checks=True)
    before = snapshot()
    assert phone.post(roll_url(ana), posted(ana)).status_code == 403
    assert changed(before, snapshot()) == []
    # The page hands the token out (htmx sends it as X-CSRFToken): with it the same roll passes.
    assert phone.get(reverse("player", args=[Character.objects.get(pk=ana.pk).player_token])).status_code == 200
    response = phone.post(roll_url(ana), posted(ana), headers={"X-CSRFToken": phone.cookies["csrftoken"].value})
    assert response.status_code == 200 and Roll.objects.filter(campaign=campaign, rolled_by="Lucía").count() == 1


def test_the_gm_voids_a_players_roll_as_any_other(gm):
    campaign, ana, _guard = table(gm, Game.EXALTED)
    Client().post(roll_url(ana), posted(ana, willpower="on"))
    roll = Roll.objects.get(campaign=campaign)
    assert ExaltedResources.objects.get(character=ana).willpower_temporary == 4
    client = Client()
    client.force_login(gm)
    assert client.post(reverse("void", args=[campaign.pk, roll.pk])).status_code == 200
    roll.refresh_from_db()
    assert roll.voided_at is not None and ExaltedResources.objects.get(character=ana).willpower_temporary == 5


def test_a_forged_request_reads_nothing_of_another_character(gm):
    """The composer's fields a game draws itself (Fate's aspects to invoke) are the player's own
    character's, whatever character the request names: an NPC's aspects never reach the phone."""
    from gmtools.games.fate.models import Aspect

    campaign, ana, guard = table(gm, Game.FATE)
    services.start_scene(campaign, title="Docks")
    Aspect.objects.create(character=guard, kind="high_concept", text="Secretly the smuggler king", free_invocations=1)
    Aspect.objects.create(character=ana, kind="high_concept", text="Daring pilot", free_invocations=1)
    phone = Client()
    for data in ({"character": guard.pk}, {"character": ana.pk}):
        field = phone.get(reverse("player-composer-field", args=[ana.player_token, "invoke"]), data)
        assert field.status_code == 200
        assert b"Daring pilot" in field.content and b"smuggler king" not in field.content
    odds = phone.get(reverse("player-odds", args=[ana.player_token]), posted(guard))
    assert b"smuggler king" not in odds.content


def test_exalteds_calm_is_the_gms_ruling_not_the_players(gm, scripted_dice):  # and V5's How: below
    """"Calm: automatic success" is the GM's ruling (RULES.md: the GM may rule it without a roll): not
    offered on the phone, and posted anyway the roll is rolled."""
    campaign, ana, _guard = table(gm, Game.EXALTED)
    ana.traits.filter(key=POOL_TRAITS[Game.EXALTED][0]).update(rating=5)  # 7 dice: the GM could rule it
    page = Client().get(reverse("player", args=[Character.objects.get(pk=ana.pk).player_token])).content.decode()
    assert 'name="calm"' not in page and 'name="stunt"' in page
    scripted_dice(8, 8, 3, 2, 1, 4, 5)
    assert Client().post(roll_url(ana), posted(ana, calm="on")).status_code == 200
    roll = Roll.objects.get(campaign=campaign)
    assert roll.request["shortcut"] == "roll" and roll.result["main"]["faces"] == [8, 8, 3, 2, 1, 4, 5]


def test_v5s_automatic_win_and_taking_half_are_the_storytellers(gm, scripted_dice):
    """V5's How (an automatic win, taking half) skips the dice by the Storyteller's ruling: not offered
    on the phone (the walkthrough of issue 24 was offered "Automatic win"), and posted anyway, rolled."""
    campaign, ana, _guard = table(gm, Game.V5)
    page = Client().get(reverse("player", args=[Character.objects.get(pk=ana.pk).player_token])).content.decode()
    assert 'name="shortcut"' not in page and 'name="specialty"' in page
    scripted_dice(*FACES[Game.V5])
    assert Client().post(roll_url(ana), posted(ana, shortcut="take_half")).status_code == 200
    assert Roll.objects.get(campaign=campaign).request["shortcut"] == "roll"


# --- a player's follow-ups of their own roll (V5's Willpower reroll, Fate's invocation) -------------

def follow_up_url(character: Character, roll: Roll, kind: str) -> str:
    return reverse("player-follow-up", args=[Character.objects.get(pk=character.pk).player_token, roll.pk, kind])


def phone_roll(character: Character, scripted_dice) -> Roll:
    scripted_dice(*FACES[character.campaign.game])
    assert Client().post(roll_url(character), posted(character)).status_code == 200
    return Roll.objects.filter(character=character).latest("id")


def test_a_player_rerolls_their_own_v5_roll_with_willpower(gm, scripted_dice):
    campaign, ana, _guard = table(gm, Game.V5)
    phone = Client()
    roll = phone_roll(ana, scripted_dice)
    page = phone.get(reverse("player", args=[ana.player_token])).content.decode()
    assert 'data-testid="player-follow-ups"' in page and "Willpower: reroll up to 3" in page
    assert follow_up_url(ana, roll, "reroll") in page  # the GM's card's form, posting to the player's URL
    before = ana.resources.willpower_superficial
    scripted_dice(10)
    response = phone.post(follow_up_url(ana, roll, "reroll"), {"dice": ["2"]})
    assert response.status_code == 200, response.content[:500]
    reroll = Roll.objects.get(parent=roll, kind="reroll")
    assert reroll.main["faces"][2] == 10 and reroll.rolled_by == "Lucía"  # taken from her phone, as the roll
    assert Character.objects.get(pk=ana.pk).resources.willpower_superficial == before + 1  # the same spend
    assert b'data-testid="followed"' in response.content and b"Willpower reroll" in response.content
    assert b"Willpower: reroll up to 3" not in response.content  # once per roll: no longer offered
    # Drawn again after a change at the table: the GM voids the roll, and nothing is offered on it.
    follow_ups = reverse("player-follow-ups", args=[ana.player_token])
    scripted_dice(*FACES[Game.V5])
    assert phone.post(roll_url(ana), posted(ana)).status_code == 200
    assert b"Willpower: reroll up to 3" in phone.get(follow_ups).content
    gm_client = Client()
    gm_client.force_login(gm)
    assert gm_client.post(reverse("void", args=[campaign.pk, Roll.objects.latest("id").pk])).status_code == 200
    assert b"player-follow-ups\"" in phone.get(follow_ups).content
    assert b"Willpower: reroll up to 3" not in phone.get(follow_ups).content
    assert Change.objects.filter(campaign=campaign, kind=ChangeKind.ROLL, roll=reroll, public=True).exists()


def test_a_player_invokes_an_aspect_after_their_own_fate_roll(gm, scripted_dice):
    from gmtools.games.fate.models import Aspect

    campaign, ana, _guard = table(gm, Game.FATE)
    pilot = Aspect.objects.create(character=ana, kind="high_concept", text="Daring pilot", free_invocations=1)
    phone = Client()
    roll = phone_roll(ana, scripted_dice)
    page = phone.get(reverse("player", args=[ana.player_token])).content.decode()
    assert "Daring pilot" in page and follow_up_url(ana, roll, "invoke") in page
    response = phone.post(follow_up_url(ana, roll, "invoke"), {"aspect": pilot.pk, "mode": "bonus"})
    assert response.status_code == 200, response.content[:500]
    invoked = Roll.objects.get(parent=roll, kind="invoke")
    assert invoked.result["main"]["total"] == roll.result["main"]["total"] + 2
    assert Aspect.objects.get(pk=pilot.pk).free_invocations == 0  # the free invocation used first, as the GM's
    assert b'data-testid="followed"' in response.content


def test_a_players_follow_ups_are_refused_off_their_own_standing_phone_roll_rows_unchanged(gm, scripted_dice):
    campaign, ana, guard = table(gm, Game.V5)
    services.set_character_link(guard, True)
    gm_client = Client()
    gm_client.force_login(gm)
    phone = Client()
    theirs = phone_roll(guard, scripted_dice)  # another character's roll from its own phone
    scripted_dice(*FACES[Game.V5])
    assert gm_client.post(reverse("roll", args=[campaign.pk]), posted(ana)).status_code == 200
    gms = Roll.objects.filter(character=ana).latest("id")  # the GM's roll of Ana: not Lucía's
    assert gms.rolled_by == ""
    voided = phone_roll(ana, scripted_dice)
    assert gm_client.post(reverse("void", args=[campaign.pk, voided.pk])).status_code == 200
    own = phone_roll(ana, scripted_dice)
    campaign_link = reverse("player-follow-up", args=[campaign.player_token, own.pk, "reroll"])
    refused = [
        (follow_up_url(ana, theirs, "reroll"), "last roll from this phone"),
        (follow_up_url(ana, gms, "reroll"), "last roll from this phone"),
        (follow_up_url(ana, voided, "reroll"), "last roll from this phone"),
        (follow_up_url(ana, own, "invoke"), "Fate character"),  # a kind this game does not offer
        (follow_up_url(ana, own, "reroll"), "Pick up to 3"),  # no dice chosen
        (campaign_link, "rolls for no character"),
    ]
    for url, words in refused:
        before = snapshot()
        response = phone.post(url, {} if words == "Pick up to 3" else {"dice": ["0"]})
        assert response.status_code == 422 and words in response.content.decode(), (url, response.content[:300])
        assert changed(before, snapshot()) == [], url
    scripted_dice(10)
    assert phone.post(follow_up_url(ana, own, "reroll"), {"dice": ["0"]}).status_code == 200
    before = snapshot()
    twice = phone.post(follow_up_url(ana, own, "reroll"), {"dice": ["1"]})
    assert twice.status_code == 422 and b"already been followed up" in twice.content
    assert changed(before, snapshot()) == []
    services.set_players_roll(campaign, False)  # the GM takes the dice back
    other = Roll.objects.get(parent=own)
    before = snapshot()
    closed = phone.post(follow_up_url(ana, other, "reroll"), {"dice": ["0"]})
    assert closed.status_code == 422 and b"rolling from the phone is off" in closed.content
    assert changed(before, snapshot()) == []


def test_exalteds_stunt_reward_stays_the_gms(gm, scripted_dice):
    campaign, ana, _guard = table(gm, Game.EXALTED)
    scripted_dice(*FACES[Game.EXALTED], 9, 9)  # a stunt's two dice more
    assert Client().post(roll_url(ana), posted(ana, stunt=1)).status_code == 200
    roll = Roll.objects.get(character=ana)
    assert b"Stunt reward" not in Client().get(reverse("player", args=[ana.player_token])).content
    before = snapshot()
    response = Client().post(follow_up_url(ana, roll, "reward"), {"choice": "motes"})
    assert response.status_code == 422 and b"to give on this roll" in response.content
    assert changed(before, snapshot()) == []


def test_a_players_follow_up_needs_the_csrf_token_and_keeps_to_the_rolls_limit(gm, scripted_dice, monkeypatch):
    campaign, ana, _guard = table(gm, Game.V5)
    roll = phone_roll(ana, scripted_dice)
    phone = Client(enforce_csrf_checks=True)
    before = snapshot()
    assert phone.post(follow_up_url(ana, roll, "reroll"), {"dice": ["0"]}).status_code == 403
    assert changed(before, snapshot()) == []
    monkeypatch.setattr(throttle, "player_roll_refused", lambda character_id: True)
    response = Client().post(follow_up_url(ana, roll, "reroll"), {"dice": ["0"]})
    assert response.status_code == 422 and b"Too many rolls in a minute" in response.content
    assert changed(before, snapshot()) == []


@pytest.mark.parametrize("game", [Game.EXALTED, Game.SCIFI])  # no follow-up to show in its place
def test_the_phone_says_beside_the_composer_that_the_gm_voided_its_last_roll(game, gm, scripted_dice):
    campaign, ana, _guard = table(gm, game)
    follow_ups = reverse("player-follow-ups", args=[ana.player_token])
    roll = phone_roll(ana, scripted_dice)
    assert b'data-testid="voided-last"' not in Client().get(follow_ups).content
    gm_client = Client()
    gm_client.force_login(gm)
    assert gm_client.post(reverse("void", args=[campaign.pk, roll.pk])).status_code == 200
    said = Client().get(follow_ups, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'data-testid="voided-last"' in said and "El DJ anuló tu última tirada" in said
    phone_roll(ana, scripted_dice)  # the next roll stands: nothing to say
    assert b'data-testid="voided-last"' not in Client().get(follow_ups).content
