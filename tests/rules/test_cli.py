"""The seed examples of RULES.md through ``python -m rules`` (the contract), in a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from math import isclose

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True, timeout=60)


def answer(*args: str):
    done = run(*args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def refused(*args: str) -> str:
    done = run(*args)
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


# --- exalted -----------------------------------------------------------------------------


def test_exalted_two_successes_at_difficulty_one():
    r = answer("roll", "exalted", "--pool", "7", "--faces", "1,4,4,6,6,7,9")
    assert (r["system"], r["successes"], r["outcome"], r["margin"]) == ("exalted", 2, "success", 1)


def test_exalted_three_successes_exactly_meet_difficulty_three():
    r = answer("roll", "exalted", "--pool", "6", "--difficulty", "3", "--faces", "1,2,4,7,7,8")
    assert (r["successes"], r["margin"], r["outcome"]) == (3, 0, "success")


def test_exalted_botch_with_one_one():
    r = answer("roll", "exalted", "--pool", "8", "--faces", "1,2,3,3,4,4,4,6")
    assert (r["successes"], r["outcome"], r["ones"]) == (0, "botch", 1)


def test_exalted_tens_count_double_difficulty_four_met_with_two_extra():
    # The seed writes the tens as 0, as printed on the dice.
    r = answer("roll", "exalted", "--pool", "8", "--difficulty", "4", "--faces", "1,2,4,6,8,9,0,0")
    assert (r["successes"], r["margin"], r["outcome"]) == (6, 2, "success")
    assert r["faces"] == [1, 2, 4, 6, 8, 9, 10, 10]


def test_exalted_extended_climb_completes_on_the_third_roll():
    rolls = ["1,3,3,7,8,10", "2,3,3,5,5,6,9", "1,1,3,7,7,10,10"]
    gains = [answer("roll", "exalted", "--pool", str(f.count(",") + 1), "--difficulty", "0", "--faces", f)["margin"]
             for f in rolls]
    assert gains == [4, 1, 6]
    assert sum(gains[:2]) < 10 <= sum(gains)


def test_exalted_opposed_first_side_wins_by_one():
    a = answer("roll", "exalted", "--pool", "6", "--faces", "1,3,5,7,8,8")["successes"]
    b = answer("roll", "exalted", "--pool", "4", "--faces", "3,6,8,9")["successes"]
    assert (a, b, a - b) == (3, 2, 1)


def test_exalted_teamwork_adds_successes_toward_the_goal():
    a = answer("roll", "exalted", "--pool", "7", "--faces", "1,3,4,6,7,9,9")["successes"]
    b = answer("roll", "exalted", "--pool", "5", "--faces", "1,1,3,6,7")["successes"]
    assert (a, b, a + b) == (3, 1, 4)


def test_exalted_third_of_three_actions_cannot_be_rolled_from_five_dice():
    # Three actions: penalties 3, 4, 5. A pool of 5 survives the first two, not the third.
    assert answer("odds", "exalted", "--pool", "5", "--modifier=-4")["p_success"] > 0
    assert "roll" in refused("roll", "exalted", "--pool", "5", "--modifier=-5")


def test_exalted_willpower_adds_a_success_and_prevents_the_botch():
    r = answer("roll", "exalted", "--pool", "3", "--willpower", "--faces", "1,2,3")
    assert (r["successes"], r["outcome"]) == (1, "success")


def test_exalted_stunt_adds_dice():
    assert len(answer("roll", "exalted", "--pool", "3", "--stunt", "2", "--seed", "4")["faces"]) == 5


def test_exalted_extended_odds_under_each_botch_policy():
    odds = {p: answer("extended", "exalted", "--pool", "6", "--goal", "10", "--botch", p, "--rolls", "5")
            for p in ("reset", "ruin", "ignore")}
    for o in odds.values():
        assert len(o["p_done_by"]) == 5 and o["expected_rolls"] > 1
    assert odds["ruin"]["p_done_by"][-1] <= odds["reset"]["p_done_by"][-1] <= odds["ignore"]["p_done_by"][-1]


# --- scifi -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "modifiers, dice",
    [(["--modifier", "4"], 6), (["--modifier=-4"], 0), (["--modifier", "4", "--modifier=-5"], 2)],
    ids=["plus4-capped-at-3", "minus4-floors-at-0", "plus4-minus5-nets-minus1"],
)
def test_scifi_modifier_examples(modifiers, dice):
    r = answer("roll", "scifi", "--pool", "3", *modifiers, "--seed", "7")
    assert len(r["faces"]) == dice
    if dice == 0:
        assert r["outcome"] == "failure" and r["successes"] == 0


def test_scifi_opposed_first_side_wins_narrowly():
    a = answer("roll", "scifi", "--pool", "5", "--faces", "4,9,2,2,7")["successes"]
    b = answer("roll", "scifi", "--pool", "3", "--faces", "1,5,8")["successes"]
    assert (a, b) == (2, 1)


def test_scifi_tens_explode_and_the_faces_list_the_explosions_after_the_pool():
    r = answer("roll", "scifi", "--pool", "2", "--faces", "10,3,10,8")
    assert (r["faces"], r["explosions"], r["successes"]) == ([10, 3], [10, 8], 3)


def test_scifi_missing_explosion_die_is_bad_input():
    refused("roll", "scifi", "--pool", "2", "--faces", "10,3")


def test_scifi_fumble_when_failing_with_a_first_die_of_one():
    r = answer("roll", "scifi", "--pool", "3", "--difficulty", "hard", "--faces", "1,5,8")
    assert r["outcome"] == "fumble"
    assert answer("roll", "scifi", "--pool", "3", "--difficulty", "hard", "--faces", "5,1,8")["outcome"] == "failure"


@pytest.mark.parametrize("name, needed", [("common", 1), ("hard", 2), ("very-hard", 3), ("extreme", 4)])
def test_scifi_named_difficulties(name, needed):
    faces = ",".join(["8"] * needed + ["2"])
    r = answer("roll", "scifi", "--pool", str(needed + 1), "--difficulty", name, "--skill", "2", "--faces", faces)
    assert (r["outcome"], r["margin"], r["degree"]) == ("success", 0, "barely")


def test_scifi_degrees_clean_and_absolute():
    assert answer("roll", "scifi", "--pool", "3", "--faces", "8,8,2")["degree"] == "clean"
    assert answer("roll", "scifi", "--pool", "3", "--faces", "8,8,8")["degree"] == "absolute"


def test_scifi_easy_is_automatic_unless_the_skill_is_one():
    assert answer("odds", "scifi", "--pool", "3", "--difficulty", "easy", "--skill", "3")["p_success"] == 1
    assert answer("odds", "scifi", "--pool", "3", "--difficulty", "easy", "--skill", "1")["p_success"] < 1


def test_scifi_hard_is_impossible_without_the_skill():
    assert answer("odds", "scifi", "--pool", "6", "--difficulty", "hard", "--skill", "0")["p_success"] == 0


# --- v5 ----------------------------------------------------------------------------------


def test_v5_juan_six_dice_three_successes_win_with_margin_one():
    r = answer("roll", "v5", "--pool", "6", "--difficulty", "2", "--faces", "2,6,3,8,9,4")
    assert (r["successes"], r["outcome"], r["margin"]) == (3, "win", 1)


def test_v5_ten_dice_critical_just_over_a_quarter():
    p = answer("odds", "v5", "--pool", "10")["p_critical"]
    assert isclose(p, 1 - 0.9**10 - 10 * 0.1 * 0.9**9, abs_tol=1e-12) and 0.25 < p < 0.27


def test_v5_bhavna_willpower_seven_with_three_spent_rolls_four_dice():
    assert len(answer("roll", "v5", "--pool", "7", "--modifier=-3", "--seed", "1")["faces"]) == 4


@pytest.mark.parametrize("tens, successes", [(2, 4), (3, 5), (4, 8)])
def test_v5_pairs_of_tens_are_criticals(tens, successes):
    r = answer("roll", "v5", "--pool", str(tens), "--faces", ",".join(["10"] * tens))
    assert (r["successes"], r["critical"]) == (successes, True)


def test_v5_messy_critical_with_a_hunger_ten():
    r = answer("roll", "v5", "--pool", "4", "--hunger", "2", "--faces", "10,3", "--hunger-faces", "10,5")
    assert (r["outcome"], r["critical"], r["messy"]) == ("win", True, True)


def test_v5_bestial_and_total_failure_together():
    r = answer("roll", "v5", "--pool", "3", "--hunger", "1", "--faces", "2,3", "--hunger-faces", "1")
    assert (r["outcome"], r["bestial"], r["total_failure"]) == ("failure", True, True)


def test_v5_every_die_a_hunger_die_omits_faces():
    r = answer("roll", "v5", "--pool", "2", "--hunger", "3", "--hunger-faces", "6,7")
    assert (r["faces"], r["hunger_faces"], r["successes"]) == ([], [6, 7], 2)


def test_v5_failed_rouse_check_raises_hunger():
    assert answer("roll", "v5", "--rouse", "--hunger", "2", "--faces", "4")["outcome"] == "fail"
    assert answer("roll", "v5", "--rouse", "--faces", "6")["outcome"] == "pass"


def test_v5_pool_is_raised_to_one_die():
    assert len(answer("roll", "v5", "--pool", "2", "--modifier=-5", "--seed", "3")["faces"]) == 1


# --- fate --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "faces, outcome", [("-1,-1,0,0", "fail"), ("-1,0,1,0", "tie"), ("1,0,0,0", "success"), ("1,1,1,0", "style")]
)
def test_fate_shifts_make_the_outcome(faces, outcome):
    r = answer("roll", "fate", "--bonus", "2", "--difficulty", "2", f"--faces={faces}")
    assert r["outcome"] == outcome and r["total"] == 2 + sum(map(int, faces.split(",")))


def test_fate_odds_sum_to_one():
    o = answer("odds", "fate", "--bonus", "2", "--difficulty", "3")
    assert isclose(o["p_fail"] + o["p_tie"] + o["p_success"] + o["p_style"], 1)


# --- the contract's shape ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args, keys",
    [
        (["exalted", "--pool", "5"], {"system", "faces", "successes", "margin", "outcome", "ones"}),
        (["scifi", "--pool", "5"], {"system", "faces", "successes", "margin", "outcome", "degree", "explosions"}),
        (["v5", "--pool", "5", "--hunger", "2"],
         {"system", "faces", "hunger_faces", "successes", "margin", "outcome", "critical", "messy", "bestial",
          "total_failure"}),
        (["fate", "--bonus", "1"], {"system", "faces", "total", "shifts", "margin", "outcome"}),
    ],
)
def test_every_roll_answer_carries_the_contract_keys(args, keys):
    assert keys <= set(answer("roll", *args, "--seed", "1"))


def test_times_rolls_many_in_one_process_and_seed_replays():
    many = answer("roll", "exalted", "--pool", "5", "--times", "50", "--seed", "9")
    assert len(many) == 50 and many == answer("roll", "exalted", "--pool", "5", "--times", "50", "--seed", "9")
    assert len({tuple(r["faces"]) for r in many}) > 1


def test_contest_answers_both_sides_odds():
    c = answer("contest", "exalted", "--pool", "6", "--vs", "4")
    assert isclose(c["p_win"] + c["p_tie"] + c["p_lose"], 1) and c["p_win"] > c["p_lose"]
    f = answer("contest", "fate", "--bonus", "2", "--vs", "2")
    assert isclose(f["p_win"], f["p_lose"])


@pytest.mark.parametrize(
    "args",
    [
        ["roll", "exalted", "--pool", "101"],
        ["roll", "exalted", "--pool=-1"],
        ["roll", "exalted", "--pool", "5", "--times", "0"],
        ["roll", "exalted", "--pool", "5", "--times", "1000001"],
        ["roll", "exalted", "--pool", "5", "--faces", "1,2,3"],
        ["roll", "exalted", "--pool", "3", "--faces", "1,2,11"],
        ["roll", "exalted", "--pool", "3", "--hunger", "2"],
        ["roll", "exalted", "--pool", "3", "--stunt", "4"],
        ["roll", "exalted", "--pool", "x"],
        ["roll", "chess", "--pool", "3"],
        ["roll", "scifi", "--pool", "3", "--difficulty", "impossible"],
        ["roll", "v5", "--pool", "3", "--hunger", "6"],
        ["roll", "v5", "--pool", "3", "--hunger", "1", "--faces", "1,2,3", "--hunger-faces", "4"],
        ["roll", "fate", "--faces=2,0,0,0"],
        ["roll", "fate", "--faces=1,0,0"],
        ["extended", "exalted", "--pool", "5", "--goal", "10", "--botch", "sometimes"],
        ["extended", "fate", "--bonus", "2", "--goal", "3"],
        ["roll", "exalted", "--pool", "5", "--times", "3", "--faces", "1,2,3,4,5"],
        [],
    ],
)
def test_bad_input_is_one_line_and_exit_two(args):
    refused(*args)
