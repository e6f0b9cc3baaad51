"""The ``Table`` the workflows hand each game's callbacks (``gmtools.games.base.Table``): locking
and writing characters, paying, logging entries and telling the viewers, in the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from gmtools.composer import Spend
from gmtools.live import WritersDrawing, announce
from gmtools.luck import stored
from gmtools.models import ChangeKind, Character, Roll, Scene
from gmtools.services.locks import Refused, lock_character, update_resources
from gmtools.services.spending import pay
from rules.luck import Luck


@dataclass(frozen=True)
class LiveTable:
    """The table of the database and the live log (``gmtools.live``).

    ``streams``: the drawing of the request that takes the follow-up or the check, which claims
    the entries it logs (``gmtools.live.WritersDrawing``); ``TABLE``, the table of no request, has none.
    ``physical``: the entry's dice are real dice entered (``gmtools.physical``), which its result says
    (``result["physical"]``) for its card, the exports and the fair-dice test, as a composed roll's.
    """

    streams: WritersDrawing | None = None
    physical: bool = False
    rolled_by: str = ""  # who took the follow-up from a phone (``Roll.rolled_by``): the player, as their roll says

    def lock(self, character_id: int) -> Character:
        return lock_character(character_id)

    def update(self, character: Character, **fields: Any) -> None:
        update_resources(character, **fields)

    def pay(self, spend: Spend) -> dict[str, Any]:
        return pay(self, spend)

    def log_follow_up(self, parent: Roll, kind: str, *, luck: Luck | None = None, **fields: Any) -> Roll:
        try:
            with transaction.atomic():  # a savepoint, so a duplicate does not poison the outer transaction
                child = Roll.objects.create(campaign=parent.campaign, character=parent.character, actor=parent.actor,
                                            system=parent.system, kind=kind, parent=parent, hidden=parent.hidden,
                                            secret=parent.secret, revealed_at=parent.revealed_at, scene=parent.scene,
                                            turn=parent.turn, label_parts=parent.label_parts, luck=stored(luck),
                                            rolled_by=self.rolled_by, **self._marked(fields))
        except IntegrityError:
            raise Refused(_("This roll has already been followed up that way.")) from None
        announce(parent.campaign_id, ChangeKind.ROLL, roll=child, public=not (child.hidden and child.revealed_at is None),
                 streams=self.streams)
        return child

    def log_check(self, character: Character, kind: str, *, luck: Luck | None = None, **fields: Any) -> Roll:
        scene = Scene.objects.current(character.campaign)
        logged = Roll.objects.create(campaign=character.campaign, character=character, actor=character.name,
                                     system=character.game, scene=scene, turn=scene.turn if scene else None,
                                     kind=kind, luck=stored(luck), **self._marked(fields))
        announce(character.campaign_id, ChangeKind.ROLL, roll=logged, streams=self.streams)
        return logged

    def _marked(self, fields: dict[str, Any]) -> dict[str, Any]:
        return {**fields, "result": {**fields["result"], "physical": True}} if self.physical else fields

    def character_changed(self, character: Character) -> None:
        announce(character.campaign_id, ChangeKind.CHARACTER, character=character)


TABLE = LiveTable()
