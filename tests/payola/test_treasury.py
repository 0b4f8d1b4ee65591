"""Rule 2 and the money variants of rule 6: income, transfers, forfeits, Zero Sum."""

from __future__ import annotations

import pytest

from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.options import OptionError, Options, parse_options
from judge.payola.treasury import (
    TreasuryError,
    annual_income,
    forfeit,
    income_due,
    may_transfer,
    pay_income,
    transfer,
    void_funds,
    void_start,
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
    assert void_funds(1, 18) == 9  # ruling 13: 17 / 2 rounded up, as DPjudge gives


def _start_balances(board: str, options: Options | None = None) -> dict[str, int]:
    """What each power has before the first movement phase of a board: the first spring's
    income, or (a board that begins in fall with no owned centers) its initial funds."""
    start = Position.initial(load_map(board))
    counts = {p: len(start.centers_of(p)) for p in start.game_map.powers}
    balances, _ = pay_income({}, counts, start.game_map.victory_centers, options)
    balances, _ = void_start(balances, start, options)
    return balances


def test_rule_6_2_ruling_13_starting_balances_on_the_variant_boards() -> None:
    # Modern (victory 33): 32 + 31 + 30 = 93 for three centers, + 29 = 122 for four, + 28 = 150 for five.
    modern = _start_balances("modern")
    assert {modern[p] for p in ("EGYPT", "POLAND", "SPAIN")} == {93}
    assert {modern[p] for p in ("BRITAIN", "FRANCE", "GERMANY", "ITALY", "TURKEY", "UKRAINE")} == {122}
    assert modern["RUSSIA"] == 150
    # Loeb9 (victory 20): 19 + 18 + 17 = 54 for three centers, + 16 = 70 for Russia's four.
    loeb9 = _start_balances("loeb9")
    assert loeb9["RUSSIA"] == 70 and set(loeb9.values()) == {54, 70}
    # Ancient Mediterranean (victory 18): 17 + 16 + 15 = 48 for each power's three centers.
    assert set(_start_balances("ancmed").values()) == {48}


def test_rule_6_2_ruling_13_starting_balances_on_the_big_boards() -> None:
    # Youngstown (victory 37): 36 + 35 + 34 = 105 for three centers (China, India, Japan), + 33 = 138
    # for four (Austria, England, France, Germany, Italy and Turkey, colonies counted), + 32 + 31 =
    # 201 for Russia's six.
    youngstown = _start_balances("youngstown")
    assert {p for p, b in youngstown.items() if b == 105} == {"CHINA", "INDIA", "JAPAN"}
    four = {"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "TURKEY"}
    assert {p for p, b in youngstown.items() if b == 138} == four
    assert youngstown["RUSSIA"] == 201
    # Empire (victory 30): 29 + 28 + 27 = 84 for each power's three centers.
    empire = _start_balances("empire")
    assert len(empire) == 10 and set(empire.values()) == {84}
    # World (victory 44, more than half of 86): 43 + 42 + 41 = 126 for each of the 17 powers.
    world = _start_balances("world")
    assert len(world) == 17 and set(world.values()) == {126}
    # Known World 901 (victory 55, more than half of 109): 54 + 53 + 52 + 51 = 210 for four centers;
    # the Neutral State's 49 centers pay 54 down to 6, (54 + 6) * 49 / 2 = 1470 (a dummy: never spent).
    known = _start_balances("known_world_901")
    assert known.pop("NEUTRAL_STATE") == 1470
    assert len(known) == 15 and set(known.values()) == {210}
    assert set(_start_balances("known_world_901", parse_options(["CLASSIC"])).values()) == {28, 7 * 49}


def test_rule_6_2_ruling_13_void_initial_funds() -> None:
    # Void: one unit, no center, victory 18: half of 17, rounded up.
    void = _start_balances("void")
    assert len(void) == 36 and set(void.values()) == {9}
    assert set(_start_balances("void", parse_options(["CLASSIC"])).values()) == {4}  # 7 / 2 rounded up
    assert set(_start_balances("void", parse_options(["ZEROSUM"])).values()) == {5}  # 10 / 2 (6.7.1)


def test_rule_6_2_ruling_13_income_follows_the_board_and_never_goes_below_zero() -> None:
    assert [annual_income(n, 33) for n in (1, 2, 33, 34, 40)] == [32, 63, 528, 528, 528]
    assert annual_income(5, 33, parse_options(["INCOME=FIXED:7"])) == 35  # 6.6 on any board
    assert annual_income(3, 20, parse_options(["INCOME_CAP=50"])) == 50


def test_rule_6_2_void_an_eliminated_power_may_not_transfer() -> None:
    # DPjudge's void.map sets the Payola rule NO_DONATIONS: "the powers that have been
    # eliminated may not transfer funds" (DPjudge/pages/Rules).
    void = load_map("void")
    pos = Position.initial(void).evolve(units={}, centers={"TRI": "ALBANIA"})
    assert may_transfer(pos, "ALBANIA") and not may_transfer(pos, "APULIA")
    with pytest.raises(TreasuryError, match="eliminated"):
        transfer({"APULIA": 9, "ALBANIA": 0}, "APULIA", "ALBANIA", 5, may_transfer(pos, "APULIA"))
    standard = Position.initial(load_map("standard")).evolve(units={}, centers={})
    assert may_transfer(standard, "ITALY")  # rule 2.3: elsewhere an eliminated power may


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
