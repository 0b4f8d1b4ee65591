"""X.11: what each investor sees (rulings E36-E41), on the worked year of section 3."""

from __future__ import annotations

import pytest

from judge.games.exchange.core.state import LedgerKind
from judge.games.exchange.core.views import (
    Change,
    ChangeKind,
    ViewRefused,
    annual_report,
    ceo_view,
    corporate_statement,
    exchange_statement,
    offers_statement,
    public_board,
    public_exchange,
    report_readers,
)
from tests.games.exchange.game import A, F, G
from tests.games.exchange.worked_year import (
    SHEETS_1900,
    SHEETS_1901,
    fall_1901,
    spring_1901,
    winter_1900,
    winter_1901,
)


def test_E36_everyone_sees_the_investor_order_the_ceos_and_each_corporations_shares() -> None:
    state, record = winter_1900()
    public = public_exchange(state, record)
    assert public.order == ("CAT", "BOB", "ANN")
    facts = {f.corporation: f for f in public.corporations}
    assert facts[F][1:] == ("BOB", 10, 10, 0, False, False)
    assert facts[G][1:] == ("CAT", 10, 10, 0, False, False)
    assert facts[A][1:] == (None, 10, 0, 10, False, False)
    board = public_board(*spring_1901())
    assert ("A BUR", G) in board.units and ("MUN", G) in board.centers
    assert {str(r.order) for r in board.results if r.power == F} == {"A PAR - PIC", "A MAR - SPA", "F BRE - MAO"}


def test_E37_the_annual_report_gives_treasury_names_dividend_and_tally_to_stockholders_only() -> None:
    _, record = winter_1901()
    assert report_readers(record, G) == ("ANN", "BOB", "CAT")
    report = annual_report(record, G, "BOB")
    # The tally lists candidates by votes, ties in the investor order (CAT, BOB, ANN): never who voted.
    assert report == (G, "W1901X", 99, ("ANN", "BOB", "CAT"), 3, None, (("CAT", 6), ("BOB", 6)), "CAT")
    _, first = winter_1900()
    assert report_readers(first, A) == ()
    with pytest.raises(ViewRefused):
        annual_report(first, A, "ANN")


def test_E38_only_the_ceo_sees_the_worths_the_ledger_and_the_statement() -> None:
    state, _ = winter_1900()
    view = ceo_view(state, F, "BOB")
    assert [(line.kind, line.amount, line.who, line.shares, line.price) for line in view.ledger] == [
        (LedgerKind.POOL_SALE, 18, "CAT", 3, 6), (LedgerKind.POOL_SALE, 25, "BOB", 5, 5),
        (LedgerKind.POOL_SALE, 10, "ANN", 2, 5)]
    spring, record = spring_1901()
    assert dict(ceo_view(spring, F, "BOB").worths) == {"PAR": 24, "MAR": 14, "BRE": 10}
    assert corporate_statement(spring, record, G, "CAT").spent == 3
    for corporation, reader in ((F, "CAT"), (F, "ANN"), (G, "BOB")):
        with pytest.raises(ViewRefused):
            ceo_view(spring, corporation, reader)
        with pytest.raises(ViewRefused):
            corporate_statement(spring, record, corporation, reader)


def test_E39_an_investor_is_told_every_change_to_their_balance_holdings_and_lines() -> None:
    state, record = winter_1900()
    ann = exchange_statement(state, record, "ANN")
    assert ann.before == 60 and ann.balance == 47
    assert ann.changes == (Change(ChangeKind.BOUGHT, -10, F, 2), Change(ChangeKind.BOUGHT, -3, G, 1))
    assert ann.holdings == ((F, 2), (G, 1))
    assert {a.author for a in ann.lines} == {"ANN"} and len(ann.lines) == 4
    bob = exchange_statement(state, record, "BOB")
    assert bob.changes[0] == Change(ChangeKind.PRIORITY, -2)
    spring = offers_statement(spring_1901()[1], "ANN")
    assert (spring.accepted, spring.spent, spring.balance) == ((), 0, 47)  # RUH lost to BUR
    fall = offers_statement(fall_1901()[1], "ANN")
    assert (fall.accepted, fall.spent, fall.balance) == ((), 0, 47)


def test_E40_an_investors_statement_names_no_one_else_but_in_their_own_lines() -> None:
    state, record = winter_1901()
    ann = exchange_statement(state, record, "ANN")
    # Her deal names BOB, in her own line; her purchase from Germany's pool names nobody, and CAT,
    # who sold BOB a French share, appears nowhere in her statement.
    assert ann.changes == (Change(ChangeKind.DIVIDEND, 10, F), Change(ChangeKind.DIVIDEND, 3, G),
                           Change(ChangeKind.SOLD_PRIVATELY, 9, G, 1), Change(ChangeKind.BOUGHT, -16, G, 2))
    told = repr(ann._replace(lines=()))
    assert "BOB" not in told and "CAT" not in told
    bob = exchange_statement(state, record, "BOB")
    assert Change(ChangeKind.BOUGHT, -9, F, 1) in bob.changes and "CAT" not in repr(bob._replace(lines=()))


def test_E41_every_line_of_every_sheet_is_answered_in_the_record() -> None:
    for run, sheets in ((winter_1900, SHEETS_1900), (winter_1901, SHEETS_1901)):
        _, record = run()
        answered = {(a.author, a.corporation, a.place) for a in record.actions}
        for sheet in sheets.values():
            assert {(sheet.author, None, i) for i in range(len(sheet.lines))} <= answered
            for block in sheet.blocks:
                assert {(sheet.author, block.corporation, i) for i in range(len(block.lines))} <= answered
