"""Issue 23, items 6 and 7, server side (Fate): a consequence is an aspect anyone in play invokes;
an invocation after the roll names its aspect; a roll's follow-ups are lines on its one card
(table, phone, TV, recap), its headline the total of the last entry standing.

The browser side (under the settings ``make run`` ships, both languages) is in
test_browser_issue23_fate.py. Every roll draws scripted faces.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from gmtools import services
from gmtools.games.fate.models import Aspect, FateResources
from gmtools.models import Campaign, Character, Roll
from tests.games import Game
from tests.web.helpers import COMMON, DEFAULTS, Faces, compose_and_roll

pytestmark = pytest.mark.django_db

ZEROS = (0, 0, 0, 0)


@pytest.fixture
def hero(make_character, set_ratings) -> Character:
    character = make_character(Game.FATE, name="Zara", fate_points=3)
    set_ratings(character, forceful=2)
    Aspect.objects.create(character=character, kind="high_concept", text="Free-spirited pilot")
    return character


@pytest.fixture
def guard(hero) -> Character:
    """The opposition, in the scene, with a consequence on its card."""
    guard = Character.objects.create_with_sheet(campaign=hero.campaign, name="Fortress guard", kind="npc")
    FateResources.objects.filter(character=guard).update(points=1, consequence_moderate="Broken nose")
    return guard


@pytest.fixture
def scene(hero, guard):
    scene = services.start_scene(hero.campaign, title="At the gate")  # the PCs join it
    services.join_scene(scene, guard)
    assert set(scene.participants.values_list("character_id", flat=True)) == {hero.pk, guard.pk}
    return scene


def compose(client, character: Character, **data) -> dict:
    return {**COMMON, **DEFAULTS[Game.FATE], "character": character.pk,
            "first": character.traits.get(key="forceful").pk, "difficulty": 4, **data}


def roll_through_table(client, scripted_dice, character: Character, **data) -> Roll:
    scripted_dice(*ZEROS)
    answer = client.post(reverse("roll", args=[character.campaign_id]), compose(client, character, **data))
    assert answer.status_code == 200, answer.content.decode()[:500]
    return Roll.objects.filter(parent__isnull=True).latest("id")


def invoke(client, entry: Roll, aspect, mode: str = "bonus"):
    return client.post(reverse("follow-up", args=[entry.campaign_id, entry.pk, "invoke"]),
                       {"aspect": aspect, "mode": mode})


def points(character: Character) -> int:
    return FateResources.objects.get(character=character).points


def cards(html: str) -> list[str]:
    return re.findall(r'<article class="card roll-card[^"]*" id="roll-(\d+)"', html)


def text(html: str) -> str:
    return html.replace("&ldquo;", "“").replace("&rdquo;", "”").replace("&#x27;", "'")


# --- item 6: a consequence is invoked like an aspect ------------------------------------------------

def test_the_composer_offers_the_consequences_in_play_and_a_roll_invokes_one(gm_client, hero, guard, scene,
                                                                              scripted_dice):
    FateResources.objects.filter(character=hero).update(consequence_mild="Bruised ribs")
    key = f"consequence:{guard.pk}:moderate"
    page = text(gm_client.get(reverse("composer", args=[hero.campaign_id]), {"character": hero.pk}).content.decode())
    assert "Broken nose (Fortress guard, moderate consequence)" in page and "Bruised ribs (mild consequence)" in page
    logged = roll_through_table(gm_client, scripted_dice, hero, invoke_consequence=[key])
    assert logged.result["main"]["total"] == 4  # Forceful 2, the dice 0, +2 for the broken nose
    assert points(hero) == 2 and points(guard) == 1  # the roller pays
    assert logged.result["invoked"] == [{"aspect": key, "paid": "fate_point"}]
    # The GM invokes the PC's consequence for the opposition, with the guard's fate point.
    against = roll_through_table(gm_client, scripted_dice, guard,
                                 invoke_consequence=[f"consequence:{hero.pk}:mild"], first="")
    assert against.result["main"]["total"] == 2 and points(guard) == 0


def test_a_consequence_needs_a_fate_point_and_one_gone_since_is_refused(gm_client, hero, guard, scene,
                                                                          scripted_dice):
    key = f"consequence:{guard.pk}:moderate"
    FateResources.objects.filter(character=guard).update(consequence_moderate="")
    answer = gm_client.post(reverse("roll", args=[hero.campaign_id]), compose(gm_client, hero, invoke_consequence=[key]))
    assert answer.status_code == 422 and not Roll.objects.exists() and points(hero) == 3
    FateResources.objects.filter(character=hero).update(points=0)
    FateResources.objects.filter(character=guard).update(consequence_moderate="Broken nose")
    page = gm_client.get(reverse("composer", args=[hero.campaign_id]), {"character": hero.pk}).content.decode()
    assert "Broken nose" not in page  # nothing to pay with


def test_the_card_invokes_a_consequence_after_the_roll_once(gm_client, hero, guard, scene, scripted_dice):
    logged = roll_through_table(gm_client, scripted_dice, hero)
    key = f"consequence:{guard.pk}:moderate"
    card = text(gm_client.get(reverse("table", args=[hero.campaign_id])).content.decode())
    assert f'<option value="{key}">Broken nose (Fortress guard, moderate consequence)</option>' in card
    answer = invoke(gm_client, logged, key)
    assert answer.status_code == 200
    entry = Roll.objects.get(parent=logged)
    assert entry.result["main"]["total"] == 4 and entry.result["invoke"]["aspect"] == "Broken nose"
    assert points(hero) == 2
    again = invoke(gm_client, entry, key)
    assert again.status_code == 422 and "already invoked on this roll" in text(again.content.decode())
    assert points(hero) == 2 and Roll.objects.count() == 2


# --- item 7: an invocation names its aspect; one card per roll ---------------------------------------

def test_an_invocation_without_an_aspect_is_refused_and_spends_nothing(gm_client, hero, scene, scripted_dice):
    logged = roll_through_table(gm_client, scripted_dice, hero)
    page = text(gm_client.get(reverse("table", args=[hero.campaign_id])).content.decode())
    form = page.split("invoke-form", 1)[1].split("</form>", 1)[0]
    assert '<option value="">Choose an aspect…</option>' in form and "Fate point</option>" not in form
    for posted in ("", None):
        answer = gm_client.post(reverse("follow-up", args=[hero.campaign_id, logged.pk, "invoke"]),
                                {"mode": "bonus", **({"aspect": posted} if posted is not None else {})})
        assert answer.status_code == 422
        assert "Choose the aspect to invoke: an invocation names its aspect." in answer.content.decode()
    assert points(hero) == 3 and Roll.objects.count() == 1


def test_a_roll_and_its_invocations_are_one_card_everywhere(gm_client, client, hero, guard, scene, scripted_dice):
    logged = roll_through_table(gm_client, scripted_dice, hero)  # +2 against +4: a fail
    pilot = hero.aspects.get().pk
    first = invoke(gm_client, logged, pilot)
    # The answer redraws the roll's own card (htmx swaps it in place), not a new one.
    assert cards(first.content.decode()) == [str(logged.pk)]
    entry = Roll.objects.get(parent=logged)
    second = invoke(gm_client, entry, f"consequence:{guard.pk}:moderate")
    assert cards(second.content.decode()) == [str(logged.pk)]
    last = Roll.objects.get(parent=entry)
    assert last.result["main"]["total"] == 6 and points(hero) == 1
    token = Campaign.objects.get(pk=hero.campaign_id).player_token
    pages = {"table": gm_client.get(reverse("table", args=[hero.campaign_id])),
             "log": gm_client.get(reverse("log", args=[hero.campaign_id])),
             "phone": client.get(reverse("player", args=[token])),
             "tv": client.get(reverse("player-tv", args=[token]))}
    for name, page in pages.items():
        html = text(page.content.decode())
        assert cards(html) == [str(logged.pk)], name
        card = html.split(f'id="roll-{logged.pk}"', 1)[1].split("</article>", 1)[0]
        # The headline: the last total (+6 against +4: a success), each invocation a line.
        count = re.search(r'data-testid="count">([^<]*)<', card).group(1)
        assert "total +6" in count and "shifts +2" in count, name
        assert re.search(r'data-testid="verdict">Success<', card), name
        assert card.count('class="follow-up"') == 2, name
        assert "1 fate point (Free-spirited pilot)" in card and "1 fate point (Broken nose)" in card, name
    # The recap: one line for the roll, with the final result, and a line under it for each invocation.
    recap = text(client.get(reverse("player-recap", args=[token]), {"part": "scene"}).content.decode())
    rolls = [line for line in recap.splitlines() if line.startswith("- ")]
    assert len(rolls) == 1 and "**Success (total +6 · shifts +2)**" in rolls[0]
    invocations = [line for line in recap.splitlines() if line.startswith("  - ") and "Invocation" in line]
    assert len(invocations) == 2 and "total +4" in invocations[0] and "Broken nose" in invocations[1]


def test_voiding_an_invocation_keeps_the_card_with_the_total_before_it(gm_client, hero, guard, scene, scripted_dice):
    logged = roll_through_table(gm_client, scripted_dice, hero)
    invoke(gm_client, logged, hero.aspects.get().pk)
    entry = Roll.objects.get(parent=logged)
    answer = gm_client.post(reverse("void", args=[hero.campaign_id, entry.pk]))
    html = text(answer.content.decode())
    assert answer.status_code == 200 and cards(html) == [str(logged.pk)]
    card = html.split(f'id="roll-{logged.pk}"', 1)[1].split("</article>", 1)[0]
    assert "total +2" in re.search(r'data-testid="count">([^<]*)<', card).group(1)
    assert "follow-up-voided" in card and "Voided by gm" in card and points(hero) == 3
    # The roll itself still stands and can be voided (its card struck through).
    answer = gm_client.post(reverse("void", args=[hero.campaign_id, logged.pk]))
    assert answer.status_code == 200 and "roll-card mb-2 roll-voided" in answer.content.decode()


def test_a_v5_willpower_reroll_is_on_its_roll_s_card_too(gm_client, make_character, set_ratings):
    vampire = make_character(Game.V5, name="Koi", v5_hunger=0)
    set_ratings(vampire, strength=3, brawl=2, composure=2, resolve=2)
    logged = compose_and_roll(vampire.campaign, vampire, (1, 2, 3, 4, 5), difficulty=2)  # no success: a failure
    reroll = services.follow_up(logged, "reroll", Faces(10, 10, 6), dice=[0, 1, 2])
    html = text(gm_client.get(reverse("table", args=[vampire.campaign_id])).content.decode())
    assert cards(html) == [str(logged.pk)]
    card = html.split(f'id="roll-{logged.pk}"', 1)[1].split("</article>", 1)[0]
    assert f'id="follow-up-{reroll.pk}"' in card and "Willpower reroll" in card
    # The headline shows the reroll's dice and verdict (a critical: two tens).
    assert logged.outcome != "win" and reroll.outcome == "win" and re.search(r'data-testid="verdict">Critical', card)


def test_an_invocation_keeps_the_card_the_roll_drew_on_its_card(gm_client, hero, scene):
    """The second walkthrough: with the Fate deck, the card's "Fate deck card 52" line went away once an
    invocation's +2 became the card's headline (the same card still gives the dice)."""
    from gmtools.games.fate.models import FateState

    FateState.objects.filter(pk=hero.campaign_id).update(uses_deck=True, deck=[52, 3])
    answer = gm_client.post(reverse("roll", args=[hero.campaign_id]), compose(gm_client, hero))
    assert answer.status_code == 200
    logged = Roll.objects.get()
    assert "Fate deck card 52" in answer.content.decode()
    card = invoke(gm_client, logged, hero.aspects.get().pk).content.decode()
    assert cards(card) == [str(logged.pk)] and card.count("Fate deck card 52") == 1
    entry = Roll.objects.get(parent=logged)
    assert entry.result["main"]["total"] == logged.result["main"]["total"] + 2
    assert FateState.objects.get(pk=hero.campaign_id).deck == [3]  # no card drawn for the +2


# --- issue 23 leftovers: whoever inflicted a consequence invokes it once for free (Fate Core) ----------

def write_consequence(client, character: Character, text: str, by: Character | str | None, severity: str = "moderate"):
    """The card's consequence field as the GM changes it: its text and who inflicted it."""
    data = {"action": f"consequence-{severity}", "value": text}
    if by is not None:
        data["by"] = str(getattr(by, "pk", by))
    return client.post(reverse("adjust", args=[character.campaign_id, character.pk]), data)


def free_for(character: Character, severity: str = "moderate") -> int | None:
    return getattr(FateResources.objects.get(character=character), f"consequence_{severity}_free_for_id")


def test_whoever_inflicted_a_consequence_invokes_it_once_for_free_and_a_void_gives_it_back(
        gm_client, hero, guard, scene, scripted_dice):
    key = f"consequence:{guard.pk}:moderate"
    answer = write_consequence(gm_client, guard, "Broken nose", hero)
    assert answer.status_code == 200 and free_for(guard) == hero.pk
    # The guard's card says whose free invocation it is.
    assert f'<option value="{hero.pk}" selected>free for Zara</option>' in text(answer.content.decode())
    FateResources.objects.filter(character=hero).update(points=0)
    page = text(gm_client.get(reverse("composer", args=[hero.campaign_id]), {"character": hero.pk}).content.decode())
    assert "Broken nose (Fortress guard, moderate consequence, free)" in page  # offered without a fate point
    logged = roll_through_table(gm_client, scripted_dice, hero, invoke_consequence=[key])
    assert logged.result["main"]["total"] == 4 and points(hero) == 0
    assert logged.result["invoked"] == [{"aspect": key, "paid": "free_invocation"}]
    assert free_for(guard) is None  # once
    page = text(gm_client.get(reverse("composer", args=[hero.campaign_id]), {"character": hero.pk}).content.decode())
    assert "Broken nose" not in page  # a fate point now, and Zara has none
    assert gm_client.post(reverse("void", args=[hero.campaign_id, logged.pk])).status_code == 200
    assert free_for(guard) == hero.pk and points(hero) == 0


def test_the_free_invocation_after_the_roll_is_once_and_the_others_pay(gm_client, hero, guard, scene, scripted_dice):
    other = Character.objects.create_with_sheet(campaign=hero.campaign, name="Ana", kind="pc")
    services.join_scene(scene, other)
    write_consequence(gm_client, guard, "Broken nose", hero)
    key = f"consequence:{guard.pk}:moderate"
    # Ana did not inflict it: she pays a fate point, and Zara keeps her free invocation.
    theirs = roll_through_table(gm_client, scripted_dice, other, invoke_consequence=[key], first="")
    assert theirs.spends[0]["what"] == "fate_point" and points(other) == 2 and free_for(guard) == hero.pk
    logged = roll_through_table(gm_client, scripted_dice, hero)
    card = text(gm_client.get(reverse("table", args=[hero.campaign_id])).content.decode())
    assert f'<option value="{key}">Broken nose (Fortress guard, moderate consequence, free)</option>' in card
    assert invoke(gm_client, logged, key).status_code == 200
    entry = Roll.objects.get(parent=logged)
    assert entry.spends[0]["what"] == "free_invocation" and points(hero) == 3 and free_for(guard) is None
    assert gm_client.post(reverse("void", args=[hero.campaign_id, entry.pk])).status_code == 200
    assert free_for(guard) == hero.pk and points(hero) == 3
    # A void gives back no free invocation that stands on it again, nor on a consequence cleared since.
    again = roll_through_table(gm_client, scripted_dice, hero, invoke_consequence=[key])
    write_consequence(gm_client, guard, "", None)
    assert gm_client.post(reverse("void", args=[hero.campaign_id, again.pk])).status_code == 200
    assert free_for(guard) is None


def test_who_inflicted_a_consequence_is_kept_renamed_and_forgotten_cleared(gm_client, hero, guard, scene):
    write_consequence(gm_client, guard, "Broken nose", hero)
    write_consequence(gm_client, guard, "Broken, bleeding nose", None)  # not said: as it was
    assert free_for(guard) == hero.pk
    write_consequence(gm_client, guard, "Broken, bleeding nose", "")  # nobody
    assert free_for(guard) is None
    write_consequence(gm_client, guard, "Broken, bleeding nose", hero)
    write_consequence(gm_client, guard, "", hero)  # healed: nobody's free invocation
    assert free_for(guard) is None
    # The Undo walks back to the consequence and whose free invocation it was.
    assert gm_client.post(reverse("undo", args=[hero.campaign_id])).status_code == 200
    assert free_for(guard) == hero.pk


@pytest.mark.parametrize("by", ["self", "elsewhere", "12abc", "99999999999"])
def test_who_inflicted_a_consequence_is_another_character_of_the_campaign(gm_client, hero, guard, make_character, by):
    stranger = make_character(Game.FATE, name="Stranger")  # of another campaign
    chosen = {"self": str(guard.pk), "elsewhere": str(stranger.pk)}.get(by, by)
    answer = write_consequence(gm_client, guard, "Broken nose", chosen)
    assert answer.status_code == 422
    assert "Choose who inflicted it among the other characters of the campaign." in text(answer.content.decode())
    row = FateResources.objects.get(character=guard)
    assert row.consequence_moderate == "Broken nose" and row.consequence_moderate_free_for_id is None  # as it was


def test_the_undo_of_a_consequence_cleared_forgets_a_character_deleted_since(gm_client, hero, guard, scene):
    ana = Character.objects.create_with_sheet(campaign=hero.campaign, name="Ana", kind="pc")
    write_consequence(gm_client, guard, "Broken nose", ana)
    write_consequence(gm_client, guard, "", None)
    ana.delete()
    assert gm_client.post(reverse("undo", args=[hero.campaign_id])).status_code == 200
    row = FateResources.objects.get(character=guard)
    assert row.consequence_moderate == "Broken nose" and row.consequence_moderate_free_for_id is None


def test_the_sheet_names_who_inflicted_each_consequence_among_the_campaigns_others(gm_client, hero, guard,
                                                                                   make_character):
    from tests.web.character_data import sheet_post

    stranger = make_character(Game.FATE, name="Stranger")
    url = reverse("character-edit", args=[hero.campaign_id, guard.pk])
    panel = gm_client.get(url).content.decode()
    field = panel.split('name="sheet-fate_consequence_moderate_free_for"', 1)[1].split("</select>", 1)[0]
    assert f'value="{hero.pk}"' in field and f'value="{guard.pk}"' not in field and f'value="{stranger.pk}"' not in field
    campaign, guard = hero.campaign, Character.objects.get(pk=guard.pk)  # its consequence as the fixture wrote it
    refused = gm_client.post(url, sheet_post(campaign, guard, fate_consequence_moderate_free_for=str(stranger.pk)))
    assert "Select a valid choice" in refused.content.decode() and free_for(guard) is None
    # A consequence not taken is nobody's to invoke.
    saved = gm_client.post(url, sheet_post(campaign, guard, fate_consequence_mild_free_for=str(hero.pk),
                                           fate_consequence_moderate_free_for=str(hero.pk)))
    assert saved.status_code == 200 and free_for(guard) == hero.pk and free_for(guard, "mild") is None
