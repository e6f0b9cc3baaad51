"""Fate Accelerated: the seed's facts, the 30-second table, the deck, bookkeeping, exact odds."""

import random
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import fate
from rules.dice import RulesError, roll_fate_dice
from rules.fate import (
    Action,
    Approach,
    Aspect,
    AspectKind,
    Consequences,
    Cost,
    Deck,
    FatePoints,
    HitPlan,
    Outcome,
    Request,
    Severity,
    StressTrack,
    absorb_hit,
    absorb_options,
    bonus,
    effects,
    invoke,
    ladder_name,
    parse_ladder,
    resolve,
)
from tests.rules.stats import assert_fits, assert_luck_exact

faces = st.tuples(*[st.sampled_from((-1, 0, 1))] * 4)
bonuses = st.integers(-10, 10)
FDIE = icepool.Die([-1, 0, 1])


def total_at(shifts: int, difficulty: int = 2) -> fate.Result:
    """A result with exactly ``shifts`` (dice 0000, the bonus doing the work)."""
    return resolve(Request(bonus=difficulty + shifts, difficulty=difficulty), (0, 0, 0, 0))


# --- the Ladder and the approaches --------------------------------------------------------


@pytest.mark.parametrize(
    "value, name",
    [(8, "Legendary"), (7, "Epic"), (6, "Fantastic"), (5, "Superb"), (4, "Great"), (3, "Good"),
     (2, "Fair"), (1, "Average"), (0, "Mediocre"), (-1, "Poor"), (-2, "Terrible")],
)
def test_ladder_names_each_value(value, name):
    assert ladder_name(value) == name
    assert parse_ladder(name) == value
    assert parse_ladder(name.upper()) == value
    assert parse_ladder(f"{value:+d} {name}") == value


def test_the_ladder_runs_from_terrible_to_legendary():
    assert sorted(fate.LADDER) == list(range(-2, 9))


def test_values_off_the_ladder_are_named_by_their_number():
    assert ladder_name(9) == "+9"
    assert ladder_name(-3) == "-3"


def test_parse_ladder_reads_signed_numbers_and_a_typographic_minus():
    assert parse_ladder("+3") == 3
    assert parse_ladder("\u22121") == -1
    assert parse_ladder("12") == 12
    assert parse_ladder(4) == 4


@pytest.mark.parametrize("text", ["+3 Great", "Bueno", "", "Good Fair", "+1 +2", True])
def test_parse_ladder_refuses_what_is_not_one_ladder_value(text):
    with pytest.raises(RulesError):
        parse_ladder(text)


def test_there_are_six_approaches():
    assert {a.value for a in Approach} == {"careful", "clever", "flashy", "forceful", "quick", "sneaky"}
    assert fate.parse_approach("sneaky") is Approach.SNEAKY
    with pytest.raises(RulesError):
        fate.parse_approach("furtivo")


# --- the dice and the bonus -----------------------------------------------------------------


@pytest.mark.parametrize(
    "dice, expected",
    [("-+0+", 1), ("+-00", 0), ("+++-", 2), ("-000", -1)],
    ids=["minus-plus-zero-plus_is_+1", "plus-minus-zero-zero_is_0",
         "three-plus-one-minus_is_+2", "minus-three-zeros_is_-1"],
)
def test_seed_dice_examples(dice, expected):
    result = resolve(Request(), ["-0+".index(c) - 1 for c in dice])
    assert result.total == expected
    assert fate.dice_text(result.faces) == dice


def test_always_four_fate_dice():
    with pytest.raises(RulesError):
        resolve(Request(), (1, 1, 1))
    with pytest.raises(RulesError):
        resolve(Request(), (1, 1, 1, 2))


def test_the_approach_rating_adds_to_the_dice():
    assert bonus(3) == 3
    assert resolve(Request(bonus=bonus(3)), (1, 0, 0, 0)).total == 4


def test_a_stunt_adds_its_bonus():
    assert bonus(2, stunt=2) == 4


def test_each_helping_ally_adds_one():
    assert bonus(1, helpers=1) == 2
    assert bonus(1, helpers=2) == 3


def test_each_invoked_aspect_adds_two():
    assert bonus(1, invokes=1) == 3
    assert bonus(1, invokes=2) == 5


def test_the_bonus_sums_all_its_parts():
    assert bonus(2, stunt=2, helpers=1, invokes=1) == 7


@pytest.mark.parametrize(
    "kwargs",
    [{"approach_rating": 9}, {"approach_rating": 1, "helpers": -1}, {"approach_rating": 1, "invokes": -1}],
    ids=["rating", "helpers", "invokes"],
)
def test_bonus_refuses_impossible_parts(kwargs):
    with pytest.raises(RulesError):
        bonus(**kwargs)


def test_modifiers_add_to_the_bonus():
    req = Request(bonus=2, difficulty=1, modifiers=(1, -2))
    assert req.total_bonus == 1
    assert resolve(req, (0, 0, 0, 0)).total == 1


def test_request_refuses_non_integers():
    with pytest.raises(RulesError):
        Request(bonus=1.5)
    with pytest.raises(RulesError):
        Request(difficulty="3")
    with pytest.raises(RulesError):
        Request(modifiers=(True,))


# --- outcomes by shifts ----------------------------------------------------------------------


def test_total_below_the_target_is_a_fail():
    assert total_at(-1).outcome is Outcome.FAIL


def test_total_equal_to_the_target_is_a_tie():
    assert total_at(0).outcome is Outcome.TIE


def test_one_shift_is_a_success():
    assert total_at(1).outcome is Outcome.SUCCESS


def test_two_shifts_is_still_a_plain_success():
    assert total_at(2).outcome is Outcome.SUCCESS


def test_three_shifts_is_a_success_with_style():
    assert total_at(3).outcome is Outcome.STYLE


def test_shifts_are_the_total_minus_the_difficulty():
    result = resolve(Request(bonus=2, difficulty=4), (1, 1, 0, -1))
    assert (result.total, result.shifts, result.outcome) == (3, -1, Outcome.FAIL)


def test_result_json_carries_the_contract_keys():
    data = resolve(Request(bonus=2, difficulty=3), (-1, 0, 1, 1)).as_json()
    assert {"system", "faces", "total", "shifts", "margin", "outcome"} <= set(data)
    assert data["system"] == "fate"
    assert data["faces"] == [-1, 0, 1, 1]
    assert (data["total"], data["shifts"], data["margin"], data["outcome"]) == (3, 0, 0, "tie")
    assert data["ladder"] == "Good"
    assert [n["code"] for n in data["notes"]][-1] == "outcome_tie"


# --- invoking after the roll ------------------------------------------------------------------


def test_invoking_after_the_roll_adds_two_and_is_recorded():
    req = Request(bonus=1, difficulty=3)
    first = resolve(req, (0, 0, 0, 0))
    invoked = fate.invoke_bonus(req, first)
    assert first.outcome is Outcome.FAIL
    assert invoked.total == first.total + 2
    assert invoked.invokes == 1
    assert invoked.outcome is Outcome.TIE
    assert "invoke" in [n.code for n in invoked.notes]


def test_an_invocation_may_reroll_all_four_dice_instead():
    req = Request(bonus=1, difficulty=3)
    first = fate.invoke_bonus(req, resolve(req, (-1, -1, -1, -1)))
    again = fate.reroll(req, first, (1, 1, 1, 0))
    assert again.faces == (1, 1, 1, 0)
    assert again.rerolled == ((-1, -1, -1, -1),)
    assert again.invokes == 1  # the +2 already invoked still applies
    assert again.total == 3 + 1 + 2


def test_roll_reroll_draws_new_dice_from_the_source():
    req = Request()
    first = resolve(req, (0, 0, 0, 0))
    assert fate.roll_reroll(req, first, random.Random(5)).faces == roll_fate_dice(4, random.Random(5))


def test_a_result_cannot_be_invoked_on_for_another_request():
    with pytest.raises(RulesError):
        fate.invoke_bonus(Request(bonus=1), resolve(Request(), (0, 0, 0, 0)))


FREE, PAID = fate.Paid.FREE, fate.Paid.FATE_POINT


def test_seed_an_aspect_twice_on_one_roll_only_with_style_s_two_free_invocations():
    # Seed 004: "Normalmente no se puede invocar dos veces el mismo aspecto en una tirada, pero esta
    # es una excepción" (a success with style's two free invocations).
    smoke = (fate.Invoked("Smoke everywhere", FREE), fate.Invoked("Smoke everywhere", FREE))
    request = Request(bonus=1, difficulty=3, invocations=smoke)
    assert request.total_bonus == 5
    result = resolve(request, (0, 0, 0, 0))
    assert result.total == 5
    assert [(i["aspect"], i["paid"]) for i in result.as_json()["invocations"]] == [("Smoke everywhere", FREE)] * 2
    for second in (PAID, FREE):
        with pytest.raises(RulesError, match="already invoked on this roll") as refused:
            fate.invoke_bonus(request, result, fate.Invoked("Smoke everywhere", second))  # never a third time
        assert refused.value.code == "invoke_twice"


@pytest.mark.parametrize("first, second", [(FREE, PAID), (PAID, FREE), (PAID, PAID)])
def test_a_fate_point_never_pays_for_the_same_aspect_twice(first, second):
    with pytest.raises(RulesError, match="already invoked"):
        Request(invocations=(fate.Invoked("On fire", first), fate.Invoked("On fire", second)))
    request = Request(invocations=(fate.Invoked("On fire", first),))
    with pytest.raises(RulesError, match="already invoked"):
        fate.invoke_bonus(request, resolve(request, (0, 0, 0, 0)), fate.Invoked("On fire", second))
    with pytest.raises(RulesError, match="already invoked"):
        fate.reroll(request, resolve(request, (0, 0, 0, 0)), (1, 1, 1, 1), fate.Invoked("On fire", second))
    assert not fate.may_invoke([first], second) and fate.may_invoke([], second)
    assert fate.may_invoke([FREE], FREE) and not fate.may_invoke([FREE, FREE], FREE)


def test_the_result_records_which_aspect_each_invocation_used():
    request = Request(bonus=2, difficulty=4, invocations=(fate.Invoked("Quick hands", PAID),))
    result = resolve(request, (-1, -1, 0, 0))  # 2 + 2 - 2 = 2
    after = fate.invoke_bonus(request, result, fate.Invoked("Dark alley", FREE))
    rerolled = fate.reroll(request, after, (1, 1, 0, 0), fate.Invoked("Dark alley", FREE))
    assert (after.total, rerolled.total) == (4, 8)
    assert rerolled.as_json()["invocations"] == [
        {"aspect": "Quick hands", "paid": "fate_point", "use": "bonus"},
        {"aspect": "Dark alley", "paid": "free_invocation", "use": "bonus"},
        {"aspect": "Dark alley", "paid": "free_invocation", "use": "reroll"},
    ]
    # Aspects differ by their name as given; an unnamed invocation (the older form) is not recorded.
    assert fate.invoke_bonus(request, result).invocations == ()
    with pytest.raises(RulesError, match="names its aspect"):
        fate.Invoked("  ")
    with pytest.raises(RulesError, match="no dice to reroll"):
        Request(invocations=(fate.Invoked("Quick hands", use="reroll"),))


def test_a_stored_request_with_its_invocations_rebuilds_equal():
    import dataclasses
    import json

    request = Request(bonus=3, invocations=(fate.Invoked("Smoke", FREE), fate.Invoked("Smoke", FREE)))
    assert Request(**json.loads(json.dumps(dataclasses.asdict(request)))) == request


# --- the 30-second table: create an advantage, a new aspect ----------------------------------


def test_advantage_new_fail_gives_nothing_or_the_opponent_a_free_invoke():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.FAIL)
    assert not e.aspect_created and e.free_invokes == 0 and e.opponent_free_invoke_option


def test_advantage_new_tie_gives_a_boost_but_no_aspect():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.TIE)
    assert e.boost and not e.aspect_created and e.free_invokes == 0


def test_advantage_new_success_creates_the_aspect_with_one_free_invoke():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.SUCCESS)
    assert e.aspect_created and e.free_invokes == 1 and not e.boost


def test_advantage_new_style_creates_the_aspect_with_two_free_invokes():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.STYLE)
    assert e.aspect_created and e.free_invokes == 2


# --- create an advantage, discovering an existing aspect --------------------------------------


def test_advantage_discovered_fail_is_like_a_new_aspect_fail():
    e = effects("create_advantage", "fail", discovering=True)
    assert not e.aspect_created and e.opponent_free_invoke_option


def test_advantage_discovered_tie_counts_as_a_success():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.TIE, discovering=True)
    assert e.aspect_created and e.free_invokes == 1 and not e.boost


def test_advantage_discovered_success_discovers_it_with_one_free_invoke():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.SUCCESS, discovering=True)
    assert e.aspect_created and e.free_invokes == 1


def test_advantage_discovered_style_discovers_it_with_two_free_invokes():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.STYLE, discovering=True)
    assert e.aspect_created and e.free_invokes == 2


# --- create an advantage on a known aspect ------------------------------------------------------


def test_advantage_known_fail_gives_no_further_benefit():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.FAIL, known_aspect=True)
    assert e.free_invokes == 0 and not e.opponent_free_invoke_option and not e.boost


def test_advantage_known_tie_gives_one_free_invoke():
    e = effects(Action.CREATE_ADVANTAGE, Outcome.TIE, known_aspect=True)
    assert e.free_invokes == 1 and not e.aspect_created and not e.boost


def test_advantage_known_success_gives_one_free_invoke():
    assert effects(Action.CREATE_ADVANTAGE, Outcome.SUCCESS, known_aspect=True).free_invokes == 1


def test_advantage_known_style_gives_two_free_invokes():
    assert effects(Action.CREATE_ADVANTAGE, Outcome.STYLE, known_aspect=True).free_invokes == 2


# --- overcome -------------------------------------------------------------------------------------


def test_overcome_fail_fails_or_succeeds_at_a_serious_cost():
    e = effects(Action.OVERCOME, Outcome.FAIL)
    assert not e.goal_achieved and e.may_succeed_at_cost and e.cost is Cost.SERIOUS


def test_overcome_tie_succeeds_at_a_minor_cost():
    e = effects(Action.OVERCOME, Outcome.TIE)
    assert e.goal_achieved and e.cost is Cost.MINOR and not e.may_succeed_at_cost


def test_overcome_success_achieves_the_goal():
    e = effects(Action.OVERCOME, Outcome.SUCCESS)
    assert e.goal_achieved and e.cost is Cost.NONE and not e.boost


def test_overcome_style_achieves_the_goal_and_a_boost():
    e = effects(Action.OVERCOME, Outcome.STYLE)
    assert e.goal_achieved and e.cost is Cost.NONE and e.boost


# --- attack ----------------------------------------------------------------------------------------


def test_attack_fail_misses():
    e = effects(Action.ATTACK, Outcome.FAIL, shifts=-2)
    assert not e.hit and e.stress is None and not e.boost


def test_attack_tie_does_no_harm_but_gives_a_boost():
    e = effects(Action.ATTACK, Outcome.TIE, shifts=0)
    assert not e.hit and e.stress is None and e.boost


def test_attack_success_hits_for_its_shifts():
    e = effects(Action.ATTACK, Outcome.SUCCESS, shifts=2)
    assert e.hit and e.stress == 2 and not e.may_trade_shift_for_boost


def test_attack_style_hits_and_may_trade_a_shift_for_a_boost():
    e = effects(Action.ATTACK, Outcome.STYLE, shifts=4)
    assert e.hit and e.stress == 4 and e.may_trade_shift_for_boost and not e.boost
    traded = fate.trade_shift_for_boost(e)
    assert traded.stress == 3 and traded.boost and not traded.may_trade_shift_for_boost


def test_only_an_attack_with_style_may_trade_a_shift():
    with pytest.raises(RulesError):
        fate.trade_shift_for_boost(effects(Action.ATTACK, Outcome.SUCCESS, shifts=1))


# --- defend ----------------------------------------------------------------------------------------


def test_defend_fail_lets_the_opponents_result_stand():
    e = effects(Action.DEFEND, Outcome.FAIL)
    assert not e.attack_stopped and e.opponent_outcome is None
    assert effects(Action.DEFEND, Outcome.FAIL, shifts=-1).opponent_outcome is Outcome.SUCCESS
    assert effects(Action.DEFEND, Outcome.FAIL, shifts=-3).opponent_outcome is Outcome.STYLE


def test_defend_tie_sends_the_opponent_to_its_own_tie():
    e = effects(Action.DEFEND, Outcome.TIE)
    assert e.attack_stopped and e.opponent_outcome is Outcome.TIE and not e.boost
    # ... so an attacker tied by the defence still earns its boost, by the attack's own row:
    assert effects(Action.ATTACK, e.opponent_outcome).boost


def test_defend_success_denies_the_opponent():
    e = effects(Action.DEFEND, Outcome.SUCCESS, shifts=2)
    assert e.attack_stopped and e.opponent_outcome is Outcome.FAIL and not e.boost


def test_defend_style_denies_the_opponent_and_gives_a_boost():
    e = effects(Action.DEFEND, Outcome.STYLE, shifts=3)
    assert e.attack_stopped and e.opponent_outcome is Outcome.FAIL and e.boost


def test_every_row_has_a_stable_distinct_code_per_effect():
    seen = {}
    for row, by_outcome in fate.TABLE.items():
        assert set(by_outcome) == set(Outcome), row
        for effect in by_outcome.values():
            assert seen.setdefault(effect.code, effect) == effect  # one code, one effect
    assert len(seen) == 19  # 6 rows × 4, less the known tie/success and the discovered tie/success shared


def test_effects_refuse_shifts_that_contradict_the_outcome():
    with pytest.raises(RulesError):
        effects(Action.ATTACK, Outcome.SUCCESS, shifts=3)


def test_effects_refuse_an_aspect_qualifier_outside_create_an_advantage():
    with pytest.raises(RulesError):
        effects(Action.ATTACK, Outcome.SUCCESS, known_aspect=True)
    with pytest.raises(RulesError):
        effects(Action.CREATE_ADVANTAGE, Outcome.SUCCESS, known_aspect=True, discovering=True)


def test_effects_refuse_unknown_names():
    with pytest.raises(RulesError):
        effects("dodge", "success")
    with pytest.raises(RulesError):
        effects("attack", "critical")


# --- opposed rolls ---------------------------------------------------------------------------------


def test_defence_against_an_attack_compares_the_totals():
    attack = resolve(Request(bonus=3), (1, 1, 0, 0))  # +5
    defence = resolve(Request(bonus=2), (0, 0, 0, -1))  # +1
    opposed = fate.resolve_opposed(attack, defence)
    assert (opposed.shifts, opposed.outcome, opposed.opponent_outcome) == (4, Outcome.STYLE, Outcome.FAIL)
    assert effects(Action.ATTACK, opposed.outcome, shifts=opposed.shifts).stress == 4
    data = opposed.as_json()
    assert (data["total"], data["opponent_total"], data["margin"], data["outcome"]) == (5, 1, 4, "style")


def test_an_opposed_tie_is_a_tie_for_both_sides():
    a = resolve(Request(bonus=2), (0, 0, 0, 0))
    b = resolve(Request(bonus=1), (1, 0, 0, 0))
    opposed = fate.resolve_opposed(a, b)
    assert opposed.outcome is opposed.opponent_outcome is Outcome.TIE


# --- the Fate deck -------------------------------------------------------------------------------


def test_the_deck_has_81_distinct_cards_one_per_ordered_combination():
    assert len(fate.CARDS) == fate.DECK_SIZE == 81
    assert set(fate.CARDS) == set(product((-1, 0, 1), repeat=4))
    assert len(Deck.shuffled(random.Random(1))) == 81


def test_the_deck_mirrors_the_dice_statistics():
    counts = [0] * 9
    for card in fate.CARDS:
        counts[sum(card) + 4] += 1
    assert counts == [1, 4, 10, 16, 19, 16, 10, 4, 1]


def test_the_deck_draws_without_replacement():
    deck = Deck.shuffled(random.Random(7))
    drawn = []
    for _ in range(81):
        d = fate.draw(deck)
        assert not d.reshuffled
        drawn.append(d.card)
        deck = d.deck
    assert sorted(drawn) == list(range(81))
    assert len(deck) == 0


def test_the_deck_reshuffles_after_81_draws_and_says_so():
    deck = Deck.shuffled(random.Random(3))
    rng = random.Random(4)
    for _ in range(81):
        deck = fate.draw(deck, rng).deck
    d = fate.draw(deck, rng)
    assert d.reshuffled
    assert len(d.deck) == 80
    assert "deck_reshuffled" in [n.code for n in d.notes]


def test_the_deck_serialises_to_a_list_of_ints_and_back():
    deck = fate.draw(Deck.shuffled(random.Random(9))).deck
    data = deck.as_list()
    assert all(type(c) is int for c in data)
    assert Deck.from_list(data) == deck


@pytest.mark.parametrize("cards", [[0, 0], [81], [-1], ["3"]])
def test_a_deck_refuses_repeated_or_unknown_cards(cards):
    with pytest.raises(RulesError):
        Deck.from_list(cards)


def test_rolling_with_the_deck_resolves_the_drawn_card():
    req = Request(bonus=1, difficulty=1)
    deck = Deck.from_list([80, 0])  # ++++ then ----
    result, drawn = fate.roll_deck(req, deck)
    assert result.faces == (1, 1, 1, 1) and result.total == 5
    assert drawn.deck == Deck((0,))
    assert result.notes[0].code == "card"


def test_deck_odds_change_as_cards_leave():
    req = Request(difficulty=4)
    full = Deck.shuffled(random.Random(2))
    assert fate.deck_odds(req, full).p_tie == pytest.approx(1 / 81)
    without_top = Deck(tuple(c for c in full.remaining if fate.CARDS[c] != (1, 1, 1, 1)))
    assert fate.deck_odds(req, without_top).p_tie == 0.0


def test_the_odds_of_an_empty_deck_are_those_of_the_fresh_deck_it_reshuffles():
    req = Request(bonus=1, difficulty=2)
    empty = fate.deck_odds(req, Deck())
    assert empty.cards == 81
    assert empty.distribution.as_dict() == pytest.approx(fate.odds(req).distribution.as_dict())


# --- stress and consequences ------------------------------------------------------------------


def test_three_stress_boxes_worth_one_two_and_three():
    assert fate.STRESS_BOXES == (1, 2, 3)
    assert StressTrack().free == (1, 2, 3)


def test_consequences_absorb_two_four_and_six():
    assert [s.shifts for s in Severity] == [2, 4, 6]


def test_a_stress_box_absorbs_its_value():
    hit = absorb_hit(2, StressTrack(), Consequences(), HitPlan(box=2))
    assert hit.stress.checked == (2,) and not hit.taken_out


def test_a_bigger_box_may_absorb_a_smaller_hit():
    assert absorb_hit(1, StressTrack(), Consequences(), HitPlan(box=3)).stress.checked == (3,)


def test_a_smaller_box_alone_cannot_absorb_a_bigger_hit():
    with pytest.raises(RulesError):
        absorb_hit(3, StressTrack(), Consequences(), HitPlan(box=2))


def test_a_checked_box_cannot_be_checked_again():
    with pytest.raises(RulesError):
        absorb_hit(2, StressTrack((2,)), Consequences(), HitPlan(box=2))


def test_a_box_and_consequences_combine_on_one_hit():
    hit = absorb_hit(5, StressTrack(), Consequences(), HitPlan(box=3, consequences=(Severity.MILD,)), ["Winded"])
    assert hit.stress.checked == (3,)
    assert hit.consequences == Consequences(mild="Winded")
    assert hit.opponent_free_invokes == 1


def test_several_consequences_may_absorb_one_hit():
    plan = HitPlan(consequences=(Severity.MODERATE, Severity.MILD))
    hit = absorb_hit(6, StressTrack(), Consequences(), plan, ["Bruised", "Broken arm"])
    assert hit.consequences == Consequences(mild="Bruised", moderate="Broken arm")
    assert hit.opponent_free_invokes == 2


def test_a_taken_consequence_slot_cannot_take_another():
    with pytest.raises(RulesError):
        absorb_hit(2, StressTrack(), Consequences(mild="Dazed"), HitPlan(consequences=(Severity.MILD,)), ["Cut"])


def test_choosing_nothing_is_being_taken_out_and_marks_nothing():
    hit = absorb_hit(9, StressTrack((1,)), Consequences(), None)
    assert hit.taken_out and hit.stress == StressTrack((1,)) and hit.consequences == Consequences()


def test_absorb_options_list_the_plans_that_need_all_their_parts():
    plans = absorb_options(4, StressTrack(), Consequences())
    assert [(p.box, p.consequences) for p in plans] == [
        (2, (Severity.MILD,)),
        (3, (Severity.MILD,)),
        (None, (Severity.MODERATE,)),
        (None, (Severity.SEVERE,)),
    ]


def test_no_options_when_the_hit_is_beyond_everything_left():
    assert absorb_options(4, StressTrack((1, 2, 3)), Consequences(mild="Dazed", moderate="Hurt", severe="Maimed")) == ()
    assert absorb_options(3 + 2 + 4 + 6 + 1, StressTrack(), Consequences()) == ()


def test_stress_clears_and_consequences_recover():
    assert StressTrack((1, 3)).cleared() == StressTrack()
    assert Consequences(mild="Dazed", severe="Maimed").recover("mild") == Consequences(severe="Maimed")


# --- fate points and aspects ------------------------------------------------------------------


def test_refresh_is_three_less_one_per_stunt_beyond_three():
    assert fate.refresh_for_stunts(3) == 3
    assert fate.refresh_for_stunts(5) == 1
    with pytest.raises(RulesError):
        fate.refresh_for_stunts(6)


def test_a_session_refreshes_fate_points_up_to_refresh_keeping_extras():
    assert FatePoints(1, 3).refreshed().current == 3
    assert FatePoints(5, 3).refreshed().current == 5


def test_spending_needs_the_points():
    assert FatePoints(2).spend().current == 1
    with pytest.raises(RulesError):
        FatePoints(0).spend()


def test_a_free_invocation_is_used_before_a_fate_point():
    aspect = Aspect("Uneven ground", AspectKind.SITUATION, free_invokes=1)
    first = invoke(aspect, FatePoints(2))
    assert first.free and first.points.current == 2 and first.aspect.free_invokes == 0
    second = invoke(first.aspect, first.points)
    assert not second.free and second.points.current == 1


def test_a_boost_vanishes_after_one_use():
    used = invoke(fate.boost("Off balance"), FatePoints(0))
    assert used.free and used.aspect is None


def test_a_boost_has_exactly_one_free_invocation():
    with pytest.raises(RulesError):
        Aspect("Off balance", AspectKind.BOOST, free_invokes=2)
    with pytest.raises(RulesError):
        fate.add_free_invokes(fate.boost("Off balance"), 1)


def test_advantage_on_a_known_aspect_adds_its_free_invokes():
    aspect = Aspect("Wizard for hire", AspectKind.HIGH_CONCEPT)
    e = effects(Action.CREATE_ADVANTAGE, Outcome.STYLE, known_aspect=True)
    assert fate.add_free_invokes(aspect, e.free_invokes).free_invokes == 2


# --- exact odds ---------------------------------------------------------------------------------


def test_four_fate_dice_have_the_counts_1_4_10_16_19_16_10_4_1_over_81():
    dist = fate.FOUR_DF
    assert [round(dist.p(s) * 81, 9) for s in range(-4, 5)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]


def test_odds_json_carries_the_contract_keys():
    data = fate.odds(Request(bonus=2, difficulty=3)).as_json()
    assert {"p_fail", "p_tie", "p_success", "p_style", "distribution"} <= set(data)
    assert data["distribution"][2] == pytest.approx(19 / 81)


@pytest.mark.parametrize("b", range(-4, 9))
def test_odds_agree_with_icepool(b):
    total = 4 @ FDIE + b
    for d in range(-2, 9):
        o = fate.odds(Request(bonus=b, difficulty=d))
        shifts = total - d
        assert abs(o.p_fail - float(shifts.probability("<", 0))) < 1e-9
        assert abs(o.p_tie - float(shifts.probability("==", 0))) < 1e-9
        assert abs(o.p_success - float(shifts.probability(1) + shifts.probability(2))) < 1e-9
        assert abs(o.p_style - float(shifts.probability(">=", 3))) < 1e-9
    for value, p in fate.odds(Request(bonus=b)).distribution.as_dict().items():
        assert abs(p - float(total.probability(value))) < 1e-9


@pytest.mark.parametrize("a", range(-2, 7))
def test_contest_odds_agree_with_icepool(a):
    for b in range(-2, 7):
        c = fate.contest(Request(bonus=a), Request(bonus=b))
        margin = (4 @ FDIE + a) - (4 @ FDIE + b)
        assert abs(c.p_win - float(margin.probability(">", 0))) < 1e-9
        assert abs(c.p_tie - float(margin.probability("==", 0))) < 1e-9
        assert abs(c.p_lose - float(margin.probability("<", 0))) < 1e-9
        for shifts, p in c.margin.as_dict().items():
            assert abs(p - float(margin.probability(shifts))) < 1e-9


@pytest.mark.parametrize("seed", range(8))
def test_deck_odds_agree_with_icepool_deals(seed):
    rng = random.Random(seed)
    deck = Deck.shuffled(rng)
    for _ in range(rng.randint(0, 80)):
        deck = fate.draw(deck).deck
    req = Request(bonus=rng.randint(-2, 4), difficulty=rng.randint(-2, 6))
    sums = [sum(fate.CARDS[c]) for c in deck.remaining]
    total = icepool.Deck(sums).deal(1).sum() + req.total_bonus
    o = fate.deck_odds(req, deck)
    assert o.cards == len(deck)
    assert abs(o.p_fail - float(total.probability("<", req.difficulty))) < 1e-9
    assert abs(o.p_tie - float(total.probability("==", req.difficulty))) < 1e-9
    assert abs(o.p_style - float(total.probability(">=", req.difficulty + 3))) < 1e-9
    for value, p in o.distribution.as_dict().items():
        assert abs(p - float(total.probability(value))) < 1e-9


# --- properties -----------------------------------------------------------------------------------


@given(faces, bonuses, bonuses, st.lists(st.integers(-3, 3), max_size=3))
def test_total_is_the_dice_plus_the_bonus(f, b, d, mods):
    result = resolve(Request(bonus=b, difficulty=d, modifiers=tuple(mods)), f)
    assert result.total == sum(f) + b + sum(mods)
    assert result.shifts == result.total - d
    assert result.outcome is fate.outcome_of(result.shifts)


@given(st.integers(-20, 20))
def test_outcomes_follow_the_shift_thresholds(shifts):
    expected = (Outcome.FAIL if shifts < 0 else Outcome.TIE if shifts == 0
                else Outcome.SUCCESS if shifts < 3 else Outcome.STYLE)
    assert fate.outcome_of(shifts) is expected


@given(st.integers(0, 2**32), bonuses, bonuses)
def test_roll_is_resolve_of_the_dice_drawn(seed, b, d):
    req = Request(bonus=b, difficulty=d)
    assert fate.roll(req, random.Random(seed)) == resolve(req, roll_fate_dice(4, random.Random(seed)))


@given(bonuses, bonuses)
def test_odds_sum_to_one(b, d):
    o = fate.odds(Request(bonus=b, difficulty=d))
    assert abs(sum(o.distribution.probs) - 1) < 1e-12
    assert abs(o.p_fail + o.p_tie + o.p_success + o.p_style - 1) < 1e-12


@given(faces, bonuses, bonuses)
def test_an_invocation_raises_the_total_by_two_and_never_lowers_the_outcome(f, b, d):
    req = Request(bonus=b, difficulty=d)
    before = resolve(req, f)
    after = fate.invoke_bonus(req, before)
    order = list(Outcome)
    assert after.total == before.total + 2
    assert order.index(after.outcome) >= order.index(before.outcome)


@given(st.integers(0, 2**32))
def test_81_draws_from_a_shuffled_deck_are_a_permutation(seed):
    deck = Deck.shuffled(random.Random(seed))
    cards = []
    for _ in range(81):
        d = fate.draw(deck)
        cards.append(d.card)
        deck = d.deck
    assert sorted(cards) == list(range(81))


@given(st.sets(st.integers(0, 80)).map(sorted).flatmap(st.permutations), bonuses, bonuses)
def test_any_deck_round_trips_and_its_odds_sum_to_one(cards, b, d):
    deck = Deck.from_list(cards)
    assert Deck.from_list(deck.as_list()) == deck
    o = fate.deck_odds(Request(bonus=b, difficulty=d), deck)
    assert abs(o.p_fail + o.p_tie + o.p_success + o.p_style - 1) < 1e-12


@given(st.integers(-6, 6), st.integers(-6, 6))
def test_contest_is_symmetric_and_sums_to_one(a, b):
    ab = fate.contest(Request(bonus=a), Request(bonus=b))
    ba = fate.contest(Request(bonus=b), Request(bonus=a))
    assert abs(ab.p_win + ab.p_tie + ab.p_lose - 1) < 1e-12
    assert abs(ab.p_win - ba.p_lose) < 1e-12


@given(st.integers(1, 18), st.sets(st.sampled_from((1, 2, 3))), st.sets(st.sampled_from(list(Severity))))
def test_every_absorb_option_absorbs_the_hit(shifts, checked, taken):
    stress = StressTrack(tuple(checked))
    consequences = Consequences(**{s.value: "Hurt" for s in taken})
    plans = absorb_options(shifts, stress, consequences)
    capacity = max(stress.free, default=0) + sum(s.shifts for s in consequences.free)
    assert bool(plans) == (capacity >= shifts)
    for plan in plans:
        names = ["Scar"] * len(plan.consequences)
        hit = absorb_hit(shifts, stress, consequences, plan, names)
        assert not hit.taken_out and plan.absorbs >= shifts
        assert hit.opponent_free_invokes == len(plan.consequences)


# --- the roller against the exact odds ---------------------------------------------------------


def test_rolled_totals_fit_the_exact_distribution():
    req = Request(bonus=2, difficulty=3)
    rng = random.Random(20240604)
    totals = [fate.roll(req, rng).total for _ in range(30_000)]
    assert_fits(totals, fate.odds(req).distribution.as_dict())


def test_rolled_outcomes_fit_the_exact_odds():
    req = Request(bonus=1, difficulty=1)
    o = fate.odds(req)
    rng = random.Random(81)
    outcomes = [fate.roll(req, rng).outcome for _ in range(20_000)]
    expected = {Outcome.FAIL: o.p_fail, Outcome.TIE: o.p_tie, Outcome.SUCCESS: o.p_success, Outcome.STYLE: o.p_style}
    assert_fits(outcomes, expected)


@pytest.fixture(scope="module")
def shuffles():
    rng = random.Random(4004)
    return [Deck.shuffled(rng).remaining for _ in range(20_000)]


def test_the_shuffled_deck_puts_every_card_first_equally_often(shuffles):
    assert_fits([deck[0] for deck in shuffles], {c: 1 / 81 for c in range(81)})


def test_the_second_card_fits_the_odds_left_by_the_first(shuffles):
    # Drawing without replacement: the pair of sums follows P(first) × deck_odds(after the first).
    expected = {}
    for first in range(81):
        after = fate.deck_odds(Request(), Deck(tuple(c for c in range(81) if c != first)))
        for second, p in after.distribution.as_dict().items():
            key = (sum(fate.CARDS[first]), second)
            expected[key] = expected.get(key, 0.0) + p / 81
    assert_fits([(sum(fate.CARDS[d[0]]), sum(fate.CARDS[d[1]])) for d in shuffles], expected)


# --- luck -------------------------------------------------------------------------------------


@given(st.integers(-10, 10), st.integers(-10, 10))
def test_luck_matches_every_roll_of_four_fate_dice(bonus_, difficulty):
    request = Request(bonus=bonus_, difficulty=difficulty)
    outcomes = []
    for card in fate.CARDS:
        result = resolve(request, card)
        got = {"success_with_style": result.outcome is Outcome.STYLE}
        outcomes.append((1 / 81, result.total, fate.luck(request, result), got))
    assert_luck_exact(outcomes)


@settings(max_examples=40)
@given(st.lists(st.integers(0, fate.DECK_SIZE - 1), min_size=1, max_size=fate.DECK_SIZE, unique=True),
       st.integers(-3, 3), st.integers(-3, 3))
def test_luck_from_the_deck_matches_every_card_left(cards, bonus_, difficulty):
    request, deck = Request(bonus=bonus_, difficulty=difficulty), Deck(tuple(cards))
    outcomes = []
    for card in cards:
        result = resolve(request, fate.CARDS[card])
        got = {"success_with_style": result.outcome is Outcome.STYLE}
        outcomes.append((1 / len(cards), result.total, fate.luck(request, result, deck), got))
    assert_luck_exact(outcomes)


def test_the_last_card_of_a_deck_is_no_luck_at_all():
    request, card = Request(), fate.CARDS.index((1, 1, 1, 1))
    luck = fate.luck(request, resolve(request, (1, 1, 1, 1)), Deck((card,)))
    assert (luck.percentile, luck.band, luck.special("success_with_style").prior) == (0.5, "average", 1.0)


def test_an_empty_deck_ranks_like_a_fresh_one():
    request = Request(bonus=1)
    result = resolve(request, (1, 0, 0, -1))
    assert fate.luck(request, result, Deck()) == fate.luck(request, result)


def test_luck_refuses_a_card_the_deck_no_longer_holds():
    request = Request()
    with pytest.raises(RulesError):
        fate.luck(request, resolve(request, fate.CARDS[5]), Deck((1, 2, 3)))


def test_invoking_after_the_roll_is_not_luck():
    request = Request(bonus=2, difficulty=2)
    result = resolve(request, (1, 1, 0, 0))  # +4 against +2: a success
    invoked = fate.invoke_bonus(request, result)  # +6: with style, by the player's choice
    assert invoked.outcome is Outcome.STYLE
    assert fate.luck(request, invoked) == fate.luck(request, result)
    assert not fate.luck(request, invoked).special("success_with_style").happened


def test_a_reroll_is_ranked_as_a_fresh_roll_of_the_request():
    request = Request(bonus=1)
    rerolled = fate.reroll(request, resolve(request, (-1, -1, 0, 0)), (1, 1, 1, 0))
    assert fate.luck(request, rerolled) == fate.luck(request, resolve(request, (1, 1, 1, 0)))


def test_luck_refuses_a_result_of_another_request():
    with pytest.raises(RulesError):
        fate.luck(Request(bonus=1), resolve(Request(bonus=2), (0, 0, 0, 0)))
