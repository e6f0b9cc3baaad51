"""Issue 23's polish, in a real browser under the settings ``make run`` gives, in English and in
Spanish: the composer's labels fit their column at 1366×768 in every demo campaign (Spanish ones were
cut: "Dados adicional…", "Aliados que ayu…"), "Tirar" names one thing, and a field's length limit
never cuts a pasted name unseen.

Screenshots: ``/tmp/i23-polish/<test>-<lang>.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.test_browser import asgi_server, browser, expect, pytestmark, shooter  # noqa: F401
from tests.web.test_browser_hitches import gm_table, lang, open_extras, open_table, say  # noqa: F401

from django.contrib.auth import get_user_model  # noqa: E402

from gmtools import demo  # noqa: E402
from gmtools.models import Campaign  # noqa: E402
from tests.games import Game  # noqa: E402

SHOTS = Path("/tmp/i23-polish")
shot = shooter(SHOTS)


@pytest.fixture
def demo_gm(transactional_db):
    demo.load()
    return get_user_model().objects.get(username=demo.GM_USERNAME)


@pytest.mark.parametrize("game", list(Game))
def test_every_composer_label_fits_its_column(browser, asgi_server, demo_gm, lang, game):
    """Each label of the composer (the folded extras open too) shows whole: its text no wider than its
    box. The labels are one line each by design (the full label in a tooltip), so a long one was cut."""
    campaign = Campaign.objects.get(gm=demo_gm, demo=game)
    with gm_table(browser, asgi_server, demo_gm, lang) as page:
        open_table(page, campaign)
        open_extras(page)
        labels = page.locator("#composer .form-label")
        expect(labels.first).to_be_visible()
        # The text's own width (a Range's box is the whole text, drawn or not) against the label's box:
        # Chromium's scrollWidth missed a label cut by a few pixels ("Dados adicional…").
        cut = labels.evaluate_all("""labels => labels.filter(l => {
            if (l.offsetParent === null) return false;
            const text = document.createRange();
            text.selectNodeContents(l);
            return text.getBoundingClientRect().width > l.getBoundingClientRect().width + 0.01;
        }).map(l => l.textContent.trim())""")
        shot(page, f"composer-{game}-{lang}")
        assert cut == [], f"cut labels: {cut}"


def test_roll_names_one_thing_in_spanish(browser, asgi_server, demo_gm):
    """"Tirar" was the composer's heading, its V5 pool list, the V5 "how" choice and the button."""
    campaign = Campaign.objects.get(gm=demo_gm, demo=Game.V5)
    with gm_table(browser, asgi_server, demo_gm, "es") as page:
        open_table(page, campaign)
        expect(page.locator("#roll-button")).to_have_text("Tirar")
        heading = page.locator("#composer").locator("xpath=ancestor::*[h2][1]/h2")
        expect(heading).to_have_text("Nueva tirada")
        words = page.locator("#composer .form-label, #composer option").all_inner_texts()
        assert "Tirar" not in [w.strip() for w in words]


def test_a_name_cut_at_its_limit_says_so(browser, asgi_server, demo_gm, lang):
    """A name longer than its field's limit (pasted from a wiki) was cut at 120 characters unseen."""
    campaign = Campaign.objects.get(gm=demo_gm, demo=Game.EXALTED)
    with gm_table(browser, asgi_server, demo_gm, lang) as page:
        open_table(page, campaign)
        open_extras(page)
        field = page.locator("#composer [name=label]")
        field.focus()
        page.keyboard.insert_text("The long way round the mountain " * 5)  # 160 characters
        expect(field).to_have_value(("The long way round the mountain " * 5)[:120])
        note = page.locator("#composer [name=label] + .length-limit")
        expect(note).to_have_text(say(lang, "At most 120 characters: anything longer was cut here.",
                                      "Como mucho 120 caracteres: lo que sobraba se ha cortado aquí."))
        field.press("Backspace")
        expect(note).to_be_hidden()
