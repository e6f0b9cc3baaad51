"""``make bench``: the same odds queries in gmtools' engine and in icepool, in one run.

Each query answers what the UI shows for one composed roll (chance of success plus the game's
special results and the mean). icepool is given the same formulation (e.g. a botch as
"no success" minus "no success and no 1"), so the ratio compares the engines, not the maths.
Each figure is the median of many single calls; the ratio is icepool's median over ours.
Not part of ``make test``: speed is measured here, never asserted in a timed test.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import icepool

from rules import exalted, fate, scifi, v5
from bench import live, web
from rules.extended import BotchPolicy

REPEATS = 15
POOLS = range(1, 31)


def median_us(fn: Callable[[], object], repeats: int = REPEATS) -> float:
    fn()  # warm up imports and code paths; both engines get the same treatment
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


# --- icepool formulations of the same queries ---------------------------------------------

def ice_exalted(pool: int, difficulty: int) -> tuple[float, float, float]:
    successes = pool @ icepool.Die({0: 6, 1: 3, 2: 1})
    no_success_no_one = pool @ icepool.Die({0: 5, 1: 5})  # 0: a die showing 2–6
    p_botch = successes.probability(0) - no_success_no_one.probability(0)
    return successes.probability(">=", difficulty), float(p_botch), successes.mean()


def ice_scifi(pool: int, difficulty: int) -> tuple[float, float, float]:
    die = icepool.d10.explode([10], depth=12).map(lambda x: x // 10 + (x % 10 >= 7))
    successes = pool @ die
    rest = (pool - 1) @ die if pool > 1 else icepool.Die([0])
    return successes.probability(">=", difficulty), rest.probability("<", difficulty) / 10, successes.mean()


def ice_v5(pool: int, hunger: int, difficulty: int) -> tuple[float, ...]:
    # Per die: (6–9 successes, tens, hunger tens, hunger ones) as a vector; the pool is their sum.
    V = icepool.Vector
    normal = icepool.Die({V((0, 0, 0, 0)): 5, V((1, 0, 0, 0)): 4, V((0, 1, 0, 0)): 1})
    hungry = icepool.Die({V((0, 0, 0, 0)): 4, V((0, 0, 0, 1)): 1, V((1, 0, 0, 0)): 4, V((0, 1, 1, 0)): 1})
    h = min(hunger, pool)
    joint = (pool - h) @ normal + h @ hungry if h else pool @ normal

    def fields(v):
        s, t, ht, ho = v
        total = s + t + 2 * (t // 2)
        win = total >= difficulty
        return V((win, win and t >= 2, win and t >= 2 and ht > 0, not win and ho > 0, total == 0))

    return tuple(joint.map(fields).mean())


def ice_fate(bonus: int, difficulty: int) -> tuple[float, ...]:
    shifts = 4 @ icepool.Die([-1, 0, 1]) + bonus - difficulty
    return shifts.probability("<", 0), shifts.probability(0), shifts.probability(">=", 3)


# --- the runs -----------------------------------------------------------------------------

def run_system(name: str, queries: list[tuple[Callable[[], object], Callable[[], object]]]) -> tuple[float, float, float]:
    ours = [median_us(mine) for mine, _ in queries]
    theirs = [median_us(ice, repeats=5) for _, ice in queries]
    ratios = [t / o for o, t in zip(ours, theirs)]
    ours_med, theirs_med = statistics.median(ours), statistics.median(theirs)
    print(f"{name:8} {len(queries):4} queries  gmtools median {ours_med:8.1f} µs (max {max(ours):7.1f})  "
          f"icepool median {theirs_med:9.1f} µs  ratio of medians {theirs_med / ours_med:6.1f}x  "
          f"(per-query ratio: min {min(ratios):.1f}x, median {statistics.median(ratios):.1f}x)")
    return ours_med, theirs_med, max(ours)


# --- the slowest accepted input of each command (issue 11) ------------------------------------
#
# For each command of ``python -m rules``: a trivial query, then candidates for the slowest input
# its bounds accept (README, "Rules engine bounds"), each run in-process through ``rules.cli.main``
# with its JSON written out; the figure is the slowest candidate's median over a few runs and its
# ratio to the trivial query measured in the same run. The goal: every accepted input within 1 s.

SLOWEST = {
    "roll": ("roll exalted --pool 1 --seed 1", [
        "roll scifi --pool 100 --seed 1", "roll v5 --pool 100 --hunger 5 --seed 1",
        "roll exalted --pool 100 --stunt 3 --modifier 97 --seed 1"]),
    "odds": ("odds exalted --pool 1", [
        "odds scifi --pool 100 --difficulty 100", "odds scifi --pool 1 --difficulty 100",
        "odds v5 --pool 100 --hunger 5 --difficulty 100", "odds exalted --pool 100 --stunt 3 --modifier 97",
        "odds exalted --pool 100 --stunt 3 --modifier 97 --difficulty 100" + " --helper 100" * 10]),
    "contest": ("contest exalted --pool 1 --vs 1", [
        "contest scifi --pool 100 --vs 100", "contest v5 --pool 100 --vs 100",  # Hunger changes no contest (issue 22)
        "contest exalted --pool 100 --stunt 3 --modifier 97 --vs 100"]),
    "reroll": ("reroll fate --bonus 0 --seed 1", ["reroll v5 --pool 100 --hunger 5 --dice 0,1,2 --seed 1"]),
    "extended": ("extended exalted --pool 1 --goal 1 --rolls 1", [
        "extended exalted --pool 10 --goal 200 --difficulty 2 --rolls 1000",
        "extended exalted --pool 100 --goal 200 --difficulty 100 --rolls 1000",
        "extended scifi --pool 100 --goal 200 --difficulty 40 --rolls 1000",
        "extended scifi --pool 1 --goal 200 --rolls 1000 --botch ruin",
        "extended v5 --pool 60 --goal 200 --difficulty 40 --rolls 1000"]),
    "extended --race": ("extended exalted --pool 1 --goal 1 --rolls 1 --race --vs 1", [
        "extended exalted --pool 10 --goal 200 --difficulty 2 --rolls 1000 --race --vs 10",
        "extended scifi --pool 100 --goal 200 --difficulty 40 --rolls 1000 --race --vs 100"]),
    "extended --tug": ("extended exalted --pool 1 --goal 1 --rolls 1 --tug --vs 1", [
        "extended exalted --pool 100 --goal 200 --rolls 500 --tug --vs 100",
        "extended v5 --pool 100 --goal 200 --rolls 500 --tug --vs 100",
        "extended scifi --pool 100 --goal 200 --rolls 500 --tug --vs 100"]),
}


def _cli_seconds(argv: str, repeats: int) -> float:
    import contextlib
    import io

    from rules.cli import main as cli

    times = []
    for _ in range(repeats):
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            code = cli(argv.split())
        times.append(time.perf_counter() - start)
        assert code == 0, argv
    return statistics.median(times)


def slowest_accepted() -> None:
    print("\nslowest accepted input of each command (python -m rules, in-process; goal < 1 s):")
    for command, (trivial, candidates) in SLOWEST.items():
        base = _cli_seconds(trivial, 15)
        slow, argv = max((_cli_seconds(c, 3), c) for c in candidates)
        print(f"  {command:16} {slow * 1000:8.1f} ms  {slow / base:8.0f}x the trivial query ({base * 1000:.2f} ms)  "
              f"[{argv}]")
    per_roll = _cli_seconds("roll exalted --pool 100 --stunt 3 --modifier 97 --seed 1 --times 1000", 3) / 1000
    print(f"  roll --times N: linear, {per_roll * 1e6:.0f} µs a roll of 200 dice; the bound --times 1,000,000 "
          f"would take ~{per_roll * 1e6:.0f} s (the one input above a second: a sample, not a query)")


def luck_of_the_largest_pools() -> None:
    """A roll's luck (rules.luck) is computed for every roll logged: its cost at each game's largest pool."""
    import random

    rng = random.Random(1)
    big_exalted = exalted.Request(pool=100, stunt=3, modifiers=(97,), difficulty=100)
    big_v5 = v5.Request(pool=100, hunger=5, specialty=True, difficulty=50)
    big_scifi = scifi.Request(pool=100, modifiers=(3,), difficulty=100)
    first = v5.roll(big_v5, rng)
    rolls = [
        ("exalted 200 dice", exalted.luck, big_exalted, exalted.roll(big_exalted, rng)),
        ("v5 101 dice", v5.luck, big_v5, first),
        ("v5 reroll of 3", v5.luck, big_v5, v5.roll_reroll(big_v5, first, (0, 1, 2), rng)),
        ("scifi 103 dice", scifi.luck, big_scifi, scifi.roll(big_scifi, rng)),
        ("fate", fate.luck, fate.Request(bonus=3), fate.roll(fate.Request(bonus=3), rng)),
    ]
    figures = ", ".join(f"{name} {median_us(lambda f=f, q=q, r=r: f(q, r)) / 1000:.3f} ms" for name, f, q, r in rolls)
    print(f"\nluck of one roll (goal < 10 ms): {figures}")


def tally_of_a_special() -> None:
    """rules.fairness.tally, as the luck page calls it for each special result: exact within its
    budget, the saddlepoint past it. The worst of five counts seen: the mean, +3σ, −6σ, +10σ, n/100."""
    import random

    from rules.fairness import tally

    rng = random.Random(1)
    figures = []
    for n in (500, 5_000, 50_000):
        for kind, ps in (("a few priors", [rng.choice((0.05, 0.1, 0.14, 0.2, 0.3)) for _ in range(n)]),
                         ("all distinct", [rng.uniform(0.03, 0.3) for _ in range(n)])):
            mean, sd = sum(ps), sum(p * (1 - p) for p in ps) ** 0.5
            counts = [round(mean + z * sd) for z in (0, 3, -6, 10)] + [n // 100]
            worst = max(median_us(lambda k=k: tally(ps, k), repeats=5) for k in counts)
            figures.append(f"{n:,} rolls, {kind} {worst / 1000:.1f} ms")
    print(f"\ntally of a special, worst count (goal: a few ms at 5,000 rolls): {', '.join(figures)}")


def main() -> None:
    print(__doc__.splitlines()[0])
    print(f"pools {POOLS.start}–{POOLS.stop - 1}; medians of single calls\n")
    run_system("exalted", [
        (lambda p=p, d=d: exalted.odds(exalted.Request(pool=p, difficulty=d)), lambda p=p, d=d: ice_exalted(p, d))
        for p in POOLS for d in (1, 3, 5)
    ])
    run_system("scifi", [
        (lambda p=p, d=d: scifi.odds(scifi.Request(pool=p, difficulty=d)), lambda p=p, d=d: ice_scifi(p, d))
        for p in POOLS for d in (1, 2, 4)
    ])
    run_system("v5", [
        (lambda p=p, h=h, d=d: v5.odds(v5.Request(pool=p, hunger=h, difficulty=d)), lambda p=p, h=h, d=d: ice_v5(p, h, d))
        for p in range(1, 31, 3) for h in (0, 2, 5) for d in (2, 5)
    ])
    run_system("fate", [
        (lambda b=b, d=d: fate.odds(fate.Request(bonus=b, difficulty=d)), lambda b=b, d=d: ice_fate(b, d))
        for b in range(-2, 9) for d in (0, 2, 4)
    ])
    print()
    worst = 0.0
    for policy in BotchPolicy:
        for pool in (3, 8, 15):
            for goal in (10, 20, 30):
                request = exalted.Request(pool=pool, difficulty=0)
                t = median_us(lambda: exalted.extended(request, goal=goal, policy=policy, rolls=30)) / 1000
                worst = max(worst, t)
    print(f"extended exalted (goal 10–30, pools 3–15, 30 rolls, each botch policy): worst median {worst:.2f} ms (goal < 20 ms)")
    slowest_accepted()
    luck_of_the_largest_pools()
    tally_of_a_special()
    web.run()
    live.run()


if __name__ == "__main__":
    main()
