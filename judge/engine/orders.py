"""Units and orders as frozen values, and the parser for standard order notation.

The parser understands what players type (``A PAR - BUR``, ``F NTH C A LON - NWY``,
``A LON - NWY VIA CONVOY``, ``F MAO - SPA/NC``, ``BUILD A PAR``, ``A PAR B``, ``F BRE D``,
``WAIVE``, full names such as ``London``) and turns it into values.  It checks only that an
order is well formed and names real places; whether it is *legal* in a position is
:mod:`judge.engine.legal`'s business.  A missing unit type (``PAR - BUR``) is allowed: the
type is filled in from the board (DATC 4.C.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from judge.engine.map import GameMap, Location, MapError, normalise_name


class OrderSyntaxError(ValueError):
    """Text that is not an order: the message says what is wrong."""


class UnitType(Enum):
    ARMY = "A"
    FLEET = "F"


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit designation: its type (``None`` when an order omitted it) and location."""

    type: UnitType | None
    location: Location

    @property
    def province(self) -> str:
        return self.location.province

    @property
    def is_fleet(self) -> bool:
        return self.type is UnitType.FLEET

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}" if self.type else str(self.location)


@dataclass(frozen=True, slots=True)
class Hold:
    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} H"


@dataclass(frozen=True, slots=True)
class Move:
    unit: Unit
    destination: Location
    via_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}" + (" VIA CONVOY" if self.via_convoy else "")


@dataclass(frozen=True, slots=True)
class SupportHold:
    """Support for a unit that is not moving (it holds, supports or convoys)."""

    unit: Unit
    supported: Unit

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported}"


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: Unit
    supported: Unit
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} S {self.supported} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: Unit
    army: Unit
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} C {self.army} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: Unit
    destination: Location

    def __str__(self) -> str:
        return f"{self.unit} - {self.destination}"


@dataclass(frozen=True, slots=True)
class Disband:
    """A dislodged unit disbanding in a retreat phase."""

    unit: Unit

    def __str__(self) -> str:
        return f"{self.unit} D"


@dataclass(frozen=True, slots=True)
class Build:
    unit: Unit

    def __str__(self) -> str:
        return f"BUILD {self.unit}"


@dataclass(frozen=True, slots=True)
class Remove:
    """A unit removed in an adjustment phase."""

    unit: Unit

    def __str__(self) -> str:
        return f"REMOVE {self.unit}"


@dataclass(frozen=True, slots=True)
class Waive:
    """A build the power declines to make."""

    def __str__(self) -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder


class PhaseKind(Enum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


# -- parsing -----------------------------------------------------------------------------

_KEYWORDS = {
    "-": "-", "->": "-", "=>": "-", "TO": "-", "MOVE": "-", "MOVES": "-", "M": "-",
    "H": "H", "HOLD": "H", "HOLDS": "H", "STAND": "H", "STANDS": "H",
    "S": "S", "SUPPORT": "S", "SUPPORTS": "S", "SUP": "S",
    "C": "C", "CONVOY": "C", "CONVOYS": "C", "CON": "C",
    "VIA": "VIA", "BY": "VIA",
    "D": "D", "DISBAND": "D", "DISBANDS": "D",
    "R": "R", "REMOVE": "R", "REMOVES": "R",
    "B": "B", "BUILD": "B", "BUILDS": "B",
    "WAIVE": "WAIVE", "WAIVES": "WAIVE",
    "A": "A", "ARMY": "A", "F": "F", "FLEET": "F",
}
_TOKEN = re.compile(r"->|=>|-|[A-Z0-9.']+(?:/[A-Z]+)?")


@dataclass(frozen=True)
class _Token:
    kind: str  # a keyword from _KEYWORDS' values, or "LOC"
    text: str


class _Tokens:
    """A cursor over the tokens of one order line."""

    def __init__(self, tokens: list[_Token], line: str) -> None:
        self.items = tokens
        self.pos = 0
        self.line = line

    def peek(self, *kinds: str) -> bool:
        return self.pos < len(self.items) and self.items[self.pos].kind in kinds

    def take(self, *kinds: str) -> _Token | None:
        if self.peek(*kinds):
            self.pos += 1
            return self.items[self.pos - 1]
        return None

    def done(self) -> bool:
        return self.pos >= len(self.items)

    def rest(self) -> str:
        return " ".join(t.text for t in self.items[self.pos :])


def _name_pattern(game_map: GameMap) -> re.Pattern[str]:
    multi = sorted((n for n in game_map.names if not re.fullmatch(r"[A-Z0-9]+", n)), key=len, reverse=True)
    if not multi:
        return re.compile(r"(?!x)x")
    alts = "|".join(r"[\s.'-]+".join(re.escape(w) for w in n.split()) for n in multi)
    return re.compile(rf"(?<![A-Z0-9])(?:{alts})(?![A-Z0-9])")


_PATTERNS: dict[int, re.Pattern[str]] = {}


def _tokenise(text: str, game_map: GameMap) -> list[_Token]:
    line = text.upper()
    line = re.sub(r"\(\s*([A-Z]+)(?:\s+COAST)?\s*\)", r"/\1", line)
    line = re.sub(r"\s*/\s*(NORTH|SOUTH|EAST|WEST)(?:\s+COAST)?\b", lambda m: "/" + m.group(1)[0] + "C", line)
    line = re.sub(r"\s*/\s*", "/", line)
    pattern = _PATTERNS.get(id(game_map))
    if pattern is None:
        pattern = _PATTERNS[id(game_map)] = _name_pattern(game_map)
    # Multi-word names (and names with hyphens, "Mid-Atlantic") become their ids first.
    line = pattern.sub(lambda m: game_map.names[normalise_name(m.group(0))], line)
    tokens: list[_Token] = []
    for raw in _TOKEN.findall(line):
        kind = _KEYWORDS.get(raw)
        if kind is None:
            kind = "LOC"
        tokens.append(_Token(kind, raw))
    return tokens


def _location(tok: _Token | None, game_map: GameMap, what: str) -> Location:
    if tok is None:
        raise OrderSyntaxError(f"expected {what}")
    try:
        return game_map.location(tok.text)
    except MapError as exc:
        raise OrderSyntaxError(str(exc)) from None


def _place(tokens: _Tokens, game_map: GameMap, what: str) -> Location:
    """A location, where single-letter keywords are read as province names if they are ones."""
    tok = tokens.take("LOC")
    if tok is None and not tokens.done():
        # A keyword such as "B" might be a province abbreviation on some map.
        candidate = tokens.items[tokens.pos]
        if normalise_name(candidate.text) in game_map.names:
            tokens.pos += 1
            tok = candidate
    if tok is None:
        found = tokens.items[tokens.pos].text if not tokens.done() else "end of order"
        raise OrderSyntaxError(f"expected {what}, found '{found}'")
    return _location(tok, game_map, what)


def _unit(tokens: _Tokens, game_map: GameMap, what: str = "a unit") -> Unit:
    kind = tokens.take("A", "F")
    unit_type = None if kind is None else UnitType(kind.kind)
    return Unit(unit_type, _place(tokens, game_map, f"the province of {what}"))


def parse_order(text: str, game_map: GameMap, phase: PhaseKind = PhaseKind.MOVEMENT) -> Order:
    """Parse one order in standard notation for a phase of the given kind."""
    tokens = _Tokens(_tokenise(text, game_map), text)
    if tokens.done():
        raise OrderSyntaxError("empty order")
    if tokens.take("WAIVE"):
        order: Order = Waive()
    elif tokens.take("B"):
        order = Build(_unit(tokens, game_map))
    elif tokens.peek("R") or (tokens.peek("D") and phase is PhaseKind.ADJUSTMENT):
        tokens.take("R", "D")
        order = Remove(_unit(tokens, game_map))
    else:
        order = _unit_order(tokens, game_map, phase)
    if not tokens.done():
        raise OrderSyntaxError(f"unexpected '{tokens.rest()}' at the end of the order")
    return order


def _unit_order(tokens: _Tokens, game_map: GameMap, phase: PhaseKind) -> Order:
    unit = _unit(tokens, game_map)
    if tokens.done() or tokens.take("H"):
        return Hold(unit)
    if tokens.take("B"):
        return Build(unit)
    if tokens.take("R"):
        return Remove(unit)
    if tokens.take("D"):
        return Remove(unit) if phase is PhaseKind.ADJUSTMENT else Disband(unit)
    if tokens.take("-"):
        dest = _place(tokens, game_map, "a destination")
        if tokens.take("VIA"):
            if not tokens.take("C"):
                raise OrderSyntaxError("expected 'CONVOY' after 'VIA'")
            if phase is PhaseKind.RETREAT:
                raise OrderSyntaxError("a retreat cannot be convoyed")
            return Move(unit, dest, via_convoy=True)
        return Retreat(unit, dest) if phase is PhaseKind.RETREAT else Move(unit, dest)
    if tokens.take("S"):
        supported = _unit(tokens, game_map, "the supported unit")
        if tokens.take("-"):
            return SupportMove(unit, supported, _place(tokens, game_map, "the supported move's destination"))
        tokens.take("H")
        return SupportHold(unit, supported)
    if tokens.take("C"):
        army = _unit(tokens, game_map, "the convoyed army")
        if not tokens.take("-"):
            raise OrderSyntaxError("a convoy order needs the army's move: C A LON - NWY")
        return Convoy(unit, army, _place(tokens, game_map, "the convoy's destination"))
    found = tokens.items[tokens.pos].text
    raise OrderSyntaxError(f"expected H, -, S or C after '{unit}', found '{found}'")
