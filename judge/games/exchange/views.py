"""The core's views (`judge.games.exchange.core.views`) in words: the lines each mail is made of.

Theory of operation.  What a reader may see is decided by the core, one function per reader and
moment (X.11); this module only writes what it is given, so a mail can say no more than its
view holds.  Every function returns lines of text (no line longer than a mail line, lists
wrapped between their items), which the templates (``judge/templates/mail/exchange/``) set
in their places:

- `public_exchange_lines`, `public_board_lines` (E36): what every investor and observer reads;
- `statement_lines` (E39): one investor's own balance, changes, holdings and the outcome of
  each of their lines; `offers_lines`: their private offers' statement (rule 5.7 items 3-5);
- `report_lines` (E37): a corporation's annual report, dividend and election tally, for its
  stockholders;
- `ceo_lines` (E38, E24): a corporation's records, `corporate_statement_lines` its rule 5.7
  statement, `income_lines` its income, for its CEO only;
- `spell`, `describe`, `describe_offer`: a sheet line as the judge understood it, for the reply;
- `exchange_chart`, `board_chart`, `income_chart`, `register_lines`, `money_lines`: the game
  master's chart of a phase, everything it did, which the end publishes (E41); `ranking_lines`
  the scores (E35).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence

from judge.api import counted
from judge.engine.results import OrderResult
from judge.games.exchange.core.record import Action, ExchangeRecord, Outcome, Reason
from judge.games.exchange.core.scoring import Score
from judge.games.exchange.core.sheet import (
    ME,
    Approve,
    Bid,
    BuyFrom,
    Dividend,
    Elect,
    Give,
    Issue,
    Ledger,
    Line,
    Pass,
    Priority,
    Quantity,
    Sell,
    SellTo,
    Worth,
)
from judge.games.exchange.core.state import ExchangeState, LedgerKind, LedgerLine
from judge.games.exchange.core.views import (
    Adjustment,
    AnnualReport,
    CeoView,
    CorporationFacts,
    ExchangeStatement,
    OffersStatement,
    PublicBoard,
    PublicExchange,
)
from judge.games.exchange.core.year import CorporateIncome, IncomeRecord, MovementRecord, OrdersRecord
from judge.payola.determination import Statement
from judge.payola.offers import Offer, OfferKind
from judge.wording import power_title

WIDTH = 76


def title(corporation: str) -> str:
    """A corporation as answers write it: ``FRANCE`` is "France", ``NEW_YORK`` "New York"."""
    return power_title(corporation)


def wrapped(head: str, items: Iterable[str], indent: str = "  ") -> list[str]:
    """``head`` and the items after it, wrapped between items, continued lines indented further."""
    text = head + ", ".join(items)
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                         break_long_words=False, break_on_hyphens=False) or [indent + head.strip()]


def money(amount: int) -> str:
    return f"{amount} AgP"


# -- what everyone reads (E36) ----------------------------------------------------------------------


def facts_lines(facts: Sequence[CorporationFacts], year: int | None) -> list[str]:
    """Every corporation's CEO for the year (or leaderless), its shares, and whether it is
    eliminated or liquidated (E36)."""
    lines = []
    for fact in facts:
        name = title(fact.corporation)
        if fact.liquidated:
            lines.append(f"  {name}: liquidated, its shares cancelled (E31)")
            continue
        ceo = f"CEO {fact.ceo}" if fact.ceo else "leaderless"
        when = f" for {year}" if year is not None else ""
        shares = (f"{counted(fact.issued, 'share')} issued, {fact.outstanding} held by investors, "
                  f"{fact.pool} in its pool")
        eliminated = "; eliminated: it owns no supply center and is liquidated at the next Exchange phase (E31)" \
            if fact.eliminated else ""
        lines += textwrap.wrap(f"{name}: {ceo}{when}; {shares}{eliminated}", WIDTH, initial_indent="  ",
                               subsequent_indent="      ")
    return lines


def public_exchange_lines(view: PublicExchange, year: int) -> list[str]:
    """E36, E19: the investor order and every corporation's CEO and shares, after an Exchange phase."""
    return [*wrapped("Investor order (E30): ", view.order, ""), "",
            f"The corporations after {view.phase} (E36; the CEOs elected for {year}, E19):",
            *facts_lines(view.corporations, year)]


def result_line(result: OrderResult) -> str:
    order = result.order if isinstance(result.order, str) else result.order.text
    line = f"  {title(result.power)}: {order}"
    if result.outcome.value != "succeeds":
        line += f" ({result.outcome.value}" + (f": {result.reason}" if result.reason else "") + (
            f" - {result.detail}" if result.detail else "") + ")"
    return line


def public_board_lines(view: PublicBoard, ceos: Mapping[str, str], supply_centers: Iterable[str]) -> list[str]:
    """E36: the orders issued and their results, then the board after the phase, each corporation
    named with its CEO (``supply_centers``: the board's, to name those nobody owns)."""
    lines = ["Orders:", *(result_line(r) for r in view.results)] if view.results else ["Orders: none"]
    lines += ["", "The board after it (units, then supply centers):",
              *board_lines(view.units, view.centers, ceos, supply_centers)]
    if view.adjustments:
        lines += ["", "Adjustments due:",
                  *(f"  {adjustment_line(a, ceos.get(a.corporation))}" for a in view.adjustments)]
    return lines


def board_lines(units: Iterable[tuple[str, str]], centers: Iterable[tuple[str, str]],
                ceos: Mapping[str, str], supply_centers: Iterable[str]) -> list[str]:
    """Each corporation's units and centers (``units``: (unit, corporation); ``centers``: (center,
    owner)), each named with its CEO, then the supply centers of ``supply_centers`` (the board's)
    nobody owns: a player who cannot see the map reads every center's owner here."""
    held: dict[str, list[str]] = {}
    for unit, power in units:
        held.setdefault(power, []).append(unit)
    owned: dict[str, list[str]] = {}
    for center, owner in centers:
        owned.setdefault(owner, []).append(center)
    lines = []
    for power in sorted(set(held) | set(owned)):
        who = f" (CEO {ceos[power]})" if power in ceos else ""
        lines += wrapped(f"{title(power)}{who}: {counted(len(owned.get(power, [])), 'center')}, units: ",
                         held.get(power, []) or ["none"])
        lines += wrapped("    centers: ", owned.get(power, []) or ["none"])
    unowned = sorted(set(supply_centers).difference(*owned.values()))
    if unowned:
        lines += wrapped(f"Unowned supply centers ({len(unowned)}): ", unowned)
    return lines


def adjustment_line(adjustment: Adjustment, ceo: str | None) -> str:
    """What one corporation is due: ``France (CEO BOB): 4 centers, 3 units: may build 1 (where:
    PAR)``, or ``must remove 1``."""
    a = adjustment
    who = f" (CEO {ceo})" if ceo else " (leaderless: civil disorder, E20)"
    head = f"{title(a.corporation)}{who}: {counted(a.centers, 'center')}, {counted(a.units, 'unit')}: "
    if a.due < 0:
        return head + f"must remove {-a.due}"
    where = f" (where: {' '.join(a.free_homes)})" if a.free_homes else ", but has no free home center to build in"
    return head + f"may build {a.due}{where}"


# -- one investor's own (E39) -------------------------------------------------------------------------

_CHANGE_WORDS = {
    "liquidation payout (E31)": "liquidation of {c}",
    "dividend (E23)": "dividend of {c}",
    "priority (E30)": "priority spent on the investor order (E30)",
    "shares bought in a private deal (E10)": "{n} {c} bought in a private deal (E10)",
    "shares sold in a private deal (E10)": "{n} {c} sold in a private deal (E10)",
    "shares bought in the auction (E8)": "{n} {c} bought in the auction (E8)",
    "shares sold in the auction (E8)": "{n} {c} sold in the auction (E8)",
}


def statement_lines(view: ExchangeStatement, transfers: Sequence[str] = ()) -> list[str]:
    """E39: an investor's balance before and after the phase, every change, their shares, and
    what became of each of their lines (``transfers``: their transfers since the phase opened)."""
    lines = [f"  balance when the phase was processed: {money(view.before)}"]
    for change in view.changes:
        words = _CHANGE_WORDS[change.kind.value].format(n=change.shares, c=title(change.corporation))
        lines.append(f"  {change.amount:+5d} AgP  {words}")
    lines.append(f"  balance now: {money(view.balance)}")
    lines += wrapped("your shares: ", [f"{title(c)} {n}" for c, n in view.holdings] or ["none"])
    if transfers:
        lines += ["  transfers during the phase (already in the balance above):", *(f"    {t}" for t in transfers)]
    if view.lines:
        lines.append("  what became of each of your lines:")
        lines += [f"    {outcome_line(action)}" for action in view.lines]
    return lines


_SAID_BY_DONE = frozenset({Reason.DONE, Reason.COUNTED, Reason.PAID, Reason.FILLED, Reason.SOLD})
"""Reasons a line that was done needs not repeat."""


def outcome_line(action: Action) -> str:
    """One line's outcome: the line, what it did, and why."""
    where = f"[{title(action.corporation)}] " if action.corporation else ""
    text = f"{where}{spell(action.line, action.corporation)}: {action.outcome.value}"
    did = _did(action)
    if did:
        text += f", {did}"
    if action.outcome is not Outcome.DONE or action.reason not in _SAID_BY_DONE:
        text += f" ({action.reason.value})"
    return text


def _did(action: Action) -> str:
    line, shares, amount = action.line, action.shares, action.amount
    if action.outcome in (Outcome.FAILED, Outcome.VOID):
        return ""
    if isinstance(line, Priority):
        return f"{money(amount)} spent"
    if isinstance(line, Bid) and not shares:
        return "no share bought"
    if isinstance(line, Bid):
        return f"{counted(shares, 'share')} bought for {money(amount)}" if action.corporation is None else \
            f"{counted(shares, 'share')} bought back for {money(amount)}"
    if isinstance(line, Sell):
        return f"{counted(shares, 'share')} sold for {money(amount)}"
    if isinstance(line, SellTo | BuyFrom):
        return f"{counted(shares, 'share')} for {money(amount)}"
    if isinstance(line, Give):
        return f"{counted(shares, 'share')} given"
    if isinstance(line, Approve | Elect) and shares:
        return f"{counted(shares, 'vote')} counted"
    if isinstance(line, Dividend):
        return f"{money(amount)} paid on {counted(shares, 'share')}"
    if isinstance(line, Issue):
        return f"{counted(shares, 'new share')} in the pool"
    return ""


def offers_lines(view: OffersStatement) -> list[str]:
    """E39, rule 5.7 items 3-5: an investor's accepted private offers, spending and balance."""
    lines = [f"  you paid {money(a.paid)} for {a.order}" + (f" (you offered {a.offered}"
             + (f", the reductions left {a.reduced}" if a.reduced != a.offered else "") + ")"
             if a.offered != a.paid else "") for a in view.accepted]
    if not view.accepted:
        lines.append("  no private offer of yours was accepted (if you made any): you paid nothing")
    return [*lines, f"  spent: {money(view.spent)}; your balance: {money(view.balance)}"]


# -- a corporation's stockholders (E37) and CEO (E38) ---------------------------------------------------


def report_lines(report: AnnualReport) -> list[str]:
    """E37: the annual report of step g, the dividend (or the withheld notice) and the tally."""
    name = title(report.corporation)
    lines = wrapped(f"{name}: treasury {money(report.treasury)}; stockholders: ", report.stockholders)
    if report.withheld is None:
        lines.append(f"    dividend: {report.dividend} AgP a share (E23)")
    else:
        lines.append(f"    dividend: {report.withheld.value}")
    if report.tally:
        lines += wrapped("    election (votes per candidate, E19): ", [f"{c} {n}" for c, n in report.tally], "")
    lines.append(f"    CEO for the year: {report.ceo}" if report.ceo else
                 "    no valid vote: leaderless for the year (E18)")
    return lines


def ledger_line(line: LedgerLine) -> str:
    """One line of a corporation's ledger (E24, E38), as its CEO reads it."""
    kind = line.kind
    amount = f"{line.amount:+6d}" if line.amount else "      "
    words = {
        LedgerKind.WORTH: f"worth of {line.center} for the year: {line.price} AgP (E22)",
        LedgerKind.BRIBE: f"bribe paid for {line.order}",
        LedgerKind.INCOME: f"income of {line.center} (E27)",
        LedgerKind.INCOME_CAP: "income over the cap (6.6)",
        LedgerKind.DONATION: f"donation from {line.who} (E5)",
        LedgerKind.DIVIDEND: f"dividend of {line.price} AgP a share on {counted(line.shares, 'share')} (E23)",
        LedgerKind.ISSUE: f"{counted(line.shares, 'new share')} into the pool, asked at {line.price} AgP (E11)",
        LedgerKind.POOL_SALE: f"{counted(line.shares, 'share')} from the pool to {line.who} at {line.price} AgP "
                              "(E8, E9)",
        LedgerKind.BUY_BACK: f"{counted(line.shares, 'share')} bought back from {line.who} at {line.price} AgP (E12)",
        LedgerKind.LIQUIDATION: f"liquidation: {line.price} AgP a share on {counted(line.shares, 'share')} (E31)",
        LedgerKind.ZEROSUM_DEPOSIT: "the bribes its units took this year (ZEROSUM, 6.7)",
        LedgerKind.FIRST_CAPTURE: f"first capture of {line.center} (ZEROSUM, 6.7)",
        LedgerKind.CENTER_LOST: f"{line.center} lost to {title(line.who)} (ZEROSUM, 6.7)",
        LedgerKind.CENTER_TAKEN: f"{line.center} taken from {title(line.who)} (ZEROSUM, 6.7)",
    }[kind]
    return f"    {line.phase}  {amount}  {words}"


def ceo_lines(view: CeoView) -> list[str]:
    """E38, E24: a corporation's treasury, worths for the year and whole ledger, for its CEO."""
    name = title(view.corporation)
    lines = [f"  {name}'s treasury: {money(view.treasury)}"]
    if view.worths:
        lines += wrapped(f"{name}'s worths for the year (E22): ", [f"{c} {w}" for c, w in sorted(view.worths.items())])
    lines.append(f"  {name}'s ledger since the start of the game (E24):")
    lines += [ledger_line(line) for line in view.ledger] or ["    nothing yet"]
    return lines


def corporate_statement_lines(statement: Statement) -> list[str]:
    """E38, rule 5.7: a corporation's statement after a movement phase, for its CEO."""
    lines = [f"  its {u.unit} issued {u.order} for a total bribe of {u.total} AgP" for u in statement.units]
    lines += [f"  it paid {money(a.paid)} for {a.order}" + (f" (offered {a.offered}"
              + (f", reduced to {a.reduced}" if a.reduced != a.offered else "") + ")" if a.offered != a.paid else "")
              for a in statement.accepted]
    if not statement.accepted:
        lines.append("  none of its offers was accepted")
    return [*lines, f"  spent: {money(statement.spent)}; its treasury: {money(statement.new_balance)}"]


def income_lines(income: CorporateIncome, treasury: int) -> list[str]:
    """E27: what a corporation's centers paid at the Income step, for its CEO (under ZEROSUM, 6.7:
    what its units' bribes and the captures moved)."""
    if income.moves or not income.centers:
        return [f"  {title(income.corporation)}'s treasury changed by {money(income.total)} (ZEROSUM, 6.7):",
                *(ledger_line(line) for line in income.moves), f"  its treasury now: {money(treasury)}"]
    parts = [f"{c.center} {c.amount}" + ("" if c.priced else " (unpriced)") for c in income.centers]
    return [*wrapped(f"{title(income.corporation)} earned {money(income.total)}: ", parts),
            f"  its treasury now: {money(treasury)}"]


# -- a sheet line as understood ---------------------------------------------------------------------------


def spell(line: Line, corporation: str | None = None) -> str:
    """A sheet line as the judge writes it back (in its block, a corporation's own lines omit it)."""
    if isinstance(line, Priority):
        return f"PRIORITY {line.spend}"
    if isinstance(line, Bid | Sell):
        word = "BID" if isinstance(line, Bid) else "SELL"
        where = "" if corporation is not None else f" {line.corporation}"
        return f"{word} {line.shares}{where} AT {line.price}"
    if isinstance(line, SellTo):
        return f"SELL {line.shares} {line.corporation} TO {line.buyer} FOR {line.amount}"
    if isinstance(line, BuyFrom):
        return f"BUY {line.shares} {line.corporation} FROM {line.seller} FOR {line.amount}"
    if isinstance(line, Give):
        return f"GIVE {line.shares} {line.corporation} TO {line.receiver}"
    if isinstance(line, Approve):
        return f"APPROVE {line.corporation} {line.shares}"
    if isinstance(line, Elect):
        return f"ELECT {line.corporation} {line.candidate or 'NONE'}"
    if isinstance(line, Worth):
        return "WORTH " + " ".join(f"{c} {w}" for c, w in line.worths)
    if isinstance(line, Dividend):
        return f"DIVIDEND {line.per_share}"
    if isinstance(line, Issue):
        return f"ISSUE {line.shares} AT {line.price}"
    if isinstance(line, Ledger):
        return f"LEDGER {line.corporation}"
    assert isinstance(line, Pass)
    return "PASS"


def _wanted(shares: Quantity, corporation: str) -> str:
    """What a bid asks for, in words (E13): ``up to 5 Germany``, ``as many Germany as can be
    matched and paid for``, ``all the Germany that can be matched and paid for but 2``."""
    if shares.count is not None:
        return f"up to {shares.count} {corporation}"
    if not shares.but:
        return f"as many {corporation} as can be matched and paid for"
    return f"all the {corporation} that can be matched and paid for but {shares.but},"


def describe(line: Line, author: str, corporation: str | None) -> str:
    """What a valid line will do, in words, for the reply (each with its ruling)."""
    if isinstance(line, Priority):
        return f"read as: spend {line.spend} AgP on the investor order at step c; the money is destroyed (E30, E6)"
    if isinstance(line, Bid):
        if corporation is not None:
            return (f"read as: {title(corporation)} buys back up to {line.shares} of its shares at {line.price} AgP "
                    "each from investors' asks, keeping its pool to a third of its issue (E12)")
        return f"read as: a bid for {_wanted(line.shares, title(line.corporation))} at {line.price} AgP each (E8, E13)"
    if isinstance(line, Sell):
        if corporation is not None:
            return f"read as: {title(corporation)} asks {line.price} AgP each for up to {line.shares} of its pool (E9)"
        return (f"read as: an ask for up to {line.shares} of your {title(line.corporation)} at no less than "
                f"{line.price} AgP each (E8, E13)")
    if isinstance(line, SellTo):
        return (f"read as: {line.shares} {title(line.corporation)} to {line.buyer} for {line.amount} AgP in all, "
                f"if {line.buyer}'s sheet says BUY {line.shares} {line.corporation} FROM {author} FOR {line.amount} "
                "(E10)")
    if isinstance(line, BuyFrom):
        return (f"read as: {line.shares} {title(line.corporation)} from {line.seller} for {line.amount} AgP in all, "
                f"if {line.seller}'s sheet says SELL {line.shares} {line.corporation} TO {author} FOR {line.amount} "
                "(E10)")
    if isinstance(line, Give):
        return f"read as: a gift of {line.shares} {title(line.corporation)} to {line.receiver} (E10, E13)"
    if isinstance(line, Approve):
        return f"read as: you approve an issue of up to {line.shares} new {title(line.corporation)} (E11)"
    if isinstance(line, Elect):
        if line.candidate is None:
            return f"read as: you abstain in the election of {title(line.corporation)}'s CEO (E14)"
        who = "yourself" if line.candidate == ME else line.candidate
        return f"read as: your ballot for {who} as {title(line.corporation)}'s CEO (E14)"
    if isinstance(line, Worth):
        return "read as: the worths of your corporation's centers for the year (E22): " + ", ".join(
            f"{c} {w}" for c, w in line.worths)
    if isinstance(line, Dividend):
        return f"read as: a dividend of {line.per_share} AgP a share (E23)"
    if isinstance(line, Issue):
        return f"read as: {line.shares} new shares asked at {line.price} AgP, if 80% of the holders approve (E11)"
    if isinstance(line, Pass):
        return "read as: nothing this phase, but a sheet all the same (E29)"
    return ""


_OFFER_KINDS = {
    OfferKind.DIRECT: "a direct offer for",
    OfferKind.NEGATIVE: "a negative offer: paid if the unit issues any order but",
    OfferKind.MOVE: "a move offer for",
    OfferKind.HOLD: "a hold offer for",
    OfferKind.GIFT: "a gift offer for",
}


def describe_offer(offer: Offer) -> str:
    """An offer line as read (rule 3.1): its amount and what it is for."""
    orders = " or ".join(str(order) for order in offer.orders)
    return f"read as: {_OFFER_KINDS[offer.kind]} {orders}, {offer.amount} AgP in all"


# -- the game master's chart, published at the end (E41) ---------------------------------------------


def register_lines(state: ExchangeState) -> list[str]:
    """The share register: each corporation's holders and pool (E41; before the end, the game
    master's alone)."""
    lines = []
    for corporation in state.corporations:
        if corporation in state.liquidated:
            lines.append(f"  {title(corporation)}: liquidated")
            continue
        held = [f"{who} {n}" for who, n in sorted(state.register.holdings.get(corporation, {}).items())]
        lines += wrapped(f"{title(corporation)}: {state.register.issued.get(corporation, 0)} issued, pool "
                         f"{state.register.pool(corporation)}; held by ", held or ["nobody"])
    return lines


def money_lines(state: ExchangeState) -> list[str]:
    """Every purse and treasury, and the money check (X.2: Σ purses + Σ treasuries + destroyed =
    the starting money and every income; under ZEROSUM the bribes owed to corporations are held
    too, 6.7)."""
    purses = [f"{who} {state.purses[who]}" for who in state.order]
    treasuries = [f"{title(c)} {state.treasuries[c]}" for c in state.live]
    owed = [f"{title(c)} {n}" for c, n in sorted(state.owed.items()) if n]
    total = sum(state.purses.values()) + sum(state.treasuries.values()) + sum(state.owed.values())
    return [*wrapped("purses: ", purses), *wrapped("treasuries: ", treasuries),
            *(wrapped("owed at the Income step (ZEROSUM, 6.7): ", owed) if owed else []),
            f"  money check: {total} held + {state.destroyed} destroyed = {total + state.destroyed}; "
            f"{state.minted} entered the game (starting funds and income)"]


def sheet_lines(sheets: Mapping[str, str]) -> list[str]:
    """Every investor's sheet as it stood at the deadline, as written."""
    lines = []
    for author, text in sheets.items():
        lines.append(f"  sheet of {author}:")
        lines += [f"    {line}" for line in text.splitlines()] or ["    (empty)"]
    return lines or ["  no sheet was sent"]


def exchange_chart(record: ExchangeRecord, after: ExchangeState, sheets: Mapping[str, str]) -> list[str]:
    """Everything an Exchange phase did (X.8.3 a-i): the sheets, every line's outcome, each step's
    result, the register and the money after it."""
    lines = ["Sheets:", *sheet_lines(sheets), "What became of each line:"]
    lines += [f"  {action.author}: {outcome_line(action)}" for action in record.actions] or ["  nothing"]
    for liquidation in record.liquidations:
        paid = [f"{who} {amount}" for who, amount in liquidation.payouts]
        lines += wrapped(f"liquidation of {title(liquidation.corporation)} (E31): {liquidation.treasury} AgP, "
                         f"{liquidation.per_share} a share, {liquidation.destroyed} destroyed; paid ", paid or ["none"],
                         "")
    for dividend in record.dividends:
        if dividend.per_share:
            lines += wrapped(f"dividend of {title(dividend.corporation)}: {dividend.per_share} AgP a share; paid ",
                             [f"{who} {amount}" for who, amount in dividend.payouts], "")
    lines += wrapped("investor order before: ", record.order_before, "")
    lines += wrapped("investor order after priority (E30): ", record.order, "")
    for issue in record.issues:
        lines.append(f"issue of {title(issue.corporation)}: {issue.shares} at {issue.price}, approving "
                     f"{issue.approving} of {issue.outstanding} outstanding: {'passed' if issue.passed else 'failed'}")
    for fill in record.fills:
        seller = "the pool" if fill.seller is None else fill.seller
        lines.append(f"fill: {fill.shares} {title(fill.corporation)} from {seller} to {fill.buyer} at {fill.price}")
    for election in record.elections:
        tally = ", ".join(f"{c} {n}" for c, n in election.tally) or "no valid vote"
        lines.append(f"election of {title(election.corporation)}: {tally}; {election.winner or 'leaderless'} "
                     f"({election.reason.value})")
    return [*lines, f"destroyed this phase: {record.destroyed} AgP", "Share register after it:",
            *register_lines(after), "Money after it:", *money_lines(after)]


def board_chart(record: MovementRecord | OrdersRecord, after: ExchangeState, sheets: Mapping[str, str]) -> list[str]:
    """Everything a phase on the board did: the sheets, the worths set (Spring), every offerer's
    statement (rule 5.7), the orders' results, and the money after it."""
    lines = ["Sheets:", *sheet_lines(sheets)]
    if isinstance(record, MovementRecord):
        for corporation, worths in record.worths.items():
            lines += wrapped(f"worths of {title(corporation)} for the year (E22): ",
                             [f"{c} {w}" for c, w in sorted(worths.items())], "")
        for offerer, statement in record.determination.statements.items():
            if statement.accepted or statement.spent:
                lines.append(f"statement of {title(offerer)}:")
                lines += ["  " + line for line in corporate_statement_lines(statement)]
        fate = "owed to the bribed units' corporations (ZEROSUM, 6.7)" if after.options.payola.zerosum else \
            "destroyed (E6)"
        lines.append(f"bribes paid, {fate}: {record.bribes} AgP")
    lines += ["Results:", *(result_line(r) for r in record.result.results)]
    return [*lines, "Money after it:", *money_lines(after)]


def income_chart(record: IncomeRecord, after: ExchangeState) -> list[str]:
    """The Income step: each corporation's income, center by center, and those eliminated (E27, E31)."""
    lines = [f"Income step {record.phase} (E27):"]
    for income in record.incomes:
        lines += income_lines(income, after.treasuries[income.corporation])
    lines += [f"  {title(c)} owns no supply center: eliminated, liquidated at the next Exchange phase (E31)"
              for c in record.eliminated]
    return lines


def ranking_lines(scores: Sequence[Score], result: Sequence[str]) -> list[str]:
    """E35: every investor's % control of the winning or drawing corporations, ranked."""
    if not result:
        return ["No corporation won or drew: nobody scores (E35)."]
    lines = [f"Scores by % control of {', '.join(title(c) for c in result)} (E35):"]
    lines += [f"  {score.rank}. {score.investor}: {float(score.control):.2f}%" for score in scores]
    return lines
