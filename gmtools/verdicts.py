"""A logged roll's verdict in the game's own words, and the line a card (or a recap) leads with.

One roll has one verdict. An opposed roll's verdict comes from the contest, never from the
difficulty: who wins, by how much, and what a tie means in that game; a teamwork roll's from
the team's total. The Spanish comes from the published editions' terms in RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from gmtools import games
from gmtools.formatting import signed
from gmtools.models import Roll


def verdict(system: str, result: dict) -> tuple[str, str]:
    """(text, tone) for one side's stored result; tone is good, best, neutral, bad or worst.

    In the game's own words (``BaseGame.verdict_of``, then ``outcome_words``); an outcome it has
    no words for reads as its code, neutral."""
    outcome = result.get("outcome", "")
    try:
        game = games.get(system)
    except KeyError:
        return outcome, "neutral"
    own = game.verdict_of(result)
    if own is not None:
        return own
    text, tone = game.outcome_words.get(outcome, (outcome, "neutral"))
    return str(text), tone


@dataclass(frozen=True)
class Headline:
    text: str
    tone: str  # good | best | neutral | bad | worst
    count: str  # what stands beside it: successes and margin, a Fate total and shifts...
    hint: str = ""  # what the words mean, where the game's own words read alike
    successes: int | None = None  # the number the verdict judged (a team's total, one side's successes)
    margin: int | None = None  # by how much: over the difficulty, over the other side, over the team's bar


def _successes(n: int) -> str:
    return ngettext("%(n)s success", "%(n)s successes", n) % {"n": n}


def headline(roll: Roll, player: bool = False) -> Headline:
    """The verdict and the count beside it, as the roll's card and the recap show them."""
    main, result = roll.main, roll.result
    if player and roll.difficulty_secret:
        return Headline(gettext("The GM keeps the difficulty secret"), "neutral", _successes(main.get("successes") or 0),
                        successes=main.get("successes"))
    if result.get("opposed"):
        return _contest(roll)
    if "team_total" in result:
        return _team(roll)
    text, tone = verdict(roll.system, main)
    game = games.get(roll.system)
    count = game.count_of(main)
    if count is None:
        count = _successes(main.get("successes") or 0)
        if main.get("margin") is not None:
            margin = gettext("margin")
            count += f" · {margin} {signed(main['margin'])}"
    hint = game.degree_hints.get(main.get("degree"))
    return Headline(text, tone, count, str(hint) if hint else "",
                    successes=main.get(game.judged_field), margin=main.get("margin"))


def _contest(roll: Roll) -> Headline:
    main, result = roll.main, roll.result
    opposed, other = result["opposed"], result.get("opponent", {})
    them = other.get("name") or gettext("the opposition")
    net = opposed.get("net", 0)
    game = games.get(roll.system)
    if (read := game.contest_of(main, other, net)) is not None:
        # A game whose contests read as its outcomes (Fate: shifts against the opponent's total).
        text, tone, count = read
        return Headline(gettext("%(outcome)s against %(them)s") % {"outcome": text, "them": them}, tone, count,
                        successes=main.get(game.judged_field), margin=net)
    if (winner := opposed.get("winner")) in ("first", "second"):
        # "The opposition wins by 2": a verdict starts with a capital, whoever the opposing side is. A
        # game's degree of victory (scifi's "clearly") is either side's.
        name, tone = (roll.actor, "good") if winner == "first" else (them, "bad")
        victory, victories = opposed.get("victory"), game.victory_words
        text = (gettext("%(name)s wins %(how)s (by %(n)s)") % {"name": name, "how": victories[victory], "n": abs(net)}
                if victory in victories else gettext("%(name)s wins by %(n)s") % {"name": name, "n": abs(net)})
        text = capfirst(text) if winner == "second" else text
    else:
        tie = game.tie_words
        text, tone = str(tie if tie is not None else _("Tie")), "neutral"
    text, tone = _contest_marks(roll, text, tone, opposed.get("winner"))
    # A game whose contests take successes away (Exalted): the successes left once those taken
    # away are gone, as the verdict counts them (the card's notes say how many were taken from whom).
    mine_taken, theirs_taken = opposed.get("handicap") or (0, 0)  # only such a game's contests store them
    mine = result.get("team_total", main.get("successes", 0))  # a team's successes are its side's
    count = gettext("%(a)s vs %(b)s successes") % {"a": max(0, mine - mine_taken),
                                                    "b": max(0, other.get("successes", 0) - theirs_taken)}
    return Headline(text, tone, count, successes=main.get("successes"), margin=net)


def _contest_marks(roll: Roll, text: str, tone: str, winner: str | None) -> tuple[str, str]:
    """What the dice add to a contest's verdict, in the game's words (``BaseGame.contest_mark``:
    an Exalted botch, a V5 critical or bestial result judged against the contest, a scifi fumble
    of the side that lost)."""
    mark = games.get(roll.system).contest_mark(roll.main, winner)
    if mark is None:
        return text, tone
    words, mark_tone = mark
    return text + " · " + words, mark_tone


def _team(roll: Roll) -> Headline:
    """Teamwork (Exalted): the team's total against the lead's difficulty."""
    main, total = roll.main, roll.result["team_total"]
    difficulty = roll.request.get("difficulty", 1)
    if total == 0 and main.get("outcome") == "botch":
        text, tone = verdict(roll.system, main)
    elif total >= difficulty:
        text, tone = gettext("Success"), "good"
    else:
        text, tone = gettext("Failure"), "bad"
    margin = gettext("margin")
    count = (gettext("%(n)s successes with help (%(own)s own)") % {"n": total, "own": main.get("successes", 0)}
             + f" · {margin} {signed(total - difficulty)}")
    return Headline(text, tone, count, successes=total, margin=total - difficulty)


# Notes that judge the roll against its difficulty: beside a contest's or a team's verdict they
# would contradict it ("Success" beside "loses by 4"), so such cards leave them out.
_DIFFICULTY_NOTES = {"met", "short", "win", "failure", "total_failure", "critical_win", "messy_critical",
                     "bestial_failure", "fumble", "total", "botch"}


def notes_shown(roll: Roll, player: bool = False) -> list[dict]:
    """The engine's notes a card lists: none of a secret difficulty's to the players, and no
    difficulty's verdict beside a contest's or a team's; an Exalted contest's successes taken
    away, in words (the contest's own, not a note of either side's roll)."""
    notes = roll.main.get("notes", [])
    if player and roll.difficulty_secret:
        return []
    if roll.result.get("opposed") or "team_total" in roll.result:
        kept = [n for n in notes
                if n.get("code") not in _DIFFICULTY_NOTES and not str(n.get("code", "")).startswith("outcome_")]
        return kept + _taken_away(roll)
    return list(notes)


def _taken_away(roll: Roll) -> list[dict]:
    """The successes an opposed roll took from each side first (``opposed.handicap``: this side's,
    then the opposing side's), for a game whose contests take them (``BaseGame.taken_away``,
    Exalted), as notes in the active language. The code is not the engine's: ``note_text`` shows
    the line as written here."""
    taken = (roll.result.get("opposed") or {}).get("handicap")
    if not taken:
        return []
    game = games.get(roll.system)
    them = roll.result.get("opponent", {}).get("name") or gettext("the opposition")
    lines = ((side, n, game.taken_away(n, name)) for side, n, name in zip(("first", "second"), taken, (roll.actor, them)))
    return [{"code": "successes_taken", "side": side, "successes": n, "text": line}
            for side, n, line in lines if n and line is not None]
