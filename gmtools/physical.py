"""Physical dice (issue 24): "I rolled real dice", the faces thrown at the table entered instead of drawn.

A reusable piece, the GM's composer's and the player's: ``PhysicalForm`` reads what the entry posts
(``templates/physical.html`` draws it, ``static/physical.js`` drives its keypad), and ``thrown``
checks the faces against the roll as composed (its game's ``BasePlay.entry``: how many dice, V5's
Hunger dice apart, scifi's explosions) and gives the ``rules.dice.Thrown`` source the rules read them
from, exactly as drawn dice. ``services.record_roll`` calls it in the roll's transaction, before
anything is spent, so a refused entry writes nothing.

Entered faces are separated by spaces or commas, one die each: a d10's 0 reads as 10 (physical d10s
print 10 as 0, RULES.md); a Fate die is −, 0 or + (also -1, +1, 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from gmtools import games
from gmtools.games.base import Refused
from gmtools.games.base.composer import Composition
from rules.dice import Entry, Thrown

_SEPARATORS = re.compile(r"[\s,;]+")
_FATE = {"-": -1, "−": -1, "-1": -1, "−1": -1, "0": 0, "+": 1, "+1": 1, "1": 1}
# Long enough for the largest pool and its explosions, short enough to refuse nonsense at once.
MAX_LENGTH = 600


@dataclass(frozen=True)
class Physical:
    """The faces entered, as typed, one token a die: the normal dice, then V5's Hunger dice."""

    faces: tuple[str, ...]
    hunger: tuple[str, ...] = ()


class PhysicalForm(forms.Form):
    """What the entry posts beside Roll: the box ticked, the faces typed (or put by the keypad)."""

    physical = forms.BooleanField(required=False, label=gettext_lazy("I rolled real dice"))
    faces = forms.CharField(required=False, max_length=MAX_LENGTH, strip=True, label=gettext_lazy("Dice thrown"))
    hunger_faces = forms.CharField(required=False, max_length=MAX_LENGTH, strip=True,
                                   label=gettext_lazy("Hunger dice thrown"))

    def entered(self) -> Physical | None:
        """The faces entered when the box is ticked, else None (the server draws the dice)."""
        if not self.cleaned_data.get("physical"):
            return None
        return Physical(_tokens(self.cleaned_data.get("faces", "")), _tokens(self.cleaned_data.get("hunger_faces", "")))

    def messages(self) -> list[str]:
        return [f"{self.fields[name].label}: {text}" for name, texts in self.errors.items() for text in texts]


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(token for token in _SEPARATORS.split(text) if token)


def _dice(tokens: tuple[str, ...], fate: bool) -> list[str]:
    """One token a die, as typed: a run with no separator is a die a character ("78201" for five d10s,
    "--0+" as the card writes Fate's dice: the walkthrough of issue 24 typed both), except what reads
    whole: Fate's "-1" and "+1", a d10's one or two digits ("10"; "11" is refused as no face)."""
    def run(token: str) -> bool:
        if fate:
            return token not in _FATE and all(mark in "-−0+" for mark in token)
        return len(token) > 2 and token.isascii() and token.isdigit()
    return [die for token in tokens for die in (list(token) if run(token) else [token])]


def _read(tokens: tuple[str, ...], entry: Entry, hunger: bool = False) -> list[int]:
    """The tokens as faces, or ``Refused`` naming the first die that is no face."""
    faces = []
    for number, token in enumerate(_dice(tokens, entry.fate), start=1):
        said = {"n": number, "face": token}
        if entry.fate:
            face = _FATE.get(token)
            if face is None:
                raise Refused(_("Die %(n)d: %(face)s is not a Fate die face (−, 0, +)") % said)
        else:
            face = int(token) if token.isdigit() and token.isascii() and len(token) <= 2 else -1
            face = 10 if face == 0 else face
            if not 1 <= face <= 10:
                raise Refused((_("Hunger die %(n)d: %(face)s is not a d10 face (1–10; 0 reads as 10)") if hunger else
                               _("Die %(n)d: %(face)s is not a d10 face (1–10; 0 reads as 10)")) % said)
        faces.append(face)
    return faces


def as_priced(comp: Composition, data: Mapping[str, Any]) -> Composition:
    """The roll as the odds beside it price it: with "I rolled real dice" ticked in ``data`` (the
    composer's fields as posted), as thrown at the table (``Composition.thrown_at_table``)."""
    form = PhysicalForm(data)
    return comp.thrown_at_table() if form.is_valid() and form.cleaned_data.get("physical") else comp


def entry_of(comp: Composition) -> Entry | None:
    """The physical dice the composed roll reads (its game's ``BasePlay.entry``); None when it throws
    none: a shortcut (taking half, an automatic success), or a game that takes no physical dice."""
    play = games.get(comp.game).play
    return None if comp.shortcut in play.shortcuts else play.entry(comp.request)


def thrown(entry: Entry | None, entered: Physical) -> Thrown:
    """The source the rules read the entered faces from, in the engine's draw order (the normal
    dice, their explosions as they came, then the Hunger dice); ``Refused`` when the faces do not
    fit the roll, naming every list that does not (a face that is none, or a count: "Dice: enter 3
    (2 given); Hunger dice: enter 2 (0 given)")."""
    if entry is None or entry.dice + entry.hunger == 0:
        raise Refused(_("This roll throws no dice: untick “I rolled real dice”."))
    wrong: list[str] = []
    faces = _list(entered.faces, entry, wrong)
    if faces is not None:
        wanted = entry.wanted(faces)
        explosions = wanted - entry.dice
        if len(faces) != wanted and explosions:
            wrong.append(ngettext("Dice: enter %(n)d, %(pool)d and %(more)d explosion (%(given)d given)",
                                  "Dice: enter %(n)d, %(pool)d and %(more)d explosions (%(given)d given)", explosions)
                         % {"n": wanted, "pool": entry.dice, "more": explosions, "given": len(faces)})
        elif len(faces) != wanted:
            wrong.append(_("Dice: enter %(n)d (%(given)d given)") % {"n": wanted, "given": len(faces)})
    hunger = _list(entered.hunger, entry, wrong, hunger=True)
    if hunger is not None and len(hunger) != entry.hunger:
        wrong.append(_("Hunger dice: enter %(n)d (%(given)d given)") % {"n": entry.hunger, "given": len(hunger)})
    if wrong:
        raise Refused("; ".join(wrong))
    return Thrown((faces or []) + (hunger or []))


def _list(tokens: tuple[str, ...], entry: Entry, wrong: list[str], hunger: bool = False) -> list[int] | None:
    """One list's faces, or None with what is wrong in it added to ``wrong`` (its first die that is no face)."""
    try:
        return _read(tokens, entry, hunger)
    except Refused as refusal:
        wrong.append(str(refusal))
        return None
