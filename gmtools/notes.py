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

Every line has its game as gettext context (``pgettext("v5", ...)``), like the sheets'
traits: the same English word reads differently per game ("Willpower" is *Voluntad* in
Exalted, *Fuerza de Voluntad* in Vampire). ``GAME_TERMS`` declares such words per game, so a
template can say ``{% translate "Willpower" context "v5" %}`` or ``{{ "Willpower"|term:"v5" }}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import npgettext, pgettext, pgettext_lazy

from rules import fate

Params = Mapping[str, Any]


def _signed(value: int) -> str:
    """+2, 0, −1: the typographic minus, as the roll card prints numbers."""
    return f"{value:+d}".replace("-", "\u2212") if value else "0"


def _with_text_value(p: Params, name: str, pattern: str, cast: Callable[[str], Any] = int) -> Params:
    """``p`` with ``name`` added from the engine's English text when the note lacks it as a parameter.

    A few notes say a number only in their text (exalted ``met``/``short``: the difficulty; a rouse
    check: its die; Fate ``dice``/``reroll``: the faces). Passing it as a parameter in ``rules`` makes
    this unnecessary; until then the line still shows it, and without a match the line omits it.
    """
    if name in p:
        return p
    match = re.search(pattern, str(p.get("text", "")))
    return {**p, name: cast(match.group(1))} if match else p


# --- exalted -------------------------------------------------------------------------------


def _exalted_met(p: Params) -> str:
    p = _with_text_value(p, "difficulty", r"^difficulty (\d+) met")
    if "difficulty" in p:
        return npgettext("exalted", "difficulty %(difficulty)d met with %(extra)d extra success",
                         "difficulty %(difficulty)d met with %(extra)d extra successes", p["extra"]) % p
    return npgettext("exalted", "difficulty met with %(extra)d extra success",
                     "difficulty met with %(extra)d extra successes", p["extra"]) % p


def _exalted_short(p: Params) -> str:
    p = _with_text_value(p, "difficulty", r"short of difficulty (\d+)$")
    if "difficulty" in p:
        return npgettext("exalted", "%(short)d success short of difficulty %(difficulty)d",
                         "%(short)d successes short of difficulty %(difficulty)d", p["short"]) % p
    return npgettext("exalted", "%(short)d success short of the difficulty",
                     "%(short)d successes short of the difficulty", p["short"]) % p


def _exalted_opposed_win(p: Params) -> str:
    if p["side"] == "first":
        return pgettext("exalted", "the first side wins by %(net)d") % p
    if p["side"] == "second":
        return pgettext("exalted", "the second side wins by %(net)d") % p
    raise ValueError(p["side"])


EXALTED: dict[str, Callable[[Params], str]] = {
    "stunt": lambda p: npgettext("exalted", "%(dice)d-die stunt: +%(dice)d die",
                                 "%(dice)d-die stunt: +%(dice)d dice", p["dice"]) % p,
    "dice_modifier": lambda p: pgettext("exalted", "dice modifiers: %(dice)s") % {"dice": _signed(p["dice"])},
    "botch": lambda p: npgettext("exalted", "botch (%(ones)d one)", "botch (%(ones)d ones)", p["ones"]) % p,
    "met": _exalted_met,
    "short": _exalted_short,
    "tens_double": lambda p: npgettext("exalted", "%(tens)d ten counts double: +%(tens)d",
                                       "%(tens)d tens count double: +%(tens)d", p["tens"]) % p,
    "willpower": lambda p: pgettext("exalted", "1 Willpower: +1 success"),
    "automatic_success": lambda p: pgettext(
        "exalted", "automatic success with %(dice)d dice: no roll, no extra successes") % p,
    "opposed_tie": lambda p: pgettext("exalted", "equal successes: a tie, nobody prevails"),
    "opposed_win": _exalted_opposed_win,
}


# --- scifi ---------------------------------------------------------------------------------


def _scifi_modifiers(p: Params) -> str:
    return npgettext("scifi", "modifiers: %(net)s die", "modifiers: %(net)s dice", abs(p["net"])) % {
        "net": _signed(p["net"])}


def _scifi_fumble(p: Params) -> str:
    side = p.get("side")
    if side is None:
        return pgettext("scifi", "failed with a first die of 1: fumble")
    if side == "first":
        return pgettext("scifi", "the first side lost with a first die of 1: fumble")
    if side == "second":
        return pgettext("scifi", "the second side lost with a first die of 1: fumble")
    raise ValueError(side)


def _scifi_opposed_win(p: Params) -> str:
    lines = {
        ("first", "narrowly"): pgettext_lazy("scifi", "the first side wins narrowly"),
        ("first", "clearly"): pgettext_lazy("scifi", "the first side wins clearly"),
        ("first", "overwhelmingly"): pgettext_lazy("scifi", "the first side wins overwhelmingly"),
        ("second", "narrowly"): pgettext_lazy("scifi", "the second side wins narrowly"),
        ("second", "clearly"): pgettext_lazy("scifi", "the second side wins clearly"),
        ("second", "overwhelmingly"): pgettext_lazy("scifi", "the second side wins overwhelmingly"),
    }
    return str(lines[p["side"], p["victory"]])


SCIFI: dict[str, Callable[[Params], str]] = {
    "modifiers_capped": lambda p: pgettext("scifi", "modifiers %(net)s: only +%(applied)d dice count") % {
        "net": _signed(p["net"]), "applied": p["applied"]},
    "modifiers_floor": lambda p: pgettext("scifi", "modifiers %(net)s: the pool stops at 0 dice") % {
        "net": _signed(p["net"])},
    "modifiers": _scifi_modifiers,
    "impossible": lambda p: pgettext(
        "scifi", "%(needed)d successes needed without the skill: impossible, no roll") % p,
    "automatic": lambda p: pgettext("scifi", "easy: automatic success, no roll"),
    "knowledge_needed": lambda p: pgettext(
        "scifi", "needs specific knowledge: impossible without a level in the skill, no roll"),
    "no_dice": lambda p: pgettext("scifi", "no dice left: failure without a roll"),
    "explosion": lambda p: npgettext("scifi", "%(dice)d explosion die for the 10s",
                                     "%(dice)d explosion dice for the 10s", p["dice"]) % p,
    "fumble": _scifi_fumble,
    "stalemate": lambda p: pgettext("scifi", "equal successes: stalemate"),
    "opposed_win": _scifi_opposed_win,
}


# --- v5 ------------------------------------------------------------------------------------


def _v5_rouse(p: Params, with_face: Promise, without: Promise) -> str:
    p = _with_text_value(p, "face", r"^rouse check (\d+):")
    return str(with_face if "face" in p else without) % p


V5: dict[str, Callable[[Params], str]] = {
    "specialty": lambda p: pgettext("v5", "Specialty: +1 die"),
    "modifiers_beyond_guideline": lambda p: pgettext(
        "v5", "modifiers %(modifiers)s dice: beyond the ±%(limit)d guideline") % {
        "modifiers": _signed(p["modifiers"]), "limit": p["limit"]},
    "pool_minimum": lambda p: pgettext("v5", "a pool never drops below 1 die"),
    "difficulty_beyond_guideline": lambda p: pgettext(
        "v5", "difficulty modifiers %(modifiers)s: beyond the ±%(limit)d guideline") % {
        "modifiers": _signed(p["modifiers"]), "limit": p["limit"]},
    "improvised": lambda p: pgettext("v5", "improvised equipment: +%(difficulty)d difficulty") % p,
    "no_equipment": lambda p: pgettext("v5", "impossible without the equipment: failure without a roll"),
    # Emitted for the Humanity (remorse) roll, the one tracker roll without Hunger dice.
    "tracker_no_hunger": lambda p: pgettext("v5", "tracker roll: no Hunger dice"),
    "win": lambda p: npgettext("v5", "win: %(successes)d success vs difficulty %(difficulty)d, margin %(margin)d",
                               "win: %(successes)d successes vs difficulty %(difficulty)d, margin %(margin)d",
                               p["successes"]) % p,
    "failure": lambda p: npgettext("v5", "failure: %(successes)d success vs difficulty %(difficulty)d",
                                   "failure: %(successes)d successes vs difficulty %(difficulty)d",
                                   p["successes"]) % p,
    "total_failure": lambda p: pgettext("v5", "no successes: total failure"),
    "win_at_cost": lambda p: npgettext("v5", "%(short)d success short: the Storyteller may offer a win at a cost",
                                       "%(short)d successes short: the Storyteller may offer a win at a cost",
                                       p["short"]) % p,
    "critical_pairs": lambda p: npgettext("v5", "%(tens)d tens: %(pairs)d critical pair, +%(bonus)d",
                                          "%(tens)d tens: %(pairs)d critical pairs, +%(bonus)d", p["pairs"]) % {
        "tens": p["tens"], "pairs": p["pairs"], "bonus": 2 * p["pairs"]},
    "critical_win": lambda p: pgettext("v5", "critical win"),
    "messy_critical": lambda p: pgettext("v5", "a Hunger die shows 10: messy critical"),
    "bestial_failure": lambda p: pgettext("v5", "a Hunger die shows 1: bestial failure"),
    "automatic_win": lambda p: pgettext(
        "v5", "automatic win: %(dice)d dice, at least twice difficulty %(difficulty)d") % p,
    "take_half": lambda p: npgettext("v5", "took half: %(successes)d success from %(dice)d dice",
                                     "took half: %(successes)d successes from %(dice)d dice", p["successes"]) % p,
    "willpower_reroll": lambda p: npgettext(
        "v5", "Willpower: rerolled %(dice)d normal die (1 superficial Willpower damage)",
        "Willpower: rerolled %(dice)d normal dice (1 superficial Willpower damage)", p["dice"]) % p,
    "hunger_at_maximum": lambda p: pgettext(
        "v5", "Hunger is already %(hunger)d: a forced rouse check calls for a hunger frenzy test "
              "(difficulty %(difficulty)d)") % p,
    "rouse_pass": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger stays %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check passed: Hunger stays %(hunger)d")),
    "rouse_fail": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger rises to %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check failed: Hunger rises to %(hunger)d")),
    "rouse_fail_at_maximum": lambda p: _v5_rouse(
        p, pgettext_lazy("v5", "rouse check %(face)d: failed, Hunger stays %(hunger)d"),
        pgettext_lazy("v5", "rouse check failed: Hunger stays %(hunger)d")),
}


# --- fate ----------------------------------------------------------------------------------

# The Ladder in the active language (rules.fate.LADDER holds the English names).
LADDER: dict[int, Promise] = {
    8: pgettext_lazy("fate", "Legendary"),
    7: pgettext_lazy("fate", "Epic"),
    6: pgettext_lazy("fate", "Fantastic"),
    5: pgettext_lazy("fate", "Superb"),
    4: pgettext_lazy("fate", "Great"),
    3: pgettext_lazy("fate", "Good"),
    2: pgettext_lazy("fate", "Fair"),
    1: pgettext_lazy("fate", "Average"),
    0: pgettext_lazy("fate", "Mediocre"),
    -1: pgettext_lazy("fate", "Poor"),
    -2: pgettext_lazy("fate", "Terrible"),
}

# An outcome as a note names it (lower case, mid-sentence).
OUTCOMES: dict[str, Promise] = {
    "fail": pgettext_lazy("fate", "fail"),
    "tie": pgettext_lazy("fate", "tie"),
    "success": pgettext_lazy("fate", "success"),
    "style": pgettext_lazy("fate", "success with style"),
}


def ladder_name(value: int) -> str:
    """The Ladder's name of ``value`` in the active language; off the Ladder, the signed number."""
    return str(LADDER[value]) if value in LADDER else _signed(value)


_FATE_FACES = r"([-0+]{4}(?:, [-0+]{4})*)"


def _fate_dice(p: Params) -> str:
    p = _with_text_value(p, "faces", rf"^dice {_FATE_FACES}:", str)
    if "faces" in p:
        return pgettext("fate", "dice %(faces)s: %(dice)s") % {"faces": p["faces"], "dice": _signed(p["dice"])}
    return pgettext("fate", "dice: %(dice)s") % {"dice": _signed(p["dice"])}


def _fate_reroll(p: Params) -> str:
    p = _with_text_value(p, "was", rf"\(was {_FATE_FACES}\)$", str)
    if "was" in p:
        return npgettext("fate", "an invoked aspect rerolled the dice (was %(was)s)",
                         "invoked aspects rerolled the dice (was %(was)s)", p["count"]) % p
    return npgettext("fate", "an invoked aspect rerolled the dice (%(count)d time)",
                     "invoked aspects rerolled the dice (%(count)d times)", p["count"]) % p


def _fate_total(p: Params) -> str:
    return npgettext(
        "fate", "total %(total)s (%(total_name)s) against %(difficulty)s (%(difficulty_name)s): %(shifts)s shift",
        "total %(total)s (%(total_name)s) against %(difficulty)s (%(difficulty_name)s): %(shifts)s shifts",
        abs(p["shifts"])) % {
        "total": _signed(p["total"]), "total_name": ladder_name(p["total"]),
        "difficulty": _signed(p["difficulty"]), "difficulty_name": ladder_name(p["difficulty"]),
        "shifts": _signed(p["shifts"])}


def _fate_opposed(p: Params) -> str:
    return npgettext(
        "fate", "%(total)s against %(opponent_total)s: %(shifts)s shift, %(outcome)s for the first side",
        "%(total)s against %(opponent_total)s: %(shifts)s shifts, %(outcome)s for the first side",
        abs(p["shifts"])) % {
        "total": _signed(p["total"]), "opponent_total": _signed(p["opponent_total"]),
        "shifts": _signed(p["shifts"]), "outcome": OUTCOMES[fate.outcome_of(p["shifts"]).value]}


def _fate_card(p: Params) -> str:
    card = p["card"]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < fate.DECK_SIZE:
        raise ValueError(card)
    return pgettext("fate", "Fate deck card %(card)d: %(faces)s") % {
        "card": card, "faces": fate.dice_text(fate.CARDS[card])}


def _consequence(line: Promise) -> Callable[[Params], str]:
    return lambda p: str(line) % {"shifts": p["shifts"], "aspect": p["aspect"]}


FATE: dict[str, Callable[[Params], str]] = {
    "dice": _fate_dice,
    "reroll": _fate_reroll,
    "bonus": lambda p: pgettext("fate", "bonus %(bonus)s") % {"bonus": _signed(p["bonus"])},
    "invoke": lambda p: npgettext("fate", "%(count)d aspect invoked after the roll: +%(plus)d",
                                  "%(count)d aspects invoked after the roll: +%(plus)d", p["count"]) % {
        "count": p["count"], "plus": fate.INVOKE_BONUS * p["count"]},
    "total": _fate_total,
    **{f"outcome_{outcome}": (lambda line: lambda p: str(line))(line) for outcome, line in OUTCOMES.items()},
    "opposed": _fate_opposed,
    "card": _fate_card,
    "deck_reshuffled": lambda p: pgettext("fate", "the Fate deck was empty: all 81 cards reshuffled"),
    "taken_out": lambda p: npgettext("fate", "a %(shifts)d-shift hit takes the character out",
                                     "a %(shifts)d-shift hit takes the character out", p["shifts"]) % p,
    "stress_box": lambda p: pgettext("fate", "stress box %(box)d checked") % p,
    "consequence_mild": _consequence(pgettext_lazy("fate", "mild consequence (%(shifts)d): %(aspect)s")),
    "consequence_moderate": _consequence(pgettext_lazy("fate", "moderate consequence (%(shifts)d): %(aspect)s")),
    "consequence_severe": _consequence(pgettext_lazy("fate", "severe consequence (%(shifts)d): %(aspect)s")),
}


def _attack_hit(with_stress: Promise, plural: Promise, without: Promise) -> Callable[[Params], str]:
    def line(e: Params) -> str:
        stress = e.get("stress")
        if stress is None:
            return str(without)
        return str(with_stress if stress == 1 else plural) % {"stress": stress}
    return line


# Fate's action table (rules.fate.TABLE): what each action's outcome does.
EFFECTS: dict[str, Callable[[Params], str]] = {
    "create_advantage_fail": lambda e: pgettext(
        "fate", "no aspect, or the aspect with a free invocation for your opponent (not you)"),
    "create_advantage_tie_boost": lambda e: pgettext("fate", "no aspect, but you get a boost"),
    "create_advantage_success": lambda e: pgettext("fate", "you create or discover the aspect with a free invocation"),
    "create_advantage_style": lambda e: pgettext("fate", "you create or discover the aspect with two free invocations"),
    "create_advantage_known_fail": lambda e: pgettext("fate", "no further benefit from the aspect"),
    "create_advantage_known_invoke": lambda e: pgettext("fate", "a free invocation of the aspect"),
    "create_advantage_known_style": lambda e: pgettext("fate", "two free invocations of the aspect"),
    "overcome_fail": lambda e: pgettext("fate", "you fail, or succeed at a serious cost"),
    "overcome_tie": lambda e: pgettext("fate", "you succeed at a minor cost"),
    "overcome_success": lambda e: pgettext("fate", "you achieve your goal"),
    "overcome_style": lambda e: pgettext("fate", "you achieve your goal and get a boost"),
    "attack_fail": lambda e: pgettext("fate", "the attack misses: no effect"),
    "attack_tie": lambda e: pgettext("fate", "the attack does no harm, but you get a boost"),
    "attack_success": _attack_hit(
        pgettext_lazy("fate", "the attack hits for %(stress)d shift"),
        pgettext_lazy("fate", "the attack hits for %(stress)d shifts"),
        pgettext_lazy("fate", "the attack hits for its shifts")),
    "attack_style": _attack_hit(
        pgettext_lazy("fate", "the attack hits for %(stress)d shift; you may take 1 less for a boost"),
        pgettext_lazy("fate", "the attack hits for %(stress)d shifts; you may take 1 less for a boost"),
        pgettext_lazy("fate", "the attack hits for its shifts; you may take 1 less for a boost")),
    "defend_fail": lambda e: pgettext("fate", "you suffer whatever your opponent's success gives"),
    "defend_tie": lambda e: pgettext("fate", "your opponent reads a tie on its own action's table"),
    "defend_success": lambda e: pgettext("fate", "your opponent does not get what it wanted"),
    "defend_style": lambda e: pgettext("fate", "your opponent does not get what it wanted, and you get a boost"),
}


def _merge(*tables: dict[str, Callable[[Params], str]]) -> dict[str, Callable[[Params], str]]:
    """One table for all games; a code two games share tries each game's line in turn."""
    merged: dict[str, list[Callable[[Params], str]]] = {}
    for table in tables:
        for code, line in table.items():
            merged.setdefault(code, []).append(line)

    def first_fit(lines: list[Callable[[Params], str]]) -> Callable[[Params], str]:
        def line(p: Params) -> str:
            for candidate in lines[:-1]:
                try:
                    return candidate(p)
                except (KeyError, ValueError, TypeError):
                    continue
            return lines[-1](p)
        return line

    return {code: lines[0] if len(lines) == 1 else first_fit(lines) for code, lines in merged.items()}


# Each game's note lines, by code (the test reads these to check the engine's codes).
GAMES: dict[str, dict[str, Callable[[Params], str]]] = {"exalted": EXALTED, "scifi": SCIFI, "v5": V5, "fate": FATE}
NOTES = _merge(EXALTED, SCIFI, V5, FATE)


def _render(table: Mapping[str, Callable[[Params], str]], item: object) -> str:
    if not isinstance(item, Mapping):
        return "" if item is None else str(item)
    english = str(item.get("text", ""))
    line = table.get(str(item.get("code")))
    if line is None:
        return english
    try:
        return str(line(item))
    except (KeyError, ValueError, TypeError, IndexError):
        return english  # parameters that do not fit: the engine's own English line


def note_text(note: Mapping[str, Any]) -> str:
    """One note of a result in the active language; the English ``text`` for an unknown code."""
    return _render(NOTES, note)


def effect_text(effect: Mapping[str, Any]) -> str:
    """A Fate action's effect in the active language; the English ``text`` for an unknown code."""
    return _render(EFFECTS, effect)


# --- refusals ---------------------------------------------------------------------------------

# The engine's refusals that a GM meets at the table (``RulesError.code``), in the active
# language. Anything without a code, or with an unknown one, reads as the engine wrote it.
REFUSALS: dict[str, Callable[[Params], str]] = {
    "pool_unrollable": lambda p: pgettext("exalted", "a pool of %(dice)d dice after modifiers cannot be rolled") % p,
    "automatic_stress": lambda p: pgettext("exalted", "no automatic success in stressful situations or combat: roll the dice"),
    "automatic_pool": lambda p: pgettext(
        "exalted", "an automatic success needs %(needed)d or more dice, the pool has %(dice)d") % p,
    "automatic_win_pool": lambda p: pgettext(
        "v5", "an automatic win needs at least %(needed)d dice (twice difficulty %(difficulty)d), the pool has %(dice)d") % p,
    "actions_unrollable": lambda p: pgettext(
        "exalted", "the multiple-action penalty takes the pool to %(dice)d dice: this action cannot be taken "
        "(a stunt does not bring it back)") % p,
    "automatic_unreachable": lambda p: pgettext(
        "exalted", "%(dice)d dice can never reach difficulty %(difficulty)d: no automatic success") % p,
    "automatic_win_stress": lambda p: pgettext("v5", "no automatic win under stress or in combat: roll the dice"),
    "take_half_stress": lambda p: pgettext("v5", "no taking half under stress or in combat: roll the dice"),
    "no_equipment_shortcut": lambda p: pgettext("v5", "the task is impossible without equipment: nothing to win"),
    "invoke_twice": lambda p: pgettext(
        "fate", "“%(aspect)s” is already invoked on this roll: the same aspect twice only with two free invocations "
        "(a success with style's), never a third time") % p,
    "reroll_tracker": lambda p: pgettext("v5", "Willpower cannot reroll a tracker roll (Willpower, Humanity)"),
    "reroll_again": lambda p: pgettext("v5", "this roll was already rerolled with Willpower"),
    "reroll_hunger_only": lambda p: pgettext("v5", "every die is a Hunger die, and Willpower cannot reroll Hunger dice"),
    "reroll_count": lambda p: pgettext("v5", "Willpower rerolls 1 to %(most)d normal dice, not %(dice)d") % p,
    "budget_concentrating": lambda p: pgettext("scifi", "concentrating on an extended action: it takes the whole turn"),
    "budget_slots": lambda p: npgettext(
        "scifi", "a %(action)s action needs %(cost)d action slot, %(left)d of %(slots)d left",
        "a %(action)s action needs %(cost)d action slots, %(left)d of %(slots)d left", p["cost"]
    ) % {**p, "action": _SCIFI_ACTIONS.get(p["action"], p["action"])},
    "budget_special": lambda p: pgettext("scifi", "%(action)s: at most %(most)d a turn") % {
        **p, "action": _SCIFI_ACTIONS.get(p["action"], p["action"])},
    "off_rol_closed": lambda p: pgettext(
        "scifi", "Off-Rol actions are closed while the adventure is open, unless the Director stages a scene for them"),
}
_SCIFI_ACTIONS = {
    "short": pgettext_lazy("scifi action", "short"), "long": pgettext_lazy("scifi action", "long"),
    "extended": pgettext_lazy("scifi action", "extended"), "fire": pgettext_lazy("scifi action", "fire"),
}


def refusal_text(error: Exception) -> str:
    """A ``rules.RulesError`` in the active language (its English message when it has no code)."""
    line = REFUSALS.get(getattr(error, "code", ""))
    if line is None:
        return str(error)
    try:
        return str(line(getattr(error, "params", {})))
    except (KeyError, ValueError, TypeError):
        return str(error)


# --- words that differ per game --------------------------------------------------------------

# The same English word, a different published Spanish term per game. Declared here so the
# catalog always holds them; a template uses {% translate "Willpower" context "v5" %} or
# {{ "Willpower"|term:campaign.game }}.
GAME_TERMS: dict[str, dict[str, Promise]] = {
    "exalted": {
        "Willpower": pgettext_lazy("exalted", "Willpower"),
        "Willpower roll": pgettext_lazy("exalted", "Willpower roll"),
        "Stunt": pgettext_lazy("exalted", "Stunt"),
    },
    "v5": {
        "Willpower": pgettext_lazy("v5", "Willpower"),
        "Willpower roll": pgettext_lazy("v5", "Willpower roll"),
    },
    "fate": {
        "Stunt": pgettext_lazy("fate", "Stunt"),
    },
}


def game_term(word: str, game: str) -> str:
    """``word`` as ``game`` says it in the active language (``pgettext(game, word)``)."""
    term = GAME_TERMS.get(game, {}).get(word)
    return str(term) if term is not None else pgettext(game, word)
