"""Fate Accelerated in words: the Ladder, the engine's notes, effects and refusals in the active
language, the terms it says its own way, and its verdicts (each line has the game as gettext context,
like the sheet's labels)."""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext, npgettext, pgettext, pgettext_lazy

from gmtools.games.base import Line, Params, signed, with_text_value
from rules import fate as engine

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
    return str(LADDER[value]) if value in LADDER else signed(value)


_FATE_FACES = r"([-0+]{4}(?:, [-0+]{4})*)"


def _fate_dice(p: Params) -> str:
    p = with_text_value(p, "faces", rf"^dice {_FATE_FACES}:", str)
    if "faces" in p:
        return pgettext("fate", "dice %(faces)s: %(dice)s") % {"faces": p["faces"], "dice": signed(p["dice"])}
    return pgettext("fate", "dice: %(dice)s") % {"dice": signed(p["dice"])}


def _fate_reroll(p: Params) -> str:
    p = with_text_value(p, "was", rf"\(was {_FATE_FACES}\)$", str)
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
        "total": signed(p["total"]), "total_name": ladder_name(p["total"]),
        "difficulty": signed(p["difficulty"]), "difficulty_name": ladder_name(p["difficulty"]),
        "shifts": signed(p["shifts"])}


def _fate_opposed(p: Params) -> str:
    return npgettext(
        "fate", "%(total)s against %(opponent_total)s: %(shifts)s shift, %(outcome)s for the first side",
        "%(total)s against %(opponent_total)s: %(shifts)s shifts, %(outcome)s for the first side",
        abs(p["shifts"])) % {
        "total": signed(p["total"]), "opponent_total": signed(p["opponent_total"]),
        "shifts": signed(p["shifts"]), "outcome": OUTCOMES[engine.outcome_of(p["shifts"]).value]}


def _fate_card(p: Params) -> str:
    card = p["card"]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < engine.DECK_SIZE:
        raise ValueError(card)
    return pgettext("fate", "Fate deck card %(card)d: %(faces)s") % {
        "card": card, "faces": engine.dice_text(engine.CARDS[card])}


def _consequence(line: Promise) -> Line:
    return lambda p: str(line) % {"shifts": p["shifts"], "aspect": p["aspect"]}


NOTE_TEXTS: dict[str, Line] = {
    "dice": _fate_dice,
    "reroll": _fate_reroll,
    "bonus": lambda p: pgettext("fate", "bonus %(bonus)s") % {"bonus": signed(p["bonus"])},
    "invoke": lambda p: npgettext("fate", "%(count)d aspect invoked after the roll: +%(plus)d",
                                  "%(count)d aspects invoked after the roll: +%(plus)d", p["count"]) % {
        "count": p["count"], "plus": engine.INVOKE_BONUS * p["count"]},
    "total": _fate_total,
    **{f"outcome_{outcome}": (lambda line: lambda p: str(line))(line) for outcome, line in OUTCOMES.items()},
    "opposed": _fate_opposed,
    "card": _fate_card,
    # Said of a fresh deck's first card too (the time bar counted its 81 cards left): no "was empty".
    "deck_reshuffled": lambda p: pgettext("fate", "all 81 cards of the Fate deck shuffled"),
    "taken_out": lambda p: npgettext("fate", "a %(shifts)d-shift hit takes the character out",
                                     "a %(shifts)d-shift hit takes the character out", p["shifts"]) % p,
    "stress_box": lambda p: pgettext("fate", "stress box %(box)d checked") % p,
    "consequence_mild": _consequence(pgettext_lazy("fate", "mild consequence (%(shifts)d): %(aspect)s")),
    "consequence_moderate": _consequence(pgettext_lazy("fate", "moderate consequence (%(shifts)d): %(aspect)s")),
    "consequence_severe": _consequence(pgettext_lazy("fate", "severe consequence (%(shifts)d): %(aspect)s")),
}


def _attack_hit(with_stress: Promise, plural: Promise, without: Promise) -> Line:
    def line(e: Params) -> str:
        stress = e.get("stress")
        if stress is None:
            return str(without)
        return str(with_stress if stress == 1 else plural) % {"stress": stress}
    return line


# Fate's action table (rules.fate.TABLE): what each action's outcome does.
EFFECT_TEXTS: dict[str, Line] = {
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

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "invoke_twice": lambda p: pgettext(
        "fate", "“%(aspect)s” is already invoked on this roll: the same aspect twice only with two free invocations "
        "(a success with style's), never a third time") % p,
}

# Words the game says its own way ("Willpower" is *Voluntad* in Exalted, *Fuerza de Voluntad*
# in Vampire): ``gmtools.notes.game_term`` and the ``term`` filter read them.
TERMS = {
    "Stunt": pgettext_lazy("fate", "Stunt"),
}

# --- the roll's verdict (gmtools.verdicts reads it) ---------------------------------------------

OUTCOME_WORDS = {
    "fail": (_("Fail"), "bad"),
    "tie": (_("Tie"), "neutral"),
    "success": (_("Success"), "good"),
    "style": (_("Success with style"), "best"),
}


def count_of(main: Params) -> str:
    """The total and the shifts over the difficulty."""
    return (gettext("total") + f" {signed(main.get('total', 0))} · "
            + gettext("shifts") + f" {signed(main.get('shifts', 0))}")


def contest_of(main: Params, other: Params, net: int) -> tuple[str, str, str]:
    """Shifts against the opponent's total, in the Fate outcomes' own words."""
    text, tone = OUTCOME_WORDS.get(str(engine.outcome_of(net)), (str(engine.outcome_of(net)), "neutral"))
    count = (gettext("total") + f" {signed(main.get('total', 0))} " + gettext("vs") + f" {signed(other.get('total', 0))}"
             + " · " + gettext("shifts") + f" {signed(net)}")
    return str(text), tone, count
