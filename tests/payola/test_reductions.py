"""Rule 5.5: the judge's event-driven reductions give exactly what the rounds give.

The hypothesis tests draw whole phases (every offer type, ``|`` alternatives, repetitions,
``+`` terms, plateaus, savings, balances of 0, acceptance lists, dummies, eBayola, several
powers over at once) and compare :func:`determine_orders` with the literal round-by-round
reference of :mod:`tests.payola.reference_rounds`: same orders, totals, payments,
statements and number of rounds.  Offers crowd onto a few units of small boards, so that
totals cross and tie often.  The rule-named tests work out jumps by hand.
"""

from __future__ import annotations

import gc
import json

from hypothesis import HealthCheck, given, settings

from judge.payola.determination import Determination, determine_orders
from judge.payola.notation import determination_to_data
from judge.payola.options import Options
from tests.payola.game import LETTERS, determine, issued
from tests.payola.phases import BOARDS, Phase, phases
from tests.payola.reference_rounds import determine_by_rounds
from tests.strength import examples


def _as_reported(result: Determination, options: Options) -> str:
    """What the judge reports, key order included (JSON keeps it)."""
    return json.dumps(determination_to_data(result, options, {}, LETTERS))


def _same_as_rounds(phase: Phase) -> None:
    board, powers, options, seed = phase
    events = determine_orders(board, powers, options, seed)
    rounds = determine_by_rounds(board, powers, options, seed)
    assert _as_reported(events, options) == _as_reported(rounds, options)
    assert events == rounds  # the rest: each accepted offer's line numbers


def _settings(count: int) -> settings:
    return settings(max_examples=examples(count), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_settings(1000)
@given(phases())
def test_rule_5_5_events_equal_reference_rounds(phase: Phase) -> None:
    _same_as_rounds(phase)


@_settings(500)
@given(phases(ebayola=True))
def test_rule_6_4_ebayola_events_equal_reference_rounds(phase: Phase) -> None:
    _same_as_rounds(phase)


@_settings(400)
@given(phases(top=60))
def test_rule_5_5_long_jumps_equal_reference_rounds(phase: Phase) -> None:
    # Amounts up to 60 (plus repetitions and + terms): runs of rounds with nothing to decide.
    _same_as_rounds(phase)


@_settings(300)
@given(phases(ebayola=False, top=150, boards=BOARDS[:2]))
def test_rule_5_5_powers_outbidding_each_other_equal_reference_rounds(phase: Phase) -> None:
    # Big amounts on one or two units: powers take turns being over, round after round, and
    # the judge jumps over repeated cycles of such rounds.
    _same_as_rounds(phase)


@_settings(400)
@given(phases(ebayola=True, top=150, boards=BOARDS[:2]))
def test_rule_6_4_ebayola_powers_outbidding_each_other_equal_reference_rounds(phase: Phase) -> None:
    _same_as_rounds(phase)


def test_rule_5_5_two_powers_outbidding_each_other_round_after_round() -> None:
    # France (10 AgP) offers 100 amounts of 1,000,000 for its A PAR - BUR, Germany (5 AgP)
    # 100 of 999,999 for A PAR - PIC; France's list (default "F?") puts France first.
    # Round 1 (France over): BUR 99,999,900 ties PIC, France wins the tie and is still over.
    # Round 2: BUR 99,999,800 < PIC, so Germany pays and is over; round 3 (Germany): tie
    # again, BUR, France over; and so on, France in even rounds, Germany in odd ones.  After
    # round 2j + 1 France has j + 1 reductions and Germany j, both totals 100 * (999,999 - j);
    # France stops being over when that is 0: j = 999,999, round 1,999,999.
    result = determine({"FRANCE": "100*1000000 : A PAR - BUR", "GERMANY": "100*999999 : A PAR - PIC"},
                       {"FRANCE": 10, "GERMANY": 5})
    assert result.rounds == 1_999_999
    assert result.statements["FRANCE"].reductions == 1_000_000
    assert result.statements["GERMANY"].reductions == 999_999
    assert issued(result, "PAR") == "A PAR - BUR" and result.units["PAR"].total == 0
    assert result.statements["FRANCE"].spent == 0 and result.statements["GERMANY"].spent == 0


def test_rule_6_4_ebayola_two_powers_outbidding_each_other() -> None:
    # The same duel under eBayola.  In a tie France pays the tied total (nothing saved); when
    # PIC wins Germany pays one more than BUR.  After round 2j + 1 the tie is at
    # 100 * (999,999 - j): France is over while that exceeds 10, up to j = 999,998.  After
    # round 2j + 2, BUR is 100 * (999,998 - j) and Germany pays that plus one: over while
    # j <= 999,997.  So round 1,999,998 (France's, j = 999,998) leaves BUR at 0 and PIC at
    # 100, and Germany pays 1 (99 comes back to it): nobody is over.
    result = determine({"FRANCE": "100*1000000 : A PAR - BUR", "GERMANY": "100*999999 : A PAR - PIC"},
                       {"FRANCE": 10, "GERMANY": 5}, options=Options(ebayola=True))
    assert result.rounds == 1_999_998
    assert result.statements["FRANCE"].reductions == 1_000_000
    assert result.statements["GERMANY"].reductions == 999_998
    assert issued(result, "PAR") == "A PAR - PIC" and dict(result.units["PAR"].paid) == {"GERMANY": 1}


def test_rule_5_5_a_million_rounds_are_counted_not_run() -> None:
    # France has 10 and offers 100 amounts of 1,000,000 to its own army.  Each round takes one
    # from each: 100 * (1,000,000 - r) <= 10 first when r = 1,000,000, every amount at zero.
    # BUR is the only candidate (France offered to its own unit: no default HOLD), so the
    # army still moves, for nothing.
    result = determine({"FRANCE": "100*1000000 : A PAR - BUR"}, {"FRANCE": 10})
    assert result.rounds == 1_000_000 and result.statements["FRANCE"].reductions == 1_000_000
    assert issued(result, "PAR") == "A PAR - BUR" and result.units["PAR"].total == 0
    assert result.statements["FRANCE"].spent == 0


def test_rule_5_5_plateau_holds_until_every_amount_is_there_then_all_go_down() -> None:
    # France has 10 and offers "1000#990 + 20": amounts 1000 (plateau 990) and 20 (plateau 0).
    # The 1000 reaches 990 in round 10 and waits there while the 20 is above its plateau,
    # which it is until round 20 (990 + 0 = 990 > 10).  Then every non-zero amount goes down:
    # 990 - (r - 20) <= 10 first at r = 1000.  France pays 10, all it has.
    result = determine({"FRANCE": "1000#990 + 20 : A PAR - BUR"}, {"FRANCE": 10})
    assert result.rounds == 1000
    assert result.statements["FRANCE"].spent == 10 and result.statements["FRANCE"].new_balance == 0


def test_rule_5_5_a_crossing_in_the_middle_of_a_jump() -> None:
    # Germany (balance 0) offers 900 for F LON - NTH; France (balance 1000, not over) 500 for
    # F LON - ENG.  Germany is over and loses one a round: NTH 900 - r.  At r = 400 NTH ties
    # ENG at 500 and England's list (France first) gives ENG: Germany then pays nothing and
    # stops, 400 rounds in; France pays 500.
    result = determine({"GERMANY": "900 : F LON - NTH", "FRANCE": "500 : F LON - ENG"},
                       {"GERMANY": 0, "FRANCE": 1000}, accept={"ENGLAND": "FGE?"})
    assert result.rounds == 400 and issued(result, "LON") == "F LON - ENG"
    assert result.statements["GERMANY"].spent == 0 and result.statements["FRANCE"].spent == 500
    # With Germany first in England's list the tie goes to NTH: one more round, NTH 499 < 500.
    result = determine({"GERMANY": "900 : F LON - NTH", "FRANCE": "500 : F LON - ENG"},
                       {"GERMANY": 0, "FRANCE": 1000}, accept={"ENGLAND": "GFE?"})
    assert result.rounds == 401 and issued(result, "LON") == "F LON - ENG"


def test_rule_6_4_ebayola_refund_split_moves_during_a_jump() -> None:
    # eBayola.  On F LON: France 300 and Germany 300 for NTH, Russia 100 for ENG.  NTH wins
    # 600 to 100 and costs 101: a saving of 499 goes back in England's list order.
    sheets = {"FRANCE": "300 : F LON - NTH", "GERMANY": "300 : F LON - NTH", "RUSSIA": "100 : F LON - ENG"}
    balances = {"FRANCE": 1000, "GERMANY": 0, "RUSSIA": 1000}
    ebayola = Options(ebayola=True)
    # Germany first: it gets its 300 back and France 199, so France pays 101; Germany has 0
    # but pays nothing, nobody is over.
    result = determine(sheets, balances, accept={"ENGLAND": "GF?"}, options=ebayola)
    assert result.rounds == 0 and dict(result.units["LON"].paid) == {"FRANCE": 101}
    # France first: France gets its 300 back, Germany 199 and pays 101 with 0, so Germany is
    # over.  After r rounds Germany's part is 300 - r and the saving 499 - r.  Up to r = 199
    # France still gets all back and Germany pays 300 - r - (199 - r) = 101; from then on the
    # saving no longer covers France, Germany gets nothing back and pays 300 - r, until
    # r = 300.  Then NTH (France's 300) costs 101, paid by France.
    result = determine(sheets, balances, accept={"ENGLAND": "FG?"}, options=ebayola)
    assert result.rounds == 300 and issued(result, "LON") == "F LON - NTH"
    assert dict(result.units["LON"].paid) == {"FRANCE": 101}
    assert result.statements["GERMANY"].spent == 0 and result.statements["GERMANY"].reductions == 300


def test_a_determination_leaves_nothing_for_the_garbage_collector() -> None:
    # Everything a phase builds is freed by reference counting as soon as the determination
    # returns.  A reference cycle (a power's money once pointed back at its unit) keeps it all
    # until the collector's full passes, which then cost a worst-case phase tens of
    # milliseconds each: nothing may be left for the collector to find.  Every offer type,
    # repetitions, plateaus, savings and reductions, plain and under eBayola.
    sheets = {
        "FRANCE": "3*5#2 + 4 : F BRE - MAO | - ENG\n6 ! A PAR - BUR\n2 $",
        "GERMANY": "7 > A MUN - BUR\n5 @ F KIE H\n4 & A BER - KIE",
        "ENGLAND": "5 : F BRE - ENG\n9#3 : F LON - NTH",
    }
    balances = {"FRANCE": 6, "GERMANY": 8, "ENGLAND": 5}
    for options in (Options(), Options(ebayola=True)):
        gc.collect()
        gc.disable()
        try:
            result = determine(sheets, balances, options=options)
            assert result.rounds > 0
            del result
            assert gc.collect() == 0
        finally:
            gc.enable()
