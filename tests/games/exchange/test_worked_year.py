"""The year of play worked out to the last AgP in section 3 of the Exchange rulings, run through the
core: Winter 1900 Exchange phase, Spring and Fall 1901, Winter 1901 adjustments and income, the
Winter 1901 Exchange phase.  Every figure asserted is the document's (3.2-3.8), checked by hand
against the rulings, never read off the code.

Set-up (3.1): standard map, V = 18, 10 shares per corporation; ANN, BOB and CAT with 60 AgP
each, in the investor order ANN, BOB, CAT.  Only France and Germany attract money; the five
other corporations stay leaderless, their units hold.
"""

from __future__ import annotations

from judge.games.exchange.core.phases import phase_name
from judge.games.exchange.core.record import Reason
from judge.games.exchange.core.views import annual_report, exchange_statement
from tests.games.exchange.game import F, G, money
from tests.games.exchange.worked_year import (
    LEADERLESS,
    fall_1901,
    spring_1901,
    winter_1900,
    winter_1901,
    winter_1901_income,
)


def test_worked_year_3_2_priority_buys_the_order_and_the_money_is_destroyed() -> None:
    state, record = winter_1900()
    assert record.phase == "W1900X"
    assert record.order == ("CAT", "BOB", "ANN")
    assert state.order == ("CAT", "BOB", "ANN")
    assert record.destroyed == 5  # BOB's 2 and CAT's 3


def test_worked_year_3_2_the_initial_offering_fills_bids_by_price_then_investor_order() -> None:
    _, record = winter_1900()
    assert [(f.buyer, f.corporation, f.shares, f.price, f.seller) for f in record.fills] == [
        ("CAT", F, 3, 6, None),
        ("BOB", F, 5, 5, None),  # BOB is before ANN now
        ("ANN", F, 2, 5, None),  # the pool is empty
        ("CAT", G, 4, 4, None),  # CAT is before BOB
        ("BOB", G, 5, 4, None),
        ("ANN", G, 1, 3, None),
    ]


def test_worked_year_3_2_holdings_treasuries_balances_and_the_money_check() -> None:
    state, _ = winter_1900()
    assert dict(state.register.holdings[F]) == {"BOB": 5, "CAT": 3, "ANN": 2}
    assert dict(state.register.holdings[G]) == {"BOB": 5, "CAT": 4, "ANN": 1}
    assert state.register.pool(F) == state.register.pool(G) == 0
    assert (state.treasuries[F], state.treasuries[G]) == (53, 39)
    assert dict(state.purses) == {"ANN": 47, "BOB": 13, "CAT": 23}
    assert 47 + 13 + 23 + 53 + 39 + state.destroyed == 180 == money(state)
    for corporation in LEADERLESS:  # floated at 1 AgP, and nobody bid
        assert state.register.pool(corporation) == 10 and state.treasuries[corporation] == 0


def test_worked_year_3_2_reports_and_the_first_election() -> None:
    state, record = winter_1900()
    france = annual_report(record, F, "ANN")
    germany = annual_report(record, G, "CAT")
    assert (france.treasury, france.stockholders) == (53, ("ANN", "BOB", "CAT"))
    assert (germany.treasury, germany.stockholders) == (39, ("ANN", "BOB", "CAT"))
    elections = {e.corporation: e for e in record.elections}
    assert elections[F].tally == (("BOB", 5), ("CAT", 3), ("ANN", 2))
    assert elections[F].winner == "BOB" and elections[F].reason is Reason.PLURALITY
    # BOB 5; CAT 4 + ANN's 1 = 5: a tie, no former president, and CAT comes before BOB now.
    assert dict(elections[G].tally) == {"BOB": 5, "CAT": 5}
    assert elections[G].winner == "CAT" and elections[G].reason is Reason.INVESTOR_ORDER
    assert dict(state.ceos) == {F: "BOB", G: "CAT"}
    assert phase_name(state) == "S1901M"


def test_worked_year_3_3_spring_worths_and_bribes() -> None:
    state, record = spring_1901()
    assert dict(record.worths[F]) == {"PAR": 24, "MAR": 14, "BRE": 10}  # 48 = I(3)
    assert dict(record.worths[G]) == {"BER": 16, "KIE": 16, "MUN": 16}  # CAT sent none: the defaults
    assert str(record.determination.units["MUN"].order) == "A MUN - BUR"  # BUR 3 against RUH 2
    assert record.determination.statements[G].spent == 3
    assert record.determination.statements["ANN"].spent == 0
    assert {str(p.unit) for p in state.position.units.values() if p.power in (F, G)} == {
        "A PIC", "A SPA", "F MAO", "F HOL", "A KIE", "A BUR"}
    assert (state.treasuries[F], state.treasuries[G]) == (53, 36)
    assert dict(state.purses) == {"ANN": 47, "BOB": 13, "CAT": 23}


def test_worked_year_3_4_fall_corporate_money_holds_a_french_unit_and_germany_takes_marseilles() -> None:
    state, record = fall_1901()
    units = record.determination.units
    assert str(units["SPA"].order) == "A SPA H"  # HOLD 0 + 5 against SPA - MAR 4
    assert dict(units["SPA"].paid) == {G: 5}
    assert str(units["BUR"].order) == "A BUR - MAR"
    assert record.determination.statements[G].spent == 10
    assert record.determination.statements["ANN"].spent == 0
    assert state.position.centers_of(F) == ["BEL", "BRE", "PAR", "POR", "SPA"]
    assert state.position.centers_of(G) == ["BER", "DEN", "HOL", "KIE", "MAR", "MUN"]
    assert (state.treasuries[F], state.treasuries[G]) == (53, 26)
    assert phase_name(state) == "W1901A"


def test_worked_year_3_5_and_3_6_builds_then_income_with_a_captured_worth() -> None:
    state, record = winter_1901_income()
    assert {str(p.unit) for p in state.position.units.values() if p.power == F} == {
        "A BEL", "A SPA", "F POR", "A PAR", "F BRE"}
    assert {str(p.unit) for p in state.position.units.values() if p.power == G} == {
        "A MAR", "F HOL", "A DEN", "A BER", "F KIE", "A MUN"}
    incomes = {i.corporation: i for i in record.incomes}
    # France: BRE 10 + PAR 24 priced (m = 2), then SPA, BEL, POR unpriced at 15 + 14 + 13.
    assert incomes[F].total == 76
    assert sum(c.amount for c in incomes[F].centers if c.priced) == 34
    assert sorted(c.amount for c in incomes[F].centers if not c.priced) == [13, 14, 15]
    # Germany: BER, KIE, MUN 16 each and MAR 14 (France's worth) priced (m = 4), HOL and DEN at 13 + 12.
    assert incomes[G].total == 87
    assert {c.center: c.amount for c in incomes[G].centers if c.priced} == {"BER": 16, "KIE": 16, "MUN": 16,
                                                                             "MAR": 14}
    assert sorted(c.amount for c in incomes[G].centers if not c.priced) == [12, 13]
    assert (state.treasuries[F], state.treasuries[G]) == (129, 113)
    assert phase_name(state) == "W1901X"


def test_worked_year_3_7_dividends_deal_issue_auction() -> None:
    state, record = winter_1901()
    dividends = {d.corporation: d for d in record.dividends}
    assert dict(dividends[F].payouts) == {"BOB": 25, "CAT": 15, "ANN": 10}
    assert dict(dividends[G].payouts) == {"BOB": 15, "CAT": 12, "ANN": 3}
    assert record.order == ("CAT", "BOB", "ANN")
    # Each purse step by step: after the dividends ANN 60, BOB 53, CAT 50; the deal makes ANN 69,
    # BOB 44; the auction BOB 35 (pays 9), CAT 59 (receives 9), ANN 53 (pays 16).
    running = {}
    for investor in ("ANN", "BOB", "CAT"):
        statement = exchange_statement(state, record, investor)
        balances = [statement.before]
        for change in statement.changes:
            balances.append(balances[-1] + change.amount)
        running[investor] = balances
    assert running == {"ANN": [47, 57, 60, 69, 53], "BOB": [13, 38, 53, 44, 35], "CAT": [23, 38, 50, 59]}
    issue = record.issues[0]
    assert (issue.corporation, issue.shares, issue.price, issue.approving, issue.outstanding, issue.passed) == (
        G, 2, 8, 10, 10, True)  # CAT's 4 (his ISSUE) and BOB's 6, after the deal
    assert [(f.buyer, f.corporation, f.shares, f.price, f.seller) for f in record.fills] == [
        ("BOB", F, 1, 9, "CAT"),  # pays his bid, 9, for CAT's ask at 7
        ("ANN", G, 2, 8, None),
    ]
    france = annual_report(record, F, "BOB")
    germany = annual_report(record, G, "ANN")
    assert (france.treasury, france.stockholders, france.dividend) == (79, ("ANN", "BOB", "CAT"), 5)
    assert (germany.treasury, germany.stockholders, germany.dividend) == (99, ("ANN", "BOB", "CAT"), 3)
    elections = {e.corporation: e for e in record.elections}
    assert dict(elections[F].tally) == {"BOB": 6, "ANN": 4}
    assert elections[F].winner == "BOB"
    assert dict(elections[G].tally) == {"BOB": 6, "CAT": 6}
    assert elections[G].winner == "CAT" and elections[G].reason is Reason.OUTGOING_CEO


def test_worked_year_3_8_state_at_the_end_of_the_year() -> None:
    state, _ = winter_1901()
    assert dict(state.purses) == {"ANN": 53, "BOB": 35, "CAT": 59}
    assert (state.treasuries[F], state.treasuries[G]) == (79, 99)
    register = state.register
    assert (register.issued[F], register.pool(F)) == (10, 0)
    assert dict(register.holdings[F]) == {"ANN": 2, "BOB": 6, "CAT": 2}
    assert (register.issued[G], register.pool(G)) == (12, 0)
    assert dict(register.holdings[G]) == {"ANN": 2, "BOB": 6, "CAT": 4}
    assert dict(state.ceos) == {F: "BOB", G: "CAT"}
    assert state.order == ("CAT", "BOB", "ANN")
    # 180 - 5 (priority) - 13 (Germany's bribes) + 163 (income) = 325
    assert 180 - 5 - 13 + 163 == 325 == 53 + 35 + 59 + 79 + 99
    # The five leaderless corporations banked their default income: 48, or 62 for Russia.
    assert {c: state.treasuries[c] for c in LEADERLESS} == {
        "AUSTRIA": 48, "ENGLAND": 48, "ITALY": 48, "RUSSIA": 62, "TURKEY": 48}
    assert state.destroyed == 5 + 13
    assert state.minted == 180 + 163 + 4 * 48 + 62 == money(state)
    assert phase_name(state) == "S1902M"
