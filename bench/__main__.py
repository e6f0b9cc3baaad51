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
    web.run()
    live.run()


if __name__ == "__main__":
    main()
