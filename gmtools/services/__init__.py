"""Workflows across several rows: a roll with its spends, follow-ups, one-click changes, time at the table.

Each runs in one transaction. A character (or campaign) row is locked with
``select_for_update`` before any check-then-write, so two requests that both try to spend the
last Willpower queue up and the second is refused: never a resource spent twice, never a roll
logged without its spend. Anything refused raises ``Refused`` with the message for the GM,
and the transaction leaves nothing behind.

These workflows name no game. What a game adds to them (its shortcuts, the resources its rolls
spend, the follow-ups its cards offer, its one-click changes) is its ``BasePlay``
(``gmtools.games.<game>.table``), which they ask through ``games.get(...).play`` and which
calls back into the table only through the ``Table`` it is handed (``gmtools.games.base.Table``,
the core's is ``gmtools.services.table``: locking and writing characters, paying, logging entries),
inside the transaction of the workflow that calls it.

One module per topic (``locks``, ``spending``, ``rolls``, ``follow_ups``, ``adjustments``, ``time``,
``players``, ``mistakes``, ``scene``); the views and the games import the workflows from
here, as before the split (issue 21).
"""

from gmtools.services.adjustments import NO_NUL, adjust
from gmtools.services.follow_ups import change_scene, check, follow_up, follow_up_of, scene_change_of
from gmtools.services.locks import Refused, lock_character, locked_or_none, update_resources
from gmtools.services.mistakes import undo_last_change, void_roll
from gmtools.services.players import ask_difficulty, regenerate_player_link, reveal, set_character_link, set_players_roll
from gmtools.services.rolls import record_roll, refuse_made
from gmtools.services.scene import set_scene_notes
from gmtools.services.spending import Database, pay
from gmtools.services.time import (
    change_turn,
    create_extended,
    declare_actions,
    end_episode,
    end_scene,
    flip,
    join_scene,
    leave_scene,
    move_in_order,
    reorder,
    start_episode,
    start_scene,
    start_story,
    stop_extended,
)

__all__ = [
    "NO_NUL", "Database", "Refused", "adjust", "ask_difficulty", "change_scene", "change_turn", "check",
    "create_extended", "declare_actions", "end_episode", "end_scene", "flip",
    "follow_up", "follow_up_of", "join_scene", "leave_scene", "lock_character", "locked_or_none",
    "move_in_order", "pay", "record_roll", "refuse_made", "regenerate_player_link",
    "reorder", "reveal", "scene_change_of", "set_character_link", "set_players_roll", "set_scene_notes",
    "start_episode", "start_scene", "start_story", "stop_extended", "undo_last_change",
    "update_resources", "void_roll",
]
