"""Units and orders as frozen values, and the parser for standard order notation.

The parser understands what players type (``A PAR - BUR``, ``F NTH C A LON - NWY``,
``A LON - NWY VIA CONVOY``, ``F MAO - SPA/NC``, ``BUILD A PAR``, ``A PAR B``, ``F BRE D``,
``WAIVE``, full names such as ``London``) and turns it into values (``VIA`` alone is ``VIA
CONVOY``, and the en dash, the em dash and the minus sign that mail clients' autocorrect writes
are ``-``).  It checks only that an order is well formed and names real places; whether it is *legal* in a position is
:mod:`judge.engine.legal`'s business.  A missing unit type (``PAR - BUR``) is allowed: the
type is filled in from the board (DATC 4.C.1).

Parse once.  Units and orders are :class:`~judge.engine.values.TextValue`\\s: each is its
canonical text, computed once.  Each map has a :class:`Lexicon` that interns them (one
shared object per unit or order, built on first use, so the values passed around are
mostly the same few objects) and remembers what each order text parsed to, so an order
text seen before costs one dictionary lookup.  A new text written in canonical notation
(what JSON input and the engine's own output use) is read by splitting it into words and
looking each up in the map's tables; anything else (full names, aliases, other keywords
and spellings) goes through the free-text tokeniser.  Interning is only a cache: values
are compared by their text, never by identity, and the tables are bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache, cached_property, partial
from typing import Any, TypeVar, get_args

from judge.engine.map import GameMap, Location, MapError, normalise_name
from judge.engine.values import TextValue
from judge.language import gettext as _


class OrderSyntaxError(ValueError):
    """Text that is not an order: the message says what is wrong."""


class UnitType(Enum):
    ARMY = "A"
    FLEET = "F"


@dataclass(frozen=True, slots=True, eq=False)
class Unit(TextValue):
    """A unit designation: its type (``None`` when an order omitted it) and location."""

    type: UnitType | None
    location: Location
    text: str = field(init=False, repr=False)
    is_fleet: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.type, self.location))
        object.__setattr__(self, "is_fleet", self.type is UnitType.FLEET)

    @staticmethod
    def write(unit_type: UnitType | None, location: Location) -> str:
        return f"{unit_type.value} {location.text}" if unit_type else location.text

    @property
    def province(self) -> str:
        return self.location.province


@dataclass(frozen=True, slots=True, eq=False)
class Hold(TextValue):
    unit: Unit
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit))

    @staticmethod
    def write(unit: Unit) -> str:
        return f"{unit.text} H"


@dataclass(frozen=True, slots=True, eq=False)
class Move(TextValue):
    unit: Unit
    destination: Location
    via_convoy: bool = False
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit, self.destination, self.via_convoy))

    @staticmethod
    def write(unit: Unit, destination: Location, via_convoy: bool = False) -> str:
        return f"{unit.text} - {destination.text} VIA CONVOY" if via_convoy else f"{unit.text} - {destination.text}"


@dataclass(frozen=True, slots=True, eq=False)
class SupportHold(TextValue):
    """Support for a unit that is not moving (it holds, supports or convoys)."""

    unit: Unit
    supported: Unit
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit, self.supported))

    @staticmethod
    def write(unit: Unit, supported: Unit) -> str:
        return f"{unit.text} S {supported.text}"


@dataclass(frozen=True, slots=True, eq=False)
class SupportMove(TextValue):
    unit: Unit
    supported: Unit
    destination: Location
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit, self.supported, self.destination))

    @staticmethod
    def write(unit: Unit, supported: Unit, destination: Location) -> str:
        return f"{unit.text} S {supported.text} - {destination.text}"


@dataclass(frozen=True, slots=True, eq=False)
class Convoy(TextValue):
    unit: Unit
    army: Unit
    destination: Location
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit, self.army, self.destination))

    @staticmethod
    def write(unit: Unit, army: Unit, destination: Location) -> str:
        return f"{unit.text} C {army.text} - {destination.text}"


@dataclass(frozen=True, slots=True, eq=False)
class Retreat(TextValue):
    unit: Unit
    destination: Location
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit, self.destination))

    @staticmethod
    def write(unit: Unit, destination: Location) -> str:
        return f"{unit.text} - {destination.text}"


@dataclass(frozen=True, slots=True, eq=False)
class Disband(TextValue):
    """A dislodged unit disbanding in a retreat phase."""

    unit: Unit
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit))

    @staticmethod
    def write(unit: Unit) -> str:
        return f"{unit.text} D"


@dataclass(frozen=True, slots=True, eq=False)
class Build(TextValue):
    unit: Unit
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit))

    @staticmethod
    def write(unit: Unit) -> str:
        return f"BUILD {unit.text}"


@dataclass(frozen=True, slots=True, eq=False)
class Remove(TextValue):
    """A unit removed in an adjustment phase."""

    unit: Unit
    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write(self.unit))

    @staticmethod
    def write(unit: Unit) -> str:
        return f"REMOVE {unit.text}"


@dataclass(frozen=True, slots=True, eq=False)
class Waive(TextValue):
    """A build the power declines to make."""

    text: str = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._set_text(self.write())

    @staticmethod
    def write() -> str:
        return "WAIVE"


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
Order = MovementOrder | RetreatOrder | AdjustmentOrder
UnitOrder = MovementOrder | RetreatOrder | Build | Remove  # the orders of one unit: all but WAIVE


class PhaseKind(Enum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


# -- interning ---------------------------------------------------------------------------

V = TypeVar("V", bound=TextValue)

_TABLE_LIMIT = 1 << 17  # entries per table; a full table starts again empty
_TYPES = {"A": UnitType.ARMY, "F": UnitType.FLEET}


class Lexicon:
    """The units and orders of one map, each one shared object, and the order texts read so far."""

    def __init__(self, game_map: GameMap) -> None:
        self.game_map = game_map
        self._values: dict[type[TextValue], dict[str, Any]] = {kind: {} for kind in (Unit, *get_args(Order))}
        self._readers = {kind: partial(self._read, {}, kind) for kind in PhaseKind}
        self._arrivals: dict[str, Unit] = {}  # by the text of the move

    def make(self, kind: type[V], *fields: Any) -> V:
        """The shared value ``kind(*fields)``, looked up by its text and built the first time."""
        text = kind.write(*fields)
        table = self._values[kind]
        found: V | None = table.get(text)
        if found is None:
            if len(table) >= _TABLE_LIMIT:
                table.clear()
            found = table[text] = kind(*fields)
        return found

    def unit(self, unit_type: UnitType | None, location: Location) -> Unit:
        return self.make(Unit, unit_type, location)

    def arrival(self, move: Move) -> Unit:
        """The unit a successful move leaves on the board: the moving unit at its destination."""
        found = self._arrivals.get(move.text)
        if found is None:
            if len(self._arrivals) >= _TABLE_LIMIT:
                self._arrivals.clear()
            found = self._arrivals[move.text] = self.unit(move.unit.type, move.destination)
        return found

    def parse(self, text: str, phase: PhaseKind) -> Order:
        """The order a text denotes in a phase of this kind (see :func:`parse_order`)."""
        return self._readers[phase](text)

    def reader(self, phase: PhaseKind) -> Callable[[str], Order]:
        """:meth:`parse` for phases of one kind: what to call for each of many orders."""
        return self._readers[phase]

    def _read(self, seen: dict[str, Order], phase: PhaseKind, text: str) -> Order:
        order = seen.get(text)
        if order is None:
            order = self._canonical(text.split(), phase) or _parse_free(text, self, phase)
            if len(seen) >= _TABLE_LIMIT:
                seen.clear()
            seen[text] = order
        return order

    def _word_unit(self, kind: str, where: str) -> Unit | None:
        found: Unit | None = self._values[Unit].get(f"{kind} {where}")
        if found is not None or kind not in _TYPES or where not in self.game_map.locations:
            return found
        return self.unit(_TYPES[kind], self.game_map.locations[where])

    def _canonical(self, words: list[str], phase: PhaseKind) -> Order | None:
        """An order written in canonical notation, read word by word; ``None`` for anything else."""
        if words == ["WAIVE"]:
            return self.make(Waive)
        if len(words) == 3 and words[0] in ("BUILD", "REMOVE"):
            unit = self._word_unit(words[1], words[2])
            if unit is None:
                return None
            return self.make(Build, unit) if words[0] == "BUILD" else self.make(Remove, unit)
        unit = self._word_unit(*words[:2]) if len(words) >= 3 else None
        if unit is None:
            return None
        rest, places = words[2:], self.game_map.locations
        match rest:
            case ["H"]:
                return self.make(Hold, unit)
            case ["D"]:
                return self.make(Remove, unit) if phase is PhaseKind.ADJUSTMENT else self.make(Disband, unit)
            case ["-", where] if where in places:
                if phase is PhaseKind.RETREAT:
                    return self.make(Retreat, unit, places[where])
                return self.make(Move, unit, places[where], False)
            case ["-", where, "VIA", "CONVOY"] | ["-", where, "VIA"] if (
                    where in places and phase is not PhaseKind.RETREAT):
                return self.make(Move, unit, places[where], True)
            case ["S", kind, where]:
                other = self._word_unit(kind, where)
                return None if other is None else self.make(SupportHold, unit, other)
            case ["S" | "C" as verb, kind, where, "-", dest] if dest in places:
                other = self._word_unit(kind, where)
                if other is None:
                    return None
                if verb == "S":
                    return self.make(SupportMove, unit, other, places[dest])
                return self.make(Convoy, unit, other, places[dest])
        return None

    @cached_property
    def standing(self) -> dict[str, Unit]:
        """Every unit that can stand on the board, by its canonical text (``A PAR``, ``F STP/SC``)."""
        game_map = self.game_map
        armies = (self.unit(UnitType.ARMY, game_map.place(p)) for p in game_map.provinces if game_map.army_can_stand(p))
        fleets = (self.unit(UnitType.FLEET, loc) for p in game_map.provinces for loc in game_map.fleet_locations(p))
        return {unit.text: unit for unit in (*armies, *fleets)}

    @cached_property
    def names_pattern(self) -> re.Pattern[str]:
        """The map's names of several words (and with hyphens), for the free-text tokeniser."""
        return _name_pattern(self.game_map)


@cache
def lexicon(game_map: GameMap) -> Lexicon:
    """The map's lexicon (one per map, kept as long as the map)."""
    return Lexicon(game_map)


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
DASHES = str.maketrans("\u2013\u2014\u2212", "---")
"""The en dash, the em dash and the minus sign, which mail clients' autocorrect makes of ``-``:
read as ``-``."""


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


def _tokenise(text: str, lex: Lexicon) -> list[_Token]:
    game_map = lex.game_map
    line = text.upper().translate(DASHES)
    line = re.sub(r"\(\s*([A-Z]+)(?:\s+COAST)?\s*\)", r"/\1", line)
    line = re.sub(r"\s*/\s*(NORTH|SOUTH|EAST|WEST)(?:\s+COAST)?\b", lambda m: "/" + m.group(1)[0] + "C", line)
    line = re.sub(r"\s*/\s*", "/", line)
    # Multi-word names (and names with hyphens, "Mid-Atlantic") become their ids first.
    line = lex.names_pattern.sub(lambda m: game_map.names[normalise_name(m.group(0))], line)
    tokens: list[_Token] = []
    for raw in _TOKEN.findall(line):
        kind = _KEYWORDS.get(raw)
        if kind is None:
            kind = "LOC"
        tokens.append(_Token(kind, raw))
    return tokens


def leads_with_place(text: str, game_map: GameMap) -> bool:
    """Whether ``text`` reads as an order that leaves its unit's type out (``PAR - BUR``, ``Paris
    holds``, ``MUN S PAR - BUR``): a place of ``game_map`` first, then an order's word.  Prose whose
    first word is also a place's abbreviation somewhere is not (``Hi judge,``, ``OK, here are my
    orders``, ``Bob``: HI and OK are provinces of the empire map, BOB of the modern one): another
    word follows the place, or nothing does (the parser would read ``PAR`` alone as a hold, but
    nobody orders a hold so, and a name signing a mail is common), or the word ends in a comma, as
    an order's place never does."""
    tokens = _tokenise(text, lexicon(game_map))
    if not tokens or tokens[0].kind != "LOC" or text.split()[0].endswith((",", "!", "?")):
        return False
    if normalise_name(tokens[0].text.partition("/")[0]) not in game_map.names:
        return False
    return len(tokens) > 1 and tokens[1].kind != "LOC"


def _expected(what: str, found: str | None) -> str:
    """What a player is told when ``what`` (a place of an order: `_place`) is missing, in whole sentences;
    ``found`` is what stood there (None: the order ended)."""
    if found is None:
        found = _("end of order")
    return {
        "unit": _("expected the province of a unit, found '{found}'", found=found),
        "supported": _("expected the province of the supported unit, found '{found}'", found=found),
        "convoyed": _("expected the province of the convoyed army, found '{found}'", found=found),
        "destination": _("expected a destination, found '{found}'", found=found),
        "supported move": _("expected the supported move's destination, found '{found}'", found=found),
        "convoy": _("expected the convoy's destination, found '{found}'", found=found),
    }[what]


def _location(tok: _Token | None, game_map: GameMap, what: str) -> Location:
    if tok is None:
        raise OrderSyntaxError(_expected(what, None))
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
        raise OrderSyntaxError(_expected(what, tokens.items[tokens.pos].text if not tokens.done() else None))
    return _location(tok, game_map, what)


def _unit(tokens: _Tokens, lex: Lexicon, what: str = "unit") -> Unit:
    kind = tokens.take("A", "F")
    unit_type = None if kind is None else UnitType(kind.kind)
    return lex.unit(unit_type, _place(tokens, lex.game_map, what))


def parse_order(text: str, game_map: GameMap, phase: PhaseKind = PhaseKind.MOVEMENT) -> Order:
    """Parse one order in standard notation for a phase of the given kind.

    The same text always gives the same (shared) value; see the module docstring.
    """
    return lexicon(game_map).parse(text, phase)


def _parse_free(text: str, lex: Lexicon, phase: PhaseKind) -> Order:
    """Parse any notation the tokeniser understands."""
    tokens = _Tokens(_tokenise(text, lex), text)
    if tokens.done():
        raise OrderSyntaxError(_("empty order"))
    if tokens.take("WAIVE"):
        order: Order = lex.make(Waive)
    elif tokens.take("B"):
        order = lex.make(Build, _unit(tokens, lex))
    elif tokens.peek("R") or (tokens.peek("D") and phase is PhaseKind.ADJUSTMENT):
        tokens.take("R", "D")
        order = lex.make(Remove, _unit(tokens, lex))
    else:
        order = _unit_order(tokens, lex, phase)
    if not tokens.done():
        raise OrderSyntaxError(_("unexpected '{rest}' at the end of the order", rest=tokens.rest()))
    return order


def _unit_order(tokens: _Tokens, lex: Lexicon, phase: PhaseKind) -> Order:
    unit = _unit(tokens, lex)
    game_map = lex.game_map
    if tokens.done() or tokens.take("H"):
        return lex.make(Hold, unit)
    if tokens.take("B"):
        return lex.make(Build, unit)
    if tokens.take("R"):
        return lex.make(Remove, unit)
    if tokens.take("D"):
        return lex.make(Remove, unit) if phase is PhaseKind.ADJUSTMENT else lex.make(Disband, unit)
    if tokens.take("-"):
        dest = _place(tokens, game_map, "destination")
        if tokens.take("VIA"):
            tokens.take("C")  # VIA alone is VIA CONVOY (the diplomacy package's and DPjudge's notation)
            if phase is PhaseKind.RETREAT:
                raise OrderSyntaxError(_("a retreat cannot be convoyed"))
            return lex.make(Move, unit, dest, True)
        return lex.make(Retreat, unit, dest) if phase is PhaseKind.RETREAT else lex.make(Move, unit, dest, False)
    if tokens.take("S"):
        supported = _unit(tokens, lex, "supported")
        if tokens.take("-"):
            return lex.make(SupportMove, unit, supported, _place(tokens, game_map, "supported move"))
        tokens.take("H")
        return lex.make(SupportHold, unit, supported)
    if tokens.take("C"):
        army = _unit(tokens, lex, "convoyed")
        if not tokens.take("-"):
            raise OrderSyntaxError(_("a convoy order needs the army's move: C A LON - NWY"))
        return lex.make(Convoy, unit, army, _place(tokens, game_map, "convoy"))
    raise OrderSyntaxError(_("expected H, -, S or C after '{unit}', found '{found}'", unit=unit,
                             found=tokens.items[tokens.pos].text))
