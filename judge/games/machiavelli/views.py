"""What each reader of a Machiavelli game is told, as lines of text: pure functions of the rules
core's values (no database, no mail), one per reader and moment.

Theory of operation.  The rules say what is public and what is not (AoP 2, 8.1, 8.2, 18.1):

* **public** (`spring_public`, `campaign_public`, `board_lines`): the map and the actions — the
  units raised and disbanded, the provinces traded (never their price), the provinces taxed by
  force, the excommunications, the assassinations, the rebellions started and ended, the units
  that changed sides by bribery (never who paid, nor what a failed bribe was), every unit's
  operation and its result, the retreats the judge chose, the sieges, conversions, control,
  conquests, eliminations and victory; in A.2 the incomes and the anticipated treasuries.  The
  orders of units that changed sides before phase F are not disclosed (8.2, M50);
* **private to one player** (`spring_statement`, `campaign_statement`): its treasury before and
  after and every movement of it (the ducats it received, with the giver's name, which 8.1
  discloses to the receiver at the end of the campaign), each of its letter's orders charged or
  not and why, what became of each of its units and of each order it wrote for units it did
  not command, the bribes of its own units (what they became, never by whom unless the buyer
  now owns the unit, which the map shows) and its own bribes that took, and the retreats the
  judge chose for it;
* **the game master** gets both and every player's statement (`judge.games.machiavelli.lifecycle`).

Units are written as letters write them (``A flo``, ``F gon``, ``G ven``), areas by their
codes: the start mail lists every code with its name (`area_lines`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence

from judge.games.machiavelli.core.board import Board
from judge.games.machiavelli.core.campaign import CampaignRecord, Expected, Publication
from judge.games.machiavelli.core.existence import Proposal, Standing
from judge.games.machiavelli.core.expense import RebellionStart
from judge.games.machiavelli.core.income import Income
from judge.games.machiavelli.core.ledger import Movement, OrderOutcome
from judge.games.machiavelli.core.orders import Order
from judge.games.machiavelli.core.position import Independent, Owner, Phase, Position, Season, Unit, UnitKind
from judge.games.machiavelli.core.results import ControlChange, OrderResult, Reason, RebellionEnd, Retreat
from judge.games.machiavelli.core.spring import SpringOpening, SpringRecord


def owner_text(owner: Owner | None) -> str:
    """A power's name, ``independent <area>`` for an independent state, ``nobody``."""
    if owner is None:
        return "nobody"
    return f"independent {owner.native}" if isinstance(owner, Independent) else owner


def unit_text(unit: Unit, owner: bool = True) -> str:
    """``Florence A flo`` (``A flo`` without the owner); a fleet's coast as ``/nc``."""
    where = f"{unit.area}/{unit.coast}" if unit.coast else unit.area
    text = f"{unit.kind.value} {where}"
    return f"{owner_text(unit.owner)} {text}" if owner else text


def _ducats(amount: int) -> str:
    return f"{amount} ducat" if abs(amount) == 1 else f"{amount} ducats"


# -- the board ------------------------------------------------------------------------------------------


WIDTH = 100
"""Lists longer than this are wrapped, each line indented."""


def wrapped(head: str, items: Sequence[str], indent: str = "    ") -> list[str]:
    """``head`` then ``items`` joined by commas, wrapped at `WIDTH` with ``indent``."""
    return textwrap.wrap(head + ", ".join(items), WIDTH, subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def _city(board: Board, code: str) -> str:
    city = board.areas[code].city
    if city is None:
        return ""
    return f" [{'F' if city.fortified else 'c'}{city.income}{'p' if city.port else ''}]"


def area_lines(board: Board, per_line: int = 3) -> list[str]:
    """Every area's code and name, as letters may name them, and its city (the start mail)."""
    cells = [f"{code:<4} {area.name}{_city(board, code)}" for code, area in sorted(board.areas.items())]
    width = max(len(cell) for cell in cells) + 2
    return ["[F3] a fortified city of income 3 (a garrison may stand there), [c1] an unfortified one, "
            "p a port:", *("".join(cell.ljust(width) for cell in cells[i:i + per_line]).rstrip()
                             for i in range(0, len(cells), per_line))]


def board_lines(board: Board, position: Position) -> list[str]:
    """The board as it stands (public): each player's units and the provinces and cities it
    controls, the independents, the rebellions and the sieges in progress."""
    lines = [f"The board, {position.season}:"]
    for player in board.powers:
        if player in position.eliminated:
            lines.append(f"  {player}: eliminated in {position.eliminated[player]}")
            continue
        units = sorted(unit_text(u, owner=False) for u in position.units_of(player))
        provinces = sorted(a for a in board.areas if board.areas[a].is_land and position.controller(a) == player)
        cities = [a for a in sorted(board.areas) if board.areas[a].city is not None
                  and position.city_controller(a) == player]
        lines += wrapped(f"  {player}: units ", units or ["none"])
        lines += wrapped("    provinces ", provinces or ["none"], "      ")
        lines += wrapped("    cities ", cities or ["none"], "      ")
    independents = sorted(unit_text(u) for u in position.units.values() if isinstance(u.owner, Independent))
    if independents:
        lines += wrapped("  Independent units: ", independents)
    if position.rebellions:
        lines += wrapped("  Rebellions: ", [f"{a} (against {owner_text(v)})"
                                           for a, v in sorted(position.rebellions.items())])
    if position.sieges:
        lines += wrapped("  Sieges in progress: ", [
            f"{a} by {owner_text(s.besieger)} ({s.seasons} season{'s' if s.seasons != 1 else ''})"
            for a, s in sorted(position.sieges.items())])
    if position.bans:
        ends = ("until the spring letters of {} are carried out, 15" if position.phase is Phase.A  # laid in a fall
                else "until the campaign of {} is over, 15")
        lines += wrapped("  Excommunicated: ", [f"{p} ({ends.format(s)})" for p, s in sorted(position.bans.items())])
    return lines


def _control(changes: Sequence[ControlChange]) -> list[str]:
    return [f"  {c.area}: {owner_text(c.before)} -> {owner_text(c.after)}" for c in changes]


def _rebellions(started: Iterable[RebellionStart], ended: Iterable[RebellionEnd]) -> list[str]:
    lines = [f"  {r.area} rebels against {owner_text(r.victim)}: {r.reason.value}" for r in started]
    return lines + [f"  {r.area} no longer rebels against {owner_text(r.victim)}: {r.reason.value}" for r in ended]


def _section(title: str, lines: list[str]) -> list[str]:
    return [title, *lines] if lines else []


def opening_lines(opening: SpringOpening, anticipated: Mapping[str, int]) -> list[str]:
    """A.1 and A.2 (public): the garrisons that sprang up, each player's income, and the
    anticipated treasuries."""
    lines = [f"{opening.season}, A.1 and A.2:"]
    lines += [f"  An independent garrison sprang up in {u.area} (16, M46)" for u in opening.sprung]
    lines += _rebellions((), opening.rebellions_ended)
    lines += _control(opening.control_changes)
    lines += wrapped("  Incomes (5.1, 5.2): ", [f"{p} {_income(i)}" for p, i in sorted(opening.incomes.items())])
    lines += wrapped("  Anticipated treasuries (2, A.2): ", [f"{p} {v}" for p, v in sorted(anticipated.items())])
    return lines


def _income(income: Income) -> str:
    return f"{income.total} (tax {income.tax}, trade {income.trade})"


# -- phase A ---------------------------------------------------------------------------------------------


def spring_public(record: SpringRecord) -> list[str]:
    """What the rules publish of a spring's A.4 to A.7: no money, no order's outcome (8.1)."""
    shown = record.public()
    lines = [f"{record.season}, phase A (A.4 to A.7):"]
    lines += _section("Provinces traded (6):", [f"  {t.area}: from {t.seller} to {t.buyer}" for t in shown.trades])
    lines += _section("Forced taxation (5.3):", [f"  {t.area} was taxed by force and rebels against "
                                                 f"{owner_text(t.victim)}" for t in shown.forced_taxes])
    lines += _section("Excommunicated (15):", [f"  {p}" for p in shown.excommunicated])
    lines += _section("Units raised (7.2):", [f"  {unit_text(u)}" for u in shown.raised])
    lines += _section("Units disbanded (7):", [f"  {unit_text(d.unit)}" for d in shown.disbanded])
    lines += _section("Control (4.1):", _control(shown.control_changes))
    if len(lines) == 1:
        lines.append("  Nothing changed on the board.")
    return lines


def spring_statement(record: SpringRecord, player: str, before: int, default: Expected | None) -> list[str]:
    """What ``player`` alone learns of a spring's A.4 to A.7."""
    mine = record.for_player(player)
    lines = _treasury(before, record.position.treasuries.get(player, 0), mine.movements)
    if default is not None:
        lines.append(f"You sent no letter: {default.default}.")
    lines += _section("Your orders, in the order carried out:", [_outcome(o) for o in mine.outcomes])
    lines += _section("Your provinces traded:", [f"  {t.area}: from {t.seller} to {t.buyer} for {_ducats(t.price or 0)}"
                                                 for t in mine.trades])
    lines += _section("Your units raised:", [f"  {unit_text(u, owner=False)}" for u in mine.raised])
    lines += _section("Your units disbanded:", [f"  {unit_text(d.unit, owner=False)}: {d.reason.value}"
                                                for d in mine.disbanded])
    return lines


# -- a campaign ------------------------------------------------------------------------------------------


def campaign_public(board: Board, record: CampaignRecord) -> list[str]:
    """What the rules publish of a campaign (see the module docstring)."""
    shown: Publication = record.public()
    lines = [f"{record.season}, phases D to F:"]
    lines += _section("Excommunicated (15):", [f"  {p}" for p in shown.excommunicated])
    lines += _section("Assassinated (10):", [f"  the leader of {p}: every unit of {p} holds this campaign"
                                             for p in shown.assassinated])
    lines += _section("Bribes (12): units that changed sides", [
        f"  {unit_text(before)} " + ("was disbanded" if after is None else
                                     "is now independent" if isinstance(after.owner, Independent)
                                     else f"now belongs to {after.owner}")
        for before, after in shown.bribes])
    lines += _section("Rebellions (11):", _rebellions(shown.rebellions_started, shown.rebellions_ended))
    lines += _section("Operations (9, 13):", operation_lines(shown.operations))
    lines += _section("Retreats chosen by the judge (13.5, App. A):", [_retreat(r) for r in shown.retreats])
    lines += _section("Disbanded:", [f"  {unit_text(d.unit)}: {d.reason.value}" for d in shown.disbanded])
    lines += _section("Conversions:", [f"  {unit_text(c.before)} -> {unit_text(c.after, owner=False)}: "
                                       f"{c.reason.value}" for c in shown.conversions])
    lines += _section("Sieges (9.4):", [f"  {s.area} by {owner_text(s.besieger)}: {s.reason.value}"
                                        for s in shown.sieges])
    lines += _section("Control (4.1):", _control(shown.control_changes))
    lines += _section("Conquests (4.4):", [f"  {c.player} conquered the home country of {c.country}"
                                           for c in shown.conquests])
    lines += _section("Home countries lost (4.4):", [f"  {x.player} lost the home country of {x.country}"
                                                     for x in shown.losses])
    lines += _section("Eliminated (4.3):", [f"  {p}: {why.value}" for p, why in shown.eliminated])
    if shown.end is not None:
        lines += ["", *end_lines(shown.end.winners, shown.end.ranking, shown.end.agreed)]
    if shown.opening is not None:
        lines += ["", *opening_lines(shown.opening, shown.anticipated)]
    return lines


def end_lines(winners: Sequence[str], ranking: Sequence[Standing], agreed: Proposal | None = None) -> list[str]:
    """Victory, or the end the survivors agreed on, and the ranking (4.2, M6, M7, M64)."""
    if agreed is not None:
        lines = [f"Draw (M64): the surviving players all voted for a draw; {', '.join(winners)} share first place."
                 if agreed.to is None else
                 f"Concession (M64): the surviving players all voted to concede the game to {agreed.to}, which ranks "
                 "first."]
    else:
        lines = [f"Victory (4.2): {' and '.join(winners)} {'wins' if len(winners) == 1 else 'share the victory'}."
                 if winners else "Nobody won."]
    lines.append("Ranking (4.2: cities counted, provinces, tax income, treasury):")
    for s in ranking:
        if s.eliminated is not None:
            lines.append(f"  {s.rank}. {s.player}: eliminated in {s.eliminated}")
        else:
            lines.append(f"  {s.rank}. {s.player}: {s.cities} cities, {s.provinces} provinces, tax {s.tax}, "
                         f"treasury {s.treasury}")
    return lines


def operation_lines(results: Sequence[OrderResult]) -> list[str]:
    """Each unit's operation and its result; the units that held with no order given, and the
    independents that held unbribed, each in one line."""
    idle = [unit_text(r.unit) for r in results if r.order is None and r.reason is Reason.NO_ORDER]
    independent = [unit_text(r.unit) for r in results if r.order is None and r.reason is Reason.INDEPENDENT]
    lines = [_operation(r) for r in results if not (r.order is None and r.reason in (Reason.NO_ORDER,
                                                                                     Reason.INDEPENDENT))]
    if idle:
        lines += wrapped("  Held, no order given (9.2, M50): ", idle)
    if independent:
        lines += wrapped("  Independent units held, unbribed (16, M33): ", independent)
    return lines


def _order(order: Order | None) -> str:
    return "no order" if order is None else str(order)


def _operation(r: OrderResult) -> str:
    done = str(r.operation)
    written = _order(r.order)
    what = done if written in (done, "no order") else f"{written}, carried out as {done}"
    fate = "" if r.dislodged_from is None else f"; attacked from {r.dislodged_from}"
    return f"  {owner_text(r.unit.owner)} {what}: {r.reason.value}{fate}"


def _retreat(r: Retreat) -> str:
    where = "eliminated" if r.to is None else (
        f"converted into the city of {r.to.area}" if r.to.kind is UnitKind.GARRISON and r.unit.kind is not
        UnitKind.GARRISON else f"to {r.to.area}")
    return f"  {unit_text(r.unit)} (attacked from {r.attacked_from}): {where}: {r.reason.value}"


def campaign_statement(record: CampaignRecord, player: str, before: int, default: Expected | None) -> list[str]:
    """What ``player`` alone learns of a campaign (see the module docstring)."""
    report = record.for_player(player)
    lines = _treasury(before, report.treasury, report.movements)
    if default is not None:
        lines.append(f"You sent no letter: {default.default}.")
    lines += _section("Your expenditures and permissions, in the order carried out:",
                      [_outcome(o) for o in report.outcomes])
    bribes = []
    for b in report.bribed:
        after = ("disbanded" if b.after is None else "operated as you ordered" if b.after == b.before
                 else f"now {unit_text(b.after)}")
        if b.briber == player:
            bribes.append(f"  your bribe ({b.kind.value}) took: {unit_text(b.before)} {after}")
        else:
            bribes.append(f"  your {unit_text(b.before, owner=False)} was bribed: {after}")
    lines += _section("Bribes:", bribes)
    lines += _section("Your units in phase F:", [_operation(r) for r in report.operations])
    ignored = [f"  {i.order}: {i.reason.value}" for i in record.action.ignored if i.player == player]
    lines += _section("Your orders for units you did not command:", ignored)
    lines += _section("Your retreats, as the judge chose them (13.5, App. A):", [_retreat(r) for r in report.retreats])
    lines += _section("Your units disbanded:", [f"  {unit_text(d.unit, owner=False)}: {d.reason.value}"
                                                for d in report.disbanded])
    if record.opening is not None and player in record.opening.incomes:
        lines.append(f"Your income in {record.opening.season} (A.2): {_income(record.opening.incomes[player])}.")
    return lines


def _treasury(before: int, after: int, movements: Sequence[Movement]) -> list[str]:
    lines = [f"Your treasury: {_ducats(before)} before, {_ducats(after)} now."]
    for m in movements:
        lines.append(f"  {m.amount:+d} {m.phase} {m.flow.value}: {m.detail}")
    if not movements:
        lines.append("  (no movement)")
    return lines


def _outcome(o: OrderOutcome) -> str:
    done = "carried out" if o.succeeded else "not carried out"
    charged = f"charged {_ducats(o.charged)}" if o.charged else "not charged"
    return f"  {o.order} ({o.phase}): {done}, {charged}: {o.reason.value}"


# -- the letter ----------------------------------------------------------------------------------------


def letter_lines(orders: Sequence[str], kept: Sequence[str], number: int) -> list[str]:
    """A player's letter standing in the open phase (STATUS, the briefing)."""
    if not orders:
        return ["Your letter: an empty one (no order), which does what the defaults do (17.2, M50)"
                if number else "Your letter: none yet (without one the judge applies the defaults, 17.2, M50)"]
    head = "Your letter" + (" (corrected: it may not be corrected again, 17.1, M35)" if number > 1
                            else " (you may correct it once before the deadline, 17.1, M35)")
    lines = [f"{head}:"]
    lines += [f"  {order}" + (" (a transfer of your first letter: it stands, 17.1)" if order in kept else "")
              for order in orders]
    return lines


def season_words(season: Season, letter: str) -> str:
    """``the spring letter of Spring 1454 (A orders)``."""
    return (f"the spring letter of {season} (A orders)" if letter == "A"
            else f"the campaign letter of {season} (C orders)")
