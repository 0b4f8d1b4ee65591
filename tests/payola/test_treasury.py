"""Rule 2 and the money variants of rule 6: income, transfers, forfeits, Zero Sum."""

from __future__ import annotations

import pytest

from judge.payola.options import OptionError, parse_options
from judge.payola.treasury import (
    TreasuryError,
    annual_income,
    forfeit,
    income_due,
    pay_income,
    transfer,
    void_funds,
    zerosum_start,
    zerosum_year_end,
)

RULE_2_1_TABLE = [17, 33, 48, 62, 75, 87, 98, 108, 117, 125, 132, 138, 143, 147, 150, 152, 153]


def test_rule_2_1_income_table() -> None:
    assert [annual_income(n, 18) for n in range(1, 18)] == RULE_2_1_TABLE
    assert annual_income(0, 18) == 0


def test_rule_2_1_starting_balances() -> None:
    balances, entries = pay_income({}, {"GERMANY": 3, "RUSSIA": 4}, 18)
    assert balances == {"GERMANY": 48, "RUSSIA": 62}
    assert sum(e.amount for e in entries) == 110


def test_rule_6_2_other_maps_count_from_their_victory_condition() -> None:
    # Victory at 10: the first center pays 9, the second 8.
    assert annual_income(1, 10) == 9 and annual_income(2, 10) == 17
    assert annual_income(12, 10) == sum(range(10)), "income never goes below zero per center"


def test_rule_6_2_void_powers_get_half_of_what_their_units_would_earn() -> None:
    assert void_funds(3, 18) == 48 // 2
    assert void_funds(1, 18) == 8  # 17 / 2 rounded down


def test_rule_6_6_alternate_income_schemes() -> None:
    assert annual_income(5, 18, parse_options(["INCOME=FIXED:7"])) == 35
    assert annual_income(5, 18, parse_options(["CLASSIC"])) == 35  # 6.1: 7 AgP per center
    assert annual_income(4, 18, parse_options(["INCOME=INCREASING:1"])) == 1 + 2 + 3 + 4
    assert annual_income(3, 18, parse_options(["INCOME=DECREASING:10"])) == 10 + 9 + 8
    assert annual_income(17, 18, parse_options(["INCOME_CAP=100"])) == 100
    twice = parse_options(["INCOME_TWICE"])
    assert income_due("S", twice) and income_due("F", twice) and not income_due("F", parse_options([]))
    assert not income_due("S", parse_options(["ZEROSUM"]))
    with pytest.raises(OptionError, match="unknown option 'PAYOLA_PLUS'"):
        parse_options(["PAYOLA_PLUS"])
    with pytest.raises(OptionError, match="INCOME=FIXED needs an amount"):
        parse_options(["INCOME=FIXED"])


def test_rule_2_3_transfers_move_money_and_refuse_overdrafts() -> None:
    balances = {"FRANCE": 10, "AUSTRIA": 0}
    after, entries = transfer(balances, "FRANCE", "AUSTRIA", 7)  # Austria may be eliminated
    assert after == {"FRANCE": 3, "AUSTRIA": 7}
    assert sum(e.amount for e in entries) == 0
    with pytest.raises(TreasuryError, match="the balance \\(3 AgP\\) is smaller than 4 AgP"):
        transfer(after, "FRANCE", "AUSTRIA", 4)
    with pytest.raises(TreasuryError, match="at least one silver piece"):
        transfer(after, "FRANCE", "AUSTRIA", 0)


def test_rule_2_4_resignation_of_an_eliminated_power_forfeits_its_money() -> None:
    after, entries = forfeit({"AUSTRIA": 12, "FRANCE": 3}, "AUSTRIA")
    assert after == {"AUSTRIA": 0, "FRANCE": 3} and entries[0].amount == -12


def test_rule_6_7_zero_sum() -> None:
    assert zerosum_start({"RUSSIA": 4, "FRANCE": 3}) == {"RUSSIA": 40, "FRANCE": 30}
    # Over the year 6 AgP was paid to French units; Germany took Belgium (neutral, first
    # capture: +10) and Paris from France, which had 3 centers at the start of the year:
    # Germany receives France's treasury (30 + 6 = 36) divided by 3 = 12, from France.
    start = {"PAR": "FRANCE", "BRE": "FRANCE", "MAR": "FRANCE", "BER": "GERMANY"}
    now = {"PAR": "GERMANY", "BRE": "FRANCE", "MAR": "FRANCE", "BER": "GERMANY", "BEL": "GERMANY"}
    after, entries = zerosum_year_end({"FRANCE": 30, "GERMANY": 10}, {"FRANCE": 6}, start, now, frozenset())
    assert after == {"FRANCE": 30 + 6 - 12, "GERMANY": 10 + 10 + 12}
    assert sum(e.amount for e in entries) == 6 + 10  # only the deposit and the bonus are new money here


def test_ruling_12_zero_sum_capture_money_for_two_centers_lost_in_one_year() -> None:
    # France owned PAR, BRE, MAR and SPA at the start of the year (4 centers) and has 50 AgP;
    # 10 AgP was paid to French units this year, so its treasury after the deposit is 60.
    # It loses MAR to Italy and BRE to England: each capture moves 60 // 4 = 15 AgP, the same
    # for both whatever order the centers are named in (not 60 // 4 = 15, then 45 // 4 = 11).
    start = {"PAR": "FRANCE", "BRE": "FRANCE", "MAR": "FRANCE", "SPA": "FRANCE", "LON": "ENGLAND", "ROM": "ITALY"}
    now = {**start, "MAR": "ITALY", "BRE": "ENGLAND"}
    after, entries = zerosum_year_end({"FRANCE": 50, "ENGLAND": 5, "ITALY": 7}, {"FRANCE": 10}, start, now,
                                      frozenset(start))
    assert after == {"FRANCE": 60 - 15 - 15, "ENGLAND": 5 + 15, "ITALY": 7 + 15}
    assert sorted((e.power, e.amount) for e in entries if e.amount == 15) == [("ENGLAND", 15), ("ITALY", 15)]
