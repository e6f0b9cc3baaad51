"""``python -m rules``: the rules engine on the command line (contract in RULES.md).

Prints one JSON object on stdout and exits 0; bad input prints one line on stderr and exits 2,
naming the option at fault; an option that does not apply to the system or command is refused,
never ignored. ``--faces`` replays a roll (a d10 face may be written 0 or 10; JSON always says
10; a Fate die -1, 0, 1 or, as the card writes it, -, 0, +; a list may begin with '-' with or without
'='); without it the draw uses ``--seed`` if given, else the system's secure random source.

Decisions: a rouse check's one die is not a Hunger die, so ``roll v5 --rouse --faces F`` replays
it and ``--hunger-faces`` is refused. ``reroll v5 --dice`` counts from 0 through the normal dice
(as the answer's ``rerolled`` does); a number past them names a Hunger die, which is refused as
such. ``extended --tug`` starts from ``--progress`` minus ``--vs-progress``.

An option is offered only by the commands where it changes the answer; given to another command
it is refused as such ("--helper does not apply to roll (an option of odds)"). So scifi
``--knowledge`` and v5 ``--difficulty-modifier``/``--improvised`` (the difficulty) are not
options of ``contest`` or ``extended`` (a contest compares successes; an extended action has its
own per-roll difficulty); nor is v5 ``--remorse``, which changes only the Hunger dice, which
neither looks at. Exalted ``--penalty``/``--vs-penalty`` (successes taken away) belong to
``contest`` and ``--helper`` (teamwork) to ``odds``. ``--remorse`` marks the Humanity roll, a
tracker roll: no Hunger dice, and Willpower cannot reroll it. ``--knowledge`` needs ``--skill``
(without it the skill is not checked and the mark would change nothing). Fate ``--invoke`` and
``--invoke-free`` name the aspects invoked before the roll, in the order given (+2 each).

Strict reading (issue 22): an option that takes one value (or a flag) given twice is refused by
name, never the last one kept; numbers are ASCII digits only (a fullwidth "５", "٥" or "1_000" is
refused); an option the answer never looks at is refused (``--botch`` for v5, which never botches;
v5 ``--hunger`` and scifi ``--skill`` in ``contest`` and ``extended``, which count successes only).
A reader that closes the pipe early (``| head -c 10``) ends the answer quietly, exit status 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, overload

from rules import SYSTEMS, exalted, fate, scifi, v5
from rules.dice import RandomSource, RulesError, check_fate_faces, system_random
from rules.extended import botch_policy, race_odds, tie_break, tug_of_war_odds

MAX_POOL = 100
MAX_TIMES = 1_000_000
MAX_HELPERS = 10  # exalted teamwork: helpers beside the lead
MAX_TAKEN = 2 * exalted.MAX_DICE  # exalted: successes taken from one side (every die a 10 scores 2)
D10_SYSTEMS = ("exalted", "scifi", "v5")
BOTCHES = ("exalted", "scifi")  # scifi: a fumble; V5 has no botch, so --botch would change nothing

# Which options each system accepts; anything else given is bad input, not silently ignored.
OPTIONS = {
    "exalted": {"pool", "difficulty", "stunt", "willpower", "modifier", "automatic", "stressful", "actions_penalty",
                "penalty", "vs_penalty", "helper"},
    "scifi": {"pool", "difficulty", "skill", "modifier", "knowledge"},
    "v5": {"pool", "hunger", "difficulty", "specialty", "modifier", "rouse", "hunger_faces", "automatic", "take_half",
           "stressful", "dice", "new_faces", "remorse", "difficulty_modifier", "improvised", "no_equipment"},
    "fate": {"bonus", "difficulty", "modifier", "deck", "new_faces", "invoke"},
}
REPLAY = {"faces", "seed", "times"}
# Options of one command, whatever the system (each exists only on its own subcommand).
COMMAND_OPTIONS = {"command", "system", "vs", "goal", "botch", "rolls", "progress", "race", "tug", "vs_progress",
                   "tie_break"}
# A rouse check is one die at a Hunger rating: nothing of a test's pool applies to it.
ROUSE_OPTIONS = {"rouse", "hunger", "faces", "seed", "times"}
NOT_ROLLED = ("automatic", "take_half")  # v5/exalted: the GM skips the roll


class BadInput(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)
        self.register("action", "store_true", _OnceTrue)

    def error(self, message: str) -> NoReturn:
        raise BadInput(message)


# A whole number as typed on a keyboard: ASCII digits only. Python's int() also reads a fullwidth
# "５", an Arabic-Indic "٥" and "1_000", none of which a GM means as a number here.
WHOLE = re.compile(r"[+-]?[0-9]+")


def _whole(text: str) -> int:
    if not WHOLE.fullmatch(text.strip(" ")):
        raise argparse.ArgumentTypeError(f"expected a whole number (digits 0-9), got {text!r}")
    return int(text)


def _int_list(text: str) -> tuple[int, ...]:
    parts = [part.strip(" ") for part in text.split(",") if part.strip(" ") != ""]
    if not all(WHOLE.fullmatch(part) for part in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers (digits 0-9), got {text!r}")
    return tuple(int(part) for part in parts)


# A Fate die as the card writes it (the GM's card prints "−", U+2212): read for fate only (_fate_marks).
FATE_MARKS = {"-": -1, "\u2212": -1, "+": 1}


def _face_list(text: str) -> tuple[int | str, ...]:
    """--faces, --new-faces: whole numbers, or Fate's -, 0, + as the card writes them (kept as
    typed here: only fate reads them, ``_fate_marks``)."""
    parts = [part.strip(" ") for part in text.split(",") if part.strip(" ") != ""]
    if not all(WHOLE.fullmatch(part) or part in FATE_MARKS for part in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers (digits 0-9; fate's dice also "
                                         f"-, 0, +), got {text!r}")
    return tuple(part if part in FATE_MARKS else int(part) for part in parts)


def _fate_marks(args: argparse.Namespace) -> None:
    """Fate's -, 0, + in --faces or --new-faces read as -1, 0, 1; refused by name in a d10 game."""
    for name in ("faces", "new_faces"):
        faces = getattr(args, name, None)
        if faces is None or not any(isinstance(face, str) for face in faces):
            continue
        option = "--" + name.replace("_", "-")
        if args.system != "fate":
            raise BadInput(f"{option}: -, 0, + are Fate's dice; {args.system} takes whole numbers (digits 0-9)")
        setattr(args, name, tuple(FATE_MARKS[face] if isinstance(face, str) else face for face in faces))


# The options that take a comma-separated list, whose value may begin with '-' (Fate's "-1,0,1,1" or
# "-,0,+,+"): argparse reads such a value as an option and refuses "expected one argument".
LISTS = frozenset({"--faces", "--hunger-faces", "--new-faces", "--deck", "--dice"})


def _lists_joined(argv: Sequence[str]) -> list[str]:
    """``--faces -1,0,1,1`` as ``--faces=-1,0,1,1``, which argparse takes: a list option followed by a
    value that begins with one '-' (not an option: those begin with '--', but -h), up to a '--'."""
    out: list[str] = []
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--":
            return [*out, arg, *rest]
        if arg in LISTS and rest and rest[0].startswith("-") and not rest[0].startswith("--") and rest[0] != "-h":
            arg = f"{arg}={rest.pop(0)}"
        out.append(arg)
    return out


class _Once(argparse._StoreAction):
    """A single-value option given twice is refused, naming it: argparse would keep the last one
    silently (``--difficulty 9 --difficulty 1`` answered for 1). Every such option defaults to None."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        _refuse_repeat(self, namespace, option_string)
        super().__call__(parser, namespace, values, option_string)


class _OnceTrue(argparse._StoreTrueAction):
    """A flag given twice is refused as well: it says the writer meant something else."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        _refuse_repeat(self, namespace, option_string)
        super().__call__(parser, namespace, values, option_string)


def _refuse_repeat(action: argparse.Action, namespace: argparse.Namespace, option_string: str | None) -> None:
    if getattr(namespace, action.dest, None) is not None:
        raise BadInput(f"{action.option_strings[-1] if option_string is None else option_string} is given twice: "
                       "give it once")


class _Invoke(argparse.Action):
    """--invoke / --invoke-free: one list, in the order given, each entry (option, aspect)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or ()), (option_string, values)])


def _add_roll_options(p: argparse.ArgumentParser, replay: bool, command: str) -> None:
    p.add_argument("system", choices=SYSTEMS, help="the game: exalted, scifi, v5 or fate")
    p.add_argument("--pool", type=_whole, help="exalted, scifi, v5: dice (dots), 0 to 100")
    p.add_argument("--difficulty", help="successes needed, 0 to 100 (v5 1 to 100; scifi also easy|common|hard|"
                                        "very-hard|extreme); fate: the Ladder value to beat, -50 to 50; "
                                        "extended: each roll's own difficulty, 0 to 100")
    p.add_argument("--stunt", type=_whole, help="exalted: stunt dice, 0 to 3")
    p.add_argument("--willpower", action="store_true", default=None, help="exalted: spend 1 Willpower, +1 success")
    p.add_argument("--skill", type=_whole, help="scifi: the skill's level, 0 to 100 (easy and hard up depend on it)")
    p.add_argument("--hunger", type=_whole, help="v5: Hunger 0 to 5 (that many dice are Hunger dice)")
    p.add_argument("--specialty", action="store_true", default=None, help="v5: a Specialty, +1 die")
    p.add_argument("--bonus", type=_whole, help="fate: approach + stunts + helpers + invokes, -50 to 50")
    p.add_argument("--modifier", type=_whole, action="append", help="a modifier to the pool, -100 to 100 (fate: the bonus, -50 to 50); repeatable "
                                                               "(exalted: at most 200 dice in all)")
    p.add_argument("--actions-penalty", type=_whole,
                   help="exalted: dice lost to the turn's multiple actions, 0 to 200; an action it takes to 0 dice "
                        "cannot be taken (a stunt does not revive it)")
    p.add_argument("--no-equipment", action="store_true", default=None,
                   help="v5: impossible without equipment the character lacks: a failure without a roll")
    if command in ("roll", "odds", "reroll"):  # the difficulty, the skill checked against it, the Hunger dice
        p.add_argument("--remorse", action="store_true", default=None,
                       help="v5: the Humanity (remorse) roll: no Hunger dice, whatever --hunger (no Willpower reroll)")
        p.add_argument("--difficulty-modifier", type=_whole, action="append",
                       help="v5: the GM's ad-hoc change to the difficulty, -100 to 100; repeatable (a net beyond "
                            "±2 warns)")
        p.add_argument("--improvised", action="store_true", default=None, help="v5: improvised equipment, +1 difficulty")
    if command in ("roll", "odds"):
        p.add_argument("--knowledge", action="store_true", default=None,
                       help="scifi, with --skill: the action needs specific knowledge (skill 0 makes it impossible, "
                            "even when easy)")
    if command != "extended":
        p.add_argument("--invoke", action=_Invoke, dest="invoke", metavar="ASPECT",
                       help="fate: an aspect invoked before the roll with a fate point, +2; repeatable (at most 10 "
                            "invocations; one aspect once)")
        p.add_argument("--invoke-free", action=_Invoke, dest="invoke", metavar="ASPECT",
                       help="fate: an aspect invoked before the roll with a free invocation, +2; repeatable (the same "
                            "aspect twice only with two free invocations)")
    if replay:
        p.add_argument("--faces", type=_face_list, help="replay: the dice as drawn, comma-separated "
                                                        "(v5: the normal dice; a d10's 10 may be written 0; "
                                                        "fate: -1, 0, 1 or -, 0, +)")
        p.add_argument("--hunger-faces", type=_int_list, help="v5 replay: the Hunger dice")
        p.add_argument("--seed", type=_whole, help="seed the random draw (without --faces): any whole number")


def _help_parser(commands: argparse._SubParsersAction[Parser], name: str, text: str, epilog: str) -> Parser:
    return commands.add_parser(name, help=text, description=text, epilog=epilog,
                               formatter_class=argparse.RawDescriptionHelpFormatter)


def build_parser() -> Parser:
    parser = Parser(prog="python -m rules", description=__doc__.split("\n\n")[0] + "\n\n" + __doc__.split("\n\n")[1],
                    epilog="'python -m rules COMMAND --help' lists a command's options. "
                           "A list may begin with '-': --faces -1,0,1,1 (or --faces=-,0,+,+, as the card "
                           "writes Fate's dice).",
                    formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    roll = _help_parser(commands, "roll", "roll (or replay with --faces) one action", ROLL_EXAMPLES)
    _add_roll_options(roll, replay=True, command="roll")
    roll.add_argument("--times", type=_whole, help="roll N times anew, 1 to 1,000,000: a JSON list of N answers "
                                                "(its time grows with N)")
    roll.add_argument("--rouse", action="store_true", default=None,
                      help="v5: a rouse check (one die, not a Hunger die: replay it with --faces)")
    roll.add_argument("--automatic", action="store_true", default=None,
                      help="exalted: automatic success (7+ dice, not in a stressful scene); "
                           "v5: automatic win (a pool of at least twice the difficulty); no dice are rolled")
    roll.add_argument("--take-half", action="store_true", default=None,
                      help="v5: take half the pool (rounded down) as successes instead of rolling")
    roll.add_argument("--stressful", action="store_true", default=None,
                      help="with --automatic or --take-half: the scene is stressful or in combat (refused)")
    roll.add_argument("--deck", type=_int_list,
                      help="fate: draw the next card of the Fate deck instead of rolling: the cards (0-80) left, "
                           "next first; '--deck=' for an empty deck, reshuffled first (with --seed)")
    odds = _help_parser(commands, "odds", "exact odds of an action", ODDS_EXAMPLES)
    _add_roll_options(odds, replay=False, command="odds")
    odds.add_argument("--deck", type=_int_list, help="fate: the odds of the next card of a Fate deck (the cards left)")
    odds.add_argument("--helper", type=_whole, action="append",
                      help=f"exalted teamwork: a helper's pool, 1 to 100, rolled apart and its successes added to "
                           f"the lead's; repeatable (at most {MAX_HELPERS})")
    reroll = _help_parser(commands, "reroll", "reroll a roll's dice: v5 Willpower, fate an invoked aspect",
                          REROLL_EXAMPLES)
    _add_roll_options(reroll, replay=True, command="reroll")
    reroll.add_argument("--dice", type=_int_list,
                        help="v5: the normal dice to reroll (1 to 3), counted from 0 in --faces")
    reroll.add_argument("--new-faces", type=_face_list, help="the rerolled dice's new faces (else drawn)")
    contest = _help_parser(commands, "contest", "exact odds of an opposed action", CONTEST_EXAMPLES)
    _add_roll_options(contest, replay=False, command="contest")
    contest.add_argument("--vs", type=_whole, required=True,
                         help="the opposing side's pool, 0 to 100 (exalted 1 to 100; fate: its bonus, -50 to 50), "
                              "rolled bare")
    contest.add_argument("--penalty", type=_whole,
                         help=f"exalted: successes taken away from this side's roll, 0 to {MAX_TAKEN} (never below 0)")
    contest.add_argument("--vs-penalty", type=_whole,
                         help=f"exalted: successes taken away from the opposing side's roll, 0 to {MAX_TAKEN} "
                              "(the seed's drunk guard)")
    extended = _help_parser(commands, "extended", "exact odds of an extended action (exalted, scifi, v5), "
                            "alone or against another side (--race, --tug)", EXTENDED_EXAMPLES)
    _add_roll_options(extended, replay=False, command="extended")
    extended.add_argument("--goal", type=_whole, required=True,
                          help="successes to accumulate (--tug: the lead that wins), 1 to 200")
    extended.add_argument("--botch", help="what a botch does: reset (default), ruin or ignore")
    extended.add_argument("--rolls", type=_whole, help="rolls (rounds) to look ahead, 1 to 1000 (--tug: 1 to 500); default 20")
    extended.add_argument("--progress", type=_whole,
                          help="successes already accumulated, 0 to --goal (--tug: minus --vs-progress, the lead so far)")
    kind = extended.add_mutually_exclusive_group()
    kind.add_argument("--race", action="store_true", default=None,
                      help="a race: both sides accumulate toward --goal, the first there wins")
    kind.add_argument("--tug", action="store_true", default=None,
                      help="a tug-of-war: each round's margin moves the difference; the first to lead by --goal wins")
    extended.add_argument("--vs", type=_whole, help="with --race or --tug: the other side's pool, 0 to 100, rolled bare")
    extended.add_argument("--vs-progress", type=_whole, help="with --race or --tug: the other side's successes so far, 0 to --goal")
    extended.add_argument("--tie-break", help="with --race, when both sides reach --goal on the same roll: tie (default), "
                          "roll (more successes on that roll wins) or rolloff (roll again until one rolls more)")
    return parser


ROLL_EXAMPLES = """\
examples:
  roll exalted --pool 8 --difficulty 4 [--stunt 2] [--willpower] [--faces 1,2,4,6,8,9,0,0]
  roll exalted --pool 8 --automatic [--stressful]
  roll exalted --pool 8 --actions-penalty 3 [--faces 1,2,4,6,8]
  roll scifi --pool 5 --difficulty hard --skill 1 [--faces ...]   faces: the pool, then each explosion die
  roll scifi --pool 3 --difficulty easy --skill 0 --knowledge
  roll v5 --pool 6 --hunger 2 --difficulty 2 [--faces 2,6,3,8 --hunger-faces 9,4]
  roll v5 --pool 6 --difficulty 3 --automatic | --take-half
  roll v5 --pool 4 --difficulty 2 --improvised --difficulty-modifier 1 | --no-equipment
  roll v5 --pool 3 --hunger 4 --remorse [--faces 6,2,1]
  roll v5 --rouse --hunger 2 [--faces 4]
  roll fate --bonus 2 --difficulty 3 [--faces -1,0,1,1 | --faces=-,0,+,+ | --deck=5,80,12 | --deck=]
  roll fate --bonus 2 --invoke "Quick on my feet" --invoke-free "In the dark" [--faces=0,0,0,0]
  any roll: --times N (no --faces) prints a list of N answers; fate --deck --times N draws N cards in turn"""
ODDS_EXAMPLES = """\
examples:
  odds exalted --pool 8 --difficulty 4
  odds exalted --pool 5 --difficulty 3 --helper 3 --helper 2      teamwork
  odds v5 --pool 10 --hunger 2 --difficulty 3
  odds fate --bonus 2 --difficulty 3 [--deck=0,1,2,40] [--invoke-free Hidden --invoke-free Hidden]"""
REROLL_EXAMPLES = """\
examples:
  reroll v5 --pool 5 --hunger 2 --difficulty 3 --faces 1,2,8 --hunger-faces 1,6 --dice 0,1 [--new-faces 9,10]
  reroll fate --bonus 2 --difficulty 3 --faces=-1,-1,0,0 [--new-faces=1,1,0,0]
without --faces the first roll is drawn too (with --seed); the answer is the roll after the reroll."""
CONTEST_EXAMPLES = """\
examples:
  contest exalted --pool 6 --vs 4
  contest exalted --pool 6 --vs 5 --vs-penalty 2      the seed's drunk guard: 2 successes taken from him
  contest fate --bonus 2 --vs 3"""
EXTENDED_EXAMPLES = """\
examples:
  extended exalted --pool 6 --goal 10 [--difficulty 0] [--botch reset|ruin|ignore] [--rolls 20] [--progress 3]
  extended v5 --pool 6 --goal 8 --race --vs 5 [--vs-progress 2] [--tie-break tie|roll|rolloff]
  extended scifi --pool 5 --goal 3 --tug --vs 4 [--progress 1 --vs-progress 0]"""


def _given(args: argparse.Namespace, names: set[str]) -> set[str]:
    return {name for name in names if getattr(args, name, None) is not None}


# Options of a system that a command's answer never looks at: a contest and an extended action count
# successes only, and v5's Hunger dice and scifi's skill (checked against a difficulty ladder) change
# which successes mean what, never how many.
UNUSED = {("contest", "v5"): {"hunger"}, ("extended", "v5"): {"hunger"},
          ("contest", "scifi"): {"skill"}, ("extended", "scifi"): {"skill"}}


def _check_options(args: argparse.Namespace) -> None:
    allowed = OPTIONS[args.system] | REPLAY | COMMAND_OPTIONS
    stray = _given(args, set(vars(args)) - allowed)
    if stray:
        raise BadInput(f"{_names(stray, args)} does not apply to {args.system}")
    unused = _given(args, UNUSED.get((args.command, args.system), set()))
    if unused:
        raise BadInput(f"{_names(unused)} does not apply to {args.command} {args.system}: "
                       "it changes no success that it counts")


def _pool(value: int | None, name: str = "--pool") -> int:
    if value is None:
        raise BadInput(f"{name} is required")
    if not 0 <= value <= MAX_POOL:
        raise BadInput(f"{name} must be 0 to {MAX_POOL}, got {value}")
    return value


def _difficulty(args: argparse.Namespace, default: int) -> int:
    if args.difficulty is None:
        return default
    if not WHOLE.fullmatch(args.difficulty.strip(" ")):
        raise BadInput(f"--difficulty must be a whole number (digits 0-9), got {args.difficulty!r}")
    return int(args.difficulty)


@overload
def _d10(faces: Sequence[int]) -> tuple[int, ...]: ...
@overload
def _d10(faces: None) -> None: ...
@overload
def _d10(faces: Sequence[int] | None) -> tuple[int, ...] | None: ...


def _d10(faces: Sequence[int] | None) -> tuple[int, ...] | None:
    # Physical d10s print 10 as 0; accept either spelling on input.
    return None if faces is None else tuple(10 if f == 0 else f for f in faces)


def _request(args: argparse.Namespace, pool: int | None = None) -> Any:
    """The system's Request from the options (``pool`` overrides --pool: the other side of a contest)."""
    modifiers = tuple(args.modifier or ())
    given = vars(args).get  # an option a command does not offer is absent, as good as not given
    if args.system == "exalted":
        return exalted.Request(
            pool=_pool(pool if pool is not None else args.pool),
            difficulty=_difficulty(args, 1),
            stunt=args.stunt or 0,
            willpower=bool(args.willpower),
            modifiers=modifiers,
            actions_penalty=given("actions_penalty") or 0,
        )
    if args.system == "scifi":
        if given("knowledge") and args.skill is None:
            raise BadInput("--knowledge needs --skill: the skill's level (0 makes the action impossible)")
        difficulty = scifi.parse_difficulty(args.difficulty if args.difficulty is not None else "common")
        return scifi.Request(
            pool=_pool(pool if pool is not None else args.pool),
            difficulty=difficulty,
            skill=args.skill,
            modifiers=modifiers,
            knowledge=bool(given("knowledge")),
        )
    if args.system == "v5":
        return v5.Request(
            pool=_pool(pool if pool is not None else args.pool),
            hunger=args.hunger or 0,
            difficulty=_difficulty(args, 1),
            specialty=bool(args.specialty),
            modifiers=modifiers,
            # The Humanity roll is a tracker roll: no Hunger dice, and Willpower cannot reroll it.
            remorse=bool(given("remorse")),
            tracker=bool(given("remorse")),
            difficulty_modifiers=tuple(given("difficulty_modifier") or ()),
            improvised=bool(given("improvised")),
            no_equipment=bool(given("no_equipment")),
        )
    bonus = pool if pool is not None else (args.bonus or 0)
    return fate.Request(bonus=bonus, difficulty=_difficulty(args, 0), modifiers=modifiers,
                        invocations=_invocations(given("invoke") or ()))


def _invocations(given: Sequence[tuple[str, str]]) -> tuple[fate.Invoked, ...]:
    """--invoke (a fate point) and --invoke-free (a free invocation), in the order given; a refusal
    names the option of the invocation refused."""
    paid = {"--invoke": fate.Paid.FATE_POINT, "--invoke-free": fate.Paid.FREE}
    invocations: list[fate.Invoked] = []
    for option, aspect in given:
        try:
            invocations.append(fate.Invoked(aspect, paid[option]))
            fate.check_invocations(invocations)
        except RulesError as error:
            raise BadInput(f"{option}: {error}") from None
    return tuple(invocations)


def _rng(args: argparse.Namespace) -> RandomSource:
    return random.Random(args.seed) if args.seed is not None else system_random()


def _times(args: argparse.Namespace) -> int | None:
    if args.times is None:
        return None
    times: int = args.times  # argparse's Namespace is untyped; --times is read by _whole
    replayed = _given(args, {"faces", "hunger_faces"})
    if replayed:
        raise BadInput(f"--times rolls anew; it cannot be combined with {_names(replayed)}")
    if not 1 <= times <= MAX_TIMES:
        raise BadInput(f"--times must be 1 to {MAX_TIMES:,}, got {times}")
    return times


def _names(options: set[str], args: argparse.Namespace | None = None) -> str:
    """The options as given: ``invoke`` holds both --invoke and --invoke-free, named as used."""
    names = set()
    for name in options:
        if name == "invoke" and args is not None and args.invoke:
            names |= {option for option, _ in args.invoke}
        else:
            names.add("--" + name.replace("_", "-"))
    return ", ".join(sorted(names))


def _no_seed_with_faces(args: argparse.Namespace) -> None:
    replayed = _given(args, {"faces", "hunger_faces"})
    if args.seed is not None and replayed:
        raise BadInput(f"--seed draws the dice; it cannot be combined with {_names(replayed)}")


def _roll(args: argparse.Namespace) -> Any:
    times = _times(args)
    rng = _rng(args)
    if args.system == "v5" and args.rouse:
        return _rouse(args, times, rng)
    request = _request(args)
    if _given(args, set(NOT_ROLLED) | {"stressful"}):
        return _not_rolled(args, request)
    if args.deck is not None:
        return _deck_roll(args, request, times, rng)
    if args.faces is not None or args.hunger_faces is not None:
        _no_seed_with_faces(args)
        if args.system == "v5":
            return _v5_replay(args, request).as_json()
        faces = args.faces if args.system == "fate" else _d10(args.faces)
        return _module(args.system).resolve(request, faces).as_json()
    module = _module(args.system)
    return _repeat(times, lambda: module.roll(request, rng).as_json())


def _rouse(args: argparse.Namespace, times: int | None, rng: RandomSource) -> Any:
    """A rouse check: its one die is given with --faces (it is not a Hunger die)."""
    stray = _given(args, OPTIONS["v5"] - ROUSE_OPTIONS)
    if "hunger_faces" in stray:
        raise BadInput("--hunger-faces does not apply to a rouse check: its one die is not a Hunger die, "
                       "give its face with --faces")
    if stray:
        raise BadInput(f"{_names(stray)} does not apply to a rouse check (one die at a Hunger rating)")
    hunger = args.hunger or 0
    if args.faces is not None:
        faces: tuple[int, ...] = args.faces  # given: argparse's Namespace is untyped, --faces is an _int_list
        _no_seed_with_faces(args)
        if len(faces) != 1:
            raise BadInput(f"--faces: a rouse check rolls one die, got {len(faces)} faces")
        return v5.rouse(_d10(faces)[0], hunger).as_json()
    return _repeat(times, lambda: v5.roll_rouse(hunger, rng).as_json())


def _v5_replay(args: argparse.Namespace, request: v5.Request) -> v5.Result:
    """Check that --faces and --hunger-faces fit the pool, naming the one that does not."""
    replayed = _given(args, {"faces", "hunger_faces"})
    if request.no_equipment and replayed:
        raise BadInput(f"--no-equipment: the task is not rolled; it cannot be combined with {_names(replayed)}")
    if request.remorse and args.hunger_faces is not None:
        raise BadInput("--hunger-faces does not apply to --remorse: the Humanity roll takes no Hunger dice, "
                       "give its dice with --faces")
    faces, hunger_faces = _d10(args.faces) or (), _d10(args.hunger_faces) or ()
    pool = f"{_dice(request.dice)} at Hunger {request.hunger}"
    if len(hunger_faces) != request.hunger_dice:
        if args.hunger_faces is None:
            raise BadInput(f"--hunger-faces is required: {pool} roll {_dice(request.hunger_dice, 'Hunger ')}")
        if not request.hunger:
            raise BadInput(f"--hunger-faces needs --hunger: it gives {_dice(len(hunger_faces), 'Hunger ')} "
                           "for Hunger 0")
        raise BadInput(f"--hunger-faces gives {_dice(len(hunger_faces))}, but {pool} roll "
                       f"{_dice(request.hunger_dice, 'Hunger ')}")
    if len(faces) != request.normal_dice:
        raise BadInput(f"--faces gives {_dice(len(faces), 'normal ')}, but {pool} roll "
                       f"{_dice(request.normal_dice, 'normal ')}"
                       + (f" (and {_dice(request.hunger_dice, 'Hunger ')}, given with --hunger-faces)"
                          if request.hunger_dice else ""))
    return v5.resolve(request, faces, hunger_faces)


def _dice(n: int, kind: str = "") -> str:
    return f"{n} {kind}{'die' if n == 1 else 'dice'}"


def _not_rolled(args: argparse.Namespace, request: Any) -> dict[str, object]:
    """--automatic (exalted, v5) or --take-half (v5): the GM skips the roll."""
    given = _given(args, set(NOT_ROLLED))
    if len(given) > 1:
        raise BadInput("--automatic and --take-half are two ways of not rolling: give one")
    if not given:
        raise BadInput("--stressful applies with --automatic or --take-half only")
    rolled = _given(args, {"faces", "hunger_faces", "seed", "times", "deck"})
    if rolled:
        raise BadInput(f"{_names(given)} rolls no dice; it cannot be combined with {_names(rolled)}")
    if args.system == "exalted":
        return exalted.automatic_success(request, stressful=bool(args.stressful)).as_json()
    skip = v5.automatic_win if args.automatic else v5.take_half
    return skip(request, stressful=bool(args.stressful)).as_json()


def _deck_roll(args: argparse.Namespace, request: fate.Request, times: int | None, rng: RandomSource) -> Any:
    """Fate: draw cards from the deck given (in turn, with --times), each answer with the deck left."""
    if args.faces is not None:
        raise BadInput("--deck draws the faces; it cannot be combined with --faces")
    deck = _deck(args.deck)

    def once() -> dict[str, object]:
        nonlocal deck
        result, drawn = fate.roll_deck(request, deck, rng)
        deck = drawn.deck
        return {**result.as_json(), "card": drawn.card, "reshuffled": drawn.reshuffled, "deck": drawn.deck.as_list()}

    return _repeat(times, once)


def _deck(cards: Sequence[int]) -> fate.Deck:
    try:
        return fate.Deck.from_list(cards)
    except RulesError as error:
        raise BadInput(f"--deck: {error}") from None


def _repeat(times: int | None, once: Callable[[], dict[str, object]]) -> Any:
    return once() if times is None else [once() for _ in range(times)]


def _module(system: str) -> Any:
    return {"exalted": exalted, "scifi": scifi, "v5": v5, "fate": fate}[system]


def _odds(args: argparse.Namespace) -> dict[str, object]:
    request = _request(args)
    if args.deck is not None:
        answer = fate.deck_odds(request, _deck(args.deck)).as_json()
    elif args.helper is not None:
        return _teamwork(args, request)
    else:
        answer = _module(args.system).odds(request).as_json()
    if args.system == "fate":  # the aspects invoked before the roll, as a roll's answer lists them
        answer["invocations"] = [i.as_json() for i in request.invocations]
    return answer


def _teamwork(args: argparse.Namespace, lead: exalted.Request) -> dict[str, object]:
    """exalted --helper: each helper rolls its pool apart; the team's successes meet the lead's difficulty."""
    if len(args.helper) > MAX_HELPERS:
        raise BadInput(f"--helper: at most {MAX_HELPERS} helpers, got {len(args.helper)}")
    for pool in args.helper:
        if not 1 <= pool <= MAX_POOL:
            raise BadInput(f"--helper must be 1 to {MAX_POOL} (a helper's pool), got {pool}")
    helpers = [exalted.Request(pool=pool, difficulty=0) for pool in args.helper]
    return {**exalted.teamwork_odds(lead, helpers).as_json(), "helpers": list(args.helper)}


def _reroll(args: argparse.Namespace) -> dict[str, object]:
    """v5: Willpower rerolls up to 3 normal dice; fate: an invoked aspect rerolls all four."""
    if args.system not in ("v5", "fate"):
        raise BadInput(f"reroll is for v5 (Willpower) and fate (an invoked aspect), not {args.system}")
    replayed = args.faces is not None or args.hunger_faces is not None
    if args.seed is not None and replayed and args.new_faces is not None:
        raise BadInput("--seed draws the dice; with --faces and --new-faces nothing is drawn")
    rng = _rng(args)
    request = _request(args)
    if args.system == "fate":
        return _fate_reroll(args, request, replayed, rng)
    return _v5_reroll(args, request, replayed, rng)


def _fate_reroll(args: argparse.Namespace, request: fate.Request, replayed: bool,
                 rng: RandomSource) -> dict[str, object]:
    """fate: an invoked aspect rerolls all four dice."""
    first = fate.resolve(request, args.faces) if replayed else fate.roll(request, rng)
    if args.new_faces is None:
        return fate.roll_reroll(request, first, rng).as_json()
    try:
        new_faces = check_fate_faces(args.new_faces)
    except RulesError as error:
        raise BadInput(_blame(str(error), "--new-faces")) from None
    return fate.reroll(request, first, new_faces).as_json()


def _v5_reroll(args: argparse.Namespace, request: v5.Request, replayed: bool,
               rng: RandomSource) -> dict[str, object]:
    """v5: Willpower rerolls up to 3 normal dice (--dice), to --new-faces or drawn."""
    if request.remorse:
        raise BadInput("--remorse: Willpower cannot reroll a tracker roll (the Humanity roll)")
    if request.no_equipment:
        raise BadInput("--no-equipment: the task is not rolled, so there is nothing to reroll")
    if args.dice is None:
        raise BadInput("--dice is required: the normal dice to reroll (1 to 3), counted from 0 in --faces")
    first = _v5_replay(args, request) if replayed else v5.roll(request, rng)
    if args.new_faces is None:
        return v5.roll_reroll(request, first, args.dice, rng).as_json()
    new_faces: tuple[int, ...] = args.new_faces  # given: argparse's Namespace is untyped, an _int_list
    return v5.reroll(request, first, args.dice, _d10(new_faces)).as_json()


def _contest(args: argparse.Namespace) -> dict[str, object]:
    request = _request(args)
    if args.system != "exalted":
        # Each system's contest odds give as_json() -> dict[str, object]; _module (chosen at run time) is Any.
        answer: dict[str, object] = _module(args.system).contest(request, _opponent(args)).as_json()
        return answer
    # exalted: successes taken away from either side's roll first (seed 000's drunk guard), never below 0.
    penalty, vs_penalty = (_taken(getattr(args, name), name) for name in ("penalty", "vs_penalty"))
    odds = exalted.contest(request, _opponent(args), penalty, vs_penalty)
    return {**odds.as_json(), "first_penalty": penalty, "second_penalty": vs_penalty}


def _taken(value: int | None, name: str) -> int:
    if value is None:
        return 0
    side = "this side's" if name == "penalty" else "the opposing side's"
    if not 0 <= value <= MAX_TAKEN:
        raise BadInput(f"--{name.replace('_', '-')} (successes taken from {side} roll) must be 0 to {MAX_TAKEN}, "
                       f"got {value}")
    return value


def _opponent(args: argparse.Namespace) -> Any:
    """The opposing side (--vs): its bare pool, or fate its bonus; a fault in it blames --vs."""
    side = "bonus" if args.system == "fate" else "pool"
    low, high = (-fate.MAX_BONUS, fate.MAX_BONUS) if side == "bonus" else (int(args.system == "exalted"), MAX_POOL)
    if not low <= args.vs <= high:
        raise BadInput(f"--vs (the opposing side's {side}) must be {low} to {high} in {args.system}, got {args.vs}")
    try:
        return _request(_plain(args), pool=args.vs)
    except RulesError as error:
        raise BadInput(f"--vs {args.vs} (the opposing side's {side}): {error}") from None


def _plain(args: argparse.Namespace) -> argparse.Namespace:
    """The opposing side of a contest rolls its bare pool (or bonus) at the default difficulty."""
    return argparse.Namespace(system=args.system, modifier=None, difficulty=None, stunt=None, willpower=None,
                              skill=None, hunger=None, specialty=None, bonus=None, pool=None)  # nothing else given


def _extended(args: argparse.Namespace) -> dict[str, object]:
    if args.system not in D10_SYSTEMS:
        raise BadInput(f"extended actions are for {', '.join(D10_SYSTEMS)}, not {args.system}")
    # The extended action's own per-roll difficulty (default 0) is --difficulty; the request rolls at 0.
    if args.botch is not None and args.system not in BOTCHES:
        raise BadInput(f"--botch does not apply to {args.system}: its rolls never botch")
    difficulty = _difficulty(args, 0)
    request = _request(argparse.Namespace(**{**vars(args), "difficulty": None}))
    policy = botch_policy(args.botch or "reset")
    module = _module(args.system)
    rolls = 20 if args.rolls is None else args.rolls
    progress = 0 if args.progress is None else args.progress
    if args.tie_break is not None and not args.race:
        raise BadInput("--tie-break applies with --race (a dead heat: both sides reach --goal on the same roll)")
    if not (args.race or args.tug):
        against = _given(args, {"vs", "vs_progress"})
        if against:
            raise BadInput(f"{_names(against)} applies with --race or --tug (an extended action against another side)")
        # Each system's extended() is an ExtendedOdds, as_json() -> dict[str, object]; _module is Any.
        alone: dict[str, object] = module.extended(
            request, goal=args.goal, difficulty=difficulty, policy=policy, rolls=rolls, progress=progress
        ).as_json()
        return alone
    kind = "race" if args.race else "tug"
    if args.vs is None:
        raise BadInput(f"--{kind} needs --vs, the other side's pool")
    other = _opponent(args)
    theirs = args.vs_progress or 0
    if theirs < 0:
        raise BadInput(f"--vs-progress must be at least 0, got {theirs}")
    if args.race:
        try:  # the engine names its field "progress": for the other side that is --vs-progress
            theirs_so_far = module.extended(other, args.goal, difficulty, policy, rolls, theirs)
        except RulesError as error:
            raise BadInput(_blame(" ".join(str(error).split()), "--vs-progress")
                           if str(error).startswith("progress") else _blame(str(error))) from None
        rule = tie_break(args.tie_break or "tie")
        odds = race_odds(module.extended(request, args.goal, difficulty, policy, rolls, progress), theirs_so_far,
                         rule, module.contest(request, other), difficulty)
    else:
        stray = _given(args, {"difficulty", "botch"})
        if stray:
            raise BadInput(f"{_names(stray)} does not apply to --tug: each round is a contest, its margin pulls")
        start = progress - theirs
        if args.goal >= 1 and not -args.goal < start < args.goal:  # a goal below 1 is the engine's to refuse
            raise BadInput(f"--progress minus --vs-progress must be within ±{args.goal - 1} (--goal {args.goal} "
                           f"would already be won), got {start}")
        odds = tug_of_war_odds(module.contest(request, other).margin, args.goal, rolls, start)
    return {"kind": kind, "goal": args.goal, "rounds": rolls, **({"tie_break": rule.value} if args.race else {}),
            **odds.as_json()}


COMMANDS = {"roll": _roll, "odds": _odds, "reroll": _reroll, "contest": _contest, "extended": _extended}

# The engine names its fields; the command line names the option that gave them.
FIELDS = (("hunger faces", "--hunger-faces"), ("new faces", "--new-faces"), ("reroll index", "--dice"),
          ("botch policy", "--botch"), ("faces", "--faces"), ("pool", "--pool"), ("hunger", "--hunger"),
          ("multiple-action penalty", "--actions-penalty"), ("difficulty modifier", "--difficulty-modifier"),
          ("difficulty", "--difficulty"), ("stunt", "--stunt"), ("skill", "--skill"), ("bonus", "--bonus"),
          ("modifier", "--modifier"), ("goal", "--goal"), ("lead", "--goal"), ("rolls", "--rolls"),
          ("rounds", "--rolls"), ("progress", "--progress"), ("card", "--deck"), ("tie-break", "--tie-break"))


# Refusals that name no field, by how they begin: the option they are about goes before them.
ABOUT = (("a pool of", "--pool"), ("an automatic success", "--automatic"), ("no automatic", "--automatic"),
         ("an automatic win", "--automatic"), ("Willpower adds a success", "--automatic"),
         ("no taking half", "--take-half"), ("Hunger dice cannot be rerolled", "--dice"),
         ("Willpower rerolls", "--dice"), ("each die can be rerolled", "--dice"),
         ("the multiple-action penalty", "--actions-penalty"),
         ("the task is impossible without equipment", "--no-equipment"),
         # exalted: --pool is at most 100 on its own, so past 200 dice it is the modifiers (and stunt) that add
         ("at most", "--modifier"))


def _blame(message: str, option: str | None = None) -> str:
    """``pool must be ...`` → ``--pool must be ...`` (or ``option`` for whatever field the engine named)."""
    for field, name in FIELDS:
        if message.startswith((field + " ", field + ":")):
            return (option or name) + message[len(field):]
    for start, name in ABOUT:
        if message.startswith(start):
            return f"{name}: {message}"
    return message


def _unknown(parser: Parser, command: str, unknown: Sequence[str]) -> str:
    """An option this command does not offer: where it does apply, if anywhere."""
    options = [arg.split("=", 1)[0] for arg in unknown if arg.startswith("-")]
    if not options:
        return f"unrecognized arguments: {' '.join(unknown)}"
    # The commands' parsers, from the one subparsers action build_parser added (typed, unlike the group).
    commands: dict[str, argparse.ArgumentParser] = next(
        action.choices for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    offered = [name for name, sub in commands.items() if options[0] in sub._option_string_actions]
    if offered:
        return f"{options[0]} does not apply to {command} (an option of {', '.join(offered)})"
    return f"{options[0]} is not an option of {command} (python -m rules {command} --help lists them)"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args, unknown = parser.parse_known_args(_lists_joined(sys.argv[1:] if argv is None else argv))
        if unknown:
            raise BadInput(_unknown(parser, args.command, unknown))
        _check_options(args)
        _fate_marks(args)
        answer = COMMANDS[args.command](args)
    except (BadInput, RulesError) as error:
        message = " ".join(str(error).split())  # one line, whatever the message held
        if isinstance(error, RulesError):
            message = _blame(message)
        print(f"python -m rules: error: {message}", file=sys.stderr)
        return 2
    try:
        json.dump(answer, sys.stdout, separators=(",", ":") if isinstance(answer, list) else None)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped reading (``| head -c 10``): what it read is all it wanted, as ripgrep
        # and grep see it; no traceback. Python's flush at exit would fail again on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
