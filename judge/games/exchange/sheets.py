"""An investor's sheet by mail: the lines of one mail read together, checked against the game as a
whole, answered line by line, and kept as the sheet standing (section 2 of the rulings).

Theory of operation.  When the investor's lines of a mail end (`accept_mail`, the kind's
``close_block``) they are read in order (`judge.games.exchange.reading.read_mail`) and put together
(`assemble`): the investor's own part and each ``FOR`` block, the Exchange lines of each part as
the core's sheet values (`judge.games.exchange.core.sheet.Sheet`), the offer lines of each part
for Payola's reader, the orders of each block for the engine's.  Then:

1. What acts when it comes acts, in the mail's order, whatever becomes of the sheet: ``TRANSFER``
   (E5; in a block it is refused: a corporation never transfers, E21), ``ACCEPT`` in a block (the
   corporation's acceptance list, rule 4.3, its CEO's alone), ``LEDGER`` (E24: the records,
   answered at once to the CEO alone).
2. The sheet is checked whole: each line that cannot be read, the core's `check` (who may write
   what, where and when: 2.1, 2.2, E8-E23), Payola's reader for the offers of each part (an
   investor's own with their name as the power, so every offer is at least 1 AgP, E25) and the
   engine's for each order.  One bad line refuses the sheet (ruling 8, E29): each bad line is
   answered with its reason, the others are told they were not applied, and the sheet that stood
   before stands.
3. A sheet with no bad line is kept (`judge.games.exchange.stored.keep_sheet`), replacing the one
   standing part by part (2.1), and each line is answered with what the judge read it as.

`sheet_of` reads a kept sheet back the same way, for the phase's processing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from judge import api
from judge.api import RUNNING, Game, PhaseRow, Turn, render, when, writing_to
from judge.engine.legal import check_order
from judge.engine.map import GameMap
from judge.engine.orders import Order, OrderSyntaxError, Waive, parse_order
from judge.engine.position import Position
from judge.games.exchange import stored, views
from judge.games.exchange.core.accounts import AccountError, Refused, set_acceptance, transfer
from judge.games.exchange.core.phases import Step, phase_name, step
from judge.games.exchange.core.sheet import Block, Line, Refusal, Sheet, check
from judge.games.exchange.core.state import ExchangeState
from judge.games.exchange.core.views import ViewRefused, ceo_view
from judge.games.exchange.reading import (
    AcceptText,
    LedgerAsk,
    OfferText,
    OrderText,
    Read,
    TransferTo,
    read_mail,
)
from judge.language import gettext as _
from judge.language import ngettext
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.offers import OfferSheet, parse_sheet

_Bad = Callable[["Read", str, str], None]  # a bad line, why in words, and why as a name (`Echo.code`)
"""How a problem of a line is noted: ``bad(read, why)``."""


def refused_whole() -> str:
    """What a good line of a refused sheet is answered with."""
    return _("not applied: the sheet has a bad line, and a sheet is taken whole or not at all (ruling 8, E29)")


@dataclass
class Part:
    """One part of a sheet: the investor's own lines (``corporation`` None) or a ``FOR`` block
    (``opening``: its ``FOR`` line), its Exchange lines (as the core's values, with the lines they
    were read from), its offer lines and its orders."""

    corporation: str | None
    opening: Read | None = None
    lines: list[tuple[Read, Line]] = field(default_factory=list)
    offers: list[Read] = field(default_factory=list)
    orders: list[Read] = field(default_factory=list)

    @property
    def reads(self) -> list[Read]:
        """Every sheet line of the part, in the mail's order."""
        return sorted([r for r, _ in self.lines] + self.offers + self.orders, key=lambda r: r.index)


@dataclass
class Assembled:
    """A mail's sheet lines put together: its parts, the core's sheet of their Exchange lines, what
    acts at once, and the lines that could not be read."""

    parts: list[Part]
    sheet: Sheet
    at_once: list[Read]
    unread: list[Read]
    closings: list[Read] = field(default_factory=list)  # the good END lines: answered, no lines of the sheet


def assemble(reads: list[Read], author: str) -> Assembled:
    """Put a mail's reads together into parts (see the module's header)."""
    own = Part(None)
    parts = [own]
    current = own
    at_once: list[Read] = []
    unread: list[Read] = []
    closings: list[Read] = []
    for read in reads:
        if read.closes_block:
            current = own
            closings.append(read)
            continue
        if read.opens_block:
            current = Part(read.part, read)
            parts.append(current)
            continue
        if read.error is not None:
            unread.append(read)
            continue
        if read.part != current.corporation:  # END closed the block: the author's own lines again
            current = own
        value = read.value
        if isinstance(value, TransferTo | AcceptText | LedgerAsk):
            at_once.append(read)
        elif isinstance(value, OfferText):
            current.offers.append(read)
        elif isinstance(value, OrderText):
            current.orders.append(read)
        else:
            assert value is not None
            current.lines.append((read, value))
    sheet = Sheet(author, tuple(line for _read, line in own.lines),
                  tuple(Block(p.corporation, tuple(line for _read, line in p.lines)) for p in parts[1:]
                        if p.corporation is not None))
    return Assembled(parts, sheet, at_once, unread, closings)


# -- a mail's sheet ----------------------------------------------------------------------------------


def accept_mail(talk: Turn) -> None:
    """Act on the investor's sheet lines of this mail (see the module's header)."""
    game, investor, lines = talk.game, talk.seat, talk.block("sheet")
    assert game is not None and investor is not None
    if not lines:
        return
    if game.state not in RUNNING:  # a VOTE of this very mail ended the game: nothing is left to keep
        talk.set_aside(lines, _("not applied: the game has ended"), code="GAME_ENDED")
        return
    row = api.current_phase(talk.session, game)
    assert row is not None
    state = stored.state_of(row)
    mail = assemble(read_mail(lines, state.game_map, investor).lines, investor)
    for read in mail.at_once:
        state = _at_once(talk, game, row, state, investor, read)
    sheet_lines = sorted([r for p in mail.parts for r in p.reads] + [p.opening for p in mail.parts if p.opening]
                         + mail.unread + mail.closings, key=lambda r: r.index)
    if not any(r.value is not None or r.error is not None for r in sheet_lines):
        for read in sheet_lines:  # FOR lines of blocks holding only what acts at once: no sheet
            talk.mark(read.index, message=_understood(read, state, investor))
        return
    phase = phase_name(state)
    earlier = api.latest_accepted(talk.session, game, phase, investor, stored.SHEET)
    if why := talk.superseded(earlier, _("your sheet")):
        talk.set_aside([(r.index, r.text) for r in sheet_lines], why)
        return
    errors = problems(mail, state, investor)
    if errors:
        _refuse(talk, game, phase, investor, sheet_lines, errors)
    else:
        _keep(talk, game, phase, investor, mail, state, sheet_lines)


def _refuse(talk: Turn, game: Game, phase: str, investor: str, sheet_lines: list[Read],
            errors: dict[int, tuple[str, str]]) -> None:
    """A sheet with a bad line is refused whole (ruling 8, E29): each bad line answered with its
    reasons, the others as not applied, and the investor told which sheet stands."""
    for read in sheet_lines:
        if read.index in errors:
            why, code = errors[read.index]
            talk.mark(read.index, "error", why, code=code)
        else:
            talk.mark(read.index, "ignored", refused_whole(), code="SHEET_REFUSED")
    standing = stored.sheets(talk.session, game, phase).get(investor)
    if standing:
        said = ngettext("sheet REFUSED ({count} bad line); your sheet for {phase} stands as before ({parts})",
                        "sheet REFUSED ({count} bad lines); your sheet for {phase} stands as before ({parts})",
                        len(errors), phase=phase, parts=_parts_in_words(standing))
    else:
        said = ngettext("sheet REFUSED ({count} bad line); you have no sheet for {phase}",
                        "sheet REFUSED ({count} bad lines); you have no sheet for {phase}", len(errors), phase=phase)
    talk.note(sheet_lines[-1].index, [said])


def _keep(talk: Turn, game: Game, phase: str, investor: str, mail: Assembled, state: ExchangeState,
          sheet_lines: list[Read]) -> None:
    """A sheet with no bad line is kept, replacing the one standing part by part (2.1), and each
    line is answered with what the judge read it as."""
    read_as = _read_as(mail, state, investor)
    for read in sheet_lines:
        talk.mark(read.index, message=read_as.get(read.index) or _understood(read, state, investor))
    new = stored.Parts([r.text for r in mail.parts[0].reads],
                       {p.corporation: [r.text for r in p.reads] for p in mail.parts[1:] if p.corporation and p.reads})
    before = stored.sheets(talk.session, game, phase).get(investor, stored.Parts())
    standing = before.merged(new)
    stored.keep_sheet(talk.session, game, phase, investor, standing, talk.now, talk.accepted)
    talk.note(sheet_lines[-1].index, [_("sheet accepted for {phase}; your sheet now: {parts} (a later sheet replaces "
                                        "it part by part, 2.1)", phase=phase, parts=_parts_in_words(standing))])


def _parts_in_words(parts: stored.Parts) -> str:
    said = [_("your own lines ({count})", count=len(parts.own))] if parts.own else []
    said += [f"FOR {c} ({len(lines)})" for c, lines in parts.blocks.items()]
    return ", ".join(said) or _("nothing")


def _read_as(mail: Assembled, state: ExchangeState, author: str) -> dict[int, str]:
    """What each good offer and order of a mail was read as (by echo index), for the reply."""
    found: dict[int, str] = {}
    for part in mail.parts:
        if part.offers:
            offers = offers_of(part, part.corporation or author, state)
            found |= {part.offers[offer.line - 1].index: views.describe_offer(offer) for offer in offers.offers}
        for read in part.orders:
            order = _order(read.text, state.position)
            if not isinstance(order, str):
                found[read.index] = _("read as: {order}", order=check_order(state.position, part.corporation,
                                                                            order).order)
    return found


def _understood(read: Read, state: ExchangeState, author: str) -> str:
    """What a good line was read as, for the reply."""
    value = read.value
    if read.opens_block:
        return _("the block of {corporation}, which you write as its CEO (2.1)",
                 corporation=views.title(read.part or ""))
    if read.closes_block:
        return _("the end of the block of {corporation}", corporation=views.title(read.part)) if read.part else \
            _("the end of the block")
    if isinstance(value, OfferText):
        return _("a savings request or a comment (rule 3.4)")
    assert value is not None and not isinstance(value, OrderText | TransferTo | AcceptText | LedgerAsk)
    return views.describe(value, author, read.part)


def problems(mail: Assembled, state: ExchangeState, author: str) -> dict[int, tuple[str, str]]:
    """Every bad line of a mail's sheet (by echo index), with its reasons in words and the first as a name
    (`Echo.code`: a `Refusal`'s name, or BAD_OFFER, SYNTAX, ILLEGAL_ORDER, ...): see the module's header."""
    found: dict[int, list[tuple[str, str]]] = {}

    def bad(read: Read, why: str, code: str) -> None:
        found.setdefault(read.index, []).append((why, code))

    for read in mail.unread:
        bad(read, read.error or "", "SYNTAX")
    for problem in check(mail.sheet, state):
        if problem.corporation is None and problem.place is None:  # the author is no investor of the game
            for part in mail.parts:
                for read in part.reads:
                    bad(read, refusal_words(problem.reason), problem.reason.name)
            continue
        part = _part(mail, problem.corporation, problem.place, problem.reason)
        if problem.place is None:
            assert part.opening is not None
            bad(part.opening, refusal_words(problem.reason), problem.reason.name)
            for read in part.reads:
                bad(read, _("in a block refused whole: {reason}", reason=refusal_words(problem.reason)),
                    problem.reason.name)
        else:
            bad(part.lines[problem.place][0], refusal_words(problem.reason), problem.reason.name)
    now = step(state)
    for part in mail.parts:
        _offer_problems(part, state, author, now, bad)
        _order_problems(part, state, now, bad)
    return {index: ("; ".join(dict.fromkeys(why for why, _code in reasons)), reasons[0][1])
            for index, reasons in found.items()}


def refused_words(reason: Refused) -> str:
    """Why a transfer or an acceptance list is refused, in words (`Refused`)."""
    words = {
        Refused.NOT_AN_INVESTOR: lambda: _("only an investor in the game may transfer (E5, E21)"),
        Refused.NO_SUCH_RECEIVER: lambda: _("money goes to an investor in the game or to a corporation not "
                                            "liquidated (E5)"),
        Refused.TO_ONESELF: lambda: _("a transfer goes to someone else"),
        Refused.NOT_POSITIVE: lambda: _("a transfer is of at least 1 AgP"),
        Refused.ABOVE_BALANCE: lambda: _("a transfer is at most the sender's balance (E33)"),
        Refused.GAME_OVER: lambda: _("the game is over"),
        Refused.NOT_THE_CEO: lambda: _("only the corporation's CEO may set its acceptance list (X.5.1)")}
    return words[reason]()


def refusal_words(reason: Refusal) -> str:
    """Why a line is refused, in words (`Refusal`)."""
    return {
        Refusal.NOT_AN_INVESTOR: _("the sender is not an investor in this game"),
        Refusal.NOT_THE_CEO: _("only the corporation's CEO may write for it (2.1, E21, E24)"),
        Refusal.NO_SUCH_CORPORATION: _("there is no such corporation"),
        Refusal.LIQUIDATED: _("the corporation has been liquidated (E31)"),
        Refusal.NO_SUCH_INVESTOR: _("there is no such investor in this game (E1)"),
        Refusal.NOT_NOW: _("not in this phase (2.2, X.8.2)"),
        Refusal.FOR_A_CORPORATION: _("a corporation's line: it belongs in the corporation's FOR block (2.2)"),
        Refusal.FOR_AN_INVESTOR: _("an investor's own line: it belongs before any FOR (2.2)"),
        Refusal.ANOTHER_CORPORATION: _("a corporation trades only its own shares, never another's (E12)"),
        Refusal.PRICE_BELOW_ONE: _("a price is at least 1 AgP (E8)"),
        Refusal.NO_SHARES: _("a number of shares is at least 1 (E8, E10, E11)"),
        Refusal.NEGATIVE: _("amounts are whole and never negative (X.2.1)"),
        Refusal.WITH_ONESELF: _("a deal or gift is with another investor (E10)"),
        Refusal.TWICE: _("said twice in one part of the sheet"),
        Refusal.DIVIDEND_ABOVE_LIMIT: _("a dividend is at most floor(treasury / issued shares) AgP a share (E23)"),
        Refusal.NOTHING_OUTSTANDING: _("a corporation with no outstanding shares cannot issue (E11)"),
        Refusal.WORTH_MISSING: _("the worths must name every center the corporation owns (E22)"),
        Refusal.WORTH_NOT_OWNED: _("the worths name a center the corporation does not own (E22)"),
        Refusal.WORTH_TWICE: _("the worths name a center twice (E22)"),
        Refusal.WORTH_TOTAL: _("the worths must add up to exactly I(n) for the n centers owned (E22)"),
        Refusal.WORTH_ZEROSUM: _("under ZEROSUM no center pays income, so there is no worth to set (6.7)"),
    }[reason]


def _part(mail: Assembled, corporation: str | None, place: int | None, reason: Refusal) -> Part:
    """The part a problem of the core's check is about: the author's own, or the block it names
    (the second of two blocks for one corporation, when the problem is that)."""
    if corporation is None:
        return mail.parts[0]
    blocks = [p for p in mail.parts[1:] if p.corporation == corporation]
    if place is None and reason is Refusal.TWICE:
        return blocks[-1]
    return blocks[0]


def _offer_problems(part: Part, state: ExchangeState, author: str, now: Step, bad: _Bad) -> None:
    """Offers (rules 3 and 5): only in a movement phase, each part read as its offerer's sheet."""
    if not part.offers:
        return
    if now is not Step.MOVEMENT:
        for read in part.offers:
            bad(read, _("offers are made in a movement phase (2.2)"), "NOT_MOVEMENT")
        return
    _offers, errors = parse_sheet("\n".join(r.text for r in part.offers), state.position, part.corporation or author,
                            state.options.payola)
    for error in errors:
        bad(part.offers[error.line - 1], error.error, "BAD_OFFER")


def _order_problems(part: Part, state: ExchangeState, now: Step, bad: _Bad) -> None:
    """Retreats and adjustments: in a corporation's block, in their phase, each legal for it, one
    order per unit (rule 1.2 item 5, X.5.1)."""
    if not part.orders:
        return
    if now not in (Step.RETREAT, Step.ADJUSTMENT):
        why = (_("not an Exchange line: HELP stock lists them (2.2)") if now is Step.EXCHANGE else
               _("units are bribed with offers in a movement phase, not ordered (X.5.1)"))
        for read in part.orders:
            bad(read, why, Refusal.NOT_NOW.name)
        return
    if part.corporation is None:
        for read in part.orders:
            bad(read, _("a corporation's retreats and adjustments are given in its FOR block, by its CEO (2.2)"),
                Refusal.FOR_A_CORPORATION.name)
        return
    given: dict[str, Order] = {}
    for read in part.orders:
        order = _order(read.text, state.position)
        if isinstance(order, str):
            bad(read, order, "SYNTAX")
            continue
        verdict = check_order(state.position, part.corporation, order)
        if verdict.illegal is not None:
            bad(read, verdict.illegal.value, "ILLEGAL_ORDER")
            continue
        if not isinstance(order, Waive):
            province = order.unit.province
            if province in given:
                bad(read, _("{unit} already has an order in this block ({order}): one order per unit, one unit per "
                            "province", unit=str(order.unit), order=str(given[province])), "ORDERED_TWICE")
            given[province] = verdict.order


def _order(text: str, position: Position) -> Order | str:
    try:
        return parse_order(text, position.game_map, position.phase.kind)
    except OrderSyntaxError as exc:
        return str(exc)


# -- what acts at once -------------------------------------------------------------------------------


def _at_once(talk: Turn, game: Game, row: PhaseRow, state: ExchangeState, investor: str,
             read: Read) -> ExchangeState:
    """A TRANSFER, an ACCEPT or a LEDGER, acted on when it comes; the state after it."""
    value = read.value
    if isinstance(value, TransferTo):
        if read.part is not None:
            talk.mark(read.index, "error", _("a corporation never transfers money: its money moves only as E5 says "
                                             "(E5, E21)"), code="CORPORATION_TRANSFERS")
            return state
        return _transfer(talk, game, row, state, investor, read.index, value)
    if isinstance(value, AcceptText):
        if read.part is None:
            talk.mark(read.index, "error", _("an acceptance list is a corporation's: write ACCEPT in its FOR block, "
                                             "as its CEO (X.5.1, E26)"), code="FOR_A_CORPORATION")
            return state
        try:
            listed = parse_acceptance(value.text, state.game_map.letters)
            state = set_acceptance(state, read.part, investor, listed)
        except AccountError as exc:
            talk.mark(read.index, "error", refused_words(exc.reason), code="BAD_LIST")
            return state
        except AcceptanceError as exc:
            talk.mark(read.index, "error", str(exc), code="BAD_LIST")
            return state
        stored.save(row, state)
        talk.mark(read.index, message=_("{corporation}'s acceptance list is now {listed}; investors rank after every "
                                        "corporation in it, in the investor order (E26)",
                                        corporation=views.title(read.part), listed=str(listed)))
        return state
    assert isinstance(value, LedgerAsk)
    try:
        view = ceo_view(state, value.corporation, investor)
    except ViewRefused:
        talk.mark(read.index, "error", _("only {corporation}'s CEO may see its records (E24, E38, E40)",
                                         corporation=views.title(value.corporation)), code="NOT_THE_CEO")
        return state
    talk.mark(read.index, message=_("{corporation}'s records follow (E24)", corporation=views.title(value.corporation)))
    talk.note(read.index, views.ceo_lines(view))
    return state


def _transfer(talk: Turn, game: Game, row: PhaseRow, state: ExchangeState, investor: str, index: int,
              value: TransferTo) -> ExchangeState:
    """E5: money to an investor or a corporation, at once; the receiver, an investor, is told."""
    try:
        after, done = transfer(state, investor, value.receiver, value.amount)
    except AccountError as exc:
        talk.mark(index, "error", refused_words(exc.reason), code="BAD_TRANSFER")
        return state
    stored.save(row, after, done._asdict())
    balance = after.purses[investor]
    if value.receiver in state.corporations:
        talk.mark(index, message=_("{amount} AgP sent to {corporation} as a donation (E5); your balance is "
                                   "{balance} AgP", amount=value.amount, corporation=views.title(value.receiver),
                                   balance=balance))
    else:
        talk.mark(index, message=_("{amount} AgP sent to {investor}; your balance is {balance} AgP",
                                   amount=value.amount, investor=value.receiver, balance=balance))
    player = stored.played(talk.session, game).get(value.receiver)
    if player is not None:
        assert player.address is not None
        with writing_to(talk.session, talk.settings, player.address, game):
            talk.send(to=player.address, subject=_("{game} transfer received", game=game.name), kind="transfer",
                      game_id=game.id, body=render("exchange/transfer", game=game, sender=investor,
                                                   amount=value.amount, balance=after.purses[value.receiver],
                                                   when=when(talk.now)))
    return after


# -- a kept sheet, read back -------------------------------------------------------------------------


def sheet_of(parts: stored.Parts, game_map: GameMap, author: str) -> Assembled:
    """A kept sheet read back as it was read when it came (its lines were all good then)."""
    lines = list(parts.own)
    for corporation, block in parts.blocks.items():
        lines += [f"FOR {corporation}", *block, "END"]
    return assemble(read_mail(list(enumerate(lines)), game_map, author).lines, author)


def offers_of(part: Part, power: str, state: ExchangeState) -> OfferSheet:
    """The offer sheet of a part, its offerer ``power`` (an empty one if it has none, or no longer
    reads: the position is the one it was read on, so it does)."""
    if not part.offers:
        return OfferSheet()
    sheet, errors = parse_sheet("\n".join(r.text for r in part.offers), state.position, power,
                                state.options.payola)
    return OfferSheet() if errors else sheet


def orders_of(part: Part, state: ExchangeState) -> list[Order]:
    """The orders of a block, as the engine reads them."""
    return [order for read in part.orders if not isinstance(order := _order(read.text, state.position), str)]
