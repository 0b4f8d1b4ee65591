"""The letters' syntax: :func:`parse_letter` reads a player's letter into orders, and says what
is wrong with each line it cannot read.  This is the players' reference.

One order a line, in any case, with or without accents.  Areas are named by any of the board's
names — code, name or alias, spaces and dots ignored (``Flo``, ``Firenze``, ``Gulf of Naples``,
``gulfofnaples``, ``Kärnten``); players by name, by another name the board gives them (AoP's Holy
Roman Empire: ``Austria``, ``HRE``, ``Empire``) or by the first three letters or more of one.
A word of three letters or more that begins one area's name alone names it too (``Pist``, not
``Pis``: Pisa or Pistoia).
Units are written ``A``/``army``, ``F``/``fleet`` or ``G``/``garrison`` and the area
(``A Flo``); a fleet's coast as ``/nc`` or ``(sc)`` (``F Pro/sc``).  Amounts are whole ducats
(``12``, ``12d``, ``12 ducats``), at most 1,000,000.  Blank lines, lines ending with a colon (headings such as
``Ducat expenditures:``) and anything after ``#`` are skipped; a leading ``1.``, ``2)``, ``-``
or ``expense 3:`` is dropped.  Orders take effect in the order written (M30), phase by phase.
A line holds at most 1,000 characters, and an advance's route passes through each area at most
once, so it names fewer areas than the board has (a longer line or route is refused, saying so);
a letter holds at most 100 orders, of at most 10,000 characters in all.

Operations (phase C; AoP 9)::

    A Flo H                       hold (also: holds, stand)
    A Flo - Psa                   advance (also: ->, move, moves to, advance)
    A Psa - ETS - Nap             advance transported by the fleets in the areas between
    F EGL S A Psa - Mar           support: the area Mar, for the owner of the army in Psa
    F EGL S A Psa                 support: the army in Psa where it is (its hold, siege...)
    F EGL S Mar for France        support: the area Mar for France (for independent: for the
                                  independent unit there); without "for", for oneself
    F ETS T A Nap                 transport the owner of the army in Nap (also: convoy)
    F ETS T for Naples            transport for Naples; without "for", for oneself
    A Psa besiege                 besiege the city (also: B, siege)
    G Psa convert to A            convert (also: C); a garrison into A or F (the kind may be left
                                  out where the city is no port), an army or fleet into G
    allow Venice                  permissions this campaign (M51): allow Venice bribe, allow
                                  Venice straits, or both

Expenditures (phase C, carried out in D; AoP 10 to 12)::

    transfer 10 to Venice         D.1 (also: give, pay, loan ... to)
    assassinate Milan 30          D.2, 30 or more by threes
    bodyguard 3 [for Milan]       D.2, 3 or more by threes; without a name, one's own leader
    rebellion 15 Pisa             D.3 (also: rebel, start/raise/cause rebellion); the amount,
                                  fixed (15, 9 or 3), may be left out
    pacify 12 Pisa                D.3 (the amount may be left out)
    bribe 12 buy A Psa            D.4: operate, disband, buy, independent (to make a committed
                                  unit independent); ``bribe`` may be left out (12 buy A Psa)
    counter-bribe 6 A Psa         D.4 (also: counter, cb)
    excommunicate Venice          the Pope, in C.2 or A.7 (also: crusade)

Spring orders (phase A; AoP 5 to 7)::

    transfer 10 to Venice         A.4
    sell Pisa to Venice for 5     A.5; the buyer writes: buy Pisa from Florence for 5
    tax Pisa                      A.6, forced taxation (also: forced tax)
    pay A Psa                     A.7, keep the unit (also: keep, maintain); units not listed
                                  are disbanded once any A.7 order is written (M12)
    disband A Psa                 A.7 (also: remove); with an amount it is a bribe instead
    raise A Psa                   A.7, a new unit (also: build; raise F Nap, raise G Flo)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache

from judge.games.machiavelli.core.board import Board, ascii_name
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
    BribeKind,
    CounterBribe,
    Dismiss,
    Excommunicate,
    ForcedTax,
    LetterOrder,
    Pacify,
    Pay,
    Purchase,
    Raise,
    Sell,
    StartRebellion,
    Transfer,
)
from judge.games.machiavelli.core.orders import (
    Advance,
    Besiege,
    Convert,
    Grant,
    Hold,
    Order,
    Support,
    Transport,
    UnitRef,
)
from judge.games.machiavelli.core.position import Independent, Owner, UnitKind
from judge.language import gettext as _


@dataclass(frozen=True)
class Problem:
    """A line of a letter that is no order: its number, its text, and what is wrong."""

    number: int
    line: str
    message: str
    code: str = "SYNTAX"  # why, as a name that stays when the message is reworded: UNKNOWN_AREA, ...

    def __str__(self) -> str:
        return f'line {self.number} "{self.line}": {self.message}'


class _Unclear(Exception):
    """A line that cannot be read: the message says why, for people; ``code`` names why, for programs (SYNTAX
    where no more is named: the words are not an order's)."""

    def __init__(self, message: str, code: str = "SYNTAX") -> None:
        super().__init__(message)
        self.code = code


KINDS = {"a": UnitKind.ARMY, "army": UnitKind.ARMY, "f": UnitKind.FLEET, "fleet": UnitKind.FLEET,
         "g": UnitKind.GARRISON, "garrison": UnitKind.GARRISON}
HOLD = {"h", "hold", "holds", "stand", "stands"}
MOVE = {"-", "m", "move", "moves", "advance", "advances"}
SUPPORT = {"s", "support", "supports", "supp"}
TRANSPORT = {"t", "transport", "transports", "convoy", "convoys"}
BESIEGE = {"b", "besiege", "besieges", "siege", "beseige", "seige"}
CONVERT = {"c", "convert", "converts", "conversion", "conv"}
BRIBES = {"operate": BribeKind.OPERATE, "disband": BribeKind.DISBAND, "buy": BribeKind.BUY, "purchase": BribeKind.BUY,
          "independent": BribeKind.INDEPENDENT, "independence": BribeKind.INDEPENDENT,
          "autonomous": BribeKind.INDEPENDENT, "gta": BribeKind.INDEPENDENT, "convert": BribeKind.INDEPENDENT}
ORDER_WORDS = frozenset({*KINDS, *HOLD, *MOVE, *SUPPORT, *TRANSPORT, *BESIEGE, *CONVERT})
"""The words of an operation after its unit: none of them is part of an area's name."""
FILLERS = {"ducats", "ducat", "to", "for", "in", "into", "the", "at", "on", "of"}
COASTS = ("nc", "sc", "ec", "wc")
MAX_LINE = 1000
"""Characters of a letter line: no order is longer (a route through every area of AoP's board, by
code, is 606), and a longer line would only make the judge read, store and echo it."""
MAX_ORDERS = 100
"""Orders one letter holds (the mail edge refuses the lines past them): more than any country has
units and expenditures, far fewer than the 500 lines a mail may hold, each kept, echoed and
reported in the results."""
MAX_LETTER = 10_000
"""Characters of one letter's orders as read (each as it prints): a hundred orders of a line each are a
fifth of it, and a route as long as the board can have is 611; the judge keeps them (in the letter and
in the phase's record), and reports them to the writer and the game master, so that a letter of 20,000
took an AoP campaign's mail over the megabyte one mail may store (issue 55)."""
MAX_AMOUNT = 1_000_000
"""Ducats an amount may name: a treasury of the game never holds a thousandth of it; a larger number
is refused at reading (Python would not even read one of 4,300 digits or more)."""


def _quoted(words: str) -> str:
    """Words of a line an answer quotes, as Python writes a string, at most 40 characters of them."""
    return repr(words if len(words) <= 40 else words[:40] + "...")


def _key(text: str) -> str:
    """A name as the parser compares it: accents folded, lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", ascii_name(text).lower())


@dataclass(frozen=True)
class _Names:
    areas: dict[str, str]
    powers: dict[str, str]
    longest: int
    longest_power: int

    def prefixed(self, word: str) -> str | None:
        """The one area a word of three letters or more begins the name of (None: none does)."""
        if len(word) < 3:
            return None
        found = sorted({code for key, code in self.areas.items() if key.startswith(word)})
        if len(found) > 1:
            raise _Unclear(_("{word} could be any of {areas}: write more of the name", word=_quoted(word),
                             areas=", ".join(found)), "AMBIGUOUS_AREA")
        return found[0] if found else None


@cache
def _names(board: Board) -> _Names:
    areas: dict[str, str] = {}
    longest = 1
    for code, area in board.areas.items():
        for name in (code, area.name, *area.aliases):
            areas.setdefault(_key(name), code)
            longest = max(longest, len(name.split()))
    powers: dict[str, str] = {}
    named = [(_key(name), power) for power in board.powers for name in board.power_names(power)]
    for key, power in named:
        for end in range(3, len(key) + 1):
            prefix = key[:end]
            clash = any(other.startswith(prefix) for other, p in named if p != power)
            if end == len(key) or not clash:
                powers.setdefault(prefix, power)
    words = max(len(name.split()) for power in board.powers for name in board.power_names(power))
    return _Names(areas, powers, longest, words)


_COAST = re.compile(r"/\s*(nc|sc|ec|wc)\b")  # "/nc", "/ nc": a coast
_DUCATS = re.compile(r"(?<!\d)(\d+)\s*d\b")  # "12d", "12 d": an amount
"""Each begins where only one match can (a slash, the first digit of a number): one that began with
spaces or at any digit would try again at each, in time the square of the line's length."""


def _tokens(line: str) -> list[str]:
    """The words of a line: lower case, accents folded, arrows and dashes apart, coasts as ``/nc``."""
    text = ascii_name(line).lower()
    text = re.sub(r"counter[\s-]*bribe", "counterbribe", text)
    text = re.sub(r"\(\s*(nc|sc|ec|wc)\s*\)", r" /\1", text)
    text = _COAST.sub(r" /\1", text)
    text = re.sub(r"-+>|=>|\u2013|\u2014|-", " - ", text)
    text = _DUCATS.sub(r"\1", text)
    text = re.sub(r"[,.;!?']", " ", text)
    return text.split()


class _Scan:
    """A line's words, read from left to right."""

    def __init__(self, board: Board, words: list[str]) -> None:
        self.board = board
        self.names = _names(board)
        self.words = words
        self.at = 0

    def more(self) -> bool:
        return self.at < len(self.words)

    def peek(self) -> str:
        return self.words[self.at] if self.more() else ""

    def take(self, options: Collection[str]) -> str | None:
        """The next word if it is one of ``options`` (consumed), else None."""
        if self.peek() in options:
            self.at += 1
            return self.words[self.at - 1]
        return None

    def skip(self, *fillers: str) -> None:
        while self.peek() in fillers:
            self.at += 1

    def area(self) -> str:
        """The area named next (the longest run of words that names one)."""
        stop = self.at
        while stop < len(self.words) and self.words[stop] != "-" and not self.words[stop].startswith("/") and (
                stop == self.at or self.words[stop] not in ORDER_WORDS):
            stop += 1  # an order's word ends the name: "G luc C A" is no "G Lucca" (luc + c + a)
        for span in range(min(self.names.longest + 1, stop - self.at), 0, -1):
            code = self.names.areas.get(_key("".join(self.words[self.at:self.at + span])))
            if code is not None:
                self.at += span
                return code
        code = self.names.prefixed(_key(self.peek()))
        if code is not None:
            self.at += 1
            return code
        if self.more():
            raise _Unclear(_("no area is called {word}", word=_quoted(self.peek())), "UNKNOWN_AREA")
        raise _Unclear(_("an area is missing"), "AREA_MISSING")

    def coast(self) -> str | None:
        word = self.peek()
        if word.startswith("/") and word[1:] in COASTS:
            self.at += 1
            return word[1:]
        return None

    def power(self) -> str:
        """The player named next: the longest run of words that names one (Holy Roman Empire)."""
        for span in range(min(self.names.longest_power, len(self.words) - self.at), 0, -1):
            power = self.names.powers.get(_key("".join(self.words[self.at:self.at + span])))
            if power is not None:
                self.at += span
                return power
        word = self.peek()
        if word:
            raise _Unclear(_("no player is called {word}", word=_quoted(word)), "UNKNOWN_PLAYER")
        raise _Unclear(_("a player's name is missing"), "PLAYER_MISSING")

    def unit(self) -> UnitRef:
        kind = self.take(KINDS)
        if kind is None:
            raise _Unclear(_("a unit is written A, F or G and its area (A Flo)"))
        return UnitRef(KINDS[kind], self.area())

    def amount(self) -> int | None:
        """The first amount anywhere on the line (taken out of it), if any."""
        for i, word in enumerate(self.words):
            if word.isdigit() and i >= self.at:
                if len(word.lstrip("0")) > len(str(MAX_AMOUNT)) or int(word) > MAX_AMOUNT:
                    most = f"{MAX_AMOUNT:,}"
                    raise _Unclear(_("an amount is at most {most} ducats", most=most), "AMOUNT_TOO_LARGE")
                del self.words[i]
                if i < len(self.words) and self.words[i] in ("ducats", "ducat"):
                    del self.words[i]
                return int(word)
        return None

    def end(self) -> None:
        self.skip(*FILLERS)
        if self.more():
            raise _Unclear(_("cannot read {words}", words=_quoted(" ".join(self.words[self.at:]))))


_NUMBERING = re.compile(r"^(expense\s*\d*\s*:|\(?\d+[.)]|[-*\u2022])\s*", re.IGNORECASE)


def is_letter_line(line: str) -> bool:
    """Whether a line reads as part of a letter: an order's first word (a unit, a verb, an
    amount), ``none``, or what :func:`parse_letter` skips (a heading ending with a colon, a
    comment after ``#``, a numbering).  The mail edge takes such lines into the letter and
    leaves every other line to the judge's other commands; whether the line is a *good* order
    is :func:`parse_letter`'s to say."""
    text = line.split("#", 1)[0].strip()
    if not text or text.endswith(":"):
        return True
    words = _tokens(_NUMBERING.sub("", text))
    if not words:
        return True
    first = words[0]
    return first in KINDS or first in _HANDLERS or first == "none" or first.isdigit()


def parse_letter(text: str, board: Board) -> tuple[tuple[LetterOrder, ...], tuple[Problem, ...]]:
    """The orders of a letter, and the lines that are no order (see the module docstring)."""
    orders: list[LetterOrder] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE:
            most = f"{MAX_LINE:,}"
            problems.append(Problem(number, raw.strip()[:MAX_LINE], _("a line holds at most {most} characters: no "
                                                                      "order is longer", most=most), "LINE_TOO_LONG"))
            continue
        line = raw.split("#", 1)[0].strip()
        if not line or line.endswith(":"):
            continue
        line = _NUMBERING.sub("", line)
        try:
            order = parse_line(line, board)
        except _Unclear as exc:
            problems.append(Problem(number, raw.strip(), str(exc), exc.code))
            continue
        if order is not None:
            orders.append(order)
    return tuple(orders), tuple(problems)


def read_area(text: str, board: Board) -> str | Problem:
    """The code of the one area ``text`` names as a letter names areas (a code, a name or an
    alias, or three letters or more beginning one name alone), or what is wrong with it."""
    return _read(text, board, _Scan.area)


def read_player(text: str, board: Board) -> str | Problem:
    """The player ``text`` names as a letter names players (a name, another name the board gives
    it, or three letters or more beginning one), or what is wrong with it."""
    return _read(text, board, _Scan.power)


def _read(text: str, board: Board, what: Callable[[_Scan], str]) -> str | Problem:
    scan = _Scan(board, _tokens(text))
    try:
        found = what(scan)
        scan.end()
    except _Unclear as exc:
        return Problem(1, text, str(exc), exc.code)
    return found


def parse_line(line: str, board: Board) -> LetterOrder | None:
    """One order (None for ``none``); :class:`_Unclear` if the line cannot be read."""
    scan = _Scan(board, _tokens(line))
    first = scan.peek()
    if first in KINDS:
        return _operation(scan)
    if first.isdigit():  # "12 buy A Pis": the amount first
        amount = scan.amount()
        assert amount is not None
        scan.words.insert(scan.at + 1, str(amount))
        first = scan.peek()
    handler = _HANDLERS.get(first)
    if handler is None:
        if first == "none":
            return None
        raise _Unclear(_("no order begins so: an operation begins with A, F or G; see the syntax for the rest"))
    scan.at += 1
    order = handler(scan)
    scan.end()
    return order


# -- operations ---------------------------------------------------------------------------------------


def _operation(scan: _Scan) -> Order:
    unit = scan.unit()
    scan.coast()  # a fleet's coast where it stands is known: ignored
    verb = scan.peek()
    scan.at += 1
    order: Order
    if verb in HOLD:
        order = Hold(unit)
    elif verb in MOVE:
        order = _advance(scan, unit)
    elif verb in SUPPORT:
        order = _support(scan, unit)
    elif verb in TRANSPORT:
        order = _transport(scan, unit)
    elif verb in BESIEGE:
        order = Besiege(unit)
    elif verb in CONVERT:
        order = _convert(scan, unit)
    else:
        raise _Unclear(_("{word} is no order: H, -, S, T, B or C", word=_quoted(verb)) if verb else
                       _("the order is missing"))
    scan.end()
    return order


def _advance(scan: _Scan, unit: UnitRef) -> Advance:
    scan.skip("to", "into")
    chain = [scan.area()]
    coast = scan.coast()
    most = len(scan.board.areas) - 1  # every area but the one the unit leaves, each passed through once
    while scan.take({"-"}):
        if coast is not None:
            raise _Unclear(_("a coast is named only for the last area"))
        if len(chain) == most:
            raise _Unclear(_("a route names at most {most} areas: a unit passes through each area of the board "
                             "({areas}) at most once", most=most, areas=most + 1), "ROUTE_TOO_LONG")
        chain.append(scan.area())
        coast = scan.coast()
    return Advance(unit, chain[-1], coast, tuple(chain[:-1]))


def _support(scan: _Scan, unit: UnitRef) -> Support:
    if scan.peek() in KINDS:
        helped = scan.unit()
        scan.coast()
        if scan.take(HOLD):
            return Support(unit, helped.area, supported=helped)
        area = helped.area
        while scan.take(MOVE):
            scan.skip("to", "into")
            area = scan.area()
            scan.coast()
        return Support(unit, area, supported=helped)
    area = scan.area()
    scan.coast()
    beneficiary: Owner | None = None
    if scan.take({"for"}):
        if scan.take({"independent", "independents"}):
            beneficiary = Independent(scan.area() if scan.more() else area)  # its native area, if named
        else:
            beneficiary = scan.power()
    return Support(unit, area, beneficiary)


def _transport(scan: _Scan, unit: UnitRef) -> Transport:
    if scan.peek() in KINDS:
        carried = scan.unit()
        while scan.take(MOVE):  # the army's way is written in its own order (9.6): read and set aside
            scan.skip("to", "into")
            scan.area()
        return Transport(unit, carried=carried)
    if scan.take({"for"}):
        return Transport(unit, scan.power())
    return Transport(unit)


def _convert(scan: _Scan, unit: UnitRef) -> Convert:
    scan.skip("to", "into")
    word = scan.take(KINDS)
    coast = scan.coast()
    if word is not None:
        into = KINDS[word]
    elif unit.kind is not UnitKind.GARRISON:
        into = UnitKind.GARRISON
    else:
        city = scan.board.areas[unit.area].city
        if city is not None and city.port:
            raise _Unclear(_("a garrison in a port city converts into A or F: say which"))
        into = UnitKind.ARMY
    return Convert(unit, into, coast)


# -- expenditures and spring orders -----------------------------------------------------------------------


def _needed(amount: int | None, why: str) -> int:
    """``amount``, or `_Unclear` saying ``why`` (the order's own sentence: it needs an amount)."""
    if amount is None:
        raise _Unclear(why)
    return amount


def _transfer(scan: _Scan) -> LetterOrder:
    if scan.peek() in KINDS:  # "pay A Pis": an A.7 payment
        return Pay(scan.unit())
    amount = _needed(scan.amount(), _("a transfer needs an amount of ducats"))
    scan.skip("ducats", "ducat")
    if not scan.take({"to"}):
        raise _Unclear(_("a transfer is written: transfer 10 to Venice"))
    return Transfer(scan.power(), amount)


def _bribe(scan: _Scan, kind: BribeKind | None = None) -> LetterOrder:
    amount = scan.amount()
    if kind is None:
        scan.skip("to")
        word = scan.take(BRIBES)
        if word is None:
            raise _Unclear(_("say which bribe: operate, disband, buy or independent"))
        kind = BRIBES[word]
        scan.skip("to", "into", "independent", "autonomous")
    scan.skip("ducats", "ducat")
    return Bribe(kind, scan.unit(), _needed(amount, _("a bribe needs an amount of ducats")))


def _buy(scan: _Scan) -> LetterOrder:
    if "from" in scan.words:  # a province bought in A.5
        area = scan.area()
        scan.take({"from"})
        seller = scan.power()
        scan.skip("for")
        return Purchase(area, seller, _needed(scan.amount(), _("a purchase needs an amount of ducats")))
    return _bribe(scan, BribeKind.BUY)


def _disband(scan: _Scan) -> LetterOrder:
    if any(word.isdigit() for word in scan.words):
        return _bribe(scan, BribeKind.DISBAND)
    return Dismiss(scan.unit())


def _counter(scan: _Scan) -> LetterOrder:
    amount = _needed(scan.amount(), _("a counter-bribe needs an amount of ducats"))
    scan.skip("ducats", "ducat", "on")
    return CounterBribe(scan.unit(), amount)


def _assassinate(scan: _Scan) -> LetterOrder:
    amount = _needed(scan.amount(), _("an assassination needs an amount of ducats"))
    scan.skip("ducats", "ducat", "the", "leader", "of")
    return Assassinate(scan.power(), amount)


def _bodyguard(scan: _Scan) -> LetterOrder:
    amount = _needed(scan.amount(), _("a bodyguard needs an amount of ducats"))
    scan.skip("ducats", "ducat", "for", "the", "leader", "of")
    return Bodyguard(amount, scan.power() if scan.more() else None)


def _rebellion(scan: _Scan) -> LetterOrder:
    amount = scan.amount()
    scan.skip("a", "rebellion", "ducats", "ducat", "in")
    return StartRebellion(scan.area(), amount)


def _pacify(scan: _Scan) -> LetterOrder:
    amount = scan.amount()
    scan.skip("the", "rebellion", "ducats", "ducat", "in", "of")
    return Pacify(scan.area(), amount)


def _raise(scan: _Scan) -> LetterOrder:
    if "rebellion" in scan.words[scan.at:]:
        return _rebellion(scan)
    unit = scan.unit()
    return Raise(unit.kind, unit.area, scan.coast())


def _allow(scan: _Scan) -> LetterOrder:
    grantee = scan.power()
    grants: set[Grant] = set()
    while scan.more():
        word = scan.peek()
        if word in ("bribe", "bribes", "bribing"):
            grants.add(Grant.BRIBE)
        elif word in ("strait", "straits"):
            grants.add(Grant.STRAITS)
        elif word not in ("and", "to", "use", "the"):
            break
        scan.at += 1
    return Allow(grantee, frozenset(grants) or frozenset(Grant))


def _sell(scan: _Scan) -> LetterOrder:
    area = scan.area()
    if not scan.take({"to"}):
        raise _Unclear(_("a sale is written: sell Pisa to Venice for 5"))
    buyer = scan.power()
    scan.skip("for")
    return Sell(area, buyer, _needed(scan.amount(), _("a sale needs an amount of ducats")))


def _tax(scan: _Scan) -> LetterOrder:
    scan.skip("tax", "by", "force", "forced")
    return ForcedTax(scan.area())


def _keep(scan: _Scan) -> LetterOrder:
    return Pay(scan.unit())


def _excommunicate(scan: _Scan) -> LetterOrder:
    return Excommunicate(scan.power())


def _start(scan: _Scan) -> LetterOrder:
    if not scan.take({"rebellion", "a"}):
        raise _Unclear(_("write: start a rebellion in Pisa"))
    return _rebellion(scan)


_HANDLERS: dict[str, Callable[[_Scan], LetterOrder]] = {
    **dict.fromkeys(("transfer", "give", "loan", "pay"), _transfer),
    "bribe": _bribe,
    **dict.fromkeys(("buy", "purchase"), _buy),
    "operate": lambda scan: _bribe(scan, BribeKind.OPERATE),
    **dict.fromkeys(("independent", "independence", "autonomous", "gta"),
                    lambda scan: _bribe(scan, BribeKind.INDEPENDENT)),
    **dict.fromkeys(("disband", "remove", "debuild"), _disband),
    **dict.fromkeys(("counterbribe", "counter", "cb"), _counter),
    **dict.fromkeys(("assassinate", "assassination", "assassin"), _assassinate),
    **dict.fromkeys(("bodyguard", "bodyguards", "guard"), _bodyguard),
    **dict.fromkeys(("rebellion", "rebel", "revolt", "incite"), _rebellion),
    **dict.fromkeys(("start", "cause"), _start),
    **dict.fromkeys(("pacify", "pacification"), _pacify),
    **dict.fromkeys(("raise", "build"), _raise),
    **dict.fromkeys(("allow", "ally", "permit"), _allow),
    **dict.fromkeys(("excommunicate", "excommunication", "crusade"), _excommunicate),
    "sell": _sell,
    **dict.fromkeys(("tax", "forced", "force"), _tax),
    **dict.fromkeys(("keep", "maintain"), _keep),
}


