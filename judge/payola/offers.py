"""Offer sheets (rule 3): parsing and validation of a power's bribes for one movement phase.

One offer per line, in this order (rule 3.1): an optional repetition ``N*``, an amount, an
optional plateau ``#`` or ``#N``, any number of ``+`` augmentations (each with its own
repetition and plateau), the type symbol (``:`` direct, ``!`` negative, ``>`` move, ``@`` hold,
``&`` gift), the unit, a legal order for it, and optional ``|`` alternatives giving only the
order part.  ``N $`` is a savings request (3.4); ``%`` starts a comment (3.5).

Every repetition and every ``+`` term is a separate amount with its own plateau (ruling 6):
``4*5#2 + 6`` is four amounts of 5 (plateau 2) and one of 6 (plateau 0), all backing the same
order(s).  A sheet with any bad line is rejected whole (ruling 8): :func:`parse_sheet`
returns every error, each quoting its line.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

from judge.engine.legal import check_order
from judge.engine.orders import (
    Convoy,
    Hold,
    Move,
    MovementOrder,
    OrderSyntaxError,
    SupportHold,
    SupportMove,
    Unit,
    parse_order,
)
from judge.engine.position import Position
from judge.payola.options import Options


class OfferKind(Enum):
    DIRECT = ":"
    NEGATIVE = "!"
    MOVE = ">"
    HOLD = "@"
    GIFT = "&"


@dataclass(frozen=True, slots=True)
class Term:
    """One separately reducible amount of an offer, and the plateau it reduces to first."""

    amount: int
    plateau: int = 0


@dataclass(frozen=True, slots=True)
class Offer:
    """One line of an offer sheet, validated against the position."""

    line: int
    text: str
    kind: OfferKind
    unit: Unit
    orders: tuple[MovementOrder, ...]
    terms: tuple[Term, ...]

    @property
    def amount(self) -> int:
        return sum(t.amount for t in self.terms)


@dataclass(frozen=True, slots=True)
class SheetError:
    """A rejected line: its number, its text, and what is wrong with it."""

    line: int
    text: str
    error: str

    def __str__(self) -> str:
        return f"line {self.line}: '{self.text}': {self.error}"


@dataclass(frozen=True)
class OfferSheet:
    """A power's valid offers in sheet order, and the sum of its savings requests.

    ``ignored`` keeps, under ``BLIND``, the lines about absent units, for publication.
    """

    offers: tuple[Offer, ...] = ()
    savings: int = 0
    ignored: tuple[str, ...] = ()


class _LineError(Exception):
    pass


_OFFER = re.compile(r"^(?P<amounts>[0-9*#+\s]*?)\s*(?P<kind>[:!>@&])\s*(?P<rest>.*)$")
_TERM = re.compile(r"^(?:(?P<rep>\d+)\s*\*\s*)?(?P<amount>\d+)\s*(?:(?P<hash>#)\s*(?P<plateau>\d*))?$")
_SAVINGS = re.compile(r"^(?P<amount>\d+)\s*\$$")
_MAX_AMOUNT = 10**9
_MAX_REPEAT = 1000


def _terms(text: str, options: Options) -> tuple[Term, ...]:
    parts = text.split("+")
    if options.classic and len(parts) > 1:
        raise _LineError("augmentation (+) is not allowed in Payola Classic")
    terms: list[Term] = []
    for part in parts:
        match = _TERM.match(part.strip())
        if match is None:
            raise _LineError(f"bad amount '{part.strip()}': expected e.g. 5, 3*5, 5#2 or 3*5#")
        amount = int(match["amount"])
        repeat = int(match["rep"]) if match["rep"] is not None else 1
        if options.classic and (match["rep"] is not None or match["hash"]):
            raise _LineError("repetition (*) and plateaus (#) are not allowed in Payola Classic")
        if repeat < 1:
            raise _LineError("a repetition count must be at least 1")
        if repeat > _MAX_REPEAT or amount > _MAX_AMOUNT:
            raise _LineError("that number is too large")
        plateau = 0
        if match["hash"]:
            plateau = int(match["plateau"]) if match["plateau"] else amount
        if plateau > amount:
            raise _LineError(f"the plateau ({plateau}) is above the amount ({amount})")
        terms.extend([Term(amount, plateau)] * repeat)
    return tuple(terms)


def parse_line(
    line: int, text: str, position: Position, power: str, options: Options, dummies: Collection[str] = ()
) -> Offer | int | None:
    """One line: an :class:`Offer`, a savings amount, or ``None`` for blank or comment.

    Raises :class:`ValueError` with the reason when the line is not a valid offer.
    """
    body = text.split("%", 1)[0].strip()
    if not body:
        return None
    savings = _SAVINGS.match(body)
    if savings:
        if options.classic:
            raise ValueError("savings requests are not allowed in Payola Classic")
        return int(savings["amount"])
    match = _OFFER.match(body)
    if match is None or not match["amounts"].strip():
        symbol = re.search(r"[:!>@&]", body)
        if symbol is None or not body[: symbol.start()].strip():
            raise ValueError("expected an offer such as '4 : A LON - YOR' or a savings request such as '10 $'")
        amounts = body[: symbol.start()].strip()
        raise ValueError(f"bad amount '{amounts}' (an offer is: amount, type symbol : ! > @ &, unit and order)")
    try:
        return _offer(line, body, match, position, power, options, dummies)
    except _LineError as exc:
        raise ValueError(str(exc)) from None


def _offer(
    line: int, body: str, match: re.Match[str], position: Position, power: str, options: Options,
    dummies: Collection[str],
) -> Offer:
    kind = OfferKind(match["kind"])
    if options.classic and kind is not OfferKind.DIRECT:
        raise _LineError("only direct offers (:) are allowed in Payola Classic")
    terms = _terms(match["amounts"], options)
    first, *alternatives = (part.strip() for part in match["rest"].split("|"))
    if options.classic and alternatives:
        raise _LineError("alternatives (|) are not allowed in Payola Classic")
    game_map = position.game_map
    try:
        order = parse_order(first, game_map)
    except OrderSyntaxError as exc:
        raise _LineError(str(exc)) from None
    if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
        raise _LineError(f"'{first}' is not a movement order")
    ordered = order.unit
    placed = position.units.get(ordered.province)
    if placed is None or (ordered.type is not None and ordered.type is not placed.unit.type):
        raise _LineError(f"there is no unit {ordered} on the board")
    unit = placed.unit
    if options.loyal_units and placed.power not in dummies:
        raise _LineError(f"{placed.power.title()}'s units are loyal: only units of dummy powers take bribes")
    orders: list[MovementOrder] = []
    for part_number, text in enumerate([first, *alternatives]):
        if part_number and not text:
            raise _LineError("empty alternative after '|'")
        try:
            parsed = order if part_number == 0 else parse_order(f"{unit} {text}", game_map)
        except OrderSyntaxError as exc:
            raise _LineError(f"alternative '{text}': {exc} (give only the order part after '|')") from None
        verdict = check_order(position, None, parsed)
        if verdict.illegal is not None:
            raise _LineError(f"'{parsed}' is not a legal order for {unit}: {verdict.illegal.message}")
        normal = verdict.order
        assert isinstance(normal, Hold | Move | SupportHold | SupportMove | Convoy)
        if normal in orders:
            raise _LineError(f"the order '{normal}' appears twice in this offer")
        orders.append(normal)
    if sum(t.amount for t in terms) == 0 and placed.power != power and not options.classic:
        raise _LineError("zero offers to foreign units are not allowed")
    return Offer(line, body, kind, unit, tuple(orders), terms)


def parse_sheet(
    text: str, position: Position, power: str, options: Options | None = None, dummies: Collection[str] = ()
) -> tuple[OfferSheet, list[SheetError]]:
    """Parse a whole sheet; the sheet is valid only if the error list is empty.

    Under ``BLIND`` (6.3) an offer to a unit that is not there, or naming one that is not,
    is not an error: it is set aside silently in ``ignored``.
    """
    options = options or Options()
    offers: list[Offer] = []
    errors: list[SheetError] = []
    ignored: list[str] = []
    savings = 0
    units_offered: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        try:
            parsed = parse_line(number, raw, position, power, options, dummies)
        except ValueError as exc:
            if options.blind and _names_absent_unit(raw, position):
                ignored.append(raw.strip())
            else:
                errors.append(SheetError(number, raw.strip(), str(exc)))
            continue
        if parsed is None:
            continue
        if isinstance(parsed, int):
            savings += parsed
            continue
        if options.classic and parsed.unit.province in units_offered:
            errors.append(SheetError(number, raw.strip(), "Payola Classic allows one offer per unit"))
            continue
        units_offered.add(parsed.unit.province)
        offers.append(parsed)
    if errors:
        return OfferSheet(), errors
    return OfferSheet(tuple(offers), savings, tuple(ignored)), []


def _names_absent_unit(raw: str, position: Position) -> bool:
    """Whether a line names a unit that is not on the board (what BLIND players cannot see)."""
    match = _OFFER.match(raw.split("%", 1)[0].strip())
    if match is None:
        return False
    prefix = ""
    for part in match["rest"].split("|"):
        try:
            order = parse_order(f"{prefix}{part.strip()}", position.game_map)
        except OrderSyntaxError:
            continue
        if not isinstance(order, Hold | Move | SupportHold | SupportMove | Convoy):
            continue
        prefix = prefix or f"{order.unit} "
        for unit in (getattr(order, "unit", None), getattr(order, "supported", None), getattr(order, "army", None)):
            if unit is not None:
                placed = position.units.get(unit.province)
                if placed is None or (unit.type is not None and unit.type is not placed.unit.type):
                    return True
    return False
