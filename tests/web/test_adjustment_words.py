"""Each game says its one-click changes in its own words (``BasePlay.adjustment_words``): the Undo
button's "Koi, Willpower −1" and the card's −/+ buttons' "Spend 1 Willpower" (issue 21: the words
were two tables in the core, ``undo.py`` and the template tags)."""

import pytest
from django.utils import translation

from gmtools import games
from tests.games import Game
from gmtools.templatetags.table import adjust_label


@pytest.mark.parametrize("game", Game.values)
def test_every_one_click_change_has_words_in_both_languages(game):
    play = games.get(game).play
    actions = {*play.adjustments, *play.text_adjustments}
    assert actions and set(play.adjustment_words) == actions
    for action in actions:
        with translation.override("en"):
            done, button = play.adjustment_done(action), play.adjustment_button(action)
        with translation.override("es"):
            assert (play.adjustment_done(action), play.adjustment_button(action)) != (done, button), action


@pytest.mark.parametrize(("game", "action", "en", "es"), [
    (Game.EXALTED, "willpower-spend", "Spend 1 Willpower", "Gastar 1 de Voluntad"),
    (Game.V5, "hunger-up", "Hunger +1", None),
    (Game.SCIFI, "health-damage", "Lose 1 health", None),
])
def test_the_buttons_label_is_the_games(game, action, en, es):
    with translation.override("en"):
        assert adjust_label(action, game) == en
    if es:
        with translation.override("es"):
            assert adjust_label(action, game) == es
