"""The rules engine's explanations in the active language.

``rules`` is pure Python and English only: each result explains itself with notes, each a
JSON object ``{"code": ..., "text": "English line", **params}`` (``rules.dice.Note``), and a
Fate action's outcome carries an effect ``{"code": ..., "text": ..., ...}``
(``rules.fate.Effect``). The stored roll log keeps them as the engine wrote them; this module
turns them into a line in the active language at render time, with the published Spanish
terms of RULES.md (fracaso, acrobacia, crítico conflictivo, control de Enardecimiento,
impulso, aumentos, pifia, ...).

A note whose code is unknown here, or whose parameters do not fit its line (an entry logged
by an older engine, say), falls back to the English ``text``: the log always reads.
``tests/web/test_i18n.py`` fails when the engine gains a code without a line here.

Codes are unique within a game but two games share a few (``opposed_win``: exalted has
``net``, scifi ``victory``; scifi's ``fumble`` with or without ``side``): the parameters
tell them apart, so a note needs no game to be read.

Each game's lines live in its module of ``gmtools.games`` (``BaseGame.note_texts``,
``effect_texts``, ``refusal_texts``, ``terms``); this module only merges and reads them, and
names no game. Every line has its game as gettext context (``pgettext("v5", ...)``), like the
sheets' traits: the same English word reads differently per game ("Willpower" is *Voluntad* in
Exalted, *Fuerza de Voluntad* in Vampire). A game's ``terms`` declare such words, so a template
can say ``{% translate "Willpower" context "v5" %}`` or ``{{ "Willpower"|term:"v5" }}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import pgettext

from gmtools import games
from gmtools.games.base import Line, line_text, refusal_line


def _merge(*tables: Mapping[str, Line]) -> dict[str, Line]:
    """One table for all games; a code two games share tries each game's line in turn."""
    merged: dict[str, list[Line]] = {}
    for table in tables:
        for code, line in table.items():
            merged.setdefault(code, []).append(line)

    def first_fit(lines: list[Line]) -> Line:
        def line(p: Mapping[str, Any]) -> str:
            for candidate in lines[:-1]:
                try:
                    return candidate(p)
                except (KeyError, ValueError, TypeError):
                    continue
            return lines[-1](p)
        return line

    return {code: lines[0] if len(lines) == 1 else first_fit(lines) for code, lines in merged.items()}


# Each game's note lines, by code (the test reads these to check the engine's codes), and all of
# them in one table: a note needs no game to be read.
GAMES: dict[str, Mapping[str, Line]] = {system.id: system.note_texts for system in games.systems()}
NOTES = _merge(*GAMES.values())
# The effects of an action's outcome (Fate's action table), by code.
EFFECTS = _merge(*(system.effect_texts for system in games.systems()))
# The engine's refusals that a GM meets at the table (``RulesError.code``), in the active
# language. Anything without a code, or with an unknown one, reads as the engine wrote it.
REFUSALS = _merge(*(system.refusal_texts for system in games.systems()))


def note_text(note: Mapping[str, Any]) -> str:
    """One note of a result in the active language; the English ``text`` for an unknown code."""
    return line_text(NOTES, note)


def effect_text(effect: Mapping[str, Any]) -> str:
    """A Fate action's effect in the active language; the English ``text`` for an unknown code."""
    return line_text(EFFECTS, effect)


def refusal_text(error: Exception) -> str:
    """A ``rules.RulesError`` in the active language (its English message when it has no code)."""
    return refusal_line(REFUSALS, error)


def game_term(word: str, game: str) -> str:
    """``word`` as ``game`` says it in the active language (``pgettext(game, word)``)."""
    try:
        term = games.get(game).terms.get(word)
    except KeyError:
        term = None
    return str(term) if term is not None else pgettext(game, word)
