"""Issue 23, the third walkthrough's findings (V5 and wording), in a real browser, in English and in
Spanish: each game's own word for Willpower (V5 says *Fuerza de Voluntad*, Exalted *Voluntad*).

The GM's table as ``make run`` serves it (test_browser's ``asgi_server``) at 1366×768; every die is
scripted. The server side is test_issue23_walk3.py.
"""

from __future__ import annotations

import pytest

from tests.web.test_browser import (  # noqa: F401
    asgi_server,
    browser,
    campaign_of,
    dice,
    expect,
    gm_user,
    make_character,
    pytestmark,
)
from tests.web.test_browser_hitches import gm_table, lang, open_table, say, table  # noqa: F401

from gmtools import games  # noqa: E402
from tests.games import Game  # noqa: E402


# --- A4: each game's Willpower ------------------------------------------------------------------

@pytest.mark.parametrize("game, ratings, spanish", [
    (Game.V5, {"composure": 2, "resolve": 3}, "Tirada de Fuerza de Voluntad"),
    (Game.EXALTED, {"dexterity": 3}, "Tirada de Voluntad"),
])
def test_the_card_and_the_composer_name_willpower_rolls_in_the_games_own_words(table, lang, gm_user, game, ratings, spanish):
    campaign = campaign_of(gm_user, game)
    mara = make_character(campaign, "Mara", ratings)
    open_table(table, campaign)
    card = table.locator(f"#character-{mara.pk}")
    card.locator("details.card-traits summary").click()
    dice = games.get(game).composer.sheet_pool("willpower").dice(mara)
    expect(card.locator("[data-pool=willpower]")).to_have_text(f"{say(lang, 'Willpower roll', spanish)} {dice}")
    expect(table.locator("#composer [name=pool_from] option[value=willpower]")).to_have_text(
        say(lang, "Willpower roll", spanish))
