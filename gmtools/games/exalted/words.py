"""Exalted 2e in words: the engine's notes and refusals in the active language, the terms it says its
own way, and its verdicts (each line has the game as gettext context, like the sheet's labels)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, npgettext, pgettext, pgettext_lazy

from gmtools.games.base import Line, Params, signed, with_text_value

def _exalted_met(p: Params) -> str:
    p = with_text_value(p, "difficulty", r"^difficulty (\d+) met")
    if "difficulty" in p:
        return npgettext("exalted", "difficulty %(difficulty)d met with %(extra)d extra success",
                         "difficulty %(difficulty)d met with %(extra)d extra successes", p["extra"]) % p
    return npgettext("exalted", "difficulty met with %(extra)d extra success",
                     "difficulty met with %(extra)d extra successes", p["extra"]) % p


def _exalted_short(p: Params) -> str:
    p = with_text_value(p, "difficulty", r"short of difficulty (\d+)$")
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


NOTE_TEXTS: dict[str, Line] = {
    "stunt": lambda p: npgettext("exalted", "%(dice)d-die stunt: +%(dice)d die",
                                 "%(dice)d-die stunt: +%(dice)d dice", p["dice"]) % p,
    "dice_modifier": lambda p: pgettext("exalted", "dice modifiers: %(dice)s") % {"dice": signed(p["dice"])},
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

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "pool_unrollable": lambda p: pgettext("exalted", "a pool of %(dice)d dice after modifiers cannot be rolled") % p,
    "automatic_stress": lambda p: pgettext("exalted", "no automatic success in stressful situations or combat: roll the dice"),
    "automatic_pool": lambda p: pgettext(
        "exalted", "an automatic success needs %(needed)d or more dice, the pool has %(dice)d") % p,
    "actions_unrollable": lambda p: pgettext(
        "exalted", "the multiple-action penalty takes the pool to %(dice)d dice: this action cannot be taken "
        "(a stunt does not bring it back)") % p,
    "automatic_unreachable": lambda p: pgettext(
        "exalted", "%(dice)d dice can never reach difficulty %(difficulty)d: no automatic success") % p,
}

# Words the game says its own way ("Willpower" is *Voluntad* in Exalted, *Fuerza de Voluntad*
# in Vampire): ``gmtools.notes.game_term`` and the ``term`` filter read them.
TERMS = {
    "Willpower": pgettext_lazy("exalted", "Willpower"),
    "Willpower roll": pgettext_lazy("exalted", "Willpower roll"),
    "Stunt": pgettext_lazy("exalted", "Stunt"),
}

# --- the roll's verdict (gmtools.verdicts reads it) ---------------------------------------------

OUTCOME_WORDS = {"success": (_("Success"), "good"), "failure": (_("Failure"), "bad")}


def _botch(result: Params) -> str:
    ones = result.get("ones", 1)
    return ngettext("Botch (%(n)d one)", "Botch (%(n)d ones)", ones) % {"n": ones}


def verdict_of(result: Params) -> tuple[str, str] | None:
    """A botch, with its ones."""
    if result.get("outcome", "") == "botch":
        return _botch(result), "worst"
    return None


def contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A botch stays a botch, whoever wins the contest."""
    if main.get("outcome") == "botch":
        return _botch(main), "worst"
    return None


def taken_away(successes: int, name: str) -> str:
    """The successes a contest took from one side first."""
    return npgettext("exalted", "%(n)d success taken away from %(name)s",
                     "%(n)d successes taken away from %(name)s", successes) % {"n": successes, "name": name}


# RULES.md: in a contest, a tie means nobody prevails.
TIE_WORDS = _("Tie: nobody prevails")
