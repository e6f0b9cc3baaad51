"""A first-time GM's walk through a session, in a real browser: what it found, kept fixed.

Each test drives the GM's table (or the luck page) as ``make run`` serves it (uvicorn, DEBUG on:
test_browser's ``asgi_server``) at 1366×768, in English and in Spanish where words are at stake
(test_browser_hitches' ``table`` and ``lang``). Screenshots: ``artifacts/screenshots/walk-*.png``.
"""

from __future__ import annotations

import pytest

# The fixtures are imported so that pytest finds them in this module; pytestmark brings the same
# marks: browser, skipped without Chromium (outside CI), transactional db.
from tests.web.test_browser import (  # noqa: F401
    SCREENSHOTS,
    asgi_server,
    browser,
    campaign_of,
    dice,
    expect,
    gm_user,
    make_character,
    open_table,
    pytestmark,
)
from tests.web.test_browser_hitches import lang, table  # noqa: F401

from gmtools import services  # noqa: E402
from tests.games import Game  # noqa: E402

# A resource's name cut (wider than its box) on a character's card, or a card wider than itself.
CUT_NAMES = """() => [...document.querySelectorAll('.character-card .resource > span:first-child')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent.trim())"""
WIDE_CARDS = """() => [...document.querySelectorAll('.character-card')]
    .filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.dataset.character)"""


@pytest.mark.parametrize("game", [Game.FATE, Game.V5])
def test_a_cards_resource_names_are_read_whole(table, lang, gm_user, game):
    """Fate's "Moderate (4)" beside its field, V5's "Fuerza de Voluntad" beside ten boxes: each name
    shows whole at 1366×768 (it wraps rather than ending in "…"), and no card grows wider than itself."""
    campaign = campaign_of(gm_user, game)
    fields = {Game.V5: {"v5_hunger": 1}, Game.FATE: {}}[game]
    # Composure + Resolve 5 + 5: V5's widest Willpower track, ten boxes.
    make_character(campaign, "Ana Lucía", {"composure": 5, "resolve": 5} if game == Game.V5 else {}, **fields)
    services.start_scene(campaign)
    open_table(table, campaign)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    table.locator("#characters").screenshot(path=str(SCREENSHOTS / f"walk-cards-{game}-{lang}.png"))
    assert table.evaluate(CUT_NAMES) == []
    assert table.evaluate(WIDE_CARDS) == []
    if game == Game.FATE:
        moderate = table.locator(".character-card .consequence > span").nth(1)
        expect(moderate).to_have_text({"en": "Moderate (4)", "es": "Moderada (4)"}[lang])
        # One line: as tall as "Mild (2)" above it.
        heights = table.locator(".character-card .consequence > span").evaluate_all(
            "els => els.map((e) => Math.round(e.getBoundingClientRect().height))")
        assert len(set(heights)) == 1, heights
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    table.locator("#characters").screenshot(path=str(SCREENSHOTS / f"walk-cards-{game}-{lang}.png"))
