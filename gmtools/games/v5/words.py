"""Vampire V5 in words: the engine's notes and refusals in the active language, the terms it says its
own way, and its verdicts (each line has the game as gettext context, like the sheet's labels)."""

from django.utils.functional import Promise
from django.utils.translation import gettext, npgettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Line, Params, signed, with_text_value

def _v5_rouse(p: Params, with_face: Promise, without: Promise) -> str:
    p = with_text_value(p, "face", r"^rouse check (\d+):")
    return str(with_face if "face" in p else without) % p


NOTE_TEXTS: dict[str, Line] = {
    "specialty": lambda p: pgettext("v5", "Specialty: +1 die"),
    "modifiers_beyond_guideline": lambda p: pgettext(
        "v5", "modifiers %(modifiers)s dice: beyond the ±%(limit)d guideline") % {
        "modifiers": signed(p["modifiers"]), "limit": p["limit"]},
    "pool_minimum": lambda p: pgettext("v5", "a pool never drops below 1 die"),
    "impaired": lambda p: pgettext("v5", "Impaired: −%(dice)d dice") % p,
    "difficulty_beyond_guideline": lambda p: pgettext(
        "v5", "difficulty modifiers %(modifiers)s: beyond the ±%(limit)d guideline") % {
        "modifiers": signed(p["modifiers"]), "limit": p["limit"]},
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
    "hunger_frenzy_risk": lambda p: pgettext(
        "v5", "Hunger is still %(hunger)d: the next failed rouse check calls for a hunger frenzy test "
              "(difficulty %(difficulty)d)") % p,
    "rouse_pass": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger stays %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check passed: Hunger stays %(hunger)d")),
    "rouse_fail": lambda p: _v5_rouse(p, pgettext_lazy("v5", "rouse check %(face)d: Hunger rises to %(hunger)d"),
                                      pgettext_lazy("v5", "rouse check failed: Hunger rises to %(hunger)d")),
    "rouse_fail_at_maximum": lambda p: _v5_rouse(
        p, pgettext_lazy("v5", "rouse check %(face)d: failed, Hunger stays %(hunger)d"),
        pgettext_lazy("v5", "rouse check failed: Hunger stays %(hunger)d")),
}

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "automatic_win_pool": lambda p: pgettext(
        "v5", "an automatic win needs at least %(needed)d dice (twice difficulty %(difficulty)d), the pool has %(dice)d") % p,
    "automatic_win_stress": lambda p: pgettext("v5", "no automatic win under stress or in combat: roll the dice"),
    "take_half_stress": lambda p: pgettext("v5", "no taking half under stress or in combat: roll the dice"),
    "no_equipment_shortcut": lambda p: pgettext("v5", "the task is impossible without equipment: nothing to win"),
    "reroll_tracker": lambda p: pgettext("v5", "Willpower cannot reroll a tracker roll (Willpower, Humanity)"),
    "reroll_again": lambda p: pgettext("v5", "this roll was already rerolled with Willpower"),
    "reroll_hunger_only": lambda p: pgettext("v5", "every die is a Hunger die, and Willpower cannot reroll Hunger dice"),
    "reroll_count": lambda p: pgettext("v5", "Willpower rerolls 1 to %(most)d normal dice, not %(dice)d") % p,
    "rouse_no_hunger": lambda p: (pgettext("v5", "a ghoul has no Hunger: no rouse check") if p["nature"] == "ghoul"
                                  else pgettext("v5", "a mortal has no Hunger: no rouse check")),
}

# Words the game says its own way ("Willpower" is *Voluntad* in Exalted, *Fuerza de Voluntad*
# in Vampire): ``gmtools.notes.game_term`` and the ``term`` filter read them.
TERMS = {
    "Willpower": pgettext_lazy("v5", "Willpower"),
    "Willpower roll": pgettext_lazy("v5", "Willpower roll"),
}

# --- the roll's verdict (gmtools.verdicts reads it) ---------------------------------------------

# A rouse check's outcomes; a roll's win or failure reads through ``verdict_of``.
OUTCOME_WORDS = {"pass": (_("Rouse check passed"), "good"), "fail": (_("Rouse check failed: Hunger rises"), "bad")}


def verdict_of(result: Params) -> tuple[str, str] | None:
    """A win or a failure, with what the Hunger dice and the tens made of it; a failed rouse check
    that finds Hunger at 5 already."""
    outcome = result.get("outcome", "")
    if outcome == "fail" and "hunger_before" in result and result["hunger_before"] == result["hunger_after"]:
        # Hunger cannot rise past 5: the failure calls for a hunger frenzy test instead (the card's note gives its difficulty).
        return gettext("Rouse check failed: hunger frenzy test"), "bad"
    if outcome not in ("win", "failure"):
        return None
    if result.get("messy"):
        return gettext("Messy critical"), "worst"
    if result.get("critical"):
        return gettext("Critical win"), "best"
    if outcome == "win":
        return gettext("Win"), "good"
    if result.get("bestial"):
        text = gettext("Bestial failure")
        return (text + " · " + gettext("Total failure") if result.get("total_failure") else text), "worst"
    if result.get("total_failure"):
        return gettext("Total failure"), "bad"
    return gettext("Failure (win at a cost?)"), "bad"


def contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A critical or a bestial result, judged against the contest (won or lost)."""
    hunger = main.get("hunger_faces", [])
    pairs = (list(main.get("faces", [])) + list(hunger)).count(10) // 2
    if winner == "first" and pairs:
        return (gettext("Messy critical"), "worst") if 10 in hunger else (gettext("Critical win"), "best")
    if winner == "second" and 1 in hunger:
        return gettext("Bestial failure"), "worst"
    return None


TIE_WORDS = _("Tie: neither side prevails")


def count_of(main: Params) -> str | None:
    """A rouse check counts its Hunger, before and after (its dice are no successes); a roll, its successes."""
    if "hunger_before" not in main:
        return None
    return gettext("Hunger") + f" {main['hunger_before']} → {main['hunger_after']}"
