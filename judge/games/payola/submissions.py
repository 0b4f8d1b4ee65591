"""A power's offer sheet or orders, stored as a whole when its block of lines ends; and what
STATUS shows once they are: a power's own sheet or orders, balance, list, vote, WAIT and
absences, and nothing of another power's (`status_lines`); the game master's, every power's
state, balance, transfers and vote, and whether it has submitted (`master_status_lines`).

Offer lines in one mail form one sheet: if any line is bad, none is applied and the previous
sheet, if any, stays (rule 3: a sheet is read as a whole); the answer ends with a line that
sums it up, saying what sheet is in force now (`rejected`).  Orders in a retreat or adjustment phase, or
for loyal units, are stored the same way.  Each keeps when its mail was accepted, and a mail
accepted before the one that sent the sheet in force stores nothing (`set_by_mail_at`,
`Turn.superseded`): delivered out of order, an older sheet never replaces a newer one.
Under LOYAL_UNITS a power's orders and its sheet (its bribes to dummies' units) stand apart,
and a mail whose orders are taken but whose sheet is rejected leaves the power waiting until it
sends its offers again (`keep_rejection`).

In a Tin Cup game (rule 6.3) an answer never tells what the power cannot see.  In every phase,
an order for a unit in a province out of its sight (never one of its own: its units are all in
sight) is answered ``IGNORED`` alike whether a unit stands there or not, and is left out of the
orders stored, so that it never reaches the adjudication either (a mail of such orders alone
leaves the previous orders in force).  An order of its own unit that names a unit out of sight
is taken as given (`in_the_dark`).  Errors are told only of its own units and of what is in
sight, where the truth is visible anyway; a retreat is checked on the board as the power sees
it, where a standoff it did not see bars nothing (the adjudication will).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from judge import api
from judge.api import RUNNING, Submission, absence_lines, render, when
from judge.engine.legal import adjustment_count, check_order, retreat_options
from judge.engine.orders import Build, Disband, Order, OrderSyntaxError, PhaseKind, Remove, Retreat, Waive, parse_order
from judge.engine.position import Position
from judge.games.payola import lifecycle, views
from judge.games.payola.lifecycle import free_home_centers
from judge.games.payola.store import LedgerRow, seat_of, votes_of
from judge.language import gettext as _
from judge.language import ngettext, pgettext
from judge.payola.blind import in_the_dark
from judge.payola.offers import Offer, OfferKind, SheetError, parse_sheet
from judge.wording import power_title

if TYPE_CHECKING:
    from judge.api import Turn


def active_position(talk: Turn) -> Position | None:
    """The position of the signed-on game's current phase (read once per phase and transaction:
    `Turn.read_once`)."""
    game = talk.game
    assert game is not None
    if game.state not in RUNNING or game.phase is None:
        return None

    def read() -> Position | None:
        row = api.current_phase(talk.session, game)
        return lifecycle.position_of(row) if row else None

    return talk.read_once(game, "position", read)


def store_sheet(talk: Turn) -> bool | None:
    """Store the power's offer lines of this mail as its sheet, if they are all good; whether
    the sheet was accepted (None: set aside, an older mail than the one that set the sheet)."""
    game, power, lines = talk.game, talk.seat, talk.block("sheet")
    assert game is not None and power is not None
    position = active_position(talk)
    assert position is not None
    if why := talk.superseded(set_by_mail_at(talk, str(position.phase), power, "sheet"), "your offer sheet"):
        talk.set_aside(lines, why)
        return None
    seat = talk.seats(game)
    dummies = {p for p in position.game_map.powers if not api.is_played(seat.get(p))}
    text = "\n".join(t for _at, t in lines)
    options = lifecycle.options_of(game)
    seen = _seen(talk, power) if options.blind else None
    sheet, errors = parse_sheet(text, position, power, options, dummies, seen=seen)
    if errors:
        _refuse_sheet(talk, lines, errors, str(position.phase), power)
        return False
    api.submit(talk.session, game, str(position.phase), power, "sheet", text,
                {"offers": len(sheet.offers), "savings": sheet.savings}, talk.now, talk.accepted)
    read = {offer.line: describe(offer) for offer in sheet.offers} | dict.fromkeys(sheet.unseen, unseen())
    count = len(sheet.offers) + len(sheet.ignored)  # a line set aside counts as one kept: rule 6.3
    kept = "SHEET_ACCEPTED" if count or options.loyal_units else "SHEET_WITHOUT_OFFER"  # ruling 15: no submission
    for number, (index, line) in enumerate(lines, 1):
        talk.mark(index, message=read.get(number) or _savings_or_comment(line), code=kept)
    last = lines[-1][0]
    if not options.loyal_units:  # ruling 15: a sheet without an offer is kept, but is not a submission
        _mark_no_offer(talk, str(position.phase), power, count)
    if not count and not options.loyal_units:
        talk.note(last, [_("offer sheet kept, with no offer: savings {savings} AgP; it replaces any earlier sheet for "
                           "this phase", savings=sheet.savings), no_offer_warning()])
        return True
    talk.note(last, [ngettext("offer sheet accepted: {count} offer, savings {savings} AgP; it replaces any earlier "
                              "sheet for this phase",
                              "offer sheet accepted: {count} offers, savings {savings} AgP; it replaces any earlier "
                              "sheet for this phase", count, savings=sheet.savings)])
    _warn_savings(talk, last, power, sheet.savings)
    return True


def _refuse_sheet(talk: Turn, lines: Sequence[tuple[int, str]], errors: Sequence[SheetError], phase: str,
                  power: str) -> None:
    """A sheet with a bad line is read as a whole and not applied (rule 3): each bad line
    answered with its first error, the others as not applied, and what sheet stands now."""
    for number, (index, _text) in enumerate(lines, 1):
        found = [e for e in errors if e.line == number]
        if found:
            talk.mark(index, "error", found[0].error, code="BAD_OFFER")
        else:
            talk.mark(index, "ignored", _("not applied: the sheet has errors (see below)"), code="SHEET_REFUSED")
    talk.note(lines[-1][0], [rejected(talk, "sheet", len(errors), phase, power)])


def _mark_no_offer(talk: Turn, phase: str, power: str, count: int) -> None:
    """Ruling 15: a sheet without an offer is kept but is not a submission; the marker that says
    so is set by such a sheet, and cleared by a later sheet with offers."""
    game = talk.game
    assert game is not None
    no_offer = api.latest_texts(talk.session, game, phase).get((power, lifecycle.NO_OFFER))
    if not count or no_offer:
        api.submit(talk.session, game, phase, power, lifecycle.NO_OFFER,
                    "" if count else "no offer", {}, talk.now, talk.accepted)


def _warn_savings(talk: Turn, last: int, power: str, savings: int) -> None:
    """Rule 3.4: a sheet that asks to save more than the power's balance spends nothing, its
    offers reduced as far as that needs; the power is warned.  The balance is read only when the
    sheet saves something (most sheets save nothing)."""
    game = talk.game
    assert game is not None
    if savings and savings > (balance := lifecycle.balances(talk.session, game)[power]):
        talk.note(last, [_("WARNING: you ask to save {savings} AgP but your balance is {balance} AgP: you will spend "
                           "nothing this phase, and your offers will be reduced as far as that needs (rule 3.4)",
                           savings=savings, balance=balance)])


def store_orders(talk: Turn) -> bool:
    """Store the power's orders of this mail, if they are all good; whether they were."""
    game, power, lines = talk.game, talk.seat, talk.block("orders")
    assert game is not None and power is not None
    position = active_position(talk)
    assert position is not None
    if why := talk.superseded(set_by_mail_at(talk, str(position.phase), power, "orders"), "your orders"):
        talk.set_aside(lines, why)
        return False
    sight = lifecycle.sight_now(talk.session, game, power) if lifecycle.options_of(game).blind else None
    view = sight.view if sight is not None else None
    if sight is not None and position.phase.kind is PhaseKind.RETREAT:
        position = sight.after  # its retreats as it sees them: an unseen standoff bars none (`judge.payola.blind`)
    bad, checked, kept = _read_orders(talk, lines, position, power, view)
    errors, warnings = check_together(position, power, checked)
    for index, error in errors.items():
        talk.mark(index, "error", error, code="ORDERS_CLASH")
        bad = True
    last = lines[-1][0]
    if not bad:
        talk.note(last, warnings)
    if bad:
        _refuse_orders(talk, lines, str(position.phase), power)
        return False
    if not kept:
        talk.note(last, [_("no order was kept; {standing}", standing=standing(talk, "orders", str(position.phase),
                                                                               power))])
        return False
    text = "\n".join(t for _at, t in kept)
    api.submit(talk.session, game, str(position.phase), power, "orders", text,
                {"orders": [talk.message(i) for i, _text in kept]}, talk.now, talk.accepted)
    return True


def _read_orders(talk: Turn, lines: Sequence[tuple[int, str]], position: Position, power: str,
                 view: frozenset[str] | None) -> tuple[bool, list[tuple[int, Order]], list[tuple[int, str]]]:
    """Each order line read and checked alone, and answered: whether any is bad, the orders
    checked (by line), and the lines kept.  Under Tin Cup (rule 6.3, ``view`` the provinces in
    sight) an order for a unit out of sight is ignored and not kept, and one naming a unit out
    of sight is taken as given."""
    bad = False
    checked: list[tuple[int, Order]] = []
    kept: list[tuple[int, str]] = []
    for index, text in lines:
        try:
            order = parse_order(text, position.game_map, position.phase.kind)
        except OrderSyntaxError as exc:
            talk.mark(index, "error", str(exc), code="SYNTAX")
            bad = True
            continue
        if view is not None and not isinstance(order, Waive) and order.unit.province not in view:
            talk.mark(index, "ignored", unseen_place(), code="UNSEEN")  # there or not
            continue
        kept.append((index, text))
        verdict = check_order(position, power, order)
        if view is not None and in_the_dark(position, power, order, view):
            talk.mark(index, message=unseen_order())  # that unit there or not, it reads the same (rule 6.3)
            checked.append((index, verdict.order))
        elif verdict.illegal is not None:
            talk.mark(index, "error", verdict.illegal.message, code="ILLEGAL_ORDER")
            bad = True
        else:
            talk.mark(index, message=str(verdict.order))
            checked.append((index, verdict.order))
    return bad, checked, kept


def _refuse_orders(talk: Turn, lines: Sequence[tuple[int, str]], phase: str, power: str) -> None:
    """Orders with a bad one are not applied: each good line answered as not applied, and what
    orders stand now."""
    for index, _text in lines:
        if talk.outcome(index) == "ok":
            talk.mark(index, "ignored", _("not applied: some orders have errors (see below)"), code="ORDERS_REFUSED")
    count = sum(talk.outcome(index) == "error" for index, _text in lines)
    talk.note(lines[-1][0], [rejected(talk, "orders", count, phase, power)])


def keep_rejection(talk: Turn, sheet: bool | None, orders: bool) -> None:
    """LOYAL_UNITS: a power whose orders were taken but whose offer sheet was rejected has not
    submitted what it meant to, so the phase waits for it as for a power that sent nothing (a
    ``rejected`` submission, `lifecycle.waiting_for`), rather than being processed at once
    without its offers; a later mail of it whose offers (or orders alone, to make none) are
    taken ends that wait.  The reply says so."""
    game, power = talk.game, talk.seat
    assert game is not None and power is not None and game.phase is not None
    if sheet is False:
        api.submit(talk.session, game, game.phase, power, "rejected", "sheet", {}, talk.now, talk.accepted)
        talk.note(talk.block("sheet")[-1][0], [
            _("your offer sheet was rejected, though your orders were taken: the phase waits for you as for a power "
              "that has not submitted, until you send your offers again without errors (or your orders alone, to "
              "make no offers) or until its deadline") if orders else
            _("your offer sheet was rejected: the phase waits for you as for a power that has not submitted, until "
              "you send your offers again without errors (or your orders alone, to make no offers) or until its "
              "deadline")])
    elif sheet or orders:
        pending = api.latest_submission(talk.session, game, game.phase, power, "rejected")
        if pending is not None and pending.text:
            api.submit(talk.session, game, game.phase, power, "rejected", "", {}, talk.now, talk.accepted)


def rejected(talk: Turn, kind: str, errors: int, phase: str, power: str) -> str:
    """The line that sums up a rejected sheet (``kind`` "sheet") or orders ("orders"): how many
    errors, and what stands for the phase now (`standing`).  Never "your previous sheet stays"
    when there is none (issue 23.12)."""
    now = standing(talk, kind, phase, power)
    if kind == "sheet":
        return ngettext("sheet REJECTED ({count} error); {standing}", "sheet REJECTED ({count} errors); {standing}",
                        errors, standing=now)
    return ngettext("orders REJECTED ({count} error); {standing}", "orders REJECTED ({count} errors); {standing}",
                    errors, standing=now)


def standing(talk: Turn, kind: str, phase: str, power: str) -> str:
    """What sheet (``kind`` "sheet") or orders ("orders") of the power stand for the phase:
    none, or the earlier ones, by when the mail that set them was accepted."""
    assert talk.game is not None
    row = api.latest_submission(talk.session, talk.game, phase, power, kind)
    if row is None or not row.text:
        if kind == "sheet":
            return _("your sheet for {phase} is now: none", phase=phase)
        return _("your orders for {phase} are now: none", phase=phase)
    at = when(row.accepted_at or row.created_at)
    if kind == "sheet":
        return _("your sheet for {phase} is now: the one of {when}", phase=phase, when=at)
    return _("your orders for {phase} are now: the ones of {when}", phase=phase, when=at)


def set_by_mail_at(talk: Turn, phase: str, power: str, *kinds: str) -> datetime | None:
    """When the judge's mail server accepted the latest mail that set the power's sheet (orders,
    WAIT: ``kinds``) in force for the phase; None if no mail did (`Turn.superseded`)."""
    game = talk.game
    assert game is not None
    return max(filter(None, (api.latest_accepted(talk.session, game, phase, power, kind) for kind in kinds)),
               default=None)


def check_together(position: Position, power: str, orders: list[tuple[int, Order]]) -> tuple[dict[int, str], list[str]]:
    """What is wrong with a power's orders taken together, found when they arrive rather than at
    processing: errors (by echo index) for what cannot be carried out — two orders for one unit,
    two builds in one place — and warnings for what will fail or be done by the judge instead, each a
    whole sentence saying it is a warning."""
    errors: dict[int, str] = {}
    warnings: list[str] = []
    first: dict[str, Order] = {}
    for index, order in orders:
        if isinstance(order, Waive):
            continue
        province = order.unit.province
        if province in first:
            errors[index] = (_("{unit} already has an order in this mail ({order}): give one order per unit",
                               unit=order.unit, order=first[province]) if not isinstance(order, Build)
                             else _("a second build in {area}: one unit per province", area=province))
        else:
            first[province] = order
    kind = position.phase.kind
    if kind is PhaseKind.RETREAT:
        targets: dict[str, list[str]] = {}
        for order in first.values():
            if isinstance(order, Retreat):
                targets.setdefault(order.destination.province, []).append(str(order.unit))
        for province, units in sorted(targets.items()):
            if len(units) > 1:
                warnings.append(_("WARNING: {units} all retreat to {area}: they will bounce and be disbanded",
                                  units=", ".join(units), area=province))
        for province, d in sorted(position.dislodged.items()):
            if d.power == power and province not in first and retreat_options(position, province):
                warnings.append(_("WARNING: no order for {unit}: it will be disbanded", unit=d.unit))
    elif kind is PhaseKind.ADJUSTMENT:
        due = adjustment_count(position, power)
        given = [o for _at, o in orders if isinstance(o, Build | Waive | Remove | Disband)]
        if due > 0:
            may = min(due, len(free_home_centers(position, power)))
            if len(given) > may:
                warnings.append(_("WARNING: you may build {may}: the orders after the first {may} will fail", may=may))
            elif len(given) < may:
                warnings.append(_("WARNING: you may build {may} and ordered {given}: the rest will be waived", may=may,
                                  given=len(given)))
        elif due < 0:
            if len(given) > -due:
                warnings.append(ngettext("WARNING: {count} removal is due: the orders after the first {count} "
                                         "will fail",
                                         "WARNING: {count} removals are due: the orders after the first {count} "
                                         "will fail", -due))
            elif len(given) < -due:
                warnings.append(ngettext("WARNING: {count} removal is due and you ordered {given}: the judge will "
                                         "remove the rest by the civil-disorder rules (the units farthest from your "
                                         "centers)",
                                         "WARNING: {count} removals are due and you ordered {given}: the judge will "
                                         "remove the rest by the civil-disorder rules (the units farthest from your "
                                         "centers)", -due, given=len(given)))
    return errors, warnings


def status_lines(talk: Turn) -> list[str]:
    game, power = talk.game, talk.seat
    assert game is not None and power is not None
    balance = lifecycle.balances(talk.session, game)[power]
    sheet = api.latest_submission(talk.session, game, game.phase or "", power, "sheet")
    orders = api.latest_submission(talk.session, game, game.phase or "", power, "orders")
    player = talk.player
    kept = seat_of(talk.session, player) if player is not None else None
    lines = [_("your balance: {balance} AgP", balance=balance),
             _("your acceptance list: {acceptance}", acceptance=kept.acceptance) if kept and kept.acceptance else
             _("your acceptance list: the default (own first, then ?)")]
    if lifecycle.options_of(game).loyal_units and (game.phase or "").endswith("M"):
        lines.extend(_loyal_status(talk, sheet, orders))
    else:
        current = sheet.text if sheet and sheet.text else (orders.text if orders and orders.text else "")
        lines.append(_("your current sheet/orders:") if current else _("no sheet or orders yet for this phase"))
        lines.extend(f"  {line}" for line in current.splitlines())
        if current and api.latest_texts(talk.session, game, game.phase or "").get((power, lifecycle.NO_OFFER)):
            lines.append(_("your sheet makes no offer: you have not submitted (rule 3.3 asks for at least one offer)"))
    if game.state in RUNNING and kept is not None:
        lines.append(_("your vote (secret): {vote}", vote=vote_words(kept.vote)) if kept.vote else
                     _("your vote (secret): none"))
    lines.extend(absence_lines(talk.session, game, talk.now.date(), power))
    position = active_position(talk)
    if position is not None:
        if lifecycle.options_of(game).blind:
            sight = lifecycle.sight_now(talk.session, game, power)
            board = views.board(sight.after, power, sight.view)
        else:
            board = views.board(position)
        lines.append("")
        lines.extend(render("payola/status_board", board=board).splitlines())
    return lines


def master_status_lines(talk: Turn) -> list[str]:
    """The game master's STATUS: the phase and deadline; each power's seat, whether it has
    submitted in the phase (never what: that is in the chart), its balance and this phase's
    transfers, and its vote; every seat's absences (the host adds who asks to WAIT).  It is the game
    master's alone (`judge.games.payola.kind.Payola.master_status`): no player is told another
    power's balance, submission or vote."""
    game = talk.game
    assert game is not None
    lines: list[str] = []
    seat = api.seats(talk.session, game)
    if not seat:
        joined = api.players(talk.session, game)
        return [*lines, ngettext("{count} player joined, of {powers}", "{count} players joined, of {powers}",
                                 len(joined), powers=len(lifecycle.game_map(game).powers))]
    position = active_position(talk)
    texts = api.latest_texts(talk.session, game, game.phase) if position is not None and game.phase else {}
    waiting = set(lifecycle.waiting_for(talk.session, game, texts, position, seat)) if position else set()
    required = set(lifecycle.required_powers(talk.session, game, position, seat)) if position else set()
    voting = set(lifecycle.voters(talk.session, game)) if position else set()
    votes = votes_of(talk.session, seat)
    money = lifecycle.balances(talk.session, game)
    moved: dict[str, list[str]] = {}
    for power, amount, note in talk.session.execute(
            select(LedgerRow.power, LedgerRow.amount, LedgerRow.note).where(
                LedgerRow.game_id == game.id, LedgerRow.phase == game.phase, LedgerRow.kind == "transfer")
            .order_by(LedgerRow.id)):
        moved.setdefault(power, []).append(f"{amount:+d} {views.ledger_note('transfer', note)}")
    lines.append(_("each power: its seat; submitted or not (never what); its balance and this phase's transfers; "
                   "its vote"))
    for power in lifecycle.game_map(game).powers:
        player = seat.get(power)
        if player is None:
            continue
        parts = [api.seat_state(game, power, player)]
        if position is not None:
            parts.append(_("waiting") if power in waiting else _("submitted") if power in required
                         else _("nothing to order"))
        parts.append(_("{balance} AgP (transfers this phase: {transfers})", balance=money.get(power, 0),
                       transfers=", ".join(moved[power])) if power in moved
                     else _("{balance} AgP", balance=money.get(power, 0)))
        if power in voting:
            parts.append(_("vote: {vote}", vote=vote_words(votes[power])))
        lines.append(f"  {power_title(power)}: {'; '.join(parts)}")
    return [*lines, *(absence_lines(talk.session, game, talk.now.date()) or [_("no absence asked for")])]


def vote_words(vote: str | None) -> str:
    """A power's vote (`store.PayolaSeat.vote`) in words."""
    if vote == "DRAW":
        return _("for a draw including all survivors")
    if vote and vote.startswith("CONCEDE:"):
        return _("to concede the game to {power}", power=power_title(vote.partition(":")[2]))
    return pgettext("vote", "none")


def _loyal_status(talk: Turn, sheet: Submission | None, orders: Submission | None) -> list[str]:
    """STATUS of a LOYAL_UNITS movement phase: the power's orders for its own units and its offer
    sheet (bribes to dummies' units) apart, and whether a rejected sheet keeps the phase waiting."""
    game, power = talk.game, talk.seat
    assert game is not None and power is not None
    lines = [_("your orders:") if orders and orders.text else
             _("no orders yet for this phase (your units hold without)")]
    lines.extend(f"  {line}" for line in (orders.text if orders else "").splitlines())
    if sheet and sheet.text:
        lines.append(_("your offer sheet (bribes to the dummies' units):"))
        lines.extend(f"  {line}" for line in sheet.text.splitlines())
    rejected = api.latest_submission(talk.session, game, game.phase or "", power, "rejected")
    if rejected is not None and rejected.text:
        lines.append(_("your last offer sheet was rejected: the phase waits for you until you send your offers "
                       "again without errors, or your orders alone"))
    return lines


def no_offer_warning() -> str:
    """The answer to a sheet with savings (or comments) but no offer (ruling 15)."""
    return _("WARNING: a sheet needs at least one offer (rule 3.3): what this one says stands, but you have not "
             "submitted, so the phase does not end early for you, and unless you send offers your units hold on "
             "their own zero HOLD offers (rule 3.3)")


def unseen() -> str:
    """The answer to every offer line naming a unit missing from the board as the power sees it, in
    the reader's language.

    One wording for all of them, true whichever the case: a province out of sight, where the
    unit may or may not stand; a province in sight that the power sees empty; one where it sees
    a unit of the other type (``F PAR`` where it sees ``A PAR``).  The last two tell the power
    nothing (it sees the province), so they could be answered as in an open game; but to answer
    them apart would be to answer from the true board next to the seen one, and one wording
    cannot leak a difference between them (rule 3.1 items 6 and 7: an offer to a unit that does
    not exist is never reported).  It does not say "a unit you do not see", which is false of a
    province in sight (issue 23.23)."""
    return _("names a unit that is not on the board as you see it (Tin Cup, rule 6.3): never answered; it counts if "
             "that unit is there and the offer is valid for it, and is ignored otherwise")


def unseen_place() -> str:
    """The answer to an order for a unit in a province out of a Tin Cup power's sight."""
    return _("names a province you do not see (Tin Cup, rule 6.3): set aside, whether a unit is there or not (none "
             "of yours is: your units are all in sight)")


def unseen_order() -> str:
    """The answer to an order naming a unit a Tin Cup power does not see (taken as given)."""
    return _("names a unit you do not see (Tin Cup, rule 6.3): taken as given and never answered, whether that unit "
             "is there or not")


def _seen(talk: Turn, power: str) -> Position:
    """The board of the signed-on Tin Cup game's current phase as ``power`` sees it."""
    assert talk.game is not None
    return lifecycle.sight_now(talk.session, talk.game, power).after


def _kind_words(kind: OfferKind, orders: str) -> str:
    """What an offer of ``kind`` for ``orders`` pays for, in the reader's language."""
    return {
        OfferKind.DIRECT: lambda: _("direct offer for {orders}", orders=orders),
        OfferKind.NEGATIVE: lambda: _("negative offer: paid if the unit issues any order but {orders}", orders=orders),
        OfferKind.MOVE: lambda: _("move offer for {orders}, or any other move", orders=orders),
        OfferKind.HOLD: lambda: _("hold offer for {orders}, or any other hold, support or convoy", orders=orders),
        OfferKind.GIFT: lambda: _("gift offer for {orders}, or any other order", orders=orders),
    }[kind]()


def _count_word(count: int) -> str:
    """A count of offers from two to nine in words, as the echo says it ("three offers"); digits past nine."""
    words = {2: _("two"), 3: _("three"), 4: _("four"), 5: _("five"), 6: _("six"), 7: _("seven"), 8: _("eight"),
             9: _("nine")}
    return words.get(count, str(count))


def _run_words(first: bool, count: int, amount: int, plateau: int | None) -> str:
    """One run of equal amounts of an offer as the echo says it: the first "three offers of 2 AgP
    (plateau 1)", the next ones "one of 1 AgP"."""
    word = _count_word(count)
    if first and plateau:
        return ngettext("one offer of {amount} AgP (plateau {plateau})", "{number} offers of {amount} AgP (plateau "
                        "{plateau})", count, number=word, amount=amount, plateau=plateau)
    if first:
        return ngettext("one offer of {amount} AgP", "{number} offers of {amount} AgP", count, number=word,
                        amount=amount)
    if plateau:
        return ngettext("one of {amount} AgP (plateau {plateau})", "{number} of {amount} AgP (plateau {plateau})",
                        count, number=word, amount=amount, plateau=plateau)
    return ngettext("one of {amount} AgP", "{number} of {amount} AgP", count, number=word, amount=amount)


def _joined(items: Sequence[str], pair: Callable[[str, str], str]) -> str:
    """``items`` joined two by two with ``pair`` ("A and B", "A or B"), left to right."""
    joined = items[0]
    for item in items[1:]:
        joined = pair(joined, item)
    return joined


def describe(offer: Offer) -> str:
    """How the judge read an offer line, in words, so a player can check it:
    ``3*2#1 + 1 > F LON - ENG | - NTH`` is "read as three offers of 2 AgP (plateau 1) and one of
    1 AgP; move offer for F LON - ENG or F LON - NTH, or any other move"."""
    runs: list[list[Any]] = []
    for term in offer.terms:
        if runs and runs[-1][0] == term:
            runs[-1][1] += 1
        else:
            runs.append([term, 1])
    amounts = [_run_words(number == 0, count, term.amount, term.plateau)
               for number, (term, count) in enumerate(runs)]
    orders = _joined([str(order) for order in offer.orders], _either)
    return _("read as {amounts}; {offer}", amounts=_joined(amounts, _both), offer=_kind_words(offer.kind, orders))


def _either(first: str, then: str) -> str:
    return _("{first} or {then}", first=first, then=then)


def _both(first: str, then: str) -> str:
    return _("{first} and {then}", first=first, then=then)


def _savings_or_comment(line: str) -> str:
    text = line.split("%", 1)[0].strip()
    return _("read as a savings request of {amount} AgP", amount=text[:-1].strip()) if text.endswith("$") else ""
