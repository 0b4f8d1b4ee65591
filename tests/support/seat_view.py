"""A seat's view of the game rebuilt from the text of a results mail alone, as a player
who cannot see the map reads it: what the tests compare with the engine's position.

Theory of operation.  Each reader follows its kind's mail as the results templates lay it out, and
nothing else: a heading line ends with a colon, the items under it are indented two spaces, and an
item too long for a line goes on under it, indented further (`logical`, which joins it back).  A
reader never looks at the judge's code or data: it is written from the mail's layout, so that a
result it cannot rebuild is a mail that does not say it.  Names are kept as the mail writes them
(``France``, ``STP/SC``, ``Firenze (fir)`` read as ``fir``); the tests write the engine's values the
same way before comparing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

Unit = tuple[str, str, str]
"""A unit as read: its owner as the mail names it, its kind (``A``, ``F``, ``G``), its place (with
its coast: ``STP/SC``, ``spa/nc``)."""


@dataclass(frozen=True)
class BoardView:
    """What a seat reads of a board: every unit, every dislodged unit, every supply center's owner
    (None: nobody's), its own money, and what else its kind's rules let it know (``other``:
    Machiavelli's sieges and its provinces' control, Exchange's shares)."""

    units: frozenset[Unit]
    centers: dict[str, str | None]
    money: int | None
    dislodged: frozenset[Unit] = frozenset()
    other: dict[str, object] = field(default_factory=dict)


def logical(lines: list[str], new_item: re.Pattern[str] = re.compile(r"^  \S")) -> Iterator[str]:
    """The items of an indented block, each an item line with the lines that go on under it
    joined to it by a space (a line is a new item when it matches ``new_item``)."""
    item: str | None = None
    for line in lines:
        if new_item.match(line) or item is None:
            if item is not None:
                yield item
            item = line.strip()
        else:
            item += " " + line.strip()
    if item is not None:
        yield item


def block(text: str, heading: re.Pattern[str]) -> list[str]:
    """The indented lines under the first line that matches ``heading``, to the next line that is
    empty or not indented; ``[]`` if no line matches."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if heading.fullmatch(line):
            found = []
            for under in lines[at + 1:]:
                if not under.startswith(" "):
                    break
                found.append(under)
            return found
    return []


def _item(text: str, start: str) -> str | None:
    """The first line that begins with ``start``, with the lines that go on under it (indented
    further) joined to it by a space; None if no line does."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if line.startswith(start):
            indent = len(line) - len(line.lstrip())
            found = [line.strip()]
            for under in lines[at + 1:]:
                if not under.strip() or len(under) - len(under.lstrip()) <= indent:
                    break
                found.append(under.strip())
            return " ".join(found)
    return None


def _number(text: str, pattern: str) -> int | None:
    found = re.search(pattern, text, re.M)
    return int(found.group(1)) if found else None


# -- Payola and Exchange Payola: the engine's board ---------------------------------------------------------

_UNIT = re.compile(r"([AF]) (\S+)")


def _units(owner: str, listed: str) -> set[Unit]:
    """``A BUD, F STP/SC`` of ``owner`` (``no units``, ``none``: none)."""
    if listed in ("no units", "none"):
        return set()
    found = set()
    for text in listed.split(", "):
        unit = _UNIT.fullmatch(text)
        assert unit is not None, f"not a unit: {text!r}"
        found.add((owner, unit.group(1), unit.group(2)))
    return found


def payola(text: str) -> BoardView:
    """A Payola results mail's board (``The board for S1901M:``, ``Dislodged, to retreat or
    disband:``, ``Supply centers:``) and the seat's balance (``your balance: 91 AgP``).  A Tin Cup
    power's (``The board for S1901M, as France sees it:``) gives the others' units it sees
    (``Germany, in sight: A MUN``), the provinces it sees (``Provinces in sight (17):``), read as
    ``other["in sight"]``, and its centers out of sight, whose owners it does not know (``out of
    sight (25): ANK BEL``), read as ``other["out of sight"]``, not in ``centers``."""
    units: set[Unit] = set()
    for item in logical(block(text, re.compile(r"The board for \S+(, as .+ sees it)?:"))):
        power, _, rest = item.partition(": ")
        if power.endswith(", in sight"):  # Tin Cup: another power's units the seat sees, no counts
            units |= _units(power.removesuffix(", in sight"), rest)
        else:
            units |= _units(power, rest.partition(": ")[2])  # after "3 centers, 3 units: "
    dislodged = set()
    for item in logical(block(text, re.compile(r"Dislodged, to retreat or disband:"))):
        found = re.fullmatch(r"(.+) ([AF]) (\S+): .*", item)
        assert found is not None, item
        dislodged.add((found.group(1), found.group(2), found.group(3)))
    centers: dict[str, str | None] = {}
    unseen: set[str] = set()
    for item in logical(block(text, re.compile(r"Supply centers:"))):
        found = re.fullmatch(r"(.+) \((\d+|in sight)\): (.*)", item)
        assert found is not None, item
        listed = found.group(3).split()
        assert found.group(2) == "in sight" or int(found.group(2)) == len(listed), item
        if found.group(1) == "out of sight":
            unseen.update(listed)
            continue
        owner = None if found.group(1).startswith("unowned") else found.group(1)
        centers.update((center, owner) for center in listed)
    other: dict[str, object] = {}
    if (sight := re.search(r"^Provinces in sight \((\d+)\):$", text, re.M)) is not None:
        provinces = " ".join(block(text, re.compile(re.escape(sight.group(0))))).split()
        assert int(sight.group(1)) == len(provinces), sight.group(0)
        other = {"in sight": frozenset(provinces), "out of sight": frozenset(unseen)}
    return BoardView(frozenset(units), centers, _number(text, r"^  your balance: (\d+) AgP$"), frozenset(dislodged),
                     other)


_EXCHANGE_ITEM = re.compile(r"^  \S|^\s+centers: ")


def exchange(text: str) -> BoardView:
    """An Exchange results mail's board (``The board after it (units, then supply centers):``, each
    corporation's units then its centers, the unowned centers last), the investor's balance and
    shares (``your shares: France 3, Italy 2`` or ``none``)."""
    units: set[Unit] = set()
    centers: dict[str, str | None] = {}
    power = ""
    for item in logical(block(text, re.compile(r"The board (after it|as it stands) \(units, then supply centers\):")),
                        _EXCHANGE_ITEM):
        if item.startswith("centers: "):
            listed = item.removeprefix("centers: ")
            centers.update((center, power) for center in ([] if listed == "none" else listed.split(", ")))
            continue
        found = re.fullmatch(r"(.+?)(?: \(CEO \S+\))?: (\d+) centers?, units: (.*)", item)
        if found is None:
            unowned = re.fullmatch(r"Unowned supply centers \((\d+)\): (.*)", item)
            assert unowned is not None, item
            nobodys = unowned.group(2).split(", ")
            assert int(unowned.group(1)) == len(nobodys), item
            centers.update((center, None) for center in nobodys)
            continue
        power = found.group(1)
        units |= _units(power, found.group(3))
    holdings = _item(text, "  your shares: ")
    shares: dict[str, int] | None = None
    if holdings is not None:
        listed = holdings.removeprefix("your shares: ")
        shares = {} if listed == "none" else {name: int(count) for name, _, count in
                                              (held.rpartition(" ") for held in listed.split(", "))}
    money = _number(text, r"^  (?:balance now|spent: \d+ AgP; your balance): (\d+) AgP$")
    return BoardView(frozenset(units), centers, money, other={"shares": shares})


# -- Machiavelli: its own board ------------------------------------------------------------------------------

_AREA = r"[^,]+? \((?P<{0}>[a-z]+(?:/[a-z]+)?)\)"
_MACHIAVELLI_UNIT = re.compile(r"(?:independent " + _AREA.format("native") + " )?(?P<kind>[AFG]) "
                               + _AREA.format("area"))
_MACHIAVELLI_ITEM = re.compile(r"^  \S|^    \d+ (provinces?|cit(y|ies)): ")
_CODE = re.compile(r"\(([a-z]+(?:/[a-z]+)?)\)")


def _codes(listed: str) -> list[str]:
    """The codes of ``Firenze (fir), Pisa (psa)`` (``none``: none)."""
    return [] if listed == "none" else _CODE.findall(listed)


def machiavelli(text: str) -> BoardView:
    """A Machiavelli results mail's board (``The board, Summer 1454:``: each country's units, the
    provinces and cities it controls, the independent units, the cities no country holds, the
    rebellions and sieges), and the seat's treasury (``Your treasury: 5 ducats before, 8 ducats
    now.``).  An independent unit's owner is ``independent <native area>``."""
    units: set[Unit] = set()
    cities: dict[str, str | None] = {}
    provinces: dict[str, str] = {}
    sieges: dict[str, tuple[str, int]] = {}
    country = ""
    for item in logical(block(text, re.compile(r"The board, .+:")), _MACHIAVELLI_ITEM):
        head, _, rest = item.partition(": ")
        if re.fullmatch(r"\d+ provinces?", head):
            provinces.update((code, country) for code in _codes(rest))
        elif re.fullmatch(r"\d+ cit(y|ies)", head):
            cities.update((code, country) for code in _codes(rest))
        elif head == "Independent units":
            for text_of in rest.split(", "):
                unit = _MACHIAVELLI_UNIT.fullmatch(text_of)
                assert unit is not None, text_of
                native = unit.group("native") or unit.group("area")
                units.add((f"independent {native}", unit.group("kind"), unit.group("area")))
        elif head == "Cities no country controls":
            for held in re.finditer(r"(?:^|, )[^,]+? \((?P<area>[a-z]+)\) (?P<by>independent(?: [^,]+? \([a-z]+\))?"
                                    r"|held by nobody)", rest):
                native = _CODE.search(held.group("by"))
                cities[held.group("area")] = (None if held.group("by") == "held by nobody" else
                                              f"independent {native.group(1) if native else held.group('area')}")
        elif head == "Sieges in progress":
            for siege in re.finditer(r"\((?P<area>[a-z]+)\) besieged by (?P<by>.+?) for (?P<n>\d+) seasons?", rest):
                sieges[siege.group("area")] = (siege.group("by"), int(siege.group("n")))
        elif head in ("Rebellions", "Excommunicated") or rest.startswith("eliminated in "):
            continue
        else:
            country = head
            assert rest.startswith("units "), item
            for text_of in ([] if rest == "units none" else rest.removeprefix("units ").split(", ")):
                unit = _MACHIAVELLI_UNIT.fullmatch(text_of)
                assert unit is not None, text_of
                units.add((country, unit.group("kind"), unit.group("area")))
    money = _number(text, r"^Your treasury: \d+ ducats? before, (\d+) ducats? now\.$")
    return BoardView(frozenset(units), cities, money, other={"provinces": provinces, "sieges": sieges})


# -- Pirates' Proposal: no board, what a player may know -----------------------------------------------------


@dataclass(frozen=True)
class RoomView:
    """What a player reads of a Pirates' Proposal round in a results mail: what it receives under each plan
    of its room (a Distribution Phase closed) or which of them passed (a Voting Phase closed), its own plan,
    its gold (the first ``Gold:``), and the next round's room, package and garnets where one opens."""

    round: int
    receipts: dict[str, int]
    outcomes: dict[str, bool]
    plan: dict[str, int]
    gold: int | None
    room: tuple[str, ...] = ()
    package: int | None = None
    garnets: int | None = None


def pirates(text: str) -> RoomView:
    """A Pirates' Proposal results mail, read from its lines ``Round 1 of 5``, ``Plan of Dee: you receive 5
    gold``, ``Plan of Dee: passed``, ``Your plan: you 30, Dee 0``, ``Gold: 12``, ``Room: Ann, Dee``,
    ``Package: 30 gold`` and ``Garnets: 1``."""
    lines = text.splitlines()
    receipts = {m.group(1): int(m.group(2)) for line in lines
                if (m := re.fullmatch(r"Plan of (\S+): you receive (\d+) gold", line))}
    outcomes = {m.group(1): m.group(2) == "passed" for line in lines
                if (m := re.fullmatch(r"Plan of (\S+): (passed|failed)", line))}
    plan = {}
    own = next((line for line in lines if line.startswith("Your plan: ")), None)
    if own is not None:
        for share in own.removeprefix("Your plan: ").split(" (")[0].split(", "):
            member, _, amount = share.rpartition(" ")
            plan[member] = int(amount)
    room = next((tuple(line.removeprefix("Room: ").split(", ")) for line in lines if line.startswith("Room: ")), ())
    number = _number(text, r"^Round (\d+) of \d+$")
    assert number is not None, text
    return RoomView(number, receipts, outcomes, plan, _number(text, r"^Gold: (\d+)$"), room,
                    _number(text, r"^Package: (\d+) gold$"), _number(text, r"^Garnets: (\d+)$"))
