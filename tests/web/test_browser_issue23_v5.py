"""Issue 23, items 3 to 5, in a real browser (V5), in English and in Spanish: mortals and ghouls
have no Hunger (no Rouse on their card, a stale Rouse refused beside the card, no Hunger die in
their rolls, none on the phone); teamwork says what it did to the pool and its odds; a full
Health or Willpower tracker shows Impaired on the card and the phone and takes 2 dice from the
pools it governs, with the exact odds.

The GM's table as ``make run`` serves it (uvicorn, DEBUG on: test_browser's ``asgi_server``) at
1366×768 and a phone at 390×844; every die is scripted. The server side is test_issue23_v5.py.
Screenshots: ``/tmp/i23-v5/`` (the table and the phone, each language).
"""

from __future__ import annotations

from pathlib import Path

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    cards,
    dice,
    expect,
    faces,
    gm_user,
    make_character,
    pytestmark,
    roll,
    shooter,
    trait,
)
from tests.web.test_browser_hitches import assert_same_page, chance, gm_table, lang, open_extras, open_table, pct, say, table  # noqa: F401
from tests.web.test_browser_players import open_live, phone_page

from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from gmtools.games.v5.models import V5Resources  # noqa: E402
from gmtools.models import Character, Roll  # noqa: E402
from rules import v5  # noqa: E402
from tests.games import Game  # noqa: E402

SHOTS = Path("/tmp/i23-v5")
shot = shooter(SHOTS)


def turn_notes(page):
    return page.locator("#odds [data-testid=turn-note]")


# --- item 3 ----------------------------------------------------------------------------------

def test_a_mortal_has_no_hunger_no_rouse_and_no_hunger_die(table, lang, gm_user, dice, browser, asgi_server):
    campaign = campaign_of(gm_user, Game.V5)
    make_character(campaign, "Bhavna", {"strength": 2, "brawl": 1}, v5_hunger=2)
    renfield = make_character(campaign, "Renfield", {"strength": 3, "brawl": 2}, kind="npc", v5_hunger=0)
    hunter = make_character(campaign, "Hunter", {"strength": 2}, v5_hunger=0, v5_nature="mortal")
    open_table(table, campaign)
    expect(table.locator(f"#character-{renfield.pk} [data-resource=hunger]")).to_have_count(1)

    # The GM makes a "Mortal: thug" (the Quick NPC template, as its form posts it): its card comes live.
    client = Client()
    client.force_login(gm_user)
    assert client.post(reverse("npc-template", kwargs={"pk": campaign.pk}),
                       {"template": "thug", "name": "Thug", "count": 1}).status_code == 200
    thug = Character.objects.get(name="Thug")
    card = table.locator(f"#character-{thug.pk}")
    expect(card).to_be_visible()
    expect(card.locator("[data-testid=nature]")).to_have_text(say(lang, "MortalNo Hunger", "MortalSin Ansia"))
    expect(card.locator("[data-resource=hunger]")).to_have_count(0)
    expect(card.get_by_role("button", name=say(lang, "Rouse", "Enardecer"))).to_have_count(0)

    # A page drawn while Renfield was a vampire still offers Rouse: the server refuses it beside his card.
    V5Resources.objects.filter(pk=renfield.pk).update(nature="ghoul")
    with table.expect_response(lambda r: r.url.endswith(f"/characters/{renfield.pk}/check/rouse/")) as answer:
        table.locator(f"#character-{renfield.pk} button[hx-post$='/check/rouse/']").click()
    assert answer.value.status == 422
    expect(table.locator(f"#character-{renfield.pk} [data-testid=refusal]")).to_have_text(say(
        lang, "Renfield is a ghoul: ghouls have no Hunger and make no rouse check.",
        "Renfield es un ghoul: los ghouls no tienen Ansia ni hacen controles de Enardecimiento."))
    expect(cards(table)).to_have_count(0)
    assert not Roll.objects.exists() and V5Resources.objects.get(pk=renfield.pk).hunger == 0

    # The thug's roll: six dice, not one a Hunger die (even with a Hunger rating left over).
    V5Resources.objects.filter(pk=thug.pk).update(hunger=1)
    table.select_option("#composer [name=character]", str(thug.pk))
    expect(table.locator(f"#composer [name=first] option[value='{trait(thug, 'strength')}']")).to_be_attached()
    table.select_option("#composer [name=first]", trait(thug, "strength"))
    table.select_option("#composer [name=second]", trait(thug, "brawl"))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=6)).p_win))
    # No Hunger die: no messy critical, no bestial failure.
    expect(table.locator("#odds [data-testid=odds] .chance .p").nth(2)).to_have_text(pct(lang, 0.0))
    expect(table.locator("#odds [data-testid=odds] .chance .p").nth(3)).to_have_text(pct(lang, 0.0))
    dice.script(6, 2, 9, 1, 3, 10)
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    assert faces(card) == [6, 2, 9, 1, 3, 10]
    expect(card.locator(".die-hunger")).to_have_count(0)
    assert_same_page(table)
    shot(table, f"table-mortal-{lang}")

    # The players' phone: no Hunger for the mortal hunter, Hunger for Bhavna.
    phone = phone_page(browser, asgi_server, locale={"en": "en-US", "es": "es-ES"}[lang])
    open_live(phone, f"/p/{campaign.player_token}/")
    party = phone.page.locator("#party")
    expect(party.locator("[data-resource=hunger]")).to_have_count(1)
    expect(party.locator("[data-testid=nature]")).to_have_text(say(lang, "MortalNo Hunger", "MortalSin Ansia"))
    shot(phone.page, f"phone-mortal-{lang}")
    phone.check()
    phone.page.context.close()
    assert hunter.pk


# --- item 4 ----------------------------------------------------------------------------------

def test_teamwork_changes_the_pool_and_the_odds_and_says_who_adds_nothing(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    elias = make_character(campaign, "Elias", {"intelligence": 3, "occult": 2}, v5_hunger=0)
    bhavna = make_character(campaign, "Bhavna", {"intelligence": 2}, v5_hunger=0)  # no Occult: no die
    marcos = make_character(campaign, "Marcos", {"intelligence": 2, "occult": 1}, v5_hunger=0)
    open_table(table, campaign)
    table.select_option("#composer [name=character]", str(elias.pk))
    expect(table.locator(f"#composer [name=first] option[value='{trait(elias, 'intelligence')}']")).to_be_attached()
    table.select_option("#composer [name=first]", trait(elias, "intelligence"))
    table.select_option("#composer [name=second]", trait(elias, "occult"))
    table.select_option("#composer [name=difficulty]", "4")
    alone = pct(lang, v5.odds(v5.Request(pool=5, difficulty=4)).p_win)
    expect(chance(table)).to_have_text(alone)
    open_extras(table)

    table.check(f"#composer [name=team][value='{bhavna.pk}']")
    expect(turn_notes(table)).to_have_text([say(lang, "Teamwork: no die from Bhavna, without a dot in Occult",
                                                "Trabajo en equipo: ningún dado de Bhavna, sin puntos en Ocultismo")])
    expect(chance(table)).to_have_text(alone)

    table.check(f"#composer [name=team][value='{marcos.pk}']")
    helped = pct(lang, v5.odds(v5.Request(pool=6, difficulty=4)).p_win)
    assert helped != alone
    expect(chance(table)).to_have_text(helped)
    expect(turn_notes(table).first).to_have_text(say(lang, "Teamwork: +1 die (Marcos)", "Trabajo en equipo: +1 dado (Marcos)"))

    dice.script(6, 6, 7, 8, 2, 3)  # six dice: 4 successes against 4
    card = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    assert len(faces(card)) == 6
    expect(card.locator("[data-testid=verdict]")).to_have_text(say(lang, "Win", "Victoria"))
    expect(card.locator("[data-testid=helpers]")).to_contain_text(say(
        lang, "no die from Bhavna (no dot in the skill)", "ningún dado de Bhavna (sin puntos en la Habilidad)"))
    assert_same_page(table)
    shot(table, f"table-teamwork-{lang}")


# --- item 5 ----------------------------------------------------------------------------------

def test_a_full_health_track_shows_impaired_and_takes_two_physical_dice(table, lang, gm_user, dice, browser, asgi_server):
    campaign = campaign_of(gm_user, Game.V5)
    leo = make_character(campaign, "Leo", {"dexterity": 2, "stamina": 2, "athletics": 1, "charisma": 3,
                                           "persuasion": 2, "composure": 2, "resolve": 2},
                         v5_hunger=0, v5_health_superficial=4)  # 5 Health boxes, one left
    phone = phone_page(browser, asgi_server, locale={"en": "en-US", "es": "es-ES"}[lang])
    open_live(phone, f"/p/{campaign.player_token}/")
    open_table(table, campaign)
    table.select_option("#composer [name=first]", trait(leo, "dexterity"))
    table.select_option("#composer [name=second]", trait(leo, "athletics"))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=3)).p_win))
    card = table.locator(f"#character-{leo.pk}")
    expect(card.locator("[data-testid=impaired-health]")).to_have_count(0)

    # The GM marks the last box: the card and the phone say Impaired, and the odds drop to 1 die.
    card.locator("button[data-action=health-superficial-damage]").click()
    impaired = say(lang, "Impaired (Health): −2 dice to Physical pools", "Debilitado (Salud): −2 dados a las reservas Físicas")
    expect(table.locator(f"#character-{leo.pk} [data-testid=impaired-health]")).to_have_text(impaired)
    expect(phone.page.locator("#party [data-testid=impaired-health]")).to_have_text(impaired)
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=3, impaired=True)).p_win))
    expect(table.locator("#odds [data-testid=pool-note]")).to_have_text([say(lang, "Impaired: −2 dice", "Debilitado: −2 dados")])

    dice.script(7)  # Dexterity 2 + Athletics 1 − 2: one die
    rolled = roll(table, expected_cards=1)
    dice.assert_all_drawn()
    assert faces(rolled) == [7]
    expect(rolled).to_contain_text(say(lang, "Impaired: −2 dice", "Debilitado: −2 dados"))

    # A Social pool is not a Physical one: all its dice.
    table.select_option("#composer [name=first]", trait(leo, "charisma"))
    table.select_option("#composer [name=second]", trait(leo, "persuasion"))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=5)).p_win))
    expect(table.locator("#odds [data-testid=pool-note]")).to_have_count(0)
    assert_same_page(table)
    shot(table, f"table-impaired-{lang}")
    shot(phone.page, f"phone-impaired-{lang}")
    phone.check()
    phone.page.context.close()


def test_a_full_willpower_track_impairs_social_and_mental_pools(table, lang, gm_user, dice):
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"charisma": 3, "persuasion": 3, "composure": 2, "resolve": 2,
                                                 "strength": 2, "brawl": 2},
                            v5_hunger=0, v5_willpower_superficial=3, v5_willpower_aggravated=1)
    open_table(table, campaign)
    expect(table.locator(f"#character-{bhavna.pk} [data-testid=impaired-willpower]")).to_have_text(say(
        lang, "Impaired (Willpower): −2 dice to Social and Mental pools",
        "Debilitado (Fuerza de Voluntad): −2 dados a las reservas Sociales y Mentales"))
    table.select_option("#composer [name=first]", trait(bhavna, "charisma"))
    table.select_option("#composer [name=second]", trait(bhavna, "persuasion"))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=4)).p_win))  # 6 − 2
    table.select_option("#composer [name=first]", trait(bhavna, "strength"))
    table.select_option("#composer [name=second]", trait(bhavna, "brawl"))
    expect(chance(table)).to_have_text(pct(lang, v5.odds(v5.Request(pool=4)).p_win))  # Physical: untouched
    expect(table.locator("#odds [data-testid=pool-note]")).to_have_count(0)
    assert_same_page(table)


def test_a_double_click_on_rouse_is_one_rouse_check(table, lang, gm_user, dice):
    """Item 2's double click, on the card's Rouse. A quick server answers within a double click's
    interval: the second click (its ``detail`` 2) lands on the card drawn anew, and was a second check."""
    campaign = campaign_of(gm_user, Game.V5)
    bhavna = make_character(campaign, "Bhavna", {"strength": 2, "brawl": 1}, v5_hunger=1)
    open_table(table, campaign)
    posted = []
    table.on("request", lambda r: r.method == "POST" and r.url.endswith("/check/rouse/") and posted.append(r.url))
    rouse = table.locator(f"#character-{bhavna.pk} button[hx-post$='/check/rouse/']")
    dice.script(7, 3)  # a second check would fail and take Hunger to 2
    rouse.click()
    expect(cards(table)).to_have_count(1)
    rouse.dispatch_event("click", {"detail": 2})  # the double click's second click, on the new card
    # Had it rolled, its request would be out (htmx sends it within the click) and come back.
    expect(table.locator(".htmx-request")).to_have_count(0)
    expect(cards(table)).to_have_count(1)
    assert len(posted) == 1 and Roll.objects.count() == 1
    assert V5Resources.objects.get(pk=bhavna.pk).hunger == 1
    assert_same_page(table)
