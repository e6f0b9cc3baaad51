"""One-click resource changes on a character's card, each one undoable."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.db import transaction
from django.utils.translation import gettext as _

from gmtools import games
from gmtools.live import announce
from gmtools.models import (
    ChangeKind,
    Character,
    ResourceChange,
)
from gmtools.services.locks import Refused, lock_character, update_resources

NO_NUL = ProhibitNullCharactersValidator()


@transaction.atomic
def adjust(character: Character, action: str, value: str = "", by: str | None = None) -> Character:
    """Apply one click (spend, regain, damage, heal, refresh) or one text (a consequence) to a character.
    ``by``: who did it, as a text change may name it (Fate: who inflicted the consequence, "" nobody
    known); None when not said."""
    try:
        NO_NUL(value)  # PostgreSQL cannot store one (a 500), SQLite would keep it: refused on both
    except ValidationError as error:
        raise Refused(error.messages[0]) from None
    character = lock_character(character.pk)
    play = games.get(character.game).play
    if action in play.text_adjustments:
        fields = play.text_adjustments[action](character, value, by)
    elif action in play.adjustments:
        fields = play.adjustments[action](character)
    else:
        raise Refused(_("Unknown change for this game."))
    before = {name: getattr(character.resources, name) for name in fields}
    update_resources(character, **fields)
    if before != fields:  # kept for the table's Undo (a refresh at full fate points changed nothing)
        ResourceChange.objects.create(campaign_id=character.campaign_id, character=character, action=action,
                                      before=before, after=fields)
    announce(character.campaign_id, ChangeKind.CHARACTER, character=character)
    return character
