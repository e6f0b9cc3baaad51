"""``python -m rules``: the rules engine on the command line (contract in RULES.md).

Prints one JSON object on stdout and exits 0; bad input prints one line on stderr and exits 2.
``--faces`` replays a roll (a d10 face may be written 0 or 10; JSON always says 10); without it
the draw uses ``--seed`` if given, else the system's secure random source.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from rules import SYSTEMS, exalted, fate, scifi, v5
from rules.dice import RandomSource, RulesError, system_random
from rules.extended import botch_policy

MAX_POOL = 100
MAX_TIMES = 1_000_000
D10_SYSTEMS = ("exalted", "scifi", "v5")

# Which options each system accepts; anything else given is bad input, not silently ignored.
OPTIONS = {
    "exalted": {"pool", "difficulty", "stunt", "willpower", "modifier"},
    "scifi": {"pool", "difficulty", "skill", "modifier"},
    "v5": {"pool", "hunger", "difficulty", "specialty", "modifier", "rouse", "hunger_faces"},
    "fate": {"bonus", "difficulty", "modifier"},
}
REPLAY = {"faces", "seed", "times"}


class BadInput(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInput(message)


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip() != "")
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got {text!r}") from None


def _add_roll_options(p: argparse.ArgumentParser, replay: bool) -> None:
    p.add_argument("system", choices=SYSTEMS)
    p.add_argument("--pool", type=int)
    p.add_argument("--difficulty")
    p.add_argument("--stunt", type=int)
    p.add_argument("--willpower", action="store_true", default=None)
    p.add_argument("--skill", type=int)
    p.add_argument("--hunger", type=int)
    p.add_argument("--specialty", action="store_true", default=None)
    p.add_argument("--bonus", type=int)
    p.add_argument("--modifier", type=int, action="append")
    if replay:
        p.add_argument("--rouse", action="store_true", default=None)
        p.add_argument("--faces", type=_int_list)
        p.add_argument("--hunger-faces", type=_int_list)
        p.add_argument("--seed", type=int)
        p.add_argument("--times", type=int)


def build_parser() -> Parser:
    parser = Parser(prog="python -m rules", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    _add_roll_options(commands.add_parser("roll", help="roll (or replay with --faces) one action"), replay=True)
    _add_roll_options(commands.add_parser("odds", help="exact odds of an action"), replay=False)
    contest = commands.add_parser("contest", help="exact odds of an opposed action")
    _add_roll_options(contest, replay=False)
    contest.add_argument("--vs", type=int, required=True)
    extended = commands.add_parser("extended", help="exact odds of an extended action")
    _add_roll_options(extended, replay=False)
    extended.add_argument("--goal", type=int, required=True)
    extended.add_argument("--botch", default="reset")
    extended.add_argument("--rolls", type=int, default=20)
    extended.add_argument("--progress", type=int, default=0)
    return parser


def _given(args: argparse.Namespace, names: set[str]) -> set[str]:
    return {name for name in names if getattr(args, name, None) is not None}


def _check_options(args: argparse.Namespace) -> None:
    allowed = OPTIONS[args.system] | REPLAY | {"command", "system", "vs", "goal", "botch", "rolls", "progress"}
    stray = _given(args, set(vars(args)) - allowed)
    if stray:
        names = ", ".join("--" + n.replace("_", "-") for n in sorted(stray))
        raise BadInput(f"{names} does not apply to {args.system}")


def _pool(value: int | None, name: str = "--pool") -> int:
    if value is None:
        raise BadInput(f"{name} is required")
    if not 0 <= value <= MAX_POOL:
        raise BadInput(f"{name} must be 0 to {MAX_POOL}, got {value}")
    return value


def _difficulty(args: argparse.Namespace, default: int) -> int:
    if args.difficulty is None:
        return default
    try:
        return int(args.difficulty)
    except ValueError:
        raise BadInput(f"--difficulty must be a whole number, got {args.difficulty!r}") from None


def _d10(faces: Sequence[int] | None) -> tuple[int, ...] | None:
    # Physical d10s print 10 as 0; accept either spelling on input.
    return None if faces is None else tuple(10 if f == 0 else f for f in faces)


def _request(args: argparse.Namespace, pool: int | None = None) -> Any:
    """The system's Request from the options (``pool`` overrides --pool: the other side of a contest)."""
    modifiers = tuple(args.modifier or ())
    if args.system == "exalted":
        return exalted.Request(
            pool=_pool(pool if pool is not None else args.pool),
            difficulty=_difficulty(args, 1),
            stunt=args.stunt or 0,
            willpower=bool(args.willpower),
            modifiers=modifiers,
        )
    if args.system == "scifi":
        difficulty = scifi.parse_difficulty(args.difficulty if args.difficulty is not None else "common")
        return scifi.Request(
            pool=_pool(pool if pool is not None else args.pool),
            difficulty=difficulty,
            skill=args.skill,
            modifiers=modifiers,
        )
    if args.system == "v5":
        return v5.Request(
            pool=_pool(pool if pool is not None else args.pool),
            hunger=args.hunger or 0,
            difficulty=_difficulty(args, 1),
            specialty=bool(args.specialty),
            modifiers=modifiers,
        )
    bonus = pool if pool is not None else (args.bonus or 0)
    return fate.Request(bonus=bonus, difficulty=_difficulty(args, 0), modifiers=modifiers)


def _rng(args: argparse.Namespace) -> RandomSource:
    return random.Random(args.seed) if args.seed is not None else system_random()


def _times(args: argparse.Namespace) -> int | None:
    if args.times is None:
        return None
    if args.faces is not None or args.hunger_faces is not None:
        raise BadInput("--times rolls anew; it cannot be combined with --faces")
    if not 1 <= args.times <= MAX_TIMES:
        raise BadInput(f"--times must be 1 to {MAX_TIMES:,}, got {args.times}")
    return args.times


def _roll(args: argparse.Namespace) -> Any:
    times = _times(args)
    rng = _rng(args)
    if args.system == "v5" and args.rouse:
        if args.pool is not None or args.difficulty is not None:
            raise BadInput("a rouse check takes no --pool or --difficulty")
        hunger = args.hunger or 0
        if args.faces is not None:
            (face,) = _d10(args.faces) if len(args.faces) == 1 else (None,)
            if face is None:
                raise BadInput("a rouse check rolls one die: give one face")
            return v5.rouse(face, hunger).as_json()
        return _repeat(times, lambda: v5.roll_rouse(hunger, rng).as_json())
    request = _request(args)
    if args.faces is not None or args.hunger_faces is not None:
        if args.system == "v5":
            return v5.resolve(request, _d10(args.faces) or (), _d10(args.hunger_faces) or ()).as_json()
        faces = args.faces if args.system == "fate" else _d10(args.faces)
        if faces is None:
            raise BadInput("--hunger-faces applies to v5 only")
        return _module(args.system).resolve(request, faces).as_json()
    module = _module(args.system)
    return _repeat(times, lambda: module.roll(request, rng).as_json())


def _repeat(times: int | None, once: Callable[[], dict]) -> Any:
    return once() if times is None else [once() for _ in range(times)]


def _module(system: str) -> Any:
    return {"exalted": exalted, "scifi": scifi, "v5": v5, "fate": fate}[system]


def _odds(args: argparse.Namespace) -> dict:
    return _module(args.system).odds(_request(args)).as_json()


def _contest(args: argparse.Namespace) -> dict:
    other = args.vs if args.system == "fate" else _pool(args.vs, "--vs")
    return _module(args.system).contest(_request(args), _request(_plain(args), pool=other)).as_json()


def _plain(args: argparse.Namespace) -> argparse.Namespace:
    """The opposing side of a contest rolls its bare pool (or bonus) at the default difficulty."""
    return argparse.Namespace(system=args.system, modifier=None, difficulty=None, stunt=None, willpower=None,
                              skill=None, hunger=None, specialty=None, bonus=None, pool=None)


def _extended(args: argparse.Namespace) -> dict:
    if args.system not in D10_SYSTEMS:
        raise BadInput(f"extended actions are for {', '.join(D10_SYSTEMS)}, not {args.system}")
    # The extended action's own per-roll difficulty (default 0) is --difficulty; the request rolls at 0.
    difficulty = _difficulty(args, 0)
    request = _request(argparse.Namespace(**{**vars(args), "difficulty": None}))
    policy = botch_policy(args.botch)
    return _module(args.system).extended(
        request, goal=args.goal, difficulty=difficulty, policy=policy, rolls=args.rolls, progress=args.progress
    ).as_json()


COMMANDS = {"roll": _roll, "odds": _odds, "contest": _contest, "extended": _extended}


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        _check_options(args)
        answer = COMMANDS[args.command](args)
    except (BadInput, RulesError) as error:
        message = " ".join(str(error).split())  # one line, whatever the message held
        print(f"python -m rules: error: {message}", file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout, separators=(",", ":") if isinstance(answer, list) else None)
    sys.stdout.write("\n")
    return 0
