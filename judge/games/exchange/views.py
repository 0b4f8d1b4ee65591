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
from copy import copy
from decimal import Decimal
from fractions import Fraction

from babel import Locale
from babel.numbers import parse_pattern

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
from judge.language import current, ngettext, pgettext
from judge.language import gettext as _
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


def wrap(text: str, indent: str = "  ") -> list[str]:
    """A whole sentence (with its list) wrapped as `wrapped` wraps one."""
    return wrapped(text, (), indent)


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
            lines.append("  " + _("{corporation}: liquidated, its shares cancelled (E31)", corporation=name))
            continue
        if fact.ceo and year is not None:
            who = _("{corporation}: CEO {ceo} for {year}", corporation=name, ceo=fact.ceo, year=year)
        elif fact.ceo:
            who = _("{corporation}: CEO {ceo}", corporation=name, ceo=fact.ceo)
        elif year is not None:
            who = _("{corporation}: leaderless for {year}", corporation=name, year=year)
        else:
            who = _("{corporation}: leaderless", corporation=name)
        parts = [who, ngettext("{count} share issued, {outstanding} held by investors, {pool} in its pool",
                               "{count} shares issued, {outstanding} held by investors, {pool} in its pool",
                               fact.issued, outstanding=fact.outstanding, pool=fact.pool)]
        if fact.eliminated:
            parts.append(_("eliminated: it owns no supply center and is liquidated at the next Exchange phase (E31)"))
        text = parts[0]
        for clause in parts[1:]:
            text = _("{clause}; {next}", clause=text, next=clause)
        lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="      ")
    return lines


def public_exchange_lines(view: PublicExchange, year: int) -> list[str]:
    """E36, E19: the investor order and every corporation's CEO and shares, after an Exchange phase."""
    return [*wrap(_("Investor order (E30): {order}", order=", ".join(view.order)), ""), "",
            _("The corporations after {phase} (E36; the CEOs elected for {year}, E19):", phase=view.phase, year=year),
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
    lines = [_("Orders:"), *(result_line(r) for r in view.results)] if view.results else [_("Orders: none")]
    lines += ["", _("The board after it (units, then supply centers):"),
              *board_lines(view.units, view.centers, ceos, supply_centers)]
    if view.adjustments:
        lines += ["", _("Adjustments due:"),
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
        count, their = len(owned.get(power, [])), ", ".join(held.get(power, [])) or _("none")
        if power in ceos:
            text = ngettext("{corporation} (CEO {ceo}): {count} center, units: {units}",
                            "{corporation} (CEO {ceo}): {count} centers, units: {units}", count,
                            corporation=title(power), ceo=ceos[power], units=their)
        else:
            text = ngettext("{corporation}: {count} center, units: {units}",
                            "{corporation}: {count} centers, units: {units}", count,
                            corporation=title(power), units=their)
        lines += wrap(text)
        listed = ", ".join(owned.get(power, [])) or pgettext("centers", "none")
        lines += wrap("    " + _("centers: {centers}", centers=listed))
    unowned = sorted(set(supply_centers).difference(*owned.values()))
    if unowned:
        lines += wrap(_("Unowned supply centers ({count}): {centers}", count=len(unowned), centers=", ".join(unowned)))
    return lines


def adjustment_line(adjustment: Adjustment, ceo: str | None) -> str:
    """What one corporation is due: ``France (CEO BOB): 4 centers, 3 units: may build 1 (where:
    PAR)``, or ``must remove 1``."""
    a = adjustment
    name = title(a.corporation)
    who = _("{corporation} (CEO {ceo})", corporation=name, ceo=ceo) if ceo else \
        _("{corporation} (leaderless: civil disorder, E20)", corporation=name)
    held = ngettext("{count} center", "{count} centers", a.centers)
    units = ngettext("{count} unit", "{count} units", a.units)
    if a.due < 0:
        due = _("must remove {count}", count=-a.due)
    elif a.free_homes:
        due = _("may build {count} (where: {areas})", count=a.due, areas=" ".join(a.free_homes))
    else:
        due = _("may build {count}, but has no free home center to build in", count=a.due)
    return f"{who}: {held}, {units}: {due}"


# -- one investor's own (E39) -------------------------------------------------------------------------


def _change_words(kind: str, shares: int, corporation: str) -> str:
    """A change of an investor's balance in words (E39)."""
    if kind == "liquidation payout (E31)":
        return _("liquidation of {corporation}", corporation=corporation)
    if kind == "dividend (E23)":
        return _("dividend of {corporation}", corporation=corporation)
    if kind == "priority (E30)":
        return _("priority spent on the investor order (E30)")
    if kind == "shares bought in a private deal (E10)":
        return ngettext("{count} {corporation} bought in a private deal (E10)",
                        "{count} {corporation} bought in a private deal (E10)", shares, corporation=corporation)
    if kind == "shares sold in a private deal (E10)":
        return ngettext("{count} {corporation} sold in a private deal (E10)",
                        "{count} {corporation} sold in a private deal (E10)", shares, corporation=corporation)
    if kind == "shares bought in the auction (E8)":
        return ngettext("{count} {corporation} bought in the auction (E8)",
                        "{count} {corporation} bought in the auction (E8)", shares, corporation=corporation)
    assert kind == "shares sold in the auction (E8)", kind
    return ngettext("{count} {corporation} sold in the auction (E8)", "{count} {corporation} sold in the auction (E8)",
                    shares, corporation=corporation)


def holdings_lines(holdings: Iterable[tuple[str, int]], indent: str = "  ") -> list[str]:
    """An investor's shares, wrapped: ``your shares: France 3, Italy 2``, or none."""
    held = ", ".join(f"{title(c)} {n}" for c, n in holdings) or _("none")
    return wrap(_("your shares: {shares}", shares=held), indent)


def statement_lines(view: ExchangeStatement, transfers: Sequence[str] = ()) -> list[str]:
    """E39: an investor's balance before and after the phase, every change, their shares, and
    what became of each of their lines (``transfers``: their transfers since the phase opened)."""
    lines = ["  " + _("balance when the phase was processed: {amount} AgP", amount=view.before)]
    for change in view.changes:
        words = _change_words(change.kind.value, change.shares, title(change.corporation))
        lines.append(f"  {change.amount:+5d} AgP  {words}")
    lines.append("  " + _("balance now: {amount} AgP", amount=view.balance))
    lines += holdings_lines(view.holdings)
    if transfers:
        lines += ["  " + _("transfers during the phase (already in the balance above):"),
                  *(f"    {t}" for t in transfers)]
    if view.lines:
        lines.append("  " + _("what became of each of your lines:"))
        lines += [f"    {outcome_line(action)}" for action in view.lines]
    return lines


_SAID_BY_DONE = frozenset({Reason.DONE, Reason.COUNTED, Reason.PAID, Reason.FILLED, Reason.SOLD})
"""Reasons a line that was done needs not repeat."""


def outcome_words(outcome: Outcome) -> str:
    """What became of a line, in words: done, partly done, failed, void."""
    return {Outcome.DONE: _("done"), Outcome.PARTLY: _("partly done"), Outcome.FAILED: _("failed"),
            Outcome.VOID: _("void")}[outcome]


def reason_words(reason: Reason) -> str:
    """Why a line or a step came out as it did, in words (`Reason`)."""
    return {
        Reason.DONE: _("done"),
        Reason.REDUCED: _("reduced to what was possible (E13)"),
        Reason.LIQUIDATED: _("the corporation was liquidated at the start of this phase (E31)"),
        Reason.PAID: _("paid (E23)"),
        Reason.WITHHELD: _("no dividend was declared: withheld (E23)"),
        Reason.LEADERLESS: _("a leaderless corporation pays no dividend: withheld (E2, E23)"),
        Reason.UNMATCHED: _("no matching line in the other investor's sheet (E10)"),
        Reason.SHARES_MISSING: _("the shares were not there when the deal's turn came (E10)"),
        Reason.MONEY_MISSING: _("the money was not there when the deal's turn came (E10)"),
        Reason.PARTNER_SHORT: _("the other investor's part of the deal was not there when its turn came (E10, E40)"),
        Reason.ISSUED: _("approved by holders of at least 80% of the outstanding shares (E11)"),
        Reason.TOO_FEW_APPROVALS: _("approving holders held less than 80% of the outstanding shares (E11)"),
        Reason.NO_ISSUE: _("the corporation's CEO proposed no issue this phase (E11)"),
        Reason.ISSUE_TOO_LARGE: _("the issue was larger than the approval (E11)"),
        Reason.NO_HOLDING: _("the investor held no share of the corporation when it counted (E11, E14)"),
        Reason.FILLED: _("filled (E8)"),
        Reason.SOLD: _("sold (E8)"),
        Reason.NO_ASK: _("no ask at or below the bid's price was left (E8)"),
        Reason.CANNOT_PAY: _("the money could not pay for one more share (E8, E33)"),
        Reason.POOL_LIMIT: _("the pool would have held more than a third of the issued shares (E12)"),
        Reason.NO_BID: _("no bid at or above the ask's price was left (E8)"),
        Reason.NOT_HELD: _("the seller held no more shares to sell (E8)"),
        Reason.ALL_BUT_NONE: _("ALL BUT k: no more than k shares could be bought when the bid's turn came, "
                               "so none (E13)"),
        Reason.COUNTED: _("counted"),
        Reason.ABSTAINED: _("abstained (E14)"),
        Reason.REPLACED: _("a later ballot for the same corporation replaced it (E14)"),
        Reason.NOT_ELIGIBLE: _("the candidate held no share at the count: the vote is void (E15)"),
        Reason.PLURALITY: _("the most votes (X.4)"),
        Reason.OUTGOING_CEO: _("a tie, broken by the outgoing CEO's ballot (E17)"),
        Reason.INVESTOR_ORDER: _("a tie, broken by the investor order (E17)"),
        Reason.NO_VOTES: _("no valid vote: leaderless for the year (E18)"),
    }[reason]


def outcome_line(action: Action) -> str:
    """One line's outcome: the line, what it did, and why."""
    where = f"[{title(action.corporation)}] " if action.corporation else ""
    parts = [outcome_words(action.outcome)]
    did = _did(action)
    if did:
        parts.append(did)
    text = f"{where}{spell(action.line, action.corporation)}: {', '.join(parts)}"
    if action.outcome is not Outcome.DONE or action.reason not in _SAID_BY_DONE:
        text += f" ({reason_words(action.reason)})"
    return text


def _did(action: Action) -> str:
    line, shares, amount = action.line, action.shares, action.amount
    if action.outcome in (Outcome.FAILED, Outcome.VOID):
        return ""
    if isinstance(line, Priority):
        return _("{amount} AgP spent", amount=amount)
    if isinstance(line, Bid) and not shares:
        return _("no share bought")
    if isinstance(line, Bid):
        return ngettext("{count} share bought for {amount} AgP", "{count} shares bought for {amount} AgP", shares,
                        amount=amount) if action.corporation is None else \
            ngettext("{count} share bought back for {amount} AgP", "{count} shares bought back for {amount} AgP",
                     shares, amount=amount)
    if isinstance(line, Sell):
        return ngettext("{count} share sold for {amount} AgP", "{count} shares sold for {amount} AgP", shares,
                        amount=amount)
    if isinstance(line, SellTo | BuyFrom):
        return ngettext("{count} share for {amount} AgP", "{count} shares for {amount} AgP", shares, amount=amount)
    if isinstance(line, Give):
        return ngettext("{count} share given", "{count} shares given", shares)
    if isinstance(line, Approve | Elect) and shares:
        return ngettext("{count} vote counted", "{count} votes counted", shares)
    if isinstance(line, Dividend):
        return ngettext("{amount} AgP paid on {count} share", "{amount} AgP paid on {count} shares", shares,
                        amount=amount)
    if isinstance(line, Issue):
        return ngettext("{count} new share in the pool", "{count} new shares in the pool", shares)
    return ""


def offers_lines(view: OffersStatement) -> list[str]:
    """E39, rule 5.7 items 3-5: an investor's accepted private offers, spending and balance."""
    lines = []
    for a in view.accepted:
        if a.offered == a.paid:
            said = _("you paid {paid} AgP for {order}", paid=a.paid, order=a.order)
        elif a.reduced == a.offered:
            said = _("you paid {paid} AgP for {order} (you offered {offered})", paid=a.paid, order=a.order,
                     offered=a.offered)
        else:
            said = _("you paid {paid} AgP for {order} (you offered {offered}, the reductions left {reduced})",
                     paid=a.paid, order=a.order, offered=a.offered, reduced=a.reduced)
        lines.append("  " + said)
    if not view.accepted:
        lines.append("  " + _("no private offer of yours was accepted (if you made any): you paid nothing"))
    return [*lines, "  " + _("spent: {spent} AgP; your balance: {balance} AgP", spent=view.spent,
                             balance=view.balance)]


# -- a corporation's stockholders (E37) and CEO (E38) ---------------------------------------------------


def report_lines(report: AnnualReport) -> list[str]:
    """E37: the annual report of step g, the dividend (or the withheld notice) and the tally."""
    name = title(report.corporation)
    lines = wrap(_("{corporation}: treasury {amount} AgP; stockholders: {stockholders}", corporation=name,
                   amount=report.treasury, stockholders=", ".join(report.stockholders)))
    if report.withheld is None:
        lines.append("    " + _("dividend: {amount} AgP a share (E23)", amount=report.dividend))
    else:
        lines.append("    " + _("dividend: {withheld}", withheld=reason_words(report.withheld)))
    if report.tally:
        lines += wrap("    " + _("election (votes per candidate, E19): {tally}",
                                 tally=", ".join(f"{c} {n}" for c, n in report.tally)), "")
    lines.append("    " + (_("CEO for the year: {ceo}", ceo=report.ceo) if report.ceo else
                           _("no valid vote: leaderless for the year (E18)")))
    return lines


def ledger_words(line: LedgerLine) -> str:
    """What one line of a corporation's ledger records, in words (E24, E38)."""
    kind, shares = line.kind, line.shares
    if kind is LedgerKind.WORTH:
        return _("worth of {center} for the year: {price} AgP (E22)", center=line.center, price=line.price)
    if kind is LedgerKind.BRIBE:
        return _("bribe paid for {order}", order=line.order)
    if kind is LedgerKind.INCOME:
        return _("income of {center} (E27)", center=line.center)
    if kind is LedgerKind.INCOME_CAP:
        return _("income over the cap (6.6)")
    if kind is LedgerKind.DONATION:
        return _("donation from {who} (E5)", who=line.who)
    if kind is LedgerKind.DIVIDEND:
        return ngettext("dividend of {price} AgP a share on {count} share (E23)",
                        "dividend of {price} AgP a share on {count} shares (E23)", shares, price=line.price)
    if kind is LedgerKind.ISSUE:
        return ngettext("{count} new share into the pool, asked at {price} AgP (E11)",
                        "{count} new shares into the pool, asked at {price} AgP (E11)", shares, price=line.price)
    if kind is LedgerKind.POOL_SALE:
        return ngettext("{count} share from the pool to {who} at {price} AgP (E8, E9)",
                        "{count} shares from the pool to {who} at {price} AgP (E8, E9)", shares, who=line.who,
                        price=line.price)
    if kind is LedgerKind.BUY_BACK:
        return ngettext("{count} share bought back from {who} at {price} AgP (E12)",
                        "{count} shares bought back from {who} at {price} AgP (E12)", shares, who=line.who,
                        price=line.price)
    if kind is LedgerKind.LIQUIDATION:
        return ngettext("liquidation: {price} AgP a share on {count} share (E31)",
                        "liquidation: {price} AgP a share on {count} shares (E31)", shares, price=line.price)
    if kind is LedgerKind.ZEROSUM_DEPOSIT:
        return _("the bribes its units took this year (ZEROSUM, 6.7)")
    if kind is LedgerKind.FIRST_CAPTURE:
        return _("first capture of {center} (ZEROSUM, 6.7)", center=line.center)
    if kind is LedgerKind.CENTER_LOST:
        return _("{center} lost to {corporation} (ZEROSUM, 6.7)", center=line.center, corporation=title(line.who))
    assert kind is LedgerKind.CENTER_TAKEN, kind
    return _("{center} taken from {corporation} (ZEROSUM, 6.7)", center=line.center, corporation=title(line.who))


def ledger_line(line: LedgerLine) -> str:
    """One line of a corporation's ledger (E24, E38), as its CEO reads it."""
    amount = f"{line.amount:+6d}" if line.amount else "      "
    return f"    {line.phase}  {amount}  {ledger_words(line)}"


def worths_text(worths: Mapping[str, int]) -> str:
    """A corporation's worths for the year, as figures: ``PAR 4, MAR 3``."""
    return ", ".join(f"{c} {w}" for c, w in sorted(worths.items()))


def ceo_lines(view: CeoView) -> list[str]:
    """E38, E24: a corporation's treasury, worths for the year and whole ledger, for its CEO."""
    name = title(view.corporation)
    lines = ["  " + _("{corporation}'s treasury: {amount} AgP", corporation=name, amount=view.treasury)]
    if view.worths:
        lines += wrap(_("{corporation}'s worths for the year (E22): {worths}", corporation=name,
                        worths=worths_text(view.worths)))
    lines.append("  " + _("{corporation}'s ledger since the start of the game (E24):", corporation=name))
    lines += [ledger_line(line) for line in view.ledger] or ["    " + _("nothing yet")]
    return lines


def corporate_statement_lines(statement: Statement) -> list[str]:
    """E38, rule 5.7: a corporation's statement after a movement phase, for its CEO."""
    lines = ["  " + _("its {unit} issued {order} for a total bribe of {total} AgP", unit=u.unit, order=u.order,
                      total=u.total) for u in statement.units]
    for a in statement.accepted:
        if a.offered == a.paid:
            said = _("it paid {paid} AgP for {order}", paid=a.paid, order=a.order)
        elif a.reduced == a.offered:
            said = _("it paid {paid} AgP for {order} (offered {offered})", paid=a.paid, order=a.order,
                     offered=a.offered)
        else:
            said = _("it paid {paid} AgP for {order} (offered {offered}, reduced to {reduced})", paid=a.paid,
                     order=a.order, offered=a.offered, reduced=a.reduced)
        lines.append("  " + said)
    if not statement.accepted:
        lines.append("  " + _("none of its offers was accepted"))
    return [*lines, "  " + _("spent: {spent} AgP; its treasury: {treasury} AgP", spent=statement.spent,
                             treasury=statement.new_balance)]


def income_lines(income: CorporateIncome, treasury: int) -> list[str]:
    """E27: what a corporation's centers paid at the Income step, for its CEO (under ZEROSUM, 6.7:
    what its units' bribes and the captures moved)."""
    now = "  " + _("its treasury now: {amount} AgP", amount=treasury)
    if income.moves or not income.centers:
        return ["  " + _("{corporation}'s treasury changed by {amount} AgP (ZEROSUM, 6.7):",
                         corporation=title(income.corporation), amount=income.total),
                *(ledger_line(line) for line in income.moves), now]
    parts = [f"{c.center} {c.amount}" if c.priced else _("{center} {amount} (unpriced)", center=c.center,
                                                           amount=c.amount) for c in income.centers]
    return [*wrap(_("{corporation} earned {amount} AgP: {centers}", corporation=title(income.corporation),
                    amount=income.total, centers=", ".join(parts))), now]


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


def _wanted(shares: Quantity, corporation: str, price: int) -> str:
    """A bid as read, in words (E13): ``up to 5 Germany``, ``as many Germany as can be matched and
    paid for``, ``all the Germany that can be matched and paid for but 2``, at its price."""
    if shares.count is not None:
        return _("read as: a bid for up to {count} {corporation} at {price} AgP each (E8, E13)", count=shares.count,
                 corporation=corporation, price=price)
    if not shares.but:
        return _("read as: a bid for as many {corporation} as can be matched and paid for at {price} AgP each "
                 "(E8, E13)", corporation=corporation, price=price)
    return _("read as: a bid for all the {corporation} that can be matched and paid for but {but}, at {price} AgP "
             "each (E8, E13)", corporation=corporation, but=shares.but, price=price)


def describe(line: Line, author: str, corporation: str | None) -> str:
    """What a valid line will do, in words, for the reply (each with its ruling)."""
    if isinstance(line, Priority):
        return _("read as: spend {amount} AgP on the investor order at step c; the money is destroyed (E30, E6)",
                 amount=line.spend)
    if isinstance(line, Bid):
        if corporation is not None:
            return _("read as: {corporation} buys back up to {count} of its shares at {price} AgP each from "
                     "investors' asks, keeping its pool to a third of its issue (E12)", corporation=title(corporation),
                     count=line.shares, price=line.price)
        return _wanted(line.shares, title(line.corporation), line.price)
    if isinstance(line, Sell):
        if corporation is not None:
            return _("read as: {corporation} asks {price} AgP each for up to {count} of its pool (E9)",
                     corporation=title(corporation), price=line.price, count=line.shares)
        return _("read as: an ask for up to {count} of your {corporation} at no less than {price} AgP each (E8, E13)",
                 count=line.shares, corporation=title(line.corporation), price=line.price)
    if isinstance(line, SellTo):
        matching = f"BUY {line.shares} {line.corporation} FROM {author} FOR {line.amount}"
        return _("read as: {count} {corporation} to {buyer} for {amount} AgP in all, if {buyer}'s sheet says "
                 "{line} (E10)", count=line.shares, corporation=title(line.corporation), buyer=line.buyer,
                 amount=line.amount, line=matching)
    if isinstance(line, BuyFrom):
        matching = f"SELL {line.shares} {line.corporation} TO {author} FOR {line.amount}"
        return _("read as: {count} {corporation} from {seller} for {amount} AgP in all, if {seller}'s sheet says "
                 "{line} (E10)", count=line.shares, corporation=title(line.corporation), seller=line.seller,
                 amount=line.amount, line=matching)
    if isinstance(line, Give):
        return _("read as: a gift of {count} {corporation} to {receiver} (E10, E13)", count=line.shares,
                 corporation=title(line.corporation), receiver=line.receiver)
    if isinstance(line, Approve):
        return _("read as: you approve an issue of up to {count} new {corporation} (E11)", count=line.shares,
                 corporation=title(line.corporation))
    if isinstance(line, Elect):
        if line.candidate is None:
            return _("read as: you abstain in the election of {corporation}'s CEO (E14)",
                     corporation=title(line.corporation))
        if line.candidate == ME:
            return _("read as: your ballot for yourself as {corporation}'s CEO (E14)",
                     corporation=title(line.corporation))
        return _("read as: your ballot for {candidate} as {corporation}'s CEO (E14)", candidate=line.candidate,
                 corporation=title(line.corporation))
    if isinstance(line, Worth):
        return _("read as: the worths of your corporation's centers for the year (E22): {worths}",
                 worths=", ".join(f"{c} {w}" for c, w in line.worths))
    if isinstance(line, Dividend):
        return _("read as: a dividend of {amount} AgP a share (E23)", amount=line.per_share)
    if isinstance(line, Issue):
        return _("read as: {count} new shares asked at {price} AgP, if 80% of the holders approve (E11)",
                 count=line.shares, price=line.price)
    if isinstance(line, Pass):
        return _("read as: nothing this phase, but a sheet all the same (E29)")
    return ""


def describe_offer(offer: Offer) -> str:
    """An offer line as read (rule 3.1): its amount and what it is for."""
    orders = str(offer.orders[0])
    for order in offer.orders[1:]:
        orders = _("{orders} or {order}", orders=orders, order=str(order))
    kind, amount = offer.kind, offer.amount
    if kind is OfferKind.DIRECT:
        return _("read as: a direct offer for {orders}, {amount} AgP in all", orders=orders, amount=amount)
    if kind is OfferKind.NEGATIVE:
        return _("read as: a negative offer: paid if the unit issues any order but {orders}, {amount} AgP in all",
                 orders=orders, amount=amount)
    if kind is OfferKind.MOVE:
        return _("read as: a move offer for {orders}, {amount} AgP in all", orders=orders, amount=amount)
    if kind is OfferKind.HOLD:
        return _("read as: a hold offer for {orders}, {amount} AgP in all", orders=orders, amount=amount)
    assert kind is OfferKind.GIFT, kind
    return _("read as: a gift offer for {orders}, {amount} AgP in all", orders=orders, amount=amount)


# -- the game master's chart, published at the end (E41) ---------------------------------------------


def register_lines(state: ExchangeState) -> list[str]:
    """The share register: each corporation's holders and pool (E41; before the end, the game
    master's alone)."""
    lines = []
    for corporation in state.corporations:
        if corporation in state.liquidated:
            lines.append("  " + _("{corporation}: liquidated", corporation=title(corporation)))
            continue
        held = ", ".join(f"{who} {n}" for who, n in sorted(state.register.holdings.get(corporation, {}).items()))
        lines += wrap(_("{corporation}: {issued} issued, pool {pool}; held by {holders}",
                        corporation=title(corporation), issued=state.register.issued.get(corporation, 0),
                        pool=state.register.pool(corporation), holders=held or _("nobody")))
    return lines


def money_lines(state: ExchangeState) -> list[str]:
    """Every purse and treasury, and the money check (X.2: Σ purses + Σ treasuries + destroyed =
    the starting money and every income; under ZEROSUM the bribes owed to corporations are held
    too, 6.7)."""
    purses = ", ".join(f"{who} {state.purses[who]}" for who in state.order)
    treasuries = ", ".join(f"{title(c)} {state.treasuries[c]}" for c in state.live)
    owed = ", ".join(f"{title(c)} {n}" for c, n in sorted(state.owed.items()) if n)
    total = sum(state.purses.values()) + sum(state.treasuries.values()) + sum(state.owed.values())
    return [*wrap(_("purses: {purses}", purses=purses)), *wrap(_("treasuries: {treasuries}", treasuries=treasuries)),
            *(wrap(_("owed at the Income step (ZEROSUM, 6.7): {owed}", owed=owed)) if owed else []),
            "  " + _("money check: {held} held + {destroyed} destroyed = {total}; {minted} entered the game (starting "
                     "funds and income)", held=total, destroyed=state.destroyed, total=total + state.destroyed,
                     minted=state.minted)]


def sheet_lines(sheets: Mapping[str, str]) -> list[str]:
    """Every investor's sheet as it stood at the deadline, as written."""
    lines = []
    for author, text in sheets.items():
        lines.append("  " + _("sheet of {investor}:", investor=author))
        lines += [f"    {line}" for line in text.splitlines()] or ["    " + _("(empty)")]
    return lines or ["  " + _("no sheet was sent")]


def exchange_chart(record: ExchangeRecord, after: ExchangeState, sheets: Mapping[str, str]) -> list[str]:
    """Everything an Exchange phase did (X.8.3 a-i): the sheets, every line's outcome, each step's
    result, the register and the money after it."""
    lines = [_("Sheets:"), *sheet_lines(sheets), _("What became of each line:")]
    lines += [f"  {action.author}: {outcome_line(action)}" for action in record.actions] or ["  " + _("nothing")]
    for liquidation in record.liquidations:
        paid = ", ".join(f"{who} {amount}" for who, amount in liquidation.payouts) or _("none")
        lines += wrap(_("liquidation of {corporation} (E31): {treasury} AgP, {per_share} a share, {destroyed} "
                        "destroyed; paid {paid}", corporation=title(liquidation.corporation),
                        treasury=liquidation.treasury, per_share=liquidation.per_share,
                        destroyed=liquidation.destroyed, paid=paid), "")
    for dividend in record.dividends:
        if dividend.per_share:
            lines += wrap(_("dividend of {corporation}: {per_share} AgP a share; paid {paid}",
                            corporation=title(dividend.corporation), per_share=dividend.per_share,
                            paid=", ".join(f"{who} {amount}" for who, amount in dividend.payouts)), "")
    lines += wrap(_("investor order before: {order}", order=", ".join(record.order_before)), "")
    lines += wrap(_("investor order after priority (E30): {order}", order=", ".join(record.order)), "")
    for issue in record.issues:
        lines.append(_("issue of {corporation}: {shares} at {price}, approving {approving} of {outstanding} "
                       "outstanding: passed", corporation=title(issue.corporation), shares=issue.shares,
                       price=issue.price, approving=issue.approving, outstanding=issue.outstanding) if issue.passed
                     else _("issue of {corporation}: {shares} at {price}, approving {approving} of {outstanding} "
                            "outstanding: failed", corporation=title(issue.corporation), shares=issue.shares,
                            price=issue.price, approving=issue.approving, outstanding=issue.outstanding))
    for fill in record.fills:
        values = {"shares": fill.shares, "corporation": title(fill.corporation), "buyer": fill.buyer,
                  "price": fill.price}
        lines.append(_("fill: {shares} {corporation} from the pool to {buyer} at {price}", **values)
                     if fill.seller is None else
                     _("fill: {shares} {corporation} from {seller} to {buyer} at {price}", seller=fill.seller,
                       **values))
    for election in record.elections:
        tally = ", ".join(f"{c} {n}" for c, n in election.tally) or _("no valid vote")
        lines.append(_("election of {corporation}: {tally}; {winner} ({reason})",
                       corporation=title(election.corporation), tally=tally,
                       winner=election.winner or _("leaderless"), reason=reason_words(election.reason)))
    return [*lines, _("destroyed this phase: {amount} AgP", amount=record.destroyed), _("Share register after it:"),
            *register_lines(after), _("Money after it:"), *money_lines(after)]


def board_chart(record: MovementRecord | OrdersRecord, after: ExchangeState, sheets: Mapping[str, str]) -> list[str]:
    """Everything a phase on the board did: the sheets, the worths set (Spring), every offerer's
    statement (rule 5.7), the orders' results, and the money after it."""
    lines = [_("Sheets:"), *sheet_lines(sheets)]
    if isinstance(record, MovementRecord):
        for corporation, worths in record.worths.items():
            lines += wrap(_("worths of {corporation} for the year (E22): {worths}", corporation=title(corporation),
                            worths=worths_text(worths)), "")
        for offerer, statement in record.determination.statements.items():
            if statement.accepted or statement.spent:
                lines.append(_("statement of {corporation}:", corporation=title(offerer)))
                lines += ["  " + line for line in corporate_statement_lines(statement)]
        lines.append(_("bribes paid, owed to the bribed units' corporations (ZEROSUM, 6.7): {amount} AgP",
                       amount=record.bribes) if after.options.payola.zerosum else
                     _("bribes paid, destroyed (E6): {amount} AgP", amount=record.bribes))
    lines += [_("Results:"), *(result_line(r) for r in record.result.results)]
    return [*lines, _("Money after it:"), *money_lines(after)]


def income_chart(record: IncomeRecord, after: ExchangeState) -> list[str]:
    """The Income step: each corporation's income, center by center, and those eliminated (E27, E31)."""
    lines = [_("Income step {phase} (E27):", phase=record.phase)]
    for income in record.incomes:
        lines += income_lines(income, after.treasuries[income.corporation])
    lines += ["  " + _("{corporation} owns no supply center: eliminated, liquidated at the next Exchange phase (E31)",
                       corporation=title(c)) for c in record.eliminated]
    return lines


def ranking_lines(scores: Sequence[Score], result: Sequence[str]) -> list[str]:
    """E35: every investor's % control of the winning or drawing corporations, ranked."""
    if not result:
        return [_("No corporation won or drew: nobody scores (E35).")]
    lines = [_("Scores by % control of {corporations} (E35):", corporations=", ".join(title(c) for c in result))]
    lines += ["  " + _("{place}. {investor}: {percent}", place=score.rank, investor=score.investor,
                       percent=percent(score.control, 2)) for score in scores]
    return lines


def percent(value: Fraction | float, digits: int) -> str:
    """``value``, a percentage (``66.666...``), as the reader's language writes one with ``digits``
    decimals: ``66.7%`` in English, ``66,7%`` in Italian, ``66,7 %`` in French (its sign after a
    space that never breaks)."""
    locale = Locale.parse(current())
    pattern = copy(parse_pattern(locale.percent_formats[None]))
    pattern.frac_prec = (digits, digits)
    return str(pattern.apply(Decimal(repr(float(value))) / 100, locale))


def control(value: Fraction | float) -> str:
    """An investor's % control of the winning or drawing corporations (E35), as the standings give
    it: ``66.7% control``, in the reader's language."""
    return _("{percent} control", percent=percent(value, 1))
