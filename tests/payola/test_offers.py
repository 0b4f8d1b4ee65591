"""Rule 3: the offer sheet format, validation, savings and comments."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from judge import core_build
from judge.engine.legal import checker
from judge.engine.map import load_map
from judge.engine.position import Position
from judge.payola.offers import OfferKind, Term, parse_sheet
from judge.payola.options import parse_options
from tests.payola.game import START


def sheet_of(text: str, power: str = "ENGLAND", options: str = ""):  # type: ignore[no-untyped-def]
    return parse_sheet(text, START, power, parse_options(options.split()))


def test_rule_3_1_full_offer_with_and_without_spaces_is_the_same() -> None:
    # A LON needs to exist: put England's army there by using F LON's neighbour... use the start
    # position's A LVP instead, which can move to YOR and support F EDI - YOR.
    spaced, errors = sheet_of("4*5#2 + 5*10#3 + 6#1 > A LVP - YOR | S F EDI - YOR")
    tight, errors2 = sheet_of("4*5#2+5*10#3+6#1>A LVP-YOR|S F EDI-YOR")
    assert not errors and not errors2
    offer = spaced.offers[0]
    assert offer.kind is OfferKind.MOVE
    assert offer.terms == (Term(5, 2),) * 4 + (Term(10, 3),) * 5 + (Term(6, 1),)
    assert offer.amount == 4 * 5 + 5 * 10 + 6
    assert [str(o) for o in offer.orders] == ["A LVP - YOR", "A LVP S F EDI - YOR"]
    assert tight.offers[0].terms == offer.terms and tight.offers[0].orders == offer.orders


@pytest.mark.parametrize(("symbol", "kind"), [(":", OfferKind.DIRECT), ("!", OfferKind.NEGATIVE),
                                              (">", OfferKind.MOVE), ("@", OfferKind.HOLD), ("&", OfferKind.GIFT)])
def test_rule_3_1_item_5_offer_types(symbol: str, kind: OfferKind) -> None:
    sheet, errors = sheet_of(f"3 {symbol} F LON - NTH")
    assert not errors and sheet.offers[0].kind is kind


def test_rule_3_1_item_3_plateau_without_amount_is_the_full_amount() -> None:
    sheet, _ = sheet_of("5# : F LON - NTH\n5 : F EDI - NTH\n5#2 : A LVP - YOR")
    assert [o.terms for o in sheet.offers] == [(Term(5, 5),), (Term(5, 0),), (Term(5, 2),)]


def test_rule_3_1_item_2_zero_offers_only_to_own_units() -> None:
    sheet, errors = sheet_of("0 : F LON - NTH")
    assert not errors and sheet.offers[0].amount == 0
    _, errors = sheet_of("0 : F BRE - MAO")
    assert [e.error for e in errors] == ["zero offers to foreign units are not allowed"]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("4 : A XYZ - YOR", "unknown province 'XYZ'"),
        ("4 : A LON - YOR", "the unit in LON is a fleet (F LON)"),  # issue 23.15
        ("4 : A NTH H", "there is no unit A NTH on the board"),
        ("4 : F LON - YOR | - PIC", "'F LON - PIC' is not a legal order for F LON: the destination is not adjacent"),
        ("4 : F LON - NTH | - NTH", "the order 'F LON - NTH' appears twice in this offer"),
        ("4x : F LON - NTH", "bad amount '4x'"),
        ("0*4 : F LON - NTH", "a repetition count must be at least 1"),
        ("4#5 : F LON - NTH", "the plateau (5) is above the amount (4)"),
        ("4 : F LON - NTH |", "empty alternative after '|'"),
        ("F LON - NTH", "expected an offer such as '4 : A LON - YOR'"),
        ("4 : BUILD A LON", "is not a movement order"),
        ("4 ; F LON - NTH", "expected an offer"),
    ],
)
def test_rule_3_1_bad_lines_say_what_is_wrong(line: str, error: str) -> None:
    _, errors = sheet_of(line)
    assert len(errors) == 1 and error in errors[0].error
    assert errors[0].text == line and errors[0].line == 1


def test_ruling_8_a_sheet_with_any_bad_line_is_rejected_whole() -> None:
    sheet, errors = sheet_of("4 : F LON - NTH\n% a comment\n5 : F EDI - XXX\n3 $\n2 : A LVP - PIC")
    assert sheet.offers == () and sheet.savings == 0
    assert [(e.line, e.text) for e in errors] == [(3, "5 : F EDI - XXX"), (5, "2 : A LVP - PIC")]


def test_rule_3_4_savings_requests_add_up_and_rule_3_5_comments_are_ignored() -> None:
    sheet, errors = sheet_of("10 $ % rainy day\n% only a comment\n5$\n3 : F LON - NTH % my note")
    assert not errors
    assert sheet.savings == 15
    assert sheet.offers[0].text == "3 : F LON - NTH"


def test_rule_6_1_classic_forbids_the_modern_features() -> None:
    for line, error in [
        ("2*3 : F LON - NTH", "repetition (*) and plateaus (#) are not allowed"),
        ("3#1 : F LON - NTH", "repetition (*) and plateaus (#) are not allowed"),
        ("3+1 : F LON - NTH", "augmentation (+) is not allowed"),
        ("3 ! F LON - NTH", "only direct offers (:) are allowed"),
        ("3 : F LON - NTH | - ENG", "alternatives (|) are not allowed"),
        ("5 $", "savings requests are not allowed"),
    ]:
        _, errors = sheet_of(line, options="CLASSIC")
        assert error in errors[0].error, line
    _, errors = sheet_of("3 : F LON - NTH\n2 : F LON - ENG", options="CLASSIC")
    assert errors[0].error == "Payola Classic allows one offer per unit"
    sheet, errors = sheet_of("0 : F BRE - MAO", options="CLASSIC")  # zero offers to foreign units allowed
    assert not errors and sheet.offers[0].amount == 0


def test_rule_6_5_loyal_units_take_no_bribes_but_dummies_do() -> None:
    options = parse_options(["LOYAL_UNITS"])
    _, errors = parse_sheet("3 : F BRE - MAO", START, "ENGLAND", options, dummies={"GERMANY"})
    assert errors[0].error == "France's units are loyal: only units of dummy powers take bribes"
    sheet, errors = parse_sheet("3 : F KIE - HOL", START, "ENGLAND", options, dummies={"GERMANY"})
    assert not errors and sheet.offers


def test_rule_6_3_blind_offers_to_absent_units_are_ignored_silently() -> None:
    options = parse_options(["BLIND"])
    text = "3 : A LON - YOR\n2 : F EDI S A YOR - NTH\n4 : F LON - NTH"
    sheet, errors = parse_sheet(text, START, "FRANCE", options)
    assert not errors
    assert [o.text for o in sheet.offers] == ["4 : F LON - NTH"]
    assert sheet.ignored == ("3 : A LON - YOR", "2 : F EDI S A YOR - NTH")
    _, errors = parse_sheet("3 : F LON - XYZ", START, "FRANCE", options)
    assert errors, "an unknown province is still a mistake the player may see"


def test_cap_amount_at_most_500_agp() -> None:
    sheet, errors = sheet_of("500 : F LON - NTH")
    assert not errors and sheet.offers[0].terms == (Term(500),)
    for line in ("501 : F LON - NTH", "3 + 501 : F LON - NTH", "9" * 5000 + " : F LON - NTH"):
        _, errors = sheet_of(line)
        assert [e.error for e in errors] == ["an amount (AgP) can be at most 500"], line


def test_cap_repetition_at_most_100() -> None:
    sheet, errors = sheet_of("100*7 : F LON - NTH")
    assert not errors and sheet.offers[0].terms == (Term(7),) * 100
    _, errors = sheet_of("101*7 : F LON - NTH")
    assert [e.error for e in errors] == ["a repetition count can be at most 100"]


def test_cap_plateau_and_plus_terms_within_500_agp() -> None:
    sheet, errors = sheet_of("2*500#500 + 500#5 : F LON - NTH")
    assert not errors and sheet.offers[0].terms == (Term(500, 500),) * 2 + (Term(500, 5),)
    _, errors = sheet_of("5#501 : F LON - NTH")
    assert [e.error for e in errors] == ["a plateau (AgP) can be at most 500"]
    _, errors = sheet_of("5 + 2*501#3 : F LON - NTH")
    assert [e.error for e in errors] == ["an amount (AgP) can be at most 500"]


def test_cap_offers_per_sheet_at_most_300() -> None:
    lines = ["1 : F LON - NTH", "1 : F EDI - NTH", "1 : A LVP - YOR"] * 100
    sheet, errors = sheet_of("\n".join([*lines, "10 $", "% a comment"]))  # neither is an offer
    assert not errors and len(sheet.offers) == 300
    sheet, errors = sheet_of("\n".join([*lines, "2 : F LON - ENG", "3 : F LON - ENG"]))
    assert sheet.offers == ()
    assert [(e.line, e.error) for e in errors] == [(301, "a sheet can hold at most 300 offers")]


def test_cap_amounts_written_per_sheet_at_most_1000() -> None:
    # Each + part counts once, whatever its repetition: nine lines of 100 parts and 50 lines of
    # two parts (100 amounts each) are 1,000.
    lines = [" + ".join(["1#1"] * 100) + " : F LON - NTH"] * 9 + ["50*1 + 50*2#1 : F EDI - NTH"] * 50
    sheet, errors = sheet_of("\n".join(lines))
    assert not errors and len(sheet.offers) == 59
    sheet, errors = sheet_of("\n".join([*lines, "3 : A LVP - YOR", "4 : A LVP - YOR"]))
    assert sheet.offers == () and [(e.line, e.error) for e in errors] == [
        (60, "a sheet can hold at most 1000 amounts as written (each + part counts once: 3*5 is one)")]


def test_cap_a_line_at_2000_characters_and_a_sheet_at_30000_comments_included() -> None:
    """A line as long as the other limits allow, 100 amounts written '1*500#500' joined by ' + ' and an
    order (900 + 297 + 14 = 1,211 characters), is read; a line of 2,001 characters is not, whatever it holds
    (here a comment).  Twenty lines of 1,500 characters (20 x 1,501 = 30,020 with their line ends) go over
    a sheet's 30,000 on the twentieth: that line is the error."""
    longest = " + ".join(["1*500#500"] * 100) + " : F LON - NTH"
    assert len(longest) == 1_211
    sheet, errors = sheet_of(longest)
    assert not errors and sheet.offers[0].terms == (Term(500, 500),) * 100
    padded = "1 : F LON - NTH % " + "x" * (2_001 - 18)
    assert len(padded) == 2_001
    _, errors = sheet_of(f"1 : F EDI - NTH\n{padded}")
    assert [(e.line, e.error) for e in errors] == [(2, "a line holds at most 2,000 characters")]
    line = "1 : F LON - NTH % " + "x" * (1_500 - 18)
    sheet, errors = sheet_of("\n".join([line] * 19))
    assert not errors and len(sheet.offers) == 19
    _, errors = sheet_of("\n".join([line] * 21))
    assert [(e.line, e.error) for e in errors] == [
        (20, "a sheet holds at most 30,000 characters as written, comments included")]


def test_blind_lines_set_aside_count_toward_the_sheets_limits() -> None:
    # "A LON - YOR" names an army that is not there: set aside silently, but counted like the
    # offer it would be if it were, so the limit's answer does not tell which it is.
    options = parse_options(["BLIND"])
    lines = ["1 : F LON - NTH"] * 299
    for named in ("A LON - YOR", "F LON - ENG"):
        _, errors = parse_sheet("\n".join([*lines, f"1 : {named}", "2 : F EDI - NTH"]), START, "FRANCE", options)
        assert [(e.line, e.error) for e in errors] == [(301, "a sheet can hold at most 300 offers")], named


def test_cap_savings_request_at_most_1000000_agp() -> None:
    sheet, errors = sheet_of("1000000 $\n1000000 $")
    assert not errors and sheet.savings == 2_000_000  # the cap is per request
    _, errors = sheet_of("1000001 $")
    assert [e.error for e in errors] == ["a savings request (AgP) can be at most 1000000"]


def test_ruling_8_a_line_over_a_cap_rejects_the_sheet_and_is_reported_with_the_others() -> None:
    sheet, errors = sheet_of("4 : F LON - NTH\n101*1 : F EDI - NTH\n2000000 $")
    assert sheet.offers == ()
    assert [(e.line, e.error) for e in errors] == [
        (2, "a repetition count can be at most 100"), (3, "a savings request (AgP) can be at most 1000000")]


@pytest.mark.skipif(core_build() != "pure Python", reason="compiled code calls parse_order directly")
def test_rule_3_1_a_phase_parses_and_checks_each_order_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.payola import offers

    calls: list[str] = []

    def counted(function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            calls.append(function.__name__)
            return function(*args)
        return wrapper

    monkeypatch.setattr(offers, "parse_order", counted(offers.parse_order))
    monkeypatch.setattr(offers, "checker", lambda kind: counted(checker(kind)))
    reader = offers.PhaseReader(START)
    english = "3 : F LON - NTH\n5 ! F LON - NTH\n1 > F LON - NTH | - ENG\n2 : F EDI - NTH"
    french = "2 : F LON - NTH | - ENG\n4 & F LON - NTH\n1 @ F EDI - NTH"
    sheets = [parse_sheet(english, START, "ENGLAND", reader=reader),
              parse_sheet(french, START, "FRANCE", reader=reader)]
    assert all(not errors for _, errors in sheets)
    # Three texts: F LON - NTH, F EDI - NTH, and the alternative - ENG of F LON.
    assert calls.count("parse_order") == 3 and calls.count("_check_movement") == 3
    assert sheets[1][0].offers[0].orders[0] is sheets[0][0].offers[0].orders[0]


@pytest.mark.skipif(core_build() != "pure Python", reason="compiled positions take no weak references")
def test_parsing_keeps_no_position_alive() -> None:
    """A long-running judge parses sheets against a new position every phase: once the caller
    drops a position, nothing the parser keeps may hold it (a registry of one reader per position
    once held every position, and every order read, for the life of the process)."""
    position = Position.initial(load_map("standard"))
    sheet, errors = parse_sheet("3 : A PAR - BUR\n2 : F LON - NTH", position, "FRANCE")
    assert not errors and len(sheet.offers) == 2
    gone = weakref.ref(position)
    del position, sheet
    gc.collect()
    assert gone() is None


def test_cap_at_most_100_amounts_in_one_offer_repetitions_counted() -> None:
    position = START
    _, errors = parse_sheet("100*1 : A PAR - BUR", position, "FRANCE")
    assert errors == []
    _, errors = parse_sheet("100*1 + 1 : A PAR - BUR", position, "FRANCE")
    assert [e.error for e in errors] == ["an offer can hold at most 100 amounts, repetitions counted"]
    _, errors = parse_sheet("+".join(["1"] * 5000) + " : A PAR - BUR", position, "FRANCE")
    assert [e.error for e in errors] == ["an offer can hold at most 100 amounts, repetitions counted"]


@pytest.mark.parametrize("line", ["-3 : F LON H", "3.5 : F LON H", "\u22123 : F LON H", ",5 : F LON H", "-10 $",
                                  "2.5 $"])
def test_negative_and_fractional_amounts_are_whole_numbers_of_agp(line: str) -> None:
    _, errors = sheet_of(line)
    assert [e.error for e in errors] == [f"'{line.split()[0]}': an amount is a whole number of AgP, 0 or more"]


def test_an_offer_naming_the_wrong_type_of_unit_says_which_unit_stands_there() -> None:
    _, errors = sheet_of("4 : A LON H\n4 : F LVP H")
    assert [e.error for e in errors] == ["the unit in LON is a fleet (F LON)", "the unit in LVP is an army (A LVP)"]


def test_dashes_in_offers_read_as_moves() -> None:
    sheet, errors = sheet_of("4 : F LON \u2013 NTH\n3 : A LVP \u2014 YOR")
    assert not errors and [str(o.orders[0]) for o in sheet.offers] == ["F LON - NTH", "A LVP - YOR"]
