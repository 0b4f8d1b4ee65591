"""Properties of the Exchange core over random play (hypothesis).

- Money is conserved at every step: purses + treasuries + destroyed = the starting money + every
  income (E3, E6); under ZEROSUM with the bribes owed, and first captures for income (6.7);
  and no account goes below zero (E33).
- No share is created or lost but by an issue (E11) or a liquidation (E31): each corporation's
  issued shares change only so, and its pool never goes below zero.
- Secrecy (E39, E40): an investor's statements name nobody else outside the investor's own
  lines, answer only the investor's lines, and hold no ledger or worth; they do not change when
  other investors' ballots do; a non-CEO is refused a corporation's records; the public facts do
  not change when holdings move between investors or purses change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine.legal import legal_orders
from judge.engine.values import TextValue
from judge.games.exchange.core.accounts import transfer
from judge.games.exchange.core.exchange import run_exchange
from judge.games.exchange.core.income import default_worths
from judge.games.exchange.core.phases import Step, step
from judge.games.exchange.core.record import ExchangeRecord
from judge.games.exchange.core.sheet import (
    ALL,
    ME,
    Approve,
    Bid,
    Block,
    BuyFrom,
    Dividend,
    Elect,
    Give,
    Issue,
    Line,
    Pass,
    Priority,
    Quantity,
    Sell,
    SellTo,
    Sheet,
    Worth,
    all_but,
    check,
    dividend_limit,
    exactly,
)
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine, Register, Stage
from judge.games.exchange.core.views import (
    ViewRefused,
    annual_report,
    ceo_view,
    exchange_statement,
    offers_statement,
    public_exchange,
    report_readers,
)
from judge.games.exchange.core.year import (
    CorporateSheet,
    MovementRecord,
    MovementSheets,
    run_income,
    run_movement,
    run_orders,
)
from judge.payola.offers import OfferSheet, parse_sheet
from judge.payola.options import Options
from tests.games.exchange.game import INVESTORS, A, F, G, at_exchange, game, money
from tests.strength import examples

TRADED = (F, G, A)
SETTINGS = settings(max_examples=examples(100), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- drawing sheets -------------------------------------------------------------------

def _quantity(data: st.DataObject, least: int = 1) -> Quantity:
    return data.draw(st.one_of(st.integers(least, 8).map(exactly), st.just(ALL), st.integers(0, 4).map(all_but)))


def _one(data: st.DataObject, lines: list[Line]) -> Line:
    return data.draw(st.sampled_from(lines))


def _own_line(data: st.DataObject, state: ExchangeState, author: str) -> Line:
    """One of an investor's own lines; market lines, the likeliest, for France and Germany mostly."""
    kind = data.draw(st.sampled_from(("market", "market", "market", "deal", "other")))
    corporation = data.draw(st.sampled_from(TRADED if kind != "market" else (F, G, F, G, A)))
    other = data.draw(st.sampled_from([i for i in state.order if i != author]))
    shares, price, amount = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 9)), data.draw(st.integers(0, 30))
    if kind == "market":
        return _one(data, [Bid(_quantity(data), corporation, price + 3),
                           Sell(_quantity(data), corporation, max(1, price - 3))])
    if kind == "deal":
        return _one(data, [SellTo(shares, corporation, other, amount), BuyFrom(shares, corporation, other, amount),
                           Give(_quantity(data), corporation, other)])
    return _one(data, [Priority(_quantity(data, 0)), Approve(corporation, shares),
                       Elect(corporation, data.draw(st.sampled_from([*state.order, ME, None]))), Pass()])


def _block_line(data: st.DataObject, state: ExchangeState, corporation: str) -> Line:
    price = data.draw(st.integers(1, 12))
    return _one(data, [Dividend(data.draw(st.integers(0, dividend_limit(state, corporation)))),
                       Sell(_quantity(data), corporation, price), Issue(data.draw(st.integers(1, 4)), price),
                       Bid(_quantity(data), corporation, price)])


def _valid(sheet: Sheet, state: ExchangeState) -> Sheet:
    """The sheet without its refused lines and blocks (the check refuses a sheet whole)."""
    while problems := check(sheet, state):
        bad = {(p.corporation, p.place) for p in problems}
        blocks = tuple(
            Block(b.corporation, tuple(line for i, line in enumerate(b.lines) if (b.corporation, i) not in bad))
            for b in sheet.blocks if (b.corporation, None) not in bad)
        sheet = Sheet(sheet.author, tuple(line for i, line in enumerate(sheet.lines) if (None, i) not in bad), blocks)
    return sheet


def exchange_sheets(data: st.DataObject, state: ExchangeState) -> dict[str, Sheet]:
    """A valid sheet for some investors, with a block for some of the corporations they lead; most
    paired-trade lines get their other half, and most holders approve an issue proposed."""
    drawn: dict[str, list[Line]] = {}
    blocks: dict[str, list[Block]] = {}
    for investor in state.order:
        if not data.draw(st.booleans()):
            continue
        drawn[investor] = [_own_line(data, state, investor) for _ in range(data.draw(st.integers(0, 7)))]
        blocks[investor] = [
            Block(c, tuple(_block_line(data, state, c) for _ in range(data.draw(st.integers(0, 3)))))
            for c, ceo in state.ceos.items() if ceo == investor and data.draw(st.booleans())
        ]
    for investor, lines in list(drawn.items()):
        for line in list(lines):
            if isinstance(line, SellTo | BuyFrom) and data.draw(st.integers(0, 2)) < 2:
                other, half = (line.buyer, BuyFrom(line.shares, line.corporation, investor, line.amount)) if (
                    isinstance(line, SellTo)) else (line.seller, SellTo(line.shares, line.corporation, investor,
                                                                         line.amount))
                drawn.setdefault(other, []).append(half)
    for investor_blocks in blocks.values():
        for block in investor_blocks:
            for line in block.lines:
                if isinstance(line, Issue):
                    for holder in state.register.holders(block.corporation):
                        if data.draw(st.integers(0, 3)) < 3:
                            drawn.setdefault(holder, []).append(Approve(block.corporation, line.shares))
    return {i: _valid(Sheet(i, tuple(drawn.get(i, ())), tuple(blocks.get(i, ()))), state)
            for i in state.order if i in drawn or i in blocks}


def _offers(data: st.DataObject, state: ExchangeState, power: str) -> OfferSheet:
    position = state.position
    near = sorted(p for p, u in position.units.items() if u.power in (F, G) or p in ("BUR", "RUH", "BEL"))
    lines = []
    for _ in range(data.draw(st.integers(0, 3))):
        province = data.draw(st.sampled_from(near))
        order = data.draw(st.sampled_from([str(o) for o in legal_orders(position, province)]))
        own = position.units[province].power == power
        amount = data.draw(st.integers(0 if own else 1, 15))
        lines.append(f"{amount} {data.draw(st.sampled_from(':!>@&'))} {order}")
    sheet, errors = parse_sheet("\n".join(lines), position, power)
    assert not errors, errors
    return sheet


def _worth(data: st.DataObject, state: ExchangeState, corporation: str) -> Worth | None:
    """A valid worth list now and then: the defaults with some AgP moved from one center to another."""
    owned = state.position.centers_of(corporation)
    if state.options.payola.zerosum or not owned or not data.draw(st.booleans()):
        return None
    worths = default_worths(owned, state.game_map.victory_centers, state.options.payola)
    source, target = data.draw(st.sampled_from(owned)), data.draw(st.sampled_from(owned))
    moved = data.draw(st.integers(0, worths[source]))
    worths[source] -= moved
    worths[target] += moved
    return Worth(tuple(worths.items()))


def movement_sheets(data: st.DataObject, state: ExchangeState) -> MovementSheets:
    corporate = {c: CorporateSheet(_offers(data, state, c), _worth(data, state, c))
                 for c in state.ceos if data.draw(st.booleans())}
    private = {i: _offers(data, state, i) for i in state.order if data.draw(st.booleans())}
    return MovementSheets(corporate, private)


# -- the invariants -------------------------------------------------------------------

def _money_holds(before: ExchangeState, after: ExchangeState, income: int = 0) -> None:
    assert money(after) == after.minted == before.minted + income
    assert all(v >= 0 for v in after.purses.values()) and all(v >= 0 for v in after.treasuries.values())


def _shares_hold(before: ExchangeState, after: ExchangeState, record: ExchangeRecord | None = None) -> None:
    issued = {i.corporation: i.shares for i in (record.issues if record else ()) if i.passed}
    cancelled = {liquidation.corporation for liquidation in (record.liquidations if record else ())}
    for corporation in after.corporations:
        expected = 0 if corporation in cancelled else before.register.issued[corporation] + issued.get(corporation, 0)
        assert after.register.issued[corporation] == expected
        assert after.register.pool(corporation) >= 0
    if record is None:
        assert after.register == before.register


def _names(value: object) -> Iterator[str]:
    """Every string inside a view."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, TextValue):
        yield str(value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _names(key)
            yield from _names(item)
    elif isinstance(value, tuple | list | frozenset):
        for item in value:
            yield from _names(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _names(getattr(value, field.name))


def _nodes(value: object) -> Iterator[object]:
    yield value
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _nodes(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _nodes(item)


def _secrecy_holds(state: ExchangeState, record: ExchangeRecord | MovementRecord) -> None:
    for investor in state.order:
        others = set(state.order) - {investor}
        if isinstance(record, ExchangeRecord):
            statement = exchange_statement(state, record, investor)
            assert all(a.author == investor for a in statement.lines)
            told = statement._replace(lines=tuple(a._replace(line=Pass()) for a in statement.lines))
            for corporation in state.corporations:
                if investor in report_readers(record, corporation):
                    assert not any(isinstance(n, LedgerLine) for n in _nodes(annual_report(record, corporation,
                                                                                             investor)))
        else:
            told = offers_statement(record, investor)  # type: ignore[assignment]
        assert not others & set(_names(told)), (investor, told)
        assert not any(isinstance(n, LedgerLine) for n in _nodes(told))
        for corporation in state.corporations:
            if state.ceos.get(corporation) != investor:
                try:
                    ceo_view(state, corporation, investor)
                except ViewRefused:
                    continue
                raise AssertionError(f"{investor} saw {corporation}'s records")


# -- the properties -------------------------------------------------------------------

def _transfer(data: st.DataObject, state: ExchangeState) -> ExchangeState:
    """Now and then a transfer between phases (E5): money moves, none appears."""
    sender = data.draw(st.sampled_from(state.order))
    receiver = data.draw(st.sampled_from([*[i for i in state.order if i != sender], *state.live]))
    if not state.purses[sender] or not data.draw(st.booleans()):
        return state
    after, _ = transfer(state, sender, receiver, data.draw(st.integers(1, state.purses[sender])))
    _money_holds(state, after)
    return after


def _random_years(data: st.DataObject, state: ExchangeState, last: int) -> None:
    """Random sheets, transfers and phases up to the Exchange phase of ``last``, every invariant
    checked at each step; the Income step may mint only the income (or, under ZEROSUM, the first
    captures' 10 AgP each, 6.7)."""
    seed = 0
    while True:
        state = _transfer(data, state)
        current = step(state)
        if current is Step.EXCHANGE:
            after, record = run_exchange(state, exchange_sheets(data, state))
            _money_holds(state, after)
            _shares_hold(state, after, record)
            _secrecy_holds(after, record)
            if state.position.phase.year > last:
                break
        elif current is Step.MOVEMENT:
            seed += 1
            after, movement = run_movement(state, movement_sheets(data, state), seed)
            _money_holds(state, after)
            _shares_hold(state, after)
            _secrecy_holds(after, movement)
        elif current is Step.INCOME:
            after, income = run_income(state)
            if state.options.payola.zerosum:
                minted = sum(10 for i in income.incomes for m in i.moves if m.kind is LedgerKind.FIRST_CAPTURE)
                assert not after.owed and all(not i.centers for i in income.incomes)
            else:
                minted = sum(i.total for i in income.incomes)
            _money_holds(state, after, minted)
            _shares_hold(state, after)
        else:
            assert current in (Step.RETREAT, Step.ADJUSTMENT)
            after, _ = run_orders(state, {})
            _money_holds(state, after)
            _shares_hold(state, after)
        state = after


@SETTINGS
@given(st.data())
def test_E3_E6_E11_E31_money_and_shares_are_conserved_through_a_random_year(data: st.DataObject) -> None:
    _random_years(data, game(INVESTORS, funds=data.draw(st.integers(0, 80))), 1901)


@SETTINGS
@given(st.data())
def test_zerosum_6_7_money_is_conserved_through_random_years_bribes_owed_and_captures_moved(
        data: st.DataObject) -> None:
    """Under ZEROSUM the bribes are owed, not destroyed, and only a first capture mints money."""
    state = game(INVESTORS, funds=data.draw(st.integers(0, 80)), payola=Options(zerosum=True))
    _random_years(data, state, 1902)


@st.composite
def exchanges(draw: st.DrawFn) -> ExchangeState:
    """An Exchange phase with random holdings and pools, money, CEOs, and now and then a
    corporation to liquidate."""
    holdings = {c: {i: draw(st.integers(0, 6)) for i in INVESTORS} for c in TRADED}
    issued = {c: sum(held.values()) + draw(st.integers(0 if any(held.values()) else 1, 4))
              for c, held in holdings.items()}
    ceos = {c: draw(st.sampled_from(INVESTORS)) for c in TRADED if draw(st.integers(0, 3)) < 3}
    state = at_exchange(holdings, purses={i: draw(st.integers(0, 60)) for i in INVESTORS},
                        treasuries={c: draw(st.integers(0, 60)) for c in TRADED}, ceos=ceos,
                        order=draw(st.permutations(INVESTORS)), issued=issued)
    if draw(st.integers(0, 4)) == 4:
        state = state.evolve(eliminated=frozenset({draw(st.sampled_from(TRADED))}))
    return state


@SETTINGS
@given(exchanges(), st.data())
def test_E8_E12_E31_an_exchange_phase_conserves_money_and_shares(state: ExchangeState, data: st.DataObject) -> None:
    after, record = run_exchange(state, exchange_sheets(data, state))
    _money_holds(state, after)
    _shares_hold(state, after, record)
    for corporation in after.live:
        if record.fills and any(f.buyer == corporation for f in record.fills):  # a buy-back stays within the third
            assert 3 * after.register.pool(corporation) <= after.register.issued[corporation]
    _secrecy_holds(after, record)


@SETTINGS
@given(exchanges(), st.data())
def test_E40_an_investors_statement_does_not_depend_on_other_investors_ballots(
        state: ExchangeState, data: st.DataObject) -> None:
    sheets = exchange_sheets(data, state)
    reader = data.draw(st.sampled_from(INVESTORS))
    silent = {i: s if i == reader else Sheet(i, tuple(x for x in s.lines if not isinstance(x, Elect)), s.blocks)
              for i, s in sheets.items()}
    after, record = run_exchange(state, sheets)
    quiet, quiet_record = run_exchange(state, silent)
    assert exchange_statement(after, record, reader) == exchange_statement(quiet, quiet_record, reader)


@SETTINGS
@given(exchanges(), st.data())
def test_E36_E40_the_public_facts_do_not_depend_on_who_holds_what_or_on_purses(
        state: ExchangeState, data: st.DataObject) -> None:
    after, record = run_exchange(state, exchange_sheets(data, state))
    shuffled = {c: dict(zip(INVESTORS, data.draw(st.permutations([h.get(i, 0) for i in INVESTORS])), strict=True))
                for c, h in after.register.holdings.items()}
    other = after.evolve(register=Register(after.register.issued, shuffled),
                         purses={i: data.draw(st.integers(0, 99)) for i in after.order})
    assert public_exchange(other, record) == public_exchange(after, record)
    assert after.stage is Stage.BOARD
