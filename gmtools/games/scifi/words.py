"""The scifi d10 game in words: the engine's notes and refusals in the active language, and its
verdicts (each line has the game as gettext context, like the sheet's labels)."""

from django.utils.translation import gettext, npgettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from gmtools.games.base import Line, Params, signed

def _scifi_modifiers(p: Params) -> str:
    return npgettext("scifi", "modifiers: %(net)s die", "modifiers: %(net)s dice", abs(p["net"])) % {
        "net": signed(p["net"])}


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


NOTE_TEXTS: dict[str, Line] = {
    "modifiers_capped": lambda p: pgettext("scifi", "modifiers %(net)s: only +%(applied)d dice count") % {
        "net": signed(p["net"]), "applied": p["applied"]},
    "modifiers_floor": lambda p: pgettext("scifi", "modifiers %(net)s: the pool stops at 0 dice") % {
        "net": signed(p["net"])},
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

# A scifi action, as a refusal names it: the whole phrase, its article too ("an extended action").
_ACTIONS = {
    "short": pgettext_lazy("scifi action", "a short action"), "long": pgettext_lazy("scifi action", "a long action"),
    "extended": pgettext_lazy("scifi action", "an extended action"),
    "fire": pgettext_lazy("scifi action", "firing a weapon"),
}

# The engine's refusals (``RulesError.code``) that a GM meets at the table.
REFUSAL_TEXTS: dict[str, Line] = {
    "budget_concentrating": lambda p: pgettext("scifi", "concentrating on an extended action: it takes the whole turn"),
    "budget_slots": lambda p: npgettext(
        "scifi", "%(action)s needs %(cost)d action slot, %(left)d of %(slots)d left",
        "%(action)s needs %(cost)d action slots, %(left)d of %(slots)d left", p["cost"]
    ) % {**p, "action": _ACTIONS.get(p["action"], p["action"])},
    "budget_special": lambda p: npgettext(
        "scifi", "%(action)s is allowed once a turn", "%(action)s is allowed at most %(most)d times a turn", p["most"]
    ) % {**p, "action": _ACTIONS.get(p["action"], p["action"])},
    "off_rol_closed": lambda p: pgettext(
        "scifi", "Off-Rol actions are closed while the adventure is open, unless the GM stages a scene for them"),
}

# --- the roll's verdict (gmtools.verdicts reads it) ---------------------------------------------

OUTCOME_WORDS = {"failure": (_("Failure"), "bad"), "fumble": (_("Fumble"), "worst")}
_DEGREES = {"barely": _("Barely a success"), "clean": _("Clean success"), "absolute": _("Absolute success")}


def verdict_of(result: Params) -> tuple[str, str] | None:
    """A success, in its degree."""
    if result.get("outcome", "") == "success":
        degree = result.get("degree")
        return (str(_DEGREES[degree]) if degree else gettext("Success")), "good"
    return None


def contest_mark(main: Params, winner: str | None) -> tuple[str, str] | None:
    """A fumble of the side that lost."""
    if winner == "second" and main.get("faces", [None])[0] == 1:
        return gettext("Fumble"), "worst"
    return None


# The seed's "tablas": nobody gets it, or the contest goes on another round.
TIE_WORDS = _("Stalemate: nobody gets it, or another round")
VICTORY_WORDS = {"narrowly": _("narrowly"), "clearly": _("clearly"), "overwhelmingly": _("overwhelmingly")}
# The seed's degrees read alike in Spanish (ajustado, justo): each says how many it spared.
DEGREE_HINTS = {
    "barely": _("Barely: exactly the successes needed, none to spare."),
    "clean": _("Clean: one success to spare."),
    "absolute": _("Absolute: two or more successes to spare."),
}
