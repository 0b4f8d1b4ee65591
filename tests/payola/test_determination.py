"""Rule 5 (and 3.1-3.4, 4.4, 6.4): which order each unit issues and who pays.

Every number below is worked out by hand from the rule text; the start position is
Spring 1901 (England: F LON, F EDI, A LVP; France: F BRE, A PAR, A MAR; ...).
"""

from __future__ import annotations

from judge.payola.options import parse_options
from tests.payola.game import determine, issued


def test_rule_5_1_highest_total_bribe_wins_and_rule_5_6_only_issued_orders_are_paid() -> None:
    result = determine({"FRANCE": "5 : F LON - ENG", "GERMANY": "6 : F LON - NTH"},
                       {"FRANCE": 20, "GERMANY": 20})
    assert issued(result, "LON") == "F LON - NTH"
    assert result.units["LON"].total == 6
    assert result.statements["GERMANY"].spent == 6 and result.statements["GERMANY"].new_balance == 14
    assert result.statements["FRANCE"].spent == 0 and result.statements["FRANCE"].new_balance == 20


def test_rule_5_1_bribes_for_one_order_add_up() -> None:
    result = determine({"FRANCE": "4 : F LON - ENG", "GERMANY": "3 : F LON - ENG", "RUSSIA": "6 : F LON - NTH"},
                       {"FRANCE": 9, "GERMANY": 9, "RUSSIA": 9})
    assert issued(result, "LON") == "F LON - ENG" and result.units["LON"].total == 7
    assert dict(result.units["LON"].paid) == {"FRANCE": 4, "GERMANY": 3}


def test_rule_3_3_a_unit_nobody_bribes_holds_on_its_owners_zero_offer() -> None:
    result = determine({})
    assert issued(result, "PAR") == "A PAR H" and result.units["PAR"].total == 0


def test_rule_5_2_tie_goes_to_the_power_earliest_in_the_owners_acceptance_list() -> None:
    sheets = {"FRANCE": "5 : F LON - ENG", "GERMANY": "5 : F LON - NTH"}
    balances = {"FRANCE": 9, "GERMANY": 9}
    german_first = determine(sheets, balances, accept={"ENGLAND": "GFE?"})
    assert issued(german_first, "LON") == "F LON - NTH"
    assert german_first.statements["GERMANY"].spent == 5 and german_first.statements["FRANCE"].spent == 0
    french_first = determine(sheets, balances, accept={"ENGLAND": "FGE?"})
    assert issued(french_first, "LON") == "F LON - ENG"


def test_rule_5_3_tie_between_two_offers_of_one_power_goes_to_its_earlier_line() -> None:
    balances = {"FRANCE": 20}
    first = determine({"FRANCE": "5 : F LON - ENG\n5 : F LON - NTH"}, balances, accept={"ENGLAND": "F?"})
    assert issued(first, "LON") == "F LON - ENG"
    second = determine({"FRANCE": "5 : F LON - NTH\n5 : F LON - ENG"}, balances, accept={"ENGLAND": "F?"})
    assert issued(second, "LON") == "F LON - NTH"


def test_ruling_3_alternatives_in_one_line_are_separate_offers_in_sequence() -> None:
    # 3.2: "3 : F LON - NTH | - ENG" is 3 for NTH then 3 for ENG; the tie goes to NTH (5.3).
    result = determine({"FRANCE": "3 : F LON - NTH | - ENG"}, {"FRANCE": 9}, accept={"ENGLAND": "F?"})
    assert issued(result, "LON") == "F LON - NTH"
    assert result.statements["FRANCE"].spent == 3  # paid once: only one order is issued


def test_rule_5_3_negative_offer_counts_just_below_its_generated_hold() -> None:
    # France "3 ! F LON - ENG": 0 for HOLD, and 3 for any order but ENG. England (owner) offers
    # 0 for NTH.  Totals: HOLD 3, NTH 0 + 3 = 3.  In France's sheet the generated HOLD comes
    # first and the promise just below it, so with France first in the list HOLD wins.
    sheets = {"FRANCE": "3 ! F LON - ENG", "ENGLAND": "0 : F LON - NTH"}
    result = determine(sheets, {"FRANCE": 9}, accept={"ENGLAND": "FE?"})
    assert issued(result, "LON") == "F LON H"
    assert result.units["LON"].total == 3 and result.statements["FRANCE"].spent == 3
    # With England first, England's only offer (NTH) decides.
    result = determine(sheets, {"FRANCE": 9}, accept={"ENGLAND": "EF?"})
    assert issued(result, "LON") == "F LON - NTH" and result.statements["FRANCE"].spent == 3


def test_rule_5_4_shared_negative_offer_passes_the_choice_down_the_list() -> None:
    # France "3 ! F LON H | - ENG": 0 for HOLD; 3 for every order but HOLD and ENG.
    # England offers 0 for YOR (line 1) then 0 for NTH (line 2).  Totals: HOLD 0, YOR 3, NTH 3.
    # France is first in England's list, but its earliest offer for YOR and NTH is the same
    # negative offer, so the next power that offered for them, England, decides: YOR (line 1).
    sheets = {"FRANCE": "3 ! F LON H | - ENG", "ENGLAND": "0 : F LON - YOR\n0 : F LON - NTH"}
    result = determine(sheets, {"FRANCE": 9}, accept={"ENGLAND": "FGE?"})
    assert issued(result, "LON") == "F LON - YOR"
    swapped = {"FRANCE": sheets["FRANCE"], "ENGLAND": "0 : F LON - NTH\n0 : F LON - YOR"}
    assert issued(determine(swapped, {"FRANCE": 9}, accept={"ENGLAND": "FGE?"}), "LON") == "F LON - NTH"


def test_ruling_3_rule_5_4_also_covers_move_offers() -> None:
    # France "3 > F LON - ENG": 3 for ENG, and 3 for any other move.  England offers 0 for
    # NTH then 0 for YOR, so NTH and YOR total 3 like ENG; HOLD is not a candidate.
    # France (first) offered ENG directly at (line 1, first order) - earlier than its promise
    # below it - so ENG wins.
    sheets = {"FRANCE": "3 > F LON - ENG", "ENGLAND": "0 : F LON - NTH\n0 : F LON - YOR"}
    result = determine(sheets, {"FRANCE": 9}, accept={"ENGLAND": "FE?"})
    assert issued(result, "LON") == "F LON - ENG"
    # England first: its earliest offer is NTH; France pays its promise for the unlisted move.
    result = determine(sheets, {"FRANCE": 9}, accept={"ENGLAND": "EF?"})
    assert issued(result, "LON") == "F LON - NTH" and result.statements["FRANCE"].spent == 3


def test_ruling_1_negative_offer_naming_hold_still_builds_its_zero_hold() -> None:
    # "5 ! F LON H" from France; England offers 0 for NTH: HOLD 0, NTH 5 -> NTH, France pays 5.
    result = determine({"FRANCE": "5 ! F LON H", "ENGLAND": "0 : F LON - NTH"}, {"FRANCE": 9})
    assert issued(result, "LON") == "F LON - NTH" and result.statements["FRANCE"].spent == 5


def test_rule_3_1_hold_offer_pays_for_unlisted_holds_supports_and_convoys() -> None:
    # France "2 @ F LON - ENG": 2 for ENG, and 2 for any hold/support/convoy not listed.
    # England offers 0 for "F LON S F EDI - NTH" and 1 for NTH: ENG 2, support 2, NTH 1.
    sheets = {"FRANCE": "2 @ F LON - ENG", "ENGLAND": "0 : F LON S F EDI - NTH\n1 : F LON - NTH"}
    result = determine(sheets, {"FRANCE": 9, "ENGLAND": 9}, accept={"ENGLAND": "E?"})
    assert issued(result, "LON") == "F LON S F EDI - NTH"
    assert result.statements["FRANCE"].spent == 2 and result.statements["ENGLAND"].spent == 0


def test_rule_3_1_gift_offer_pays_whatever_is_issued() -> None:
    # France "2 & F LON - ENG": ENG 2, the generated HOLD 2, England's NTH 0 + 2 = 2: a
    # three-way tie that England (first in its own list) settles with its only offer, NTH.
    result = determine({"FRANCE": "2 & F LON - ENG", "ENGLAND": "0 : F LON - NTH"}, {"FRANCE": 9})
    assert {str(c.order): c.total for c in result.units["LON"].candidates} == {
        "F LON - ENG": 2, "F LON H": 2, "F LON - NTH": 2}
    assert issued(result, "LON") == "F LON - NTH" and result.statements["FRANCE"].spent == 2


def test_rule_5_5_reduction_without_plateaus() -> None:
    # France has 5 and offers 4 + 4: rounds 1 (3+3=6) and 2 (2+2=4); it pays 4, keeps 1.
    result = determine({"FRANCE": "4 : F LON - ENG\n4 : F EDI - NTH"}, {"FRANCE": 5})
    assert result.rounds == 2 and result.statements["FRANCE"].reductions == 2
    assert issued(result, "LON") == "F LON - ENG" and issued(result, "EDI") == "F EDI - NTH"
    assert result.statements["FRANCE"].spent == 4 and result.statements["FRANCE"].new_balance == 1


def test_rule_5_5_plateaus_hold_until_every_offer_is_at_its_plateau() -> None:
    # France has 2 and offers "4#3" to LON and "4" to EDI; England's own units default to HOLD 0.
    #   round 1: 3 + 3 = 6 > 2     (both above plateau)
    #   round 2: 3 + 2 = 5         (LON at its plateau: only EDI drops)
    #   round 3: 3 + 1 = 4, round 4: 3 + 0 -> EDI's NTH 0 ties HOLD 0, England (first) keeps HOLD: 3
    #   round 5: all at plateau, so every non-zero offer drops: LON 2 -> pays 2.
    result = determine({"FRANCE": "4#3 : F LON - ENG\n4 : F EDI - NTH"}, {"FRANCE": 2})
    assert result.rounds == 5
    assert issued(result, "LON") == "F LON - ENG" and issued(result, "EDI") == "F EDI H"
    assert result.statements["FRANCE"].spent == 2 and result.statements["FRANCE"].new_balance == 0


def test_rule_5_5_a_zero_offer_still_counts_for_tie_breaking() -> None:
    # France's 2 is reduced to 0 (balance 0); ENG 0 ties England's default HOLD 0.
    sheets = {"FRANCE": "2 : F LON - ENG"}
    assert issued(determine(sheets, {"FRANCE": 0}, accept={"ENGLAND": "FE?"}), "LON") == "F LON - ENG"
    assert issued(determine(sheets, {"FRANCE": 0}, accept={"ENGLAND": "EF?"}), "LON") == "F LON H"


def test_rule_3_4_savings_are_honoured() -> None:
    # Balance 10, savings 5: 4 + 4 = 8 > 5 -> 6 -> 4; pays 4, keeps 6 (at least the 5 saved).
    result = determine({"FRANCE": "5 $\n4 : F LON - ENG\n4 : F EDI - NTH"}, {"FRANCE": 10})
    assert result.rounds == 2 and result.statements["FRANCE"].new_balance == 6


def test_ruling_5_savings_above_the_balance_mean_spending_nothing() -> None:
    # Balance 3, savings 5: nothing may be spent; 2 -> 1 -> 0 and then HOLD wins the tie.
    result = determine({"FRANCE": "5 $\n2 : F LON - ENG"}, {"FRANCE": 3}, accept={"ENGLAND": "E?"})
    assert result.rounds == 2 and result.statements["FRANCE"].spent == 0
    assert issued(result, "LON") == "F LON H"


def test_rule_4_4_ruling_4_dummy_ties_resolve_to_hold_paid_by_nobody() -> None:
    sheets = {"FRANCE": "3 : F LON - ENG", "GERMANY": "3 : F LON - NTH"}
    result = determine(sheets, {"FRANCE": 9, "GERMANY": 9}, dummies=frozenset({"ENGLAND"}))
    assert issued(result, "LON") == "F LON H"
    assert result.units["LON"].total == 4 and result.units["LON"].dummy_tie
    assert result.statements["FRANCE"].spent == 0 and result.statements["GERMANY"].spent == 0
    clear = determine({"FRANCE": "4 : F LON - ENG", "GERMANY": "3 : F LON - NTH"},
                      {"FRANCE": 9, "GERMANY": 9}, dummies=frozenset({"ENGLAND"}))
    assert issued(clear, "LON") == "F LON - ENG" and clear.statements["FRANCE"].spent == 4


def test_rule_2_4_eliminated_powers_keep_bribing() -> None:
    from judge.engine.position import Position
    from tests.payola.game import START

    no_austria = Position(START.game_map, START.phase,
                          {p: u for p, u in START.units.items() if u.power != "AUSTRIA"},
                          {c: o for c, o in START.centers.items() if o != "AUSTRIA"})
    result = determine({"AUSTRIA": "3 : F LON - ENG"}, {"AUSTRIA": 5}, position=no_austria)
    assert issued(result, "LON") == "F LON - ENG" and result.statements["AUSTRIA"].new_balance == 2


def test_rule_5_7_statement_holds_own_units_accepted_offers_spent_and_balance() -> None:
    result = determine({"ENGLAND": "8 : F LON - NTH\n2 : F BRE - ENG\n1 : F BRE - PIC"},
                       {"ENGLAND": 48}, accept={"FRANCE": "F?"})
    statement = result.statements["ENGLAND"]
    assert [(str(d.unit), str(d.order), d.total) for d in statement.units] == [
        ("F EDI", "F EDI H", 0), ("F LON", "F LON - NTH", 8), ("A LVP", "A LVP H", 0)]
    assert [(str(a.unit), str(a.order), a.paid) for a in statement.accepted] == [
        ("F LON", "F LON - NTH", 8), ("F BRE", "F BRE - ENG", 2)]
    assert (statement.spent, statement.new_balance) == (10, 38)


def test_rule_6_4_ebayola_winner_pays_one_more_than_the_runner_up() -> None:
    # ENG: France 5 + Germany 3 = 8; NTH: Russia 3.  Price 4: a saving of 4 goes back in
    # England's list order G, F: Germany gets its 3 back, France 1 -> France pays 4, Germany 0.
    sheets = {"FRANCE": "5 : F LON - ENG", "GERMANY": "3 : F LON - ENG", "RUSSIA": "3 : F LON - NTH"}
    balances = {"FRANCE": 9, "GERMANY": 9, "RUSSIA": 9}
    result = determine(sheets, balances, accept={"ENGLAND": "GF?"}, options=parse_options(["EBAYOLA"]))
    assert issued(result, "LON") == "F LON - ENG"
    assert dict(result.units["LON"].paid) == {"FRANCE": 4}
    assert result.statements["GERMANY"].spent == 0


def test_ruling_9_ebayola_tie_saves_nothing_and_lone_order_costs_one() -> None:
    options = parse_options(["EBAYOLA"])
    tie = determine({"FRANCE": "5 : F LON - ENG", "GERMANY": "5 : F LON - NTH"}, {"FRANCE": 9, "GERMANY": 9},
                    accept={"ENGLAND": "FG?"}, options=options)
    assert dict(tie.units["LON"].paid) == {"FRANCE": 5}
    lone = determine({"FRANCE": "7 : A PAR - BUR"}, {"FRANCE": 9}, options=options)
    assert dict(lone.units["PAR"].paid) == {"FRANCE": 1}


def test_ruling_7_same_seed_same_expansion_of_the_question_mark() -> None:
    sheets = {"FRANCE": "5 : F LON - ENG", "GERMANY": "5 : F LON - NTH", "ITALY": "5 : F LON - YOR"}
    balances = dict.fromkeys(sheets, 9)
    first = determine(sheets, balances, accept={"ENGLAND": "?"}, seed=11)
    again = determine(sheets, balances, accept={"ENGLAND": "?"}, seed=11)
    assert first.acceptance == again.acceptance and issued(first, "LON") == issued(again, "LON")
    seen = {issued(determine(sheets, balances, accept={"ENGLAND": "?"}, seed=s), "LON") for s in range(30)}
    assert len(seen) > 1, "the ? must really be shuffled"


def test_rule_6_5_rule_4_4_known_world_901_the_neutral_states_armies_take_bribes_as_a_dummys() -> None:
    # Known World 901: the Neutral State's army in Azerbaijan borders Arabia's Ardebil and
    # Khazaria's lands.  Arabia and Khazaria each offer 5 for a move away: a tie on a dummy's
    # unit, so it holds (reported at 6) and nobody pays; at 6 against 5 Arabia's move is issued
    # and Arabia pays its 6.
    from judge.engine.map import load_map
    from judge.engine.position import Position

    start = Position.initial(load_map("known_world_901"))
    neutral = frozenset({"NEUTRAL_STATE"})
    balances = {"ARABIA": 210, "KHAZARIA": 210}
    tie = determine({"ARABIA": "5 : A AZE - KAK", "KHAZARIA": "5 : A AZE - DER"}, balances, dummies=neutral,
                    position=start)
    assert issued(tie, "AZE") == "A AZE H" and tie.units["AZE"].total == 6 and tie.units["AZE"].dummy_tie
    assert tie.statements["ARABIA"].spent == 0 == tie.statements["KHAZARIA"].spent
    won = determine({"ARABIA": "6 : A AZE - KAK", "KHAZARIA": "5 : A AZE - DER"}, balances, dummies=neutral,
                    position=start)
    assert issued(won, "AZE") == "A AZE - KAK" and won.statements["ARABIA"].new_balance == 204
    assert won.statements["KHAZARIA"].new_balance == 210
