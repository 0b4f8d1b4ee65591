"""What each reader of a Machiavelli game is told, as lines of text: pure functions of the rules
core's values (no database, no mail), one per reader and moment.

Theory of operation.  The rules say what is public and what is not (AoP 2, 8.1, 8.2, 18.1):

* **public** (`spring_public`, `campaign_public`, `board_lines`): the map and the actions — the
  units raised and disbanded, the provinces traded (never their price), the provinces taxed by
  force, the excommunications, the assassinations, the rebellions started and ended, the units
  that changed sides by bribery (never who paid, nor what a failed bribe was), every unit's
  operation and its result, the retreats the judge chose, the sieges, conversions, control,
  conquests, eliminations and victory; in A.2 the incomes and the anticipated treasuries (each
  treasury as public information alone moves it, `ANTICIPATED`), and on the game's page a
  table of them year by year (`yearly_lines`).  The orders of units that changed sides before
  phase F are not disclosed (8.2, M50);
* **private to one player** (`spring_statement`, `campaign_statement`): its treasury before and
  after and every movement of it (the ducats it received, with the giver's name, which 8.1
  discloses to the receiver at the end of the campaign), each of its letter's orders charged or
  not and why, what became of each of its units and of each order it wrote for units it did
  not command, the bribes of its own units (what they became, never by whom unless the buyer
  now owns the unit, which the map shows) and its own bribes that took, the retreats the
  judge chose for it, and its A.2 income area by area (`income_lines`);
* **the game master** gets both and every player's statement (`judge.games.machiavelli.lifecycle`).

Units are written as letters write them, kind and area (``A mil``), and every area with its name
before its code, ``Milano (mil)``, so that a reader needs no list of codes (`Names`); an
independent unit in its native area is ``independent G Siena (sie)``, one elsewhere names its
native area too (``independent Kalabria (kal) A Napoli (nap)``).  An order is written as its
letter would write it, the areas named the same way (`spelled`, which writes what the core's
``str`` writes when the areas keep their codes).  The start mail also lists every code with its
name (`area_lines`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from judge.api import note_list
from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.campaign import CampaignRecord, Expected, Publication
from judge.games.machiavelli.core.existence import Proposal, Standing
from judge.games.machiavelli.core.expenditures import (
    Allow,
    Assassinate,
    Bodyguard,
    Bribe,
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
from judge.games.machiavelli.core.expense import (
    ASSASSINATION,
    BODYGUARD,
    COUNTER_BRIBE,
    PACIFICATION,
    RebellionStart,
    bribes_in_reach,
)
from judge.games.machiavelli.core.income import Income, Source, incomes
from judge.games.machiavelli.core.ledger import Flow, Movement, OrderOutcome
from judge.games.machiavelli.core.operations import possible_orders
from judge.games.machiavelli.core.orders import Advance, Besiege, Convert, Hold, Order, Support, Transport, UnitRef
from judge.games.machiavelli.core.position import Campaign, Independent, Owner, Phase, Position, Season, Unit, UnitKind
from judge.games.machiavelli.core.results import Automatic, ControlChange, OrderResult, Reason, RebellionEnd, Retreat
from judge.games.machiavelli.core.review import Caution
from judge.games.machiavelli.core.spring import SALARY, SpringOpening, SpringRecord, raisings
from judge.language import Wording, later, ngettext, worded
from judge.language import gettext as _
from judge.language import gettext as said_in

Names = Callable[[str], str]
"""How an area is written: its code (``mil``, ``spa/nc``) in, its text out."""


def anticipated_words() -> str:
    """What the anticipated treasuries are, said wherever they are shown."""
    return _("each treasury as public information alone moves it: incomes, forced taxes and salaries, never a "
             "transfer, a trade's price or an expenditure, which stay secret (2, A.2, 8.1)")


def said(text: str) -> str:
    """A sentence of the rules core (a reason's value, marked there for the catalogue) in the reader's
    language."""
    return said_in(text)


def caution_text(caution: Caution) -> str:
    """A warning on a letter's order (`judge.games.machiavelli.core.review`), in the reader's language."""
    return said(caution.caveat.value).format(unit=caution.subject, why=said(caution.why) if caution.why else "")


def season_text(season: Season) -> str:
    """``Spring 1454`` in the reader's language."""
    return worded(season_kept(season))


def season_kept(season: Season) -> Wording:
    """``Spring 1454`` kept to be worded in each reader's language (`judge.language.later`), as a game's
    stored result names its season."""
    names = {Campaign.SPRING: later("Spring {year}", year=season.year),
             Campaign.SUMMER: later("Summer {year}", year=season.year),
             Campaign.FALL: later("Fall {year}", year=season.year)}
    return names[season.campaign]


def default_text(phase: Phase) -> str:
    """What the judge does for a country that sent no letter (17.2, M50), in the reader's language."""
    if phase is Phase.A:
        return _("the units' salaries are paid by default, garrisons, armies, then fleets (7.3, M12, M50)")
    return _("no expenditure, and every unit holds (17.2, M50)")


def flow_text(flow: Flow) -> str:
    """What a movement of ducats is (`Flow`), in the reader's language."""
    words = {Flow.TAX: _("tax"), Flow.TRADE: _("trade"), Flow.FORCED_TAX: _("forced tax"),
             Flow.TRANSFER_OUT: _("transfer out"), Flow.TRANSFER_IN: _("transfer in"), Flow.SALE: _("sale"),
             Flow.PURCHASE: _("purchase"), Flow.SALARY: _("salary"), Flow.EXPENDITURE: _("expenditure"),
             Flow.CONFISCATED: _("confiscated")}
    return words[flow]


def codes(area: str) -> str:
    """An area as the letters write it: its code."""
    return area


def named(board: Board) -> Names:
    """Each area written with its name, then its code: ``Milano (mil)``, ``Spalato (spa/nc)``."""
    def name(area: str) -> str:
        code = area.partition("/")[0]
        return f"{board.areas[code].name} ({area})" if code in board.areas else area
    return name


def owner_text(owner: Owner | None, board: Board | None = None, at: str | None = None) -> str:
    """A power's name, an independent state (``independent``, where ``at`` is its native area;
    else ``independent Siena (sie)``, by its native area), or ``nobody``."""
    if owner is None:
        return _("nobody")
    if not isinstance(owner, Independent):
        return owner
    if at is not None and owner.native == at:
        return _("independent")
    return _("independent {area}", area=named(board)(owner.native) if board is not None else owner.native)


def unit_text(unit: Unit, owner: bool = True, board: Board | None = None) -> str:
    """``Florence A Firenze (fir)`` (``A Firenze (fir)`` without the owner; the codes alone
    without ``board``); a fleet's coast as ``/nc``; an independent unit in its native area is
    ``independent A Pavia (pav)``."""
    name = named(board) if board is not None else codes
    where = name(f"{unit.area}/{unit.coast}" if unit.coast else unit.area)
    text = f"{unit.kind.value} {where}"
    return f"{owner_text(unit.owner, board, unit.area)} {text}" if owner else text


def _ducats(amount: int) -> str:
    return ngettext("{count} ducat", "{count} ducats", amount)


# -- orders, as their letters write them ------------------------------------------------------------


def spelled(order: LetterOrder | UnitRef, area: Names = codes) -> str:
    """An order as a letter writes it, each area written by ``area`` (with `codes`, exactly what
    the core's ``str`` writes)."""
    def unit(ref: UnitRef) -> str:
        return _unit_spelled(ref, area)

    amount = ""
    match order:
        case UnitRef() | Hold() | Advance() | Support() | Transport() | Besiege() | Convert():
            return _operation_spelled(order, area)
        case Sell():
            return f"sell {area(order.area)} to {order.buyer} for {order.price}"
        case Purchase():
            return f"buy {area(order.area)} from {order.seller} for {order.price}"
        case ForcedTax():
            return f"tax {area(order.area)}"
        case Pay():
            return f"pay {unit(order.unit)}"
        case Dismiss():
            return f"disband {unit(order.unit)}"
        case Raise():
            return f"raise {order.kind.value} {_coast_spelled(order.area, order.coast, area)}"
        case StartRebellion() | Pacify():
            word = "rebellion" if isinstance(order, StartRebellion) else "pacify"
            amount = f"{order.amount} " if order.amount is not None else ""
            return f"{word} {amount}{area(order.area)}"
        case Bribe():
            return f"bribe {order.amount} {order.kind.value} {unit(order.unit)}"
        case CounterBribe():
            return f"counter-bribe {order.amount} {unit(order.unit)}"
        case Transfer() | Excommunicate() | Allow() | Assassinate() | Bodyguard():
            return str(order)
    raise TypeError(f"no spelling for {order!r}")  # pragma: no cover - every order is matched above


def _unit_spelled(ref: UnitRef, area: Names) -> str:
    """A unit as a letter names it, its kind and its area: ``A Milano (mil)``."""
    return f"{ref.kind.value} {area(ref.area)}"


def _coast_spelled(code: str, on: str | None, area: Names) -> str:
    """An area with its coast, if one is named: ``spa/nc``."""
    return area(f"{code}/{on}" if on else code)


def _operation_spelled(order: Order | UnitRef, area: Names) -> str:
    """A unit's operation (hold, advance, support, transport, besiege, convert: AoP 9) as a
    letter writes it, or the unit alone."""
    def unit(ref: UnitRef) -> str:
        return _unit_spelled(ref, area)

    match order:
        case UnitRef():
            return unit(order)
        case Hold():
            return f"{unit(order.unit)} H"
        case Advance():
            via = "".join(f" - {area(a)}" for a in order.route)
            return f"{unit(order.unit)}{via} - {_coast_spelled(order.to, order.coast, area)}"
        case Support(supported=UnitRef() as supported):
            to = "" if order.area == supported.area else f" - {area(order.area)}"
            return f"{unit(order.unit)} S {unit(supported)}{to}"
        case Support():
            return f"{unit(order.unit)} S {area(order.area)}" + (f" for {order.beneficiary}" if order.beneficiary
                                                                 else "")
        case Transport(carried=UnitRef() as carried):
            return f"{unit(order.unit)} T {unit(carried)}"
        case Transport():
            return f"{unit(order.unit)} T" + (f" for {order.beneficiary}" if order.beneficiary else "")
        case Besiege():
            return f"{unit(order.unit)} B"
        case Convert():
            return f"{unit(order.unit)} C {order.into.value}" + (f"/{order.coast}" if order.coast else "")


# -- the board ------------------------------------------------------------------------------------------


WIDTH = 100
"""Lists longer than this are wrapped, each line indented."""


def wrapped(head: str, items: Sequence[str], indent: str = "    ") -> list[str]:
    """``head`` then ``items`` joined by commas, wrapped at `WIDTH` with ``indent`` between items
    only (``Piacenza (pia)`` is never cut in two)."""
    whole = [item.replace(" ", _KEPT) for item in items]
    return [line.replace(_KEPT, " ") for line in textwrap.wrap(
        head + ", ".join(whole), WIDTH, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False)]


_KEPT = "\u00a0"  # a space no line is broken at (textwrap breaks at ASCII whitespace only)


def _city(board: Board, code: str) -> str:
    city = board.areas[code].city
    if city is None:
        return ""
    return f" [{'F' if city.fortified else 'c'}{city.income}{'p' if city.port else ''}]"


def area_lines(board: Board, per_line: int = 2) -> list[str]:
    """Every area's code and name, as letters may name them, and its city (the start mail)."""
    cells = [f"{code:<4} {area.name}{_city(board, code)}" for code, area in sorted(board.areas.items())]
    width = max(len(cell) for cell in cells) + 2
    return [_("[F3] a fortified city of income 3 (a garrison may stand there), [c1] an unfortified one, "
              "p a port:"), *("".join(cell.ljust(width) for cell in cells[i:i + per_line]).rstrip()
                             for i in range(0, len(cells), per_line))]


@dataclass(frozen=True)
class Held:
    """Who controls each land area's province and each city of a board (`Position.controller`,
    `Position.city_controller`), in the areas' order: found once for the whole board, where each player's lines
    asked it of every area again (the classic board's lines, written for every results mail and page, took 2.2 ms,
    0.6 ms so)."""

    provinces: dict[str, Owner | None]
    cities: dict[str, Owner | None]

    @classmethod
    def of(cls, board: Board, position: Position) -> Held:
        areas = sorted(board.areas)
        return cls({a: position.controller(a) for a in areas if board.areas[a].is_land},
                   {a: position.city_controller(a) for a in areas if board.areas[a].city is not None})


def _player_lines(board: Board, position: Position, player: str, held: Held) -> list[str]:
    """``player``'s part of the board: its units, provinces and cities, or when it was eliminated."""
    if player in position.eliminated:
        return ["  " + _("{country}: eliminated in {season}", country=player,
                         season=season_text(position.eliminated[player]))]
    name = named(board)
    units = [unit_text(u, owner=False, board=board) for u in sorted(position.units_of(player), key=_by_place)]
    provinces = [name(a) for a, owner in held.provinces.items() if owner == player]
    cities = [name(a) for a, owner in held.cities.items() if owner == player]
    none = [_("none")]
    return [*wrapped("  " + _("{country}: units", country=player) + " ", units or none),
            *wrapped("    " + ngettext("{count} province:", "{count} provinces:", len(provinces)) + " ",
                     provinces or none, "      "),
            *wrapped("    " + ngettext("{count} city:", "{count} cities:", len(cities)) + " ", cities or none,
                     "      ")]


def board_lines(board: Board, position: Position) -> list[str]:
    """The board as it stands (public): each player's units and the provinces and cities it
    controls, the independents, the cities no player controls (an independent state's or
    nobody's), the rebellions and the sieges in progress."""
    name = named(board)
    held = Held.of(board, position)
    lines = [_("The board, {season}:", season=season_text(position.season))]
    for player in board.powers:
        lines += _player_lines(board, position, player, held)
    independents = [unit_text(u, owner=not _at_home(u), board=board) for u in sorted(position.units.values(),
                                                                                    key=_by_place)
                    if isinstance(u.owner, Independent)]
    if independents:
        lines += wrapped("  " + _("Independent units:") + " ", independents)
    unheld = [(a, owner) for a, owner in held.cities.items() if owner is None or isinstance(owner, Independent)]
    if unheld:  # every city's holder is said: a player who cannot see the map reads it here
        lines += wrapped("  " + _("Cities no country controls:") + " ", [
            _("{city} held by nobody", city=name(a)) if owner is None else
            f"{name(a)} {owner_text(owner, board, a)}" for a, owner in unheld])
    if position.rebellions:
        lines += wrapped("  " + _("Rebellions:") + " ", [_("{area} against {victim}", area=name(a),
                                                             victim=owner_text(v, board))
                                                           for a, v in sorted(position.rebellions.items())])
    if position.sieges:
        lines += wrapped("  " + _("Sieges in progress:") + " ", [
            ngettext("{city} besieged by {besieger} for {count} season",
                     "{city} besieged by {besieger} for {count} seasons", s.seasons, city=name(a),
                     besieger=owner_text(s.besieger, board))
            for a, s in sorted(position.sieges.items())])
    if position.bans:
        lines += wrapped("  " + _("Excommunicated:") + " ", [
            _("{country} (until the spring letters of {season} are carried out, 15)", country=p,
              season=season_text(s)) if position.phase is Phase.A else  # laid in a fall
            _("{country} (until the campaign of {season} is over, 15)", country=p, season=season_text(s))
            for p, s in sorted(position.bans.items())])
    return lines


def _by_place(unit: Unit) -> tuple[str, str, str]:
    """Units as the board lists them: armies, fleets, then garrisons, each kind by area."""
    return unit.kind.value, unit.area, unit.coast or ""


def _at_home(unit: Unit) -> bool:
    """An independent unit in its native area (the state it stands for)."""
    return isinstance(unit.owner, Independent) and unit.owner.native == unit.area


def _control(board: Board, changes: Sequence[ControlChange]) -> list[str]:
    name = named(board)
    return ["  " + _("{area}: {before} -> {after}", area=name(c.area), before=owner_text(c.before, board, c.area),
                     after=owner_text(c.after, board, c.area)) for c in changes]


def _rebellions(board: Board, started: Iterable[RebellionStart], ended: Iterable[RebellionEnd]) -> list[str]:
    name = named(board)
    lines = ["  " + _("{area} rebels against {victim}: {reason}", area=name(r.area), victim=owner_text(r.victim, board),
                      reason=said(r.reason.value)) for r in started]
    return lines + ["  " + _("{area} no longer rebels against {victim}: {reason}", area=name(r.area),
                             victim=owner_text(r.victim, board), reason=said(r.reason.value)) for r in ended]


def _reasoned(what: str, reason: Reason) -> str:
    """A line of a section: what (a unit, an order, a country), then why, in the reader's language."""
    return "  " + _("{what}: {reason}", what=what, reason=said(reason.value))


def _section(title: str, lines: list[str]) -> list[str]:
    return [title, *lines] if lines else []


def opening_lines(board: Board, opening: SpringOpening, anticipated: Mapping[str, int]) -> list[str]:
    """A.1 and A.2 (public): the garrisons that sprang up, each player's income, and the
    anticipated treasuries, said what they are."""
    name = named(board)
    lines = [_("{season}, A.1 and A.2:", season=season_text(opening.season))]
    lines += ["  " + _("An independent garrison sprang up in {area} (16, M46)", area=name(u.area))
              for u in opening.sprung]
    lines += _rebellions(board, (), opening.rebellions_ended)
    lines += _control(board, opening.control_changes)
    lines += wrapped("  " + _("Incomes (5.1, 5.2):") + " ", [f"{p} {_income(i)}"
                                                              for p, i in sorted(opening.incomes.items())])
    lines += wrapped("  " + _("Anticipated treasuries (2, A.2):") + " ", [f"{p} {v}"
                                                                          for p, v in sorted(anticipated.items())])
    lines += wrapped(f"    ({anticipated_words()})", [], "     ")
    return lines


def _income(income: Income) -> str:
    return _("{total} (tax {tax}, trade {trade})", total=income.total, tax=income.tax, trade=income.trade)


def income_lines(board: Board, season: Season, income: Income) -> list[str]:
    """A player's income of an A.2, area by area (5.1, 5.2, 14): each province, city and sea that
    paid it, the Lagoon, and each home country's trade."""
    name = named(board)
    lines = [ngettext("Your income in {season} (A.2): {count} ducat, tax {tax} and trade {trade}:",
                      "Your income in {season} (A.2): {count} ducats, tax {tax} and trade {trade}:", income.total,
                      season=season_text(season), tax=income.tax, trade=income.trade)]
    earnings = income.earnings
    parts = [(Source.PROVINCE, _("provinces {ducats} (1 each, 5.1):")), (Source.CITY, _("cities {ducats} (5.1):")),
             (Source.SEA, _("seas {ducats} (1 each, 5.1):")), (Source.LAGOON, _("the Lagoon {ducats} (14):"))]
    for source, title in parts:
        paid = [e for e in earnings if e.source is source]
        if not paid:
            continue
        items = [name(e.where) + (f" {e.ducats}" if source is Source.CITY else "") for e in paid]
        lines += wrapped("  " + title.format(ducats=sum(e.ducats for e in paid)) + " ", items, "      ")
    trade = [e for e in earnings if e.source is Source.TRADE]
    if trade:
        lines += wrapped("  " + _("trade {ducats} (5.2):", ducats=income.trade) + " ", [
            _("the home country of {country} {ducats}", country=e.where, ducats=e.ducats) for e in trade], "      ")
    return lines


# -- phase A ---------------------------------------------------------------------------------------------


def spring_public(board: Board, record: SpringRecord) -> list[str]:
    """What the rules publish of a spring's A.4 to A.7: no money, no order's outcome (8.1)."""
    shown = record.public()
    name = named(board)
    lines = [_("{season}, phase A (A.4 to A.7):", season=season_text(record.season))]
    lines += _section(_("Provinces traded (chapter 6):"), [
        "  " + _("{area}: from {seller} to {buyer}", area=name(t.area), seller=t.seller, buyer=t.buyer)
        for t in shown.trades])
    lines += _section(_("Forced taxation (5.3):"), ["  " + _("{area} was taxed by force and rebels against {victim}",
                                                             area=name(t.area), victim=owner_text(t.victim, board))
                                                    for t in shown.forced_taxes])
    lines += _section(_("Excommunicated (chapter 15):"), [f"  {p}" for p in shown.excommunicated])
    lines += _section(_("Units raised (7.2):"), [f"  {unit_text(u, board=board)}" for u in shown.raised])
    lines += _section(_("Units disbanded (7):"), [f"  {unit_text(d.unit, board=board)}" for d in shown.disbanded])
    lines += _section(_("Control (4.1):"), _control(board, shown.control_changes))
    if len(lines) == 1:
        lines.append("  " + _("Nothing changed on the board."))
    return lines


def spring_statement(board: Board, record: SpringRecord, player: str, before: int,
                     default: Expected | None) -> list[str]:
    """What ``player`` alone learns of a spring's A.4 to A.7."""
    mine = record.for_player(player)
    name = named(board)
    lines = _treasury(board, before, record.position.treasuries.get(player, 0), mine.movements)
    if default is not None:
        lines.append(_("You sent no letter: {default}.", default=default_text(default.phase)))
    lines += _section(_("Your orders, in the order carried out:"), [_outcome(board, o) for o in mine.outcomes])
    lines += _section(_("Your provinces traded:"), [
        "  " + ngettext("{area}: from {seller} to {buyer} for {count} ducat",
                        "{area}: from {seller} to {buyer} for {count} ducats", t.price or 0, area=name(t.area),
                        seller=t.seller, buyer=t.buyer) for t in mine.trades])
    lines += _section(_("Your units raised:"), [f"  {unit_text(u, owner=False, board=board)}" for u in mine.raised])
    lines += _section(_("Your units disbanded:"), [_reasoned(unit_text(d.unit, owner=False, board=board), d.reason)
                                                   for d in mine.disbanded])
    return lines


# -- a campaign ------------------------------------------------------------------------------------------


def campaign_public(board: Board, record: CampaignRecord) -> list[str]:
    """What the rules publish of a campaign (see the module docstring)."""
    shown: Publication = record.public()
    name = named(board)
    lines = [_("{season}, phases D to F:", season=season_text(record.season))]
    lines += _section(_("Excommunicated (chapter 15):"), [f"  {p}" for p in shown.excommunicated])
    lines += _section(_("Assassinated (chapter 10):"), [
        "  " + _("the leader of {country}: every unit of {country} holds this campaign", country=p)
        for p in shown.assassinated])
    lines += _section(_("Bribes (chapter 12): units that changed sides"), [
        "  " + (_("{unit} was disbanded", unit=unit_text(before, board=board)) if after is None else
                _("{unit} is now independent", unit=unit_text(before, board=board))
                if isinstance(after.owner, Independent) else
                _("{unit} now belongs to {country}", unit=unit_text(before, board=board), country=after.owner))
        for before, after in shown.bribes])
    lines += _section(_("Rebellions (chapter 11):"), _rebellions(board, shown.rebellions_started,
                                                                shown.rebellions_ended))
    lines += _section(_("Operations (chapters 9, 13):"), operation_lines(board, shown.operations))
    lines += _section(_("Retreats chosen by the judge (13.5, App. A):"), [_retreat(board, r) for r in shown.retreats])
    lines += _section(_("Disbanded:"), [_reasoned(unit_text(d.unit, board=board), d.reason)
                                        for d in shown.disbanded])
    lines += _section(_("Conversions:"), [
        _reasoned(f"{unit_text(c.before, board=board)} -> {unit_text(c.after, owner=False, board=board)}", c.reason)
        for c in shown.conversions])
    lines += _section(_("Sieges (9.4):"), ["  " + _("{city} by {besieger}: {reason}", city=name(s.area),
                                                    besieger=owner_text(s.besieger, board), reason=said(s.reason.value))
                                           for s in shown.sieges])
    lines += _section(_("Control (4.1):"), _control(board, shown.control_changes))
    lines += _section(_("Conquests (4.4):"), ["  " + _("{country} conquered the home country of {home}",
                                                       country=c.player, home=c.country) for c in shown.conquests])
    lines += _section(_("Home countries lost (4.4):"), ["  " + _("{country} lost the home country of {home}",
                                                                 country=x.player, home=x.country)
                                                        for x in shown.losses])
    lines += _section(_("Eliminated (4.3):"), [_reasoned(p, why) for p, why in shown.eliminated])
    if shown.end is not None:
        lines += ["", *end_lines(shown.end.winners, shown.end.ranking, shown.end.agreed)]
    if shown.opening is not None:
        lines += ["", *opening_lines(board, shown.opening, shown.anticipated)]
    return lines


def end_lines(winners: Sequence[str], ranking: Sequence[Standing], agreed: Proposal | None = None) -> list[str]:
    """Victory, or the end the survivors agreed on, and the ranking (4.2, M6, M7, M64)."""
    if agreed is not None:
        lines = [_("Draw (M64): the surviving players all voted for a draw; {countries} share first place.",
                   countries=", ".join(winners))
                 if agreed.to is None else
                 _("Concession (M64): the surviving players all voted to concede the game to {country}, which ranks "
                   "first.", country=agreed.to)]
    elif len(winners) == 1:
        lines = [_("Victory (4.2): {country} wins.", country=winners[0])]
    elif winners:
        lines = [_("Victory (4.2): {countries} share the victory.", countries=", ".join(winners))]
    else:
        lines = [_("Nobody won.")]
    lines.append(_("Ranking (4.2: cities counted, provinces, tax income, treasury):"))
    for s in ranking:
        if s.eliminated is not None:
            lines.append("  " + _("{rank}. {country}: eliminated in {season}", rank=s.rank, country=s.player,
                                  season=season_text(s.eliminated)))
        else:
            lines.append("  " + _("{rank}. {country}: {cities}, {provinces}, tax {tax}, treasury {treasury}",
                                  rank=s.rank, country=s.player,
                                  cities=ngettext("{count} city", "{count} cities", s.cities),
                                  provinces=ngettext("{count} province", "{count} provinces", s.provinces),
                                  tax=s.tax, treasury=s.treasury))
    return lines


def operation_lines(board: Board, results: Sequence[OrderResult]) -> list[str]:
    """Each unit's operation and its result; the units that held with no order given, and the
    independents that held unbribed, each in one line."""
    quiet = [r for r in results if r.order is None and r.dislodged_from is None
             and r.reason in (Reason.NO_ORDER, Reason.INDEPENDENT)]  # a unit forced out has a line of its own
    idle = [unit_text(r.unit, board=board) for r in quiet if r.reason is Reason.NO_ORDER]
    independent = [unit_text(r.unit, owner=not _at_home(r.unit), board=board) for r in quiet
                   if r.reason is Reason.INDEPENDENT]
    lines = [_operation(board, r, results) for r in results if r not in quiet]
    if idle:
        lines += wrapped("  " + _("Held, no order given (9.2, M50):") + " ", idle)
    if independent:
        lines += wrapped("  " + _("Independent units held, unbribed (16, M33):") + " ", independent)
    return lines


def _operation(board: Board, r: OrderResult, results: Sequence[OrderResult] = ()) -> str:
    """One unit's operation: what was written, what was carried out, and why; an attack helped
    by an automatic support (M44) says so, and so does the unit it forced out."""
    name = named(board)
    done = spelled(r.operation, name)
    written = None if r.order is None else spelled(r.order, name)
    what = done if written in (done, None) else _("{written}, carried out as {done}", written=written, done=done)
    line = "  " + _("{owner} {order}: {reason}", owner=owner_text(r.unit.owner, board, r.unit.area), order=what,
                    reason=said(r.reason.value))
    if r.succeeded and r.automatic:
        line += _("; with {supports}", supports=_supports(r.automatic))
    if r.dislodged_from is not None:
        attacker = next((a for a in results if a.unit.area == r.dislodged_from and not a.unit.place.city
                         and a.automatic and a.succeeded), None)
        line += (_("; attacked from {area}", area=name(r.dislodged_from)) if attacker is None else
                 _("; attacked from {area}, an attack with {supports}", area=name(r.dislodged_from),
                   supports=_supports(attacker.automatic)))
    return line


def _supports(automatic: Sequence[Automatic]) -> str:
    """``the rebellion's automatic support (11.2, M44)``, and the garrison's after it."""
    if len(automatic) == 2:
        return _("{first} and {second}", first=said(automatic[0].value), second=said(automatic[1].value))
    return ", ".join(said(a.value) for a in automatic)


def _retreat(board: Board, r: Retreat) -> str:
    name = named(board)
    where = _("eliminated") if r.to is None else (
        _("converted into the city of {area}", area=name(r.to.area)) if r.to.kind is UnitKind.GARRISON and
        r.unit.kind is not UnitKind.GARRISON else _("to {area}", area=name(r.to.area)))
    return "  " + _("{unit} (attacked from {area}): {where}: {reason}", unit=unit_text(r.unit, board=board),
                    area=name(r.attacked_from), where=where, reason=said(r.reason.value))


def campaign_statement(board: Board, record: CampaignRecord, player: str, before: int,
                       default: Expected | None) -> list[str]:
    """What ``player`` alone learns of a campaign (see the module docstring)."""
    report = record.for_player(player)
    lines = _treasury(board, before, report.treasury, report.movements)
    if default is not None:
        lines.append(_("You sent no letter: {default}.", default=default_text(default.phase)))
    lines += _section(_("Your expenditures and permissions, in the order carried out:"),
                      [_outcome(board, o) for o in report.outcomes])
    bribes = []
    for b in report.bribed:
        after = (_("disbanded") if b.after is None else _("operated as you ordered") if b.after == b.before
                 else _("now {unit}", unit=unit_text(b.after, board=board)))
        if b.briber == player:
            bribes.append("  " + _("your bribe ({kind}) took: {unit} {after}", kind=b.kind.value,
                                   unit=unit_text(b.before, board=board), after=after))
        else:
            bribes.append("  " + _("your {unit} was bribed: {after}",
                                   unit=unit_text(b.before, owner=False, board=board), after=after))
    lines += _section(_("Bribes:"), bribes)
    lines += _section(_("Your units in phase F:"), [_operation(board, r, record.action.results)
                                                    for r in report.operations])
    # Quoted as written, in codes: they were never carried out, and spelled with names a letter's
    # routes (`MAX_LETTER` characters) grew eightfold in each statement (issue 55's megabyte).
    ignored = [_reasoned(spelled(i.order), i.reason) for i in record.action.ignored if i.player == player]
    lines += _section(_("Your orders for units you did not command:"), ignored)
    lines += _section(_("Your retreats, as the judge chose them (13.5, App. A):"),
                      [_retreat(board, r) for r in report.retreats])
    lines += _section(_("Your units disbanded:"), [_reasoned(unit_text(d.unit, owner=False, board=board), d.reason)
                                                   for d in report.disbanded])
    if record.opening is not None and player in record.opening.incomes:
        lines += income_lines(board, record.opening.season, record.opening.incomes[player])
    return lines


def _treasury(board: Board, before: int, after: int, movements: Sequence[Movement]) -> list[str]:
    lines = [_("Your treasury: {before} before, {after} now.", before=_ducats(before), after=_ducats(after))]
    for m in movements:
        what = (_("{flow} at the campaign's end", flow=flow_text(m.flow)) if m.phase == "end"  # 4.3's confiscation
                else f"{m.phase} {flow_text(m.flow)}")
        amount = f"{m.amount:+d}"
        lines.append("  " + _("{amount} {movement}: {detail}", amount=amount, movement=what, detail=_detail(board, m)))
    if not movements:
        lines.append("  " + _("(no movement)"))
    return lines


def _detail(board: Board, movement: Movement) -> str:
    """What a movement was for, its areas named: the core's words, or, where a letter's order
    moved it, that order's."""
    order, name = movement.order, named(board)
    if isinstance(order, Purchase):
        return _("{area} bought from {country}", area=name(order.area), country=order.seller)
    if isinstance(order, Sell):
        return _("{area} sold to {country}", area=name(order.area), country=order.buyer)
    if isinstance(order, ForcedTax):
        return _("{area} taxed by force", area=name(order.area))
    if order is not None and movement.flow in (Flow.SALARY, Flow.EXPENDITURE):
        return spelled(order, name)
    detail = movement.detail  # the core's words (`core.ledger`, `core.spring`), said in the reader's language
    if detail.startswith("transfer to "):
        return _("transfer to {country}", country=detail.removeprefix("transfer to "))
    if detail.startswith("transfer from "):
        return _("transfer from {country}", country=detail.removeprefix("transfer from "))
    fixed = {"tax income (5.1)": _("tax income (5.1)"), "trade income (5.2)": _("trade income (5.2)"),
             "eliminated (4.3)": _("eliminated (4.3)")}
    return fixed.get(detail, detail)


def _outcome(board: Board, o: OrderOutcome) -> str:
    if o.succeeded:
        done = (ngettext("carried out, charged {count} ducat", "carried out, charged {count} ducats", o.charged)
                if o.charged else _("carried out, not charged"))
    else:
        done = (ngettext("not carried out, charged {count} ducat", "not carried out, charged {count} ducats",
                         o.charged) if o.charged else _("not carried out, not charged"))
    return "  " + _("{order} ({phase}): {done}: {reason}", order=spelled(o.order, named(board)), phase=o.phase,
                    done=done, reason=said(o.reason.value))


# -- the game's page: the year's money ----------------------------------------------------------------


def yearly_lines(board: Board, springs: Sequence[tuple[Position, Position]]) -> list[str]:
    """The money of each year anyone may know (public, AoP 2, A.2), from each spring's position as
    its letters were awaited (A.1 and A.2 done) and as they left it (A.7 done): each country's
    income (A.2), its forced taxes (A.6), its units' salaries (A.7: 3 ducats for each unit it has
    after A.7, every one of them paid for), and its anticipated treasury after them.  Nothing
    secret: transfers, trades' prices and expenditures are not in it."""
    if not springs:
        return []
    lines = [*textwrap.wrap(_("As the rules publish it: income (A.2), forced taxes (A.6), salaries (A.7: {salary} "
                              "for each unit) and the anticipated treasury after them ({anticipated}).",
                              salary=SALARY, anticipated=anticipated_words()), WIDTH), ""]
    for before, after in springs:
        lines.append(_("{year} (the spring letters of {season}):", year=before.season.year,
                       season=season_text(before.season)))
        lines.append(f"  {_('country'):<20}{_('income'):>8}{_('forced'):>8}{_('salaries'):>10}"
                     f"{_('anticipated'):>13}")
        for player in board.powers:
            if player in before.eliminated:
                continue
            income = _income_at(board, before, player)
            salaries = SALARY * len(after.units_of(player))
            moved = after.anticipated.get(player, 0) - before.anticipated.get(player, 0)
            forced = moved + salaries
            lines.append(f"  {player:<20}{income:>8}{forced:>8}{salaries:>10}{after.anticipated.get(player, 0):>13}")
        lines.append("")
    return lines[:-1]


def _income_at(board: Board, position: Position, player: str) -> int:
    """The income ``player`` collected in the A.2 before ``position`` (none in the first spring,
    which starts at A.3: AoP 3)."""
    if position.season == board.start.season:
        return 0
    return incomes(board, position, [player])[player].total


# -- the letter ----------------------------------------------------------------------------------------


def letter_lines(orders: Sequence[str], kept: Sequence[str], number: int) -> list[str]:
    """A player's letter standing in the open phase (STATUS, the briefing)."""
    if not orders:
        return [_("Your letter: an empty one (no order), which does what the defaults do (17.2, M50)")
                if number else _("Your letter: none yet (without one the judge applies the defaults, 17.2, M50)")]
    lines = [_("Your letter (corrected: it may not be corrected again, 17.1, M35):") if number > 1
             else _("Your letter (you may correct it once before the deadline, 17.1, M35):")]
    lines += ["  " + (_("{order} (a transfer of your first letter: it stands, 17.1)", order=order) if order in kept
                      else order) for order in orders]
    return lines


# -- the form to fill -----------------------------------------------------------------------------------


def form_parts(board: Board, position: Position, country: str) -> tuple[list[str], list[str]]:
    """The notes and lines of ``country``'s form to fill for the letter ``position`` awaits (`judge.api.Form`),
    each choice written ``_``, drawn from what the country may know: its own treasury, and the board,
    which is public (2).  A spring letter: a transfer line, a line per unit to pay (3 ducats) or disband,
    and a raise line per unit it may raise (3 ducats), with the places where it may.  A campaign letter:
    the expenditures' prices and a line for each, the units its bribes reach with each bribe's minimum,
    then an order line per unit, with the orders it may be given."""
    treasury = ngettext("Treasury: {count} ducat.", "Treasury: {count} ducats.", position.treasuries.get(country, 0))
    units = sorted(position.units_of(country), key=lambda unit: unit_text(unit, owner=False))
    if position.phase is Phase.A:
        notes, lines = _spring_form(board, position, country, units)
    else:
        notes, lines = _campaign_form(board, position, country, units)
    return [treasury, *notes], lines


def _spring_form(board: Board, position: Position, country: str, units: Sequence[Unit]) -> tuple[list[str], list[str]]:
    notes = [_("A transfer line: replace its first _ with an amount, its second with a country (A.4).")]
    lines = ["transfer _ to _"]
    if units:
        notes += [_("Each unit you keep costs {salary} ducats (A.7): replace the _ of its line with pay to keep it, "
                    "or with disband.", salary=SALARY),
                  _("Once you pay, disband or raise a unit, the units you leave off are disbanded (M12); if you do "
                    "none of these, every unit is paid as far as your treasury goes, garrisons first (M50).")]
        lines += [f"_ {unit_text(unit, owner=False)}" for unit in units]
    raised = raisings(board, position, country)
    provinces = len({order.area for order in raised})
    first = position.season == board.start.season
    if provinces:
        if first:
            notes.append(ngettext("In this first spring you may raise at most {count} unit (3, M48).",
                                  "In this first spring you may raise at most {count} units (3, M48).",
                                  board.first_builds))
        notes.append(_("A raise line: replace its _ with a unit to raise, {salary} ducats each, one a province at "
                       "most (7.2), from these:", salary=SALARY))
        notes += note_list(_("Raise"), [str(order).removeprefix("raise ") for order in raised])
        lines += ["raise _"] * (min(provinces, board.first_builds) if first else provinces)
    notes.append(_("Trades (A.5) and forced taxation (A.6) are written as HELP syntax shows."))
    return notes, lines


def _campaign_form(board: Board, position: Position, country: str,
                   units: Sequence[Unit]) -> tuple[list[str], list[str]]:
    notes = [_("Expenditures are carried out in phase D, each paid in full or not at all (8.1)."),
             _("Prices: a bodyguard costs {bodyguard} ducats or more by threes, an assassination {assassination} "
               "or more by threes (10); a counter-bribe {counter} or more by threes (12); a rebellion 15, 9 "
               "or 3, a pacification {pacification} (11).", bodyguard=BODYGUARD, assassination=ASSASSINATION,
               counter=COUNTER_BRIBE, pacification=PACIFICATION),
             _("Rebellions, pacifications and permissions (allow) have no line here: HELP syntax shows how to write "
               "them."),
             _("A bribe line: the amount, then operate, disband, buy or independent, then the unit, each bribe at "
               "its minimum or more by threes (12).")]
    reach = bribes_in_reach(board, position, country)
    notes.append(_("Your units and home country reach these units, at these minimums:") if reach else
                 _("No unit is in your reach now (M36): another country's permission may bring some (M51)."))
    notes += [_("Bribe {unit}: {offers}", unit=unit_text(unit, owner=False),
                offers=", ".join(f"{kind.value} {price}" for kind, price in offers))
              for unit, offers in reach]
    lines = ["transfer _ to _", "bodyguard _", "assassinate _ _", "bribe _ _ _", "counter-bribe _ _"]
    if units:
        notes.append(_("Each unit's line: replace its _ with its order (9). An army or fleet may also support (S) "
                       "an area it may advance into, for itself or a country (9.5). Your units may:"))
        for unit in units:
            ref = str(UnitRef(unit.kind, unit.area))
            notes += note_list(unit_text(unit, owner=False), [str(order).removeprefix(ref).strip()
                                                            for order in possible_orders(board, position, unit)])
        lines += [f"{unit_text(unit, owner=False)} _" for unit in units]
    return notes, lines


def season_words(season: Season, letter: str) -> str:
    """``the spring letter of Spring 1454 (A orders)``."""
    return (_("the spring letter of {season} (A orders)", season=season_text(season)) if letter == "A"
            else _("the campaign letter of {season} (C orders)", season=season_text(season)))
