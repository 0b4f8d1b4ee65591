"""A small harness for Exchange Payola tests: games set up by hand, sheets as values, phases run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.engine.map import load_map
from judge.engine.orders import Order, parse_order
from judge.engine.position import Position
from judge.games.exchange.core.exchange import run_exchange
from judge.games.exchange.core.options import ExchangeOptions
from judge.games.exchange.core.record import Action, ExchangeRecord
from judge.games.exchange.core.sheet import Block, Line, Sheet
from judge.games.exchange.core.state import ExchangeState, Register, Stage, opening
from judge.payola.offers import OfferSheet, parse_sheet
from judge.payola.options import Options

STANDARD = load_map("standard")
F, G, R, A = "FRANCE", "GERMANY", "RUSSIA", "AUSTRIA"
INVESTORS = ("ANN", "BOB", "CAT")


def game(order: Sequence[str] = INVESTORS, funds: int = 60, shares: int = 10,
         payola: Options | None = None) -> ExchangeState:
    """A standard-map game before its first Exchange phase, with the investor order given (and the
    Payola options, none by default)."""
    return opening(STANDARD, order, ExchangeOptions(len(order), funds, shares, payola or Options()))


def at_exchange(
    holdings: Mapping[str, Mapping[str, int]],
    purses: Mapping[str, int] | None = None,
    treasuries: Mapping[str, int] | None = None,
    ceos: Mapping[str, str] | None = None,
    order: Sequence[str] = INVESTORS,
    issued: Mapping[str, int] | None = None,
) -> ExchangeState:
    """A game at an Exchange phase with the register, purses, treasuries and CEOs given (every
    corporation issued 10 shares unless ``issued`` says otherwise; purses 60, treasuries 0 unless
    given).  ``minted`` is set so that the money check holds."""
    state = game(order)
    purses = {i: 60 for i in order} | dict(purses or {})
    treasuries = dict.fromkeys(state.corporations, 0) | dict(treasuries or {})
    issue = dict.fromkeys(state.corporations, 10) | dict(issued or {})
    return state.evolve(
        purses=purses, treasuries=treasuries, register=Register(issue, holdings), ceos=dict(ceos or {}),
        minted=sum(purses.values()) + sum(treasuries.values()), stage=Stage.EXCHANGE,
    )


def sheet(author: str, *lines: Line, blocks: Mapping[str, Sequence[Line]] | None = None) -> Sheet:
    return Sheet(author, tuple(lines), tuple(Block(c, tuple(b)) for c, b in (blocks or {}).items()))


def exchange(state: ExchangeState, *sheets: Sheet) -> tuple[ExchangeState, ExchangeRecord]:
    return run_exchange(state, {s.author: s for s in sheets})


def actions_of(record: ExchangeRecord, author: str, line: Line) -> list[Action]:
    """What became of one line (every action answering it)."""
    return [a for a in record.actions if a.author == author and a.line == line]


def offers(text: str, power: str, position: Position) -> OfferSheet:
    """A Payola offer sheet, read by Payola's reader (every line must be valid)."""
    parsed, errors = parse_sheet(text, position, power)
    assert not errors, errors
    return parsed


def orders(state: ExchangeState, **by_corporation: Sequence[str]) -> dict[str, list[Order]]:
    """Retreat or adjustment orders, read by the engine's reader."""
    return {c: [parse_order(text, state.game_map) for text in texts] for c, texts in by_corporation.items()}


def money(state: ExchangeState) -> int:
    """Every AgP in the game (the bribes ZEROSUM owes included) plus every AgP destroyed: always
    ``state.minted``."""
    return sum(state.purses.values()) + sum(state.treasuries.values()) + sum(state.owed.values()) + state.destroyed


def at_movement(
    ceos: Mapping[str, str] | None = None,
    purses: Mapping[str, int] | None = None,
    treasuries: Mapping[str, int] | None = None,
    order: Sequence[str] = INVESTORS,
    position: Position | None = None,
) -> ExchangeState:
    """A game at a phase on the board (by default Spring 1901's start), with the CEOs, purses and
    treasuries given (purses 60, treasuries 0 unless given)."""
    state = at_exchange({}, purses, treasuries, ceos, order)
    return state.evolve(stage=Stage.BOARD, position=position or state.position)
