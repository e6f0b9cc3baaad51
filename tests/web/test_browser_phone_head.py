"""A 360 px phone that rolls keeps its screen for the composer (issue 24's walkthrough, B2), on the
settings ``make run`` gives, in Spanish (the longer words): the head scrolls away with the page (Roll
and the odds stay at the foot), the turn order keeps to one row, the one to act in sight within it.
"""

from __future__ import annotations

from tests.web.test_browser import asgi_server, browser, dice, expect, gm_user, make_character  # noqa: F401
from tests.web.test_browser_player_rolls import RATINGS, table_of
from tests.web.test_browser_players import open_live, phone_page, pytestmark, shot  # noqa: F401

from gmtools import services  # noqa: E402
from tests.web.helpers import compose_and_roll  # noqa: E402
from gmtools.models import CharacterKind  # noqa: E402
from tests.games import Game  # noqa: E402


def test_a_rolling_phones_head_leaves_the_screen_to_the_composer(browser, asgi_server, gm_user):
    campaign, ana = table_of(gm_user, Game.SCIFI)
    others = [make_character(campaign, name, RATINGS[Game.SCIFI], kind=CharacterKind.PC)
              for name in ("Kade Ortiz", "Lio Varga", "Mara Quinteros", "Teodoro Abendaño")]
    services.set_character_link(ana, True)
    ana.refresh_from_db()
    scene = services.start_scene(campaign, title="Persecución en la selva", combat=True)
    scene = services.change_turn(scene, 1)
    services.reorder(scene, [*(c.pk for c in others), ana.pk])
    for other in others:  # the four before Ana act: she is to act, the last chip, past a 360 px row
        compose_and_roll(campaign, other, [5, 4, 3, 2, 1], kind="long")  # both slots: acted
    phone = phone_page(browser, asgi_server, locale="es-ES")
    page = phone.page
    page.set_viewport_size({"width": 360, "height": 740})
    open_live(phone, f"/p/{ana.player_token}/")
    head = page.locator(".player-head")
    chips = page.locator(".player-head .turn-chips")
    expect(chips.locator("li")).to_have_count(1 + len(others))
    assert chips.bounding_box()["height"] < 40  # one row
    current = chips.locator(".turn-current")
    expect(current).to_contain_text("Ana")
    box, row = current.bounding_box(), chips.bounding_box()
    assert row["x"] - 1 <= box["x"] and box["x"] + box["width"] <= row["x"] + row["width"] + 1  # in sight
    shot(page, "phone-head-360-top")
    page.locator("#composer .composer-extras").scroll_into_view_if_needed()
    assert head.bounding_box()["y"] + head.bounding_box()["height"] <= 0  # scrolled away
    expect(page.locator("#roll-button")).to_be_in_viewport()  # Roll stays at the foot
    shot(page, "phone-head-360-scrolled")
    phone.check()
