"""Section 2 of the Exchange rulings, read at the mail's edge: each line of the sheets' language
into the core's value, each bad line with what was expected, and the parts of a sheet (2.1)."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.sheet import (
    ALL,
    ME,
    Approve,
    Bid,
    BuyFrom,
    Dividend,
    Elect,
    Give,
    Issue,
    Pass,
    Priority,
    Sell,
    SellTo,
    Worth,
    all_but,
    exactly,
)
from judge.games.exchange.handlers import ExchangeClear, ExchangeVote, SheetLine, read
from judge.games.exchange.reading import AcceptText, LedgerAsk, OfferText, OrderText, Read, TransferTo, read_mail
from judge.games.exchange.sheets import assemble
from tests.games.exchange.game import STANDARD

F, G = "FRANCE", "GERMANY"


def one(text: str, block: str | None = None) -> Read:
    """``text`` read as ANN's, alone or in ``block``'s FOR block."""
    lines = [text] if block is None else [f"FOR {block}", text]
    return read_mail(list(enumerate(lines)), STANDARD, "ANN").lines[-1]


@pytest.mark.parametrize(("text", "value"), [
    ("PRIORITY 2", Priority(exactly(2))),
    ("PRIORITY ALL", Priority(ALL)),
    ("priority all but 3", Priority(all_but(3))),
    ("BID 6 FRANCE AT 5", Bid(exactly(6), F, 5)),
    ("BID ALL G AT 4", Bid(ALL, G, 4)),
    ("SELL 1 FRANCE AT 7", Sell(exactly(1), F, 7)),
    ("SELL ALL BUT 2 GERMANY AT 7", Sell(all_but(2), G, 7)),
    ("SELL 1 GERMANY TO bob FOR 9", SellTo(1, G, "BOB", 9)),
    ("BUY 1 G FROM Bob FOR 0", BuyFrom(1, G, "BOB", 0)),
    ("GIVE ALL F TO cat", Give(ALL, F, "CAT")),
    ("APPROVE GERMANY 2", Approve(G, 2)),
    ("ELECT FRANCE ME", Elect(F, ME)),
    ("ELECT F NONE", Elect(F, None)),
    ("ELECT GERMANY cat", Elect(G, "CAT")),
    ("PASS", Pass()),
])
def test_22_an_investors_own_lines_are_read_into_the_cores_values(text: str, value: object) -> None:
    """2.2 and E13: each line of the Exchange language, with ALL and ALL BUT k, names of investors
    in any case (E1), corporations by name or initial."""
    read = one(text)
    assert (read.value, read.error, read.part) == (value, None, None)


@pytest.mark.parametrize(("text", "value"), [
    ("DIVIDEND 3", Dividend(3)),
    ("SELL 2 AT 8", Sell(exactly(2), G, 8)),
    ("ISSUE 2 AT 8", Issue(2, 8)),
    ("BID ALL AT 4", Bid(ALL, G, 4)),
    ("WORTH BER 16 KIE 16 MUN 16", Worth((("BER", 16), ("KIE", 16), ("MUN", 16)))),
    ("ACCEPT GF?", AcceptText("ACCEPT GF?")),
    ("LEDGER", LedgerAsk(G)),
    ("3 : A MUN - BUR", OfferText("3 : A MUN - BUR")),
    ("BUILD A BER", OrderText("BUILD A BER")),
])
def test_22_a_blocks_lines_are_its_corporations(text: str, value: object) -> None:
    """2.2: in FOR X, SELL n AT p asks from X's pool, BID n AT p is a buy-back, LEDGER alone is X's;
    offers, orders and ACCEPT are kept for Payola's and the engine's readers."""
    read = one(text, "GERMANY")
    assert (read.value, read.error, read.part) == (value, None, G)


def test_E5_E24_transfer_and_ledger_name_an_investor_or_a_corporation() -> None:
    assert one("TRANSFER 10 TO bob").value == TransferTo(10, "BOB")
    assert one("TRANSFER 10 TO F").value == TransferTo(10, F)
    assert one("LEDGER GERMANY").value == LedgerAsk(G)


@pytest.mark.parametrize(("text", "error"), [
    ("BID 5 FRANCE 5", "expected BID n X AT p (in X's block: BID n AT p, a buy-back)"),
    ("BID five FRANCE AT 5", "'FIVE' is not a whole number: a number is written in figures (X.2.1)"),
    ("ELECT ZZ ME", "'ZZ' is not a corporation of this board (a power's name or initial)"),
    ("WORTH PAR 24 MAR", "expected WORTH and each center with its worth: WORTH PAR 24 MAR 14 BRE 10"),
    ("WORTH PAR 24 XYZ 3", "'XYZ' is not a province of this board"),
    ("WORTH PAR 24 BUR 3", "BUR is not a supply center (E22)"),
    ("SELL ALL F TO BOB FOR 9", "a paired trade names a number of shares, not ALL: its two lines must agree exactly "
                                "(E10)"),
    ("PASS NOW", "expected PASS, alone"),
    ("TRANSFER 10 BOB", "expected TRANSFER amount TO name (an investor, or a corporation: a donation, E5)"),
])
def test_22_a_line_that_cannot_be_read_is_answered_with_what_was_expected(text: str, error: str) -> None:
    assert one(text).error == error


def test_21_a_block_ends_at_END_the_next_FOR_or_the_mails_end_and_a_bad_FOR_refuses_its_lines() -> None:
    """2.1: lines before any FOR are the investor's own; END, the next FOR or the end of the mail
    closes a block; a FOR naming no corporation is refused with every line of its block.  An END
    that closes a block is read as closing it (to be answered), and is no line of the sheet."""
    lines = ["PRIORITY 1", "FOR FRANCE", "DIVIDEND 2", "END", "ELECT F ME", "FOR G", "ISSUE 1 AT 3", "FOR ZZ",
             "DIVIDEND 1", "END", "PASS", "END"]
    reads = read_mail(list(enumerate(lines)), STANDARD, "ANN").lines
    parts = [(r.text, r.part, r.error is None) for r in reads]
    assert parts == [("PRIORITY 1", None, True), ("FOR FRANCE", F, True), ("DIVIDEND 2", F, True), ("END", F, True),
                     ("ELECT F ME", None, True), ("FOR G", G, True), ("ISSUE 1 AT 3", G, True), ("FOR ZZ", None, False),
                     ("DIVIDEND 1", None, False), ("END", None, True), ("PASS", None, True),
                     ("END", None, False)]
    assert [r.closes_block for r in reads if r.text == "END"] == [True, True, False]
    assert reads[-1].error == "END without a FOR block before it (2.1)"
    mail = assemble(reads, "ANN")
    assert mail.sheet.lines == (Priority(exactly(1)), Elect(F, ME), Pass())
    assert [(b.corporation, b.lines) for b in mail.sheet.blocks] == [(F, (Dividend(2),)), (G, (Issue(1, 3),))]


@pytest.mark.parametrize(("text", "command"), [
    ("BID 1 F AT 1", SheetLine("BID 1 F AT 1")),
    ("4 : A PAR - BUR", SheetLine("4 : A PAR - BUR")),
    ("FOR FRANCE", SheetLine("FOR FRANCE")),
    ("A MUN - BOH", SheetLine("A MUN - BOH")),
    ("CLEAR", ExchangeClear()),
    ("VOTE CONCEDE france", ExchangeVote("CONCEDE", "FRANCE")),
])
def test_the_kinds_grammar_takes_sheet_lines_and_its_commands(text: str, command: object) -> None:
    assert read(text) == command
