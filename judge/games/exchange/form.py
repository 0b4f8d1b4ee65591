"""An investor's form to fill in an Exchange game (`judge.api.Form`): what they may send in the
phase, a line per item with ``_`` where they must choose, and what they need to fill it.

Theory of operation.  `form_parts` is a pure function of the state the phase opened with (and the
money moved since) and of the investor; the host lays the form out at the end of each mail that
opens the phase for them and drops a reply's lines left as the form gave them (`judge.api.Form`).
Each line the investor must complete holds a ``_``, which no reader of the game takes for a value:
a number, a price, a name, a worth or an order left blank refuses the sheet (2.2, ruling 8).  A
corporation's lines come in its ``FOR X`` block, closed by ``END`` (2.1): those two lines have no
blank, and the host reads them as written, for the lines between them belong to X.

- **Exchange phase** (X.8.3): the investor's cash and shares, each corporation's pool and CEO (E9,
  E36), then ``PRIORITY _`` (E30), a ``BID`` and an ``ELECT`` line per corporation still trading (not
  eliminated, E31) and a ``SELL`` line per corporation the investor holds shares of; then, for each
  corporation they are the sitting CEO of, its treasury and dividend limit (E23) and its block:
  ``DIVIDEND``, ``SELL`` from its pool (E9), ``ISSUE`` (E11, only with shares outstanding), ``BID``
  (a buy-back, E12).
- **Movement phase**: the investor's cash and an offer line of their own (optional, E25); for each
  corporation they run, its treasury, acceptance list and each unit's legal orders in short (as
  Payola's form lists them), and its block: an offer line per unit, in Spring the ``WORTH`` line
  naming each of its centers (E22, not under ZEROSUM), ``ACCEPT`` and the savings line.
- **Retreat and adjustment phases**: for each corporation they run with something to order, its
  block: a line per dislodged unit with its retreats, or its ``BUILD`` lines with the free home
  centers, or its ``REMOVE`` lines with its units (X.5.1).

Secrecy (E40): the form shows the investor's own money and shares, what anyone may know (the
board, the pools, the CEOs), and a corporation's treasury, acceptance list and centers' worths to
its CEO alone.
"""

from __future__ import annotations

from judge.api import note_list
from judge.engine.legal import adjustment_count, legal_builds, retreat_options
from judge.engine.orders import Build
from judge.engine.position import Season
from judge.games.exchange.core.income import standard_income
from judge.games.exchange.core.phases import Step, step
from judge.games.exchange.core.sheet import dividend_limit
from judge.games.exchange.core.state import ExchangeState
from judge.games.exchange.views import title
from judge.language import gettext as _
from judge.language import ngettext
from judge.payola.acceptance import default_list
from judge.payola.choices import unit_choices

Parts = tuple[list[str], list[str]]
"""A form's notes and lines."""


def form_parts(state: ExchangeState, investor: str) -> Parts | None:
    """The notes and lines of ``investor``'s form in the step ``state`` is at (see the module's
    header); None where they have nothing to send (a retreat phase with no dislodged unit of theirs,
    the Income step, the end)."""
    if investor not in state.order:
        return None
    now = step(state)
    ruled = [c for c in state.live if state.ceos.get(c) == investor]
    if now is Step.EXCHANGE:
        notes, lines = _exchange(state, investor)
        for corporation in ruled:
            _add(notes, lines, corporation, _ceo_exchange(state, corporation))
        return notes, lines
    if now is Step.MOVEMENT:
        notes = [_("Your cash: {amount} AgP. Your own offers are optional, at least 1 AgP each (E25): replace the "
                   "offer line's first _ with the amount and the second with a unit and its order, as 3 : A PAR - BUR.",
                   amount=state.purses[investor])]
        lines = ["_ : _"]
        for corporation in ruled:
            _add(notes, lines, corporation, _ceo_movement(state, corporation))
        return notes, lines
    if now in (Step.RETREAT, Step.ADJUSTMENT):
        notes, lines = [], []
        for corporation in ruled:
            block = _ceo_retreat(state, corporation) if now is Step.RETREAT else _ceo_adjustment(state, corporation)
            if block is not None:
                _add(notes, lines, corporation, block)
        return (notes, lines) if lines else None
    return None


def _add(notes: list[str], lines: list[str], corporation: str, block: Parts) -> None:
    """A corporation's notes, and its lines in its ``FOR`` block (2.1)."""
    notes.extend(block[0])
    if block[1]:
        lines.extend([f"FOR {corporation}", *block[1], "END"])


def _exchange(state: ExchangeState, investor: str) -> Parts:
    """The investor's own notes and lines in an Exchange phase."""
    held = state.register.portfolio(investor)
    trading = [c for c in state.live if c not in state.eliminated]
    shares = ", ".join(f"{title(c)} {n}" for c, n in sorted(held.items()) if c in trading) or _("none")
    pools = ", ".join(f"{title(c)} {state.register.pool(c)}" for c in trading)
    ceos = ", ".join(f"{title(c)} {state.ceos[c]}" for c in trading if c in state.ceos)
    notes = [_("Your cash: {amount} AgP. Your shares: {shares}.", amount=state.purses[investor], shares=shares),
             _("In the pools: {pools}.", pools=pools),
             _("CEOs: {ceos}; the others are leaderless.", ceos=ceos) if ceos else
             _("Every corporation is leaderless."),
             _("A leaderless corporation offers its whole pool at 1 AgP a share, one with a CEO what its CEO asks "
               "(E9). On a BID or SELL line, replace the first _ with a number of shares and the second with the "
               "price of one."),
             _("PRIORITY: the AgP you spend on the investor order (E30). ELECT: the investor you vote for as the "
               "corporation's CEO, or ME, or NONE (E14). To send nothing else, write PASS.")]
    lines = ["PRIORITY _", *(f"BID _ {c} AT _" for c in trading),
             *(f"SELL _ {c} AT _" for c in trading if c in held), *(f"ELECT {c} _" for c in trading)]
    return notes, lines


def _ceo_exchange(state: ExchangeState, corporation: str) -> Parts:
    """The block of a corporation its sitting CEO may write in an Exchange phase (E9, E11, E12, E23)."""
    if corporation in state.eliminated:
        return [], []
    register = state.register
    notes = [_("{corporation}, which you run: treasury {treasury} AgP, {issued} shares issued, {pool} in its pool. "
               "Its dividend is at most {limit} AgP a share (E23). In its block, SELL asks from its pool, ISSUE offers "
               "new shares (E11) and BID buys shares back (E12).", corporation=title(corporation),
               treasury=state.treasuries[corporation], issued=register.issued.get(corporation, 0),
               pool=register.pool(corporation), limit=dividend_limit(state, corporation))]
    issue = ["ISSUE _ AT _"] if register.outstanding(corporation) else []
    return notes, ["DIVIDEND _", "SELL _ AT _", *issue, "BID _ AT _"]


def _ceo_movement(state: ExchangeState, corporation: str) -> Parts:
    """A corporation's offers, worths, acceptance list and savings in a movement phase (X.5.1, E22)."""
    position = state.position
    letter = state.game_map.powers[corporation].letter
    listed = state.acceptance.get(corporation) or default_list(letter)
    notes = [_("{corporation}, which you run: treasury {treasury} AgP, acceptance list {listed}. Each line of its "
               "block is an offer from its treasury: replace its _ with the amount, and the order with another if you "
               "like. To change its acceptance list, replace the _ of ACCEPT; to save, the _ of the line ending with "
               "$.", corporation=title(corporation), treasury=state.treasuries[corporation], listed=str(listed))]
    units, choices = unit_choices(position, corporation, note_list)
    notes.extend(choices)
    lines = [f"_ : {unit} H" for unit in units]
    owned = sorted(position.centers_of(corporation))
    if position.phase.season is Season.SPRING and owned and not state.options.payola.zerosum:
        total = standard_income(len(owned), state.game_map.victory_centers, state.options.payola)
        notes.append(_("Its worths for the year (E22): replace each _ of the WORTH line with the center's worth, "
                       "adding up to {total} AgP, or leave the line as it is for the default worths.", total=total))
        lines.append("WORTH " + " ".join(f"{center} _" for center in owned))
    return notes, [*lines, "ACCEPT _", "_ $"]


def _ceo_retreat(state: ExchangeState, corporation: str) -> Parts | None:
    """A corporation's dislodged units and where each may retreat (X.5.1)."""
    position = state.position
    units = sorted((d.unit for d in position.dislodged.values() if d.power == corporation), key=str)
    if not units:
        return None
    notes = [_("{corporation}'s dislodged units: replace the _ of each one's line with its retreat, or with D to "
               "disband it.", corporation=title(corporation))]
    for unit in units:
        notes.extend(note_list(str(unit), [*(f"- {where}" for where in retreat_options(position, unit.province)), "D"]))
    return notes, [f"{unit} _" for unit in units]


def _ceo_adjustment(state: ExchangeState, corporation: str) -> Parts | None:
    """A corporation's builds, where it may build, or its removals (X.5.1)."""
    position = state.position
    count = adjustment_count(position, corporation)
    if count > 0:
        builds = [str(order).removeprefix("BUILD ") for order in legal_builds(position, corporation)
                  if isinstance(order, Build)]
        if not builds:
            return [ngettext("{corporation} may build {count} unit, but every center where it may build is occupied.",
                             "{corporation} may build {count} units, but every center where it may build is occupied.",
                             count, corporation=title(corporation))], []
        notes = [ngettext("{corporation} may build {count} unit: replace the _ of a BUILD line with the unit to build, "
                          "or leave it as it is to waive it.",
                          "{corporation} may build {count} units: replace the _ of a BUILD line with the unit to "
                          "build, or leave it as it is to waive it.", count, corporation=title(corporation)),
                 *note_list(_("Builds"), builds)]
        return notes, ["BUILD _"] * min(count, len(builds))
    if count < 0:
        units = [str(placed.unit) for placed in sorted(position.units_of(corporation), key=lambda p: str(p.unit))]
        notes = [ngettext("{corporation} must remove {count} unit: replace the _ of each REMOVE line with one of its "
                          "units, or the judge removes them as in civil disorder (E20).",
                          "{corporation} must remove {count} units: replace the _ of each REMOVE line with one of its "
                          "units, or the judge removes them as in civil disorder (E20).", -count,
                          corporation=title(corporation)), *note_list(_("Units"), units)]
        return notes, ["REMOVE _"] * -count
    return None

