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

Limits (not in the rules: they bound what a phase costs the judge, :class:`Limits`).  Order
determination runs rule 5.5's rounds by events, but when powers outbid each other on a unit
with amounts that kink at different rounds it often cannot jump and goes one round at a time
(`judge.payola.determination`), each round looking at every bribed unit.  A power is over for
at most twice its largest amount's worth of rounds (down to its plateaus, then to zero), so
the largest amount bounds the rounds, and the offers and amounts of a sheet bound what a round
and the reading cost.  So: an amount or a plateau is at most 500 AgP (a larger offer is written
with repetition, ``4*500``, each amount reduced on its own), a repetition count at most 100, an
offer line at most 100 amounts (repetitions counted), a sheet at most 300 offers and 1,000
amounts as written (each ``+`` part once: ``3*5`` is one), and a savings request at most
1,000,000 AgP; a line as written holds at most 2,000 characters and a sheet 30,000, comments
included (what the judge keeps of a sheet).  Seven sheets at these limits, in the worst
arrangement found (bench/abuse_bench.py: every power bidding 100 amounts, each with its own
plateau, for a different order of one army, and 299 one-AgP offers over every other unit's
orders), take about 0.4 s of order determination, eBayola or not, against 7 s with one line of
100 amounts up to 1,000 AgP and 166 s with one line of one amount up to 1,000,000 (the limit
before).

Every sheet of a phase names the same few orders and amounts over and over, so each order
text is parsed and checked for legality once per position, and each amount text read once,
by a :class:`PhaseReader` shared by the phase's sheets.  The caller makes the reader and passes
it to each sheet of the phase: no registry of readers outlives the phase (one kept per position
held every position it had ever read, for as long as the process ran).

A line is split once, at its type symbol, into its amount text and its orders part, and each
is looked up as written (a ``+`` part of an amount text is looked up among the amount texts
too), so that a line costs the split, two lookups, the checks that depend on the sheet and its
:class:`Offer`.  Offers are named tuples, the cheapest immutable value to build once a line.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from judge.engine.legal import Illegal, checker
from judge.engine.map import GameMap
from judge.engine.orders import (
    MovementOrder,
    Order,
    OrderSyntaxError,
    Unit,
    UnitType,
    parse_order,
)
from judge.engine.position import PlacedUnit, Position
from judge.language import gettext as _
from judge.payola.blind import absent, named_units
from judge.payola.options import Options
from judge.wording import power_title


class OfferKind(Enum):
    DIRECT = ":"
    NEGATIVE = "!"
    MOVE = ">"
    HOLD = "@"
    GIFT = "&"


class Term(NamedTuple):
    """One separately reducible amount of an offer, and the plateau it reduces to first (a named
    tuple, like :class:`Offer`: one is built for every amount text a phase reads)."""

    amount: int
    plateau: int = 0


class Offer(NamedTuple):
    """One line of an offer sheet, validated against the position.

    A named tuple, immutable and compared by value like the other values here: one is built
    for every line of every sheet, and a tuple is built in a third of a frozen dataclass's time.
    """

    line: int
    text: str
    kind: OfferKind
    unit: Unit
    orders: tuple[MovementOrder, ...]
    terms: tuple[Term, ...]

    @property
    def amount(self) -> int:
        return sum(t.amount for t in self.terms)


_new_offer = tuple.__new__  # builds an Offer in C, not through the named tuple's __new__


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

    Under ``BLIND``, ``ignored`` keeps the lines set aside for naming a unit the power does not
    see (absent, or out of its sight), and ``unseen`` the numbers of every line naming such a
    unit, kept as an offer or set aside: the judge answers them all alike (rule 6.3).
    """

    offers: tuple[Offer, ...] = ()
    savings: int = 0
    ignored: tuple[str, ...] = ()
    unseen: tuple[int, ...] = ()


class _LineError(Exception):
    """A bad amount: its message is the line's error."""


_OFFER = re.compile(r"^(?P<amounts>[0-9*#+\s]*)(?P<kind>[:!>@&])\s*(?P<rest>.*)$")
_TERM = re.compile(r"^(?:(?P<rep>\d+)\s*\*\s*)?(?P<amount>\d+)\s*(?:(?P<hash>#)\s*(?P<plateau>\d*))?$")
_SAVINGS = re.compile(r"^(?P<amount>\d+)\s*\$$")
_KINDS = {kind.value: kind for kind in OfferKind}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one offer sheet may hold (see the module's header for why these numbers)."""

    amount: int = 500
    """The largest amount or plateau, in AgP: it bounds the reduction rounds."""
    savings: int = 1_000_000
    """The largest savings request, in AgP."""
    repeat: int = 100
    """The largest repetition count."""
    terms: int = 100
    """The most amounts one offer line may hold, repetitions counted: each is reduced on its own."""
    offers: int = 300
    """The most offers one sheet may hold."""
    written: int = 1000
    """The most amounts one sheet may hold as written: each ``+`` part once, whatever its repetition."""
    line: int = 2000
    """The most characters of one line as written, its comment included: 100 amounts written out
    (``1*500#500 + ...``) and their order are 1,211."""
    characters: int = 30_000
    """The most characters of one sheet as written, its comments included: a sheet at the other limits
    is about a third of it; the judge keeps a sheet twice (as sent, and in its phase's record)."""


LIMITS = Limits()
"""The judge's limits."""


_Amounts = tuple[tuple[Term, ...], int]
"""An offer's terms (repetitions expanded) and their sum."""


def _number(digits: str, limit: int, what: str) -> int:
    """A number no larger than ``limit`` (a huge one is refused on its length, before conversion)."""
    figures = digits.lstrip("0") or "0"  # 5,000 zeros and a 1 is 1, read without its zeros
    value = int(figures) if len(figures) <= 18 else limit + 1
    if value > limit:
        most = {"amount": _("an amount (AgP) can be at most {limit}", limit=limit),
                "repetition": _("a repetition count can be at most {limit}", limit=limit),
                "plateau": _("a plateau (AgP) can be at most {limit}", limit=limit),
                "savings": _("a savings request (AgP) can be at most {limit}", limit=limit)}
        raise _LineError(most[what])
    return value


def _term(part: str, classic: bool, limits: Limits) -> _Amounts:
    """One ``+`` part of an offer's amounts: its repeated term (``3*5#2``), and their sum."""
    match = _TERM.match(part)
    if match is None:
        raise _LineError(_("bad amount '{amount}': expected e.g. 5, 3*5, 5#2 or 3*5#", amount=part))
    rep, digits, hash_mark, plateau_digits = match.groups()
    if classic and (rep is not None or hash_mark):
        raise _LineError(_("repetition (*) and plateaus (#) are not allowed in Payola Classic"))
    amount = _number(digits, limits.amount, "amount")
    repeat = 1 if rep is None else _number(rep, limits.repeat, "repetition")
    if repeat < 1:
        raise _LineError(_("a repetition count must be at least 1"))
    plateau = 0
    if hash_mark:
        plateau = _number(plateau_digits, limits.amount, "plateau") if plateau_digits else amount
    if plateau > amount:
        raise _LineError(_("the plateau ({plateau}) is above the amount ({amount})", plateau=plateau, amount=amount))
    return (Term(amount, plateau),) * repeat, amount * repeat


def _savings(digits: str, classic: bool, limits: Limits) -> int:
    """A savings request's amount (3.4)."""
    if classic:
        raise ValueError(_("savings requests are not allowed in Payola Classic"))
    try:
        return _number(digits, limits.savings, "savings")
    except _LineError as exc:
        raise ValueError(str(exc)) from None


AMOUNT_WORDS = "an amount is a whole number of AgP, 0 or more"
"""What a negative or fractional amount is answered (an offer's, a savings request's, a transfer's)."""
NOT_WHOLE = re.compile(r"[-\u2013\u2014\u2212]\s*\d+(?:[.,]\d*)?|\d*[.,]\d+")
"""An amount written with a minus sign (or a dash) or with a fraction: ``-3``, ``3.5``, ``,5``."""


def _not_an_offer(body: str) -> str:
    """What is wrong with a line that has no amount and type symbol where an offer starts."""
    symbol = re.search(r"[:!>@&$]", body)
    amounts = body[: symbol.start()].strip() if symbol is not None else ""
    if NOT_WHOLE.fullmatch(amounts):
        return _("'{amount}': an amount is a whole number of AgP, 0 or more", amount=amounts)
    if symbol is None or symbol.group() == "$" or not amounts:
        return _("expected an offer such as '4 : A LON - YOR' or a savings request such as '10 $'")
    return _("bad amount '{amount}' (an offer is: amount, type symbol : ! > @ &, unit and order)", amount=amounts)


def shape_error(text: str, game_map: GameMap, options: Options, limits: Limits = LIMITS) -> str | None:
    """What is wrong with an offer line or savings request as written, read on ``game_map`` alone, with no
    position: its amounts and type symbol, and its orders' syntax (the first a movement order, each ``|``
    alternative an order part); None if nothing is.  An offer kept for a later phase (``PHASE S1902M``)
    is checked so when it comes, and whole against the board and the treasury when its phase opens."""
    body = text.partition("%")[0].strip()
    if not body:
        return None
    try:
        if body[-1] == "$" and (savings := _SAVINGS.match(body)):
            _savings(savings["amount"], options.classic, limits)
            return None
        match = _OFFER.match(body)
        if match is None or not match["amounts"].strip():
            return _not_an_offer(body)
        if options.classic and _KINDS[match["kind"]] is not OfferKind.DIRECT:
            return _("only direct offers (:) are allowed in Payola Classic")
        for part in match["amounts"].split("+"):
            _term(part.strip(), options.classic, limits)
    except (_LineError, ValueError) as exc:
        return str(exc)
    first, *alternatives = (part.strip() for part in match["rest"].split("|"))
    if options.classic and alternatives:
        return _("alternatives (|) are not allowed in Payola Classic")
    try:
        order = parse_order(first, game_map)
        if not isinstance(order, MovementOrder):
            return _("'{order}' is not a movement order", order=first)
        for alternative in alternatives:
            parse_order(f"{order.unit} {alternative}", game_map)
    except OrderSyntaxError as exc:
        return str(exc)
    return None


class _Reading(NamedTuple):
    """The orders part of an offer (after the type symbol) as read against the position.

    ``placed`` is ``None`` when the first order names no unit on the board (``error`` says
    why); otherwise ``error``, if set, is what is wrong with the orders.
    """

    placed: PlacedUnit | None
    orders: tuple[MovementOrder, ...]
    error: str | None
    alternatives: bool


class PhaseReader:
    """What the sheets of one movement phase share: its position, and the order and amount
    texts read so far (rule 3.1 items 1-4 and 6-8), each read and checked only once.

    Reading an order depends only on the position, and reading an amount only on the
    options and ``limits``, so a remembered answer is the answer; an error is remembered as
    its message.
    """

    def __init__(self, position: Position, limits: Limits = LIMITS) -> None:
        self.position = position
        self.limits = limits
        self._normal_form = checker(position.phase.kind)  # the engine's legality check, without its Verdict
        self._orders: dict[str, tuple[PlacedUnit, MovementOrder | str] | str] = {}
        self._alternatives: dict[tuple[Unit, str], MovementOrder | str] = {}
        self._readings: dict[str, _Reading] = {}
        self._amounts: dict[str, _Amounts | str] = {}  # and each ``+`` part of them
        self._classic_amounts: dict[str, _Amounts | str] = {}  # Payola Classic reads amounts apart

    def line(self, line: int, text: str, power: str, options: Options, dummies: Collection[str]) -> Offer | int | None:
        """One line: an :class:`Offer`, a savings amount, or ``None`` for blank or comment;
        :class:`ValueError` saying what is wrong with a bad line."""
        body = text.partition("%")[0].strip()
        if not body:
            return None
        if body[-1] == "$":
            savings = _SAVINGS.match(body)
            if savings:
                return _savings(savings["amount"], options.classic, self.limits)
        match = _OFFER.match(body)
        if match is None:
            raise ValueError(_not_an_offer(body))
        amounts, symbol, rest = match.groups()  # ``rest`` is stripped, as ``body`` is
        if not amounts:  # nothing (``body`` is stripped) before the type symbol
            raise ValueError(_not_an_offer(body))
        kind = _KINDS[symbol]
        classic = options.classic
        if classic and kind is not OfferKind.DIRECT:
            raise ValueError(_("only direct offers (:) are allowed in Payola Classic"))
        known = self._classic_amounts if classic else self._amounts
        read = known.get(amounts)
        if read is None:
            read = known[amounts] = self._read_amounts(amounts, classic)
        if isinstance(read, str):
            raise ValueError(read)
        terms, total = read
        reading = self._readings.get(rest)
        if reading is None:
            reading = self._readings[rest] = self._read(rest)
        placed, orders, error, alternatives = reading
        if classic and alternatives:
            raise ValueError(_("alternatives (|) are not allowed in Payola Classic"))
        if placed is None:
            raise ValueError(error)
        if options.loyal_units and placed.power not in dummies:
            raise ValueError(_("{power}'s units are loyal: only units of dummy powers take bribes",
                               power=power_title(placed.power)))
        if error is not None:
            raise ValueError(error)
        if not total and placed.power != power and not classic:
            raise ValueError(_("zero offers to foreign units are not allowed"))
        return _new_offer(Offer, (line, body, kind, placed.unit, orders, terms))

    def _read_amounts(self, text: str, classic: bool) -> _Amounts | str:
        """An offer's amounts (the text before its type symbol, as written), or why not.

        A text without ``+`` is one term, repeated or not.  A text with ``+`` adds up its parts,
        each looked up (and remembered) among the amount texts, as a line of that one part
        would be: most parts are such lines too."""
        if "+" not in text:
            try:
                return _term(text.strip(), classic, self.limits)
            except _LineError as exc:
                return str(exc)
        if classic:
            return _("augmentation (+) is not allowed in Payola Classic")
        known = self._amounts
        terms: list[Term] = []
        total = 0
        for part in text.split("+"):
            read = known.get(part)
            if read is None:
                read = known[part] = self._read_amounts(part, classic)
            if isinstance(read, str):
                return read
            terms.extend(read[0])
            total += read[1]
            if len(terms) > self.limits.terms:
                return _("an offer can hold at most {limit} amounts, repetitions counted", limit=self.limits.terms)
        return tuple(terms), total

    def _read(self, rest: str) -> _Reading:
        """An offer's orders part: its first order, then each ``|`` alternative (3.1 items 6-8)."""
        first, *alternatives = (part.strip() for part in rest.split("|")) if "|" in rest else (rest,)
        head = self._orders.get(first)
        if head is None:
            head = self._orders[first] = self._read_order(first)
        if isinstance(head, str):
            return _Reading(None, (), head, bool(alternatives))
        placed, order = head
        if isinstance(order, str):
            return _Reading(placed, (), order, bool(alternatives))
        orders = [order]
        for text in alternatives:
            normal = self._alternative(placed.unit, text) if text else _("empty alternative after '|'")
            if not isinstance(normal, str) and normal in orders:
                normal = _("the order '{order}' appears twice in this offer", order=normal)
            if isinstance(normal, str):
                return _Reading(placed, (), normal, True)
            orders.append(normal)
        return _Reading(placed, tuple(orders), None, bool(alternatives))

    def _read_order(self, text: str) -> tuple[PlacedUnit, MovementOrder | str] | str:
        """The unit an offer's first order is for, and that order in normal form or why it is
        illegal; or why the text is not a movement order of a unit on the board."""
        position = self.position
        try:
            order = parse_order(text, position.game_map)
        except OrderSyntaxError as exc:
            return str(exc)
        if not isinstance(order, MovementOrder):
            return _("'{order}' is not a movement order", order=text)
        ordered = order.unit
        placed = position.units.get(ordered.province)
        if placed is None:
            return _("there is no unit {unit} on the board", unit=ordered)
        if ordered.type is not None and ordered.type is not placed.type:
            if placed.type is UnitType.ARMY:
                return _("the unit in {province} is an army ({unit})", province=ordered.province, unit=placed.unit)
            return _("the unit in {province} is a fleet ({unit})", province=ordered.province, unit=placed.unit)
        return placed, self._legal(order, placed.unit)

    def _alternative(self, unit: Unit, text: str) -> MovementOrder | str:
        """An order given after ``|`` (only its order part) for ``unit``, in normal form, or why not."""
        key = (unit, text)
        found = self._alternatives.get(key)
        if found is None:
            try:
                parsed = parse_order(f"{unit} {text}", self.position.game_map)
            except OrderSyntaxError as exc:
                found = _("alternative '{text}': {reason} (give only the order part after '|')", text=text,
                          reason=exc)
            else:
                found = self._legal(parsed, unit)
            self._alternatives[key] = found
        return found

    def _legal(self, order: Order, unit: Unit) -> MovementOrder | str:
        normal = self._normal_form(self.position, None, order)
        if isinstance(normal, Illegal):
            return _("'{order}' is not a legal order for {unit}: {reason}", order=order, unit=unit,
                     reason=normal.message)
        assert isinstance(normal, MovementOrder)
        return normal


def parse_line(
    line: int, text: str, position: Position, power: str, options: Options, dummies: Collection[str] = (),
    reader: PhaseReader | None = None,
) -> Offer | int | None:
    """One line: an :class:`Offer`, a savings amount, or ``None`` for blank or comment.

    Raises :class:`ValueError` with the reason when the line is not a valid offer.
    """
    return (reader or PhaseReader(position)).line(line, text, power, options, dummies)


def parse_sheet(
    text: str, position: Position, power: str, options: Options | None = None, dummies: Collection[str] = (),
    reader: PhaseReader | None = None, seen: Position | None = None,
) -> tuple[OfferSheet, list[SheetError]]:
    """Parse a whole sheet; the sheet is valid only if the error list is empty.

    Under ``BLIND`` (6.3 items 6 and 7) a line naming a unit the power does not see, on
    ``seen`` (the board as the power sees it, :func:`judge.payola.blind.as_seen`; by default
    the whole board), is never an error: it counts if it is a valid offer (the unit may be
    there, out of sight), and is set aside silently in ``ignored`` otherwise, so that an offer
    to an absent unit and one to a unit out of sight read alike.  ``reader`` (pass one for all
    the sheets of a phase, so each order text is read once) defaults to a new one, with the
    judge's :data:`LIMITS`.  The sheet's limits count the lines set aside like offers, so that
    what they say does not tell whether an unseen unit is there.
    """
    options = options or Options()
    if reader is None:
        reader = PhaseReader(position)
    assert reader.position is position, "a reader reads the sheets of its own position"
    limits = reader.limits
    offers: list[Offer] = []
    errors: list[SheetError] = []
    ignored: list[str] = []
    unseen: list[int] = []
    savings = 0
    counted = written = 0  # offers and amounts as written, with the lines set aside
    units_offered: set[str] = set()
    read_line, blind_game, classic = reader.line, options.blind, options.classic
    length = 0  # characters of the sheet so far, as written
    for number, raw in enumerate(text.splitlines(), 1):
        length += len(raw) + 1
        blind = blind_game and _names_absent_unit(raw, seen or position)
        if blind:
            unseen.append(number)
        try:
            parsed = read_line(number, raw, power, options, dummies)
        except ValueError as exc:
            if blind:
                ignored.append(raw.strip())
                counted, written = _count(errors, number, raw, counted, written, limits)
            else:
                errors.append(SheetError(number, raw.strip(), str(exc)))
            continue
        if len(raw) > limits.line or length - len(raw) - 1 <= limits.characters < length:
            line_limit, sheet_limit = format(limits.line, ","), format(limits.characters, ",")
            what = (_("a line holds at most {limit} characters", limit=line_limit) if len(raw) > limits.line
                    else _("a sheet holds at most {limit} characters as written, comments included",
                           limit=sheet_limit))
            errors.append(SheetError(number, raw.strip()[:limits.line], what))
            continue
        if parsed is None:
            continue
        if isinstance(parsed, int):
            savings += parsed
            continue
        counted, written = _count(errors, number, raw, counted, written, limits)
        if classic:
            if parsed.unit.province in units_offered:
                if blind:
                    ignored.append(raw.strip())
                else:
                    errors.append(SheetError(number, raw.strip(), _("Payola Classic allows one offer per unit")))
                continue
            units_offered.add(parsed.unit.province)
        offers.append(parsed)
    if errors:
        return OfferSheet(), errors
    return OfferSheet(tuple(offers), savings, tuple(ignored), tuple(unseen)), []


def _count(errors: list[SheetError], number: int, raw: str, counted: int, written: int,
           limits: Limits) -> tuple[int, int]:
    """Count an offer line toward its sheet's limits: the offers and the amounts as written
    (each ``+`` part once; an offer's text has no other ``+``).  The first line over a limit
    is an error quoting it."""
    parts = raw.partition("%")[0].count("+") + 1
    if counted == limits.offers:
        errors.append(SheetError(number, raw.strip(),
                                 _("a sheet can hold at most {limit} offers", limit=limits.offers)))
    elif written <= limits.written < written + parts:
        errors.append(SheetError(number, raw.strip(), _("a sheet can hold at most {limit} amounts as written (each + "
                                                        "part counts once: 3*5 is one)", limit=limits.written)))
    return counted + 1, written + parts


def _names_absent_unit(raw: str, position: Position) -> bool:
    """Whether an offer line names a unit that is not on ``position`` (what a BLIND player
    cannot see, when ``position`` is the board as it sees it)."""
    match = _OFFER.match(raw.split("%", 1)[0].strip())
    if match is None:
        return False
    prefix = ""
    for part in match["rest"].split("|"):
        try:
            order = parse_order(f"{prefix}{part.strip()}", position.game_map)
        except OrderSyntaxError:
            continue
        if not isinstance(order, MovementOrder):
            continue
        prefix = prefix or f"{order.unit} "
        if any(absent(unit, position) for unit in named_units(order)):
            return True
    return False
