"""Issue 23, server side: a roll's one-roll choices are marked to reset after it (item 8), and the
composer and its messages say what a GM understands (the polish items). The browser side, under
the settings ``make run`` gives, is tests/web/test_browser_one_roll.py.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from django.utils import translation

from gmtools.composer import ComposerForm
from rules import fate
from tests.games import Game
from tests.web.helpers import set_resources

pytestmark = pytest.mark.django_db

# What one roll chooses, per game: back to its default once it is rolled (static/gmtools.js). V5's
# own (specialty, shortcut, equipment, difficulty change) are its composer's; its teamwork is the core's.
ONE_ROLL = {
    Game.EXALTED: {"team", "hidden", "label", "opponent", "opponent_dice", "willpower", "stunt", "handicap", "calm",
                   "reflexive", "second_chance"},
    Game.FATE: {"hidden", "label", "opponent", "opponent_dice", "invoke", "invoke_again", "advantage", "advantage_on",
                "stunt_bonus", "helpers"},
    # Scifi's kind of action too: each roll is its own action (a shot left chosen was refused the next roll).
    Game.SCIFI: {"hidden", "label", "opponent", "opponent_dice", "knowledge", "off_rol", "kind"},
    Game.V5: {"team", "hidden", "label", "opponent", "opponent_dice"},
}
# What stays for the character's next roll: who rolls, what with, against what, Fate's action,
# the extended action it goes into (the GM picks that one, issue 23 item 1).
KEPT = {"character", "first", "second", "dice", "modifier", "difficulty", "extended", "pool_from", "action"}


@pytest.mark.parametrize("game", list(ONE_ROLL))
def test_each_games_one_roll_choices_reset_after_the_roll(make_character, game):
    """Item 8: Exalted's Teamwork stayed ticked after the roll; so did every game's rulings on one roll."""
    character = make_character(game)
    form = ComposerForm(character.campaign, initial={"character": character})
    reset = {name for name, field in form.fields.items() if "data-reset-after-roll" in field.widget.attrs}
    assert ONE_ROLL[game] <= reset, ONE_ROLL[game] - reset
    assert not reset & KEPT, reset & KEPT


# --- polish: the Fate composer has no "Extra dice" ------------------------------------------------

@pytest.mark.parametrize("game", list(ONE_ROLL))
def test_only_the_dice_pool_games_offer_extra_dice(make_character, gm_client, game):
    """Fate rolls four Fate dice plus a bonus: its composer showed an "Extra dice" field."""
    character = make_character(game)
    form = ComposerForm(character.campaign, initial={"character": character})
    page = gm_client.get(reverse("table", args=[character.campaign.pk])).content.decode()
    assert ("dice" in form.fields) == (game != Game.FATE)
    assert ('name="dice"' in page) == (game != Game.FATE)


def test_fate_extra_dice_posted_anyway_change_nothing_and_the_modifier_is_an_unnamed_npcs_bonus(make_character):
    zara = make_character(Game.FATE, name="Zara")
    data = {"character": "", "modifier": 3, "difficulty": 1, "action": "overcome", "stunt_bonus": 0, "helpers": 0}
    form = ComposerForm(zara.campaign, {**data, "dice": 40})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["composition"].request == fate.Request(bonus=0, difficulty=1, modifiers=(3,))


# --- polish: sci-fi's words -------------------------------------------------------------------------

@pytest.mark.parametrize("lang, gm_word, absent", [("en", "GM", ("seed", "Comprobación", "Director")),
                                              ("es", "Director", ("semilla", "Comprobación", "DJ"))])
def test_scifi_says_the_gm_in_the_languages_word_and_never_cites_the_seed(make_character, set_ratings, lang,
                                                                          gm_word, absent):
    """A tooltip showed "(seed: «Comprobación de Acciones»)"; the Off-Rol refusal said "Director" in
    English. The game's GM is "Director" in Spanish (RULES.md's published term), the GM in English."""
    mira = make_character(Game.SCIFI, name="Mira", scifi_in_adventure=True)
    set_ratings(mira, perception=3, survival=2)
    set_resources(mira.campaign, scifi_adventure_open=True)
    data = {"character": mira.pk, "first": mira.traits.get(key="perception").pk,
            "second": mira.traits.get(key="survival").pk, "dice": 0, "modifier": 0, "difficulty": "common",
            "kind": "short", "off_rol": "on"}
    with translation.override(lang):
        form = ComposerForm(mira.campaign, data)
        assert not form.is_valid()
        refusal = " ".join(form.non_field_errors())
        tooltip = str(form.fields["knowledge"].help_text)
        assert gm_word in refusal, refusal
        assert not [word for word in absent if word in refusal + tooltip], (refusal, tooltip)
        assert tooltip.startswith({"en": "Impossible without", "es": "Imposible sin"}[lang])


@pytest.mark.parametrize("lang", ["en", "es"])
def test_fates_second_invocation_tooltip_cites_no_seed(make_character, gm_client, lang):
    """The same kind of tooltip as sci-fi's: "Seed 004: ..." told the GM of a document it never saw."""
    from gmtools.games.fate.models import Aspect

    zara = make_character(Game.FATE, name="Zara", fate_points=1)
    Aspect.objects.create(character=zara, kind="high_concept", text="Storm caller", free_invocations=2)
    gm_client.cookies["django_language"] = lang
    page = gm_client.get(reverse("table", args=[zara.campaign.pk])).content.decode()
    assert 'class="invoke-again"' in page
    assert {"en": "The same aspect twice on one roll only with two free invocations",
            "es": "El mismo aspecto dos veces en una tirada solo con dos invocaciones"}[lang] in page
    assert "Seed 004" not in page and "Semilla 004" not in page


# --- polish: messages a GM understands -------------------------------------------------------------

POOL_TOO_BIG = {
    "en": "Strength 4 + Athletics 3 + 100 extra dice = 107 dice: at most 100 dice can be rolled. Take some extra dice "
          "away.",
    "es": "Fuerza 4 + Atletismo 3 + 100 dados adicionales = 107 dados: como máximo se pueden tirar 100 dados. Quita "
          "dados adicionales.",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_pool_over_a_hundred_dice_says_which_pool_and_why(make_character, set_ratings, gm_client, lang):
    """It said "pool must be at most 100, got 104" (the engine's words, in English): the pool the GM
    composed is the traits plus the extra dice, and the way out is fewer extra dice."""
    smith = make_character(Game.EXALTED, name="Smith")
    set_ratings(smith, strength=4, athletics=3)
    data = {"character": smith.pk, "first": smith.traits.get(key="strength").pk,
            "second": smith.traits.get(key="athletics").pk, "dice": 100, "modifier": 0, "difficulty": 1, "stunt": 0,
            "pool_from": "traits"}
    gm_client.cookies["django_language"] = lang
    odds = gm_client.get(reverse("odds", args=[smith.campaign.pk]), data).content.decode()
    assert POOL_TOO_BIG[lang] in unescape(odds)
    refused = gm_client.post(reverse("roll", args=[smith.campaign.pk]), data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    assert POOL_TOO_BIG[lang] in unescape(refused.content.decode())
    assert "must be at most" not in unescape(odds + refused.content.decode())
    # A roll of the sheet's own pool names it: Exalted's Willpower roll, the permanent dots.
    with translation.override(lang):
        form = ComposerForm(smith.campaign, {**data, "pool_from": "willpower", "dice": 98})
        assert not form.is_valid()
        words = {"en": "Willpower roll 5 + 98 extra dice = 103 dice", "es": "Tirada de Voluntad 5 + 98 dados adicionales"
                 " = 103 dados"}
        assert " ".join(form.non_field_errors()).startswith(words[lang]), form.non_field_errors()
    # 100 dice a side are still rolled (tests/web/test_hitches.py).
    assert ComposerForm(smith.campaign, {**data, "dice": 93}).is_valid()
