"""Every mail an Exchange game sends when a phase closes, at its start and at its end, each made
of the core's views for its reader alone (X.11, E36-E41).

Theory of operation.  Closing a phase gives a `Done` (the state before and after, the core's
record of the phase and of the Income step if one followed, the sheets and the transfers of the
phase).  From it:

- the *public* results (E36), the same for every reader: after an Exchange phase the investor
  order and each corporation's CEO for the year and its shares; after a phase on the board the
  orders issued and their results, the units and centers, each corporation named with its CEO;
  with a map of the board, the corporations coloured as the powers, each one's CEO named in the
  legend (`judge.render`);
- each investor's own sections, from the views for that investor alone: their statement (E39:
  balance, every change, holdings, what became of each of their lines), the annual report of
  each corporation they hold shares of (E37: treasury, stockholders' names, dividend, the
  election's tally), and for each corporation they are CEO of its statement after a movement
  phase and the worths set (E38), its income (E27), and on taking office its complete records
  (E24);
- the game master's chart: everything (`judge.games.exchange.views.exchange_chart`, ...), which no
  investor receives before the end, and which is published at the end (E41).

Each investor someone plays receives one mail a phase (the public results, their own sections,
what they may send next and the deadline), each observer the public results, the game master
the chart.  At the end every player, observer and the game master receive the publication
(`publication`): the ranking (E35), every phase's chart round by round (every sheet, every
line's outcome, the share register after each Exchange phase), and every corporation's ledger.
"""

from __future__ import annotations

import logging
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, Literal, overload

from sqlalchemy.orm import Session

from judge import api
from judge.api import Attachment, Closing, Drawn, Game, Role, Settings, by_language, queue, render, writing_to
from judge.engine.position import Position, Season
from judge.engine.results import OrderResult
from judge.games.exchange import stored, views
from judge.games.exchange.core.income import standard_income
from judge.games.exchange.core.phases import Step, expected, step
from judge.games.exchange.core.record import ExchangeRecord
from judge.games.exchange.core.scoring import ranking
from judge.games.exchange.core.state import ExchangeState, Stage
from judge.games.exchange.core.views import (
    Adjustment,
    adjustments,
    annual_report,
    ceo_view,
    corporate_statement,
    corporation_facts,
    exchange_statement,
    offers_statement,
    public_board,
    public_exchange,
    report_readers,
)
from judge.games.exchange.core.year import IncomeRecord, MovementRecord, OrdersRecord
from judge.language import gettext as _
from judge.language import in_reader_language, ngettext, reading

log = logging.getLogger("judge")
title = views.title
Section = tuple[str, list[str]]
"""A mail's section: its heading and its lines."""


@dataclass
class Done:
    """What closing a phase did: the state before and after it (after the Income step, if one
    followed), the core's record of it, the sheets standing at its deadline (as written, by
    investor), the Income step's record, and the transfers made while it was open."""

    before: ExchangeState
    after: ExchangeState
    record: ExchangeRecord | MovementRecord | OrdersRecord
    sheets: dict[str, str]
    income: IncomeRecord | None = None
    transfers: list[dict[str, Any]] = field(default_factory=list)

    @property
    def phase(self) -> str:
        return self.record.phase


# -- what everyone reads (E36) ------------------------------------------------------------------------


def public_lines(done: Done) -> list[str]:
    """The public results of a phase: what every investor and observer reads (E36, E19)."""
    after = done.after
    year = after.position.phase.year
    position = after.position
    if isinstance(done.record, ExchangeRecord):  # the board too, that the results say all the next phase needs
        return [*views.public_exchange_lines(public_exchange(after, done.record), year), "",
                _("The board as it stands (units, then supply centers):"),
                *views.board_lines(((str(p.unit), p.power) for p in position.units.values()),
                                   sorted(position.centers.items()), after.ceos, position.game_map.supply_centers)]
    lines = views.public_board_lines(public_board(after, done.record), after.ceos, position.game_map.supply_centers)
    if done.income is not None:
        over = _("The fiscal year {year} is over: the bribes their units took and the captures' money are settled "
                 "(ZEROSUM, 6.7), then comes the Exchange phase.", year=year - 1) if after.options.payola.zerosum \
            else _("The fiscal year {year} is over: the corporations' income is paid (E27), then comes the Exchange "
                   "phase.", year=year - 1)
        lines += ["", *textwrap.wrap(over, views.WIDTH), *views.facts_lines(corporation_facts(after), None)]
    return lines


def captions(state: ExchangeState) -> dict[str, str]:
    """Each corporation's line in the map's legend: its CEO, leaderless, or liquidated (E36), in the
    reader's language."""
    return {c: _("liquidated") if c in state.liquidated else _("CEO {ceo}", ceo=state.ceos[c]) if c in state.ceos
            else _("leaderless") for c in state.corporations}


# -- what each investor reads alone (E37-E39) ---------------------------------------------------------


def own_sections(done: Done, investor: str) -> list[Section]:
    """What ``investor`` alone is told of a phase (see the module's header)."""
    after = done.after
    sections: list[Section] = []
    moved = _transfers_of(done.transfers, investor, after.corporations)
    record = done.record
    if isinstance(record, ExchangeRecord):
        if investor in after.order:
            sections.append((_("Your statement (E39)"), views.statement_lines(
                exchange_statement(after, record, investor), moved)))
        for corporation in after.corporations:
            if investor in report_readers(record, corporation):
                sections.append((_("The annual report of {corporation} to its stockholders (E37)",
                                   corporation=title(corporation)),
                                 views.report_lines(annual_report(record, corporation, investor))))
        for handover in record.handovers:
            if handover.ceo == investor:
                sections.append((_("You are {corporation}'s CEO for {year}: its records (E24, E38)",
                                   corporation=title(handover.corporation), year=after.position.phase.year),
                                 views.ceo_lines(ceo_view(after, handover.corporation, investor))))
        return sections
    if isinstance(record, MovementRecord):
        if investor in after.order:  # its shares too, that each results mail says all it owns
            sections.append((_("Your private offers (E39, rule 5.7)"), [
                *views.offers_lines(offers_statement(record, investor)),
                *views.holdings_lines(sorted(after.register.portfolio(investor).items()))]))
        for corporation in after.corporations:
            if after.ceos.get(corporation) != investor:
                continue
            lines = views.corporate_statement_lines(corporate_statement(after, record, corporation, investor))
            worths = record.worths.get(corporation)
            if worths:
                lines += views.wrap(_("its worths for the year (E22): {worths}", worths=views.worths_text(worths)))
            sections.append((_("{corporation}'s statement, for its CEO (E38, rule 5.7)",
                               corporation=title(corporation)), lines))
    if moved:
        sections.append((_("Your transfers while the phase was open (E5)"), [f"  {line}" for line in moved]))
    if done.income is not None:
        for income in done.income.incomes:
            if after.ceos.get(income.corporation) == investor:
                sections.append((_("{corporation}'s income, for its CEO (E27)", corporation=title(income.corporation)),
                                 views.income_lines(income, after.treasuries[income.corporation])))
    return sections


def _transfers_of(transfers: Sequence[dict[str, Any]], investor: str, corporations: Sequence[str]) -> list[str]:
    """The transfers of a phase that moved ``investor``'s money, in words (E39)."""
    lines = []
    for done in transfers:
        if done["sender"] == investor:
            to = done["receiver"]
            lines.append(_("-{amount} AgP to {corporation} (a donation, E5)", amount=done["amount"],
                           corporation=title(to)) if to in corporations else
                         _("-{amount} AgP to {investor}", amount=done["amount"], investor=to))
        elif done["receiver"] == investor:
            lines.append(_("+{amount} AgP from {investor}", amount=done["amount"], investor=done["sender"]))
    return lines


def todo(state: ExchangeState, investor: str) -> list[str]:
    """What ``investor`` may send in the step ``state`` is at, in words (E20, E29, 2.2), wrapped."""
    return [wrapped for line in _todo(state, investor)
            for wrapped in textwrap.wrap(line, views.WIDTH, subsequent_indent="  ", break_on_hyphens=False)]


def _todo(state: ExchangeState, investor: str) -> list[str]:
    if investor not in state.order:
        return []
    now = step(state)
    ruled = [c for c in state.corporations if state.ceos.get(c) == investor]
    if now is Step.EXCHANGE:
        lines = [_("Send your Exchange sheet (E29): PRIORITY, BID, SELL, SELL ... TO, BUY ... FROM, GIVE, APPROVE, "
                   "ELECT or just PASS; a bad line refuses the whole sheet, and your last good sheet stands.")]
        lines += [_("As {corporation}'s CEO: FOR {code} / DIVIDEND k / SELL n AT p / ISSUE n AT p / BID n AT p / END "
                    "(dividend at most {amount} AgP a share).", corporation=title(c), code=c,
                    amount=state.treasuries[c] // max(1, state.register.issued.get(c, 1)))
                  for c in ruled]
        return lines
    if now is Step.MOVEMENT:
        lines = [_("Private offers of your own are optional (at least 1 AgP each, E25): the judge does not wait for "
                   "them.")]
        spring = state.position.phase.season is Season.SPRING
        for corporation in ruled:
            owned = sorted(state.position.centers_of(corporation))
            block = _("FOR {code} / offers / END", code=corporation)
            if spring and owned and not state.options.payola.zerosum:
                total = standard_income(len(owned), state.game_map.victory_centers, state.options.payola)
                lines.append(_("As {corporation}'s CEO, send its offer sheet: {block} (the judge waits for it, E20); "
                               "in Spring also WORTH for its centers {centers}, adding up to {amount} AgP (E22), or "
                               "the defaults apply.", corporation=title(corporation), block=block,
                               centers=" ".join(owned), amount=total))
            else:
                lines.append(_("As {corporation}'s CEO, send its offer sheet: {block} (the judge waits for it, E20).",
                               corporation=title(corporation), block=block))
        return lines
    if now in (Step.RETREAT, Step.ADJUSTMENT):
        acting = {e.corporation for e in expected(state) if e.investor == investor}
        if now is Step.RETREAT:
            return [_("As {corporation}'s CEO, send its retreats: {block} (without them, civil disorder, E20).",
                      corporation=title(c), block=_("FOR {code} / orders / END", code=c)) for c in ruled if c in acting]
        due = {a.corporation: a for a in adjustments(state.position)}
        return [_adjustment_todo(due[c], _("FOR {code} / orders / END", code=c))
                for c in ruled if c in acting and c in due]
    return []


def _adjustment_todo(due: Adjustment, block: str) -> str:
    """What a CEO sends for a corporation's adjustments: ``... send its 1 build (BUILD, or WAIVE; it may
    build in: PAR): FOR FRANCE / orders / END ...``, ``... its 2 removals (REMOVE) ...``."""
    corporation = title(due.corporation)
    if due.due < 0:
        return ngettext("As {corporation}'s CEO, send its {count} removal (REMOVE): {block} (without them, civil "
                        "disorder, E20).",
                        "As {corporation}'s CEO, send its {count} removals (REMOVE): {block} (without them, civil "
                        "disorder, E20).", -due.due, corporation=corporation, block=block)
    if due.free_homes:
        return ngettext("As {corporation}'s CEO, send its {count} build (BUILD, or WAIVE; it may build in: {areas}): "
                        "{block} (without them, civil disorder, E20).",
                        "As {corporation}'s CEO, send its {count} builds (BUILD, or WAIVE; it may build in: {areas}): "
                        "{block} (without them, civil disorder, E20).", due.due, corporation=corporation,
                        areas=" ".join(due.free_homes), block=block)
    return ngettext("As {corporation}'s CEO, send its {count} build (BUILD, or WAIVE; it has no free home center): "
                    "{block} (without them, civil disorder, E20).",
                    "As {corporation}'s CEO, send its {count} builds (BUILD, or WAIVE; it has no free home center): "
                    "{block} (without them, civil disorder, E20).", due.due, corporation=corporation, block=block)


# -- the mails ---------------------------------------------------------------------------------------


def results(session: Session, game: Game, settings: Settings, now: datetime, done: Done, next_phase: str | None,
            closing: Closing) -> None:
    """Every reader's mail of a phase closed, each written in its reader's language: each investor's,
    the observers' (one text per language), the game master's chart."""
    phase = done.phase
    pictures = _maps(game.name, done) if settings.maps else []
    after = done.after
    deadline = game.deadline if next_phase else None
    for investor, player in stored.played(session, game).items():
        assert player.address is not None
        with writing_to(session, settings, player.address, game):
            body = render("exchange/results", game=game, phase=phase, next_phase=next_phase, preface=closing.preface,
                          public=public_lines(done), sections=own_sections(done, investor),
                          todo=todo(after, investor) if next_phase else [], deadline=deadline)
            queue(session, settings, to=player.address, subject=closing.subject(game.name, phase), body=body,
                  kind="results", now=now, game_id=game.id, attachments=pictures,
                  opens=investor if next_phase else None)
    for language, readers in by_language(session, settings, game, api.observers(session, game)).items():
        with reading(language):
            body = render("exchange/results", game=game, phase=phase, next_phase=next_phase, preface=closing.preface,
                          public=public_lines(done), sections=[], todo=[], deadline=deadline)
            subject = closing.subject(game.name, phase)
            for observer in readers:
                queue(session, settings, to=observer, subject=subject, body=body, kind="results",
                      now=now, game_id=game.id, attachments=pictures)
    with writing_to(session, settings, game.gm_address, game):
        body = render("exchange/chart", game=game, phase=phase, lines=chart_lines(done), preface=closing.preface,
                      deadline=deadline)
        queue(session, settings, to=game.gm_address, subject=_("{game} {phase} chart", game=game.name, phase=phase),
              body=body, kind="chart", now=now, game_id=game.id, attachments=pictures)


def chart_lines(done: Done) -> list[str]:
    """The game master's chart of a phase: everything it did (published at the end, E41)."""
    if isinstance(done.record, ExchangeRecord):
        lines = views.exchange_chart(done.record, done.after, done.sheets)
    else:
        lines = views.board_chart(done.record, done.after, done.sheets)
    if done.transfers:
        lines += [_("Transfers while it was open (E5):"),
                  *("  " + _("{sender} to {receiver}: {amount} AgP", sender=t["sender"], receiver=t["receiver"],
                             amount=t["amount"]) for t in done.transfers)]
    if done.income is not None:
        lines += views.income_chart(done.income, done.after)
    return lines


def start_mails(session: Session, game: Game, settings: Settings, now: datetime, state: ExchangeState) -> None:
    """The start: every investor is told the game, the investor order (E30, E36), their money, and
    what to send in the first Exchange phase; the game master the same; observers that it started.
    Each mail is written in its reader's language."""
    board = position_map(game.name, state.position, state, role="board") if settings.maps else []
    for investor, player in stored.played(session, game).items():
        assert player.address is not None
        with writing_to(session, settings, player.address, game):
            queue(session, settings, to=player.address, subject=_("{game} starts", game=game.name), kind="start",
                  now=now, game_id=game.id, attachments=board, opens=investor,
                  body=render("exchange/start", game=game, investor=investor, state=state,
                              facts=views.facts_lines(corporation_facts(state), None), todo=todo(state, investor),
                              deadline=game.deadline))
    with writing_to(session, settings, game.gm_address, game):
        queue(session, settings, to=game.gm_address, subject=_("{game} starts", game=game.name), kind="start",
              now=now, game_id=game.id, attachments=board,
              body=render("exchange/start", game=game, investor=None, state=state,
                          facts=views.facts_lines(corporation_facts(state), None), todo=[], deadline=game.deadline))
    for language, readers in by_language(session, settings, game, api.observers(session, game)).items():
        with reading(language):
            subject = _("{game} starts", game=game.name)
            body = render("exchange/start", game=game, investor=None, state=state,
                          facts=views.facts_lines(corporation_facts(state), None), todo=[], deadline=game.deadline)
            for observer in readers:
                queue(session, settings, to=observer, subject=subject, kind="start", now=now, game_id=game.id,
                      body=body)


def published_lines(session: Session, game: Game, state: ExchangeState) -> list[str]:
    """The publication of an ended game (E41), as lines: the ranking, each phase's chart, the ledgers."""
    lines = views.ranking_lines(ranking(state), state.result) if state.stage is Stage.ENDED else []
    for row in api.processed_phases(session, game):
        chart = in_reader_language((row.result or {}).get("chart"))
        if chart:
            lines += ["", f"=== {row.name} ===", *chart]
    lines += ["", "=== " + _("Every corporation's ledger (E24, E41)") + " ==="]
    for corporation in state.corporations:
        ledger = state.ledger(corporation)
        lines += [f"{title(corporation)}:", *(views.ledger_line(line) for line in ledger)] if ledger else []
    return lines


# -- maps --------------------------------------------------------------------------------------------


def _maps(game: str, done: Done) -> Sequence[Attachment | Drawn]:
    """The phase's maps: on the board, its orders as drawn and the board after (PNG, and SVG for any
    size); after an Exchange phase, the board with the new CEOs in the legend.  Each is marked with its
    role, for the host to keep those each reader chose (SET MAPS)."""
    after = done.after
    if not isinstance(done.record, ExchangeRecord):
        return _phase_maps(game, done.before.position, done.record.result.results, after.position, after)
    return position_map(game, after.position, after, role="board")


def _phase_maps(game: str, before: Position, results: Sequence[OrderResult], after: Position,
                state: ExchangeState) -> list[Attachment | Drawn]:
    """Drawn once the phase's change is committed (`Drawn`); the orders as SVG a spare, drawn only for a
    reader who wants them so (SET MAPS SVG)."""
    if _png_unavailable():
        return []
    from judge.render import render_svg
    from judge.render.png import render_png

    phase, following = str(before.phase), str(after.phase)
    ordered = tuple(results)
    # The captions are words of the legend: written when drawn, in the language each picture is drawn in.
    return [Drawn(f"{game}-{phase}-orders.png", "image/png",
                  lambda: render_png(before, ordered, title=f"{game} {phase}", captions=captions(state)),
                  role="orders"),
            Drawn(f"{game}-{following}.png", "image/png",
                  lambda: render_png(after, title=f"{game} {following}", captions=captions(state)), role="board"),
            Drawn(f"{game}-{following}.svg", "image/svg+xml",
                  lambda: render_svg(after, title=f"{game} {following}", captions=captions(state)).encode(),
                  role="board"),
            Drawn(f"{game}-{phase}-orders.svg", "image/svg+xml",
                  lambda: render_svg(before, ordered, title=f"{game} {phase}", captions=captions(state)).encode(),
                  role="orders", spare=True)]


@overload
def position_map(game: str, position: Position, state: ExchangeState, role: Literal[""] = "") -> list[Attachment]: ...


@overload
def position_map(game: str, position: Position, state: ExchangeState, *, role: Literal["board"]) -> list[Drawn]: ...


def position_map(game: str, position: Position, state: ExchangeState,
                 role: Role = "") -> list[Attachment] | list[Drawn]:
    """The board, each corporation's CEO in its legend: for MAP (no ``role``: asked for, every reader
    gets it, drawn now in the answer's language), and as a mail's board (``role="board"``: kept for the
    readers who chose it, drawn once the change is committed in each reader's language, `Drawn`)."""
    if _png_unavailable():
        return []
    from judge.render.png import render_png

    phase = str(position.phase)
    if role:
        return [Drawn(f"{game}-{phase}.png", "image/png",
                      lambda: render_png(position, title=f"{game} {phase}", captions=captions(state)), role=role)]
    try:
        return [Attachment(f"{game}-{phase}.png", "image/png",
                           render_png(position, title=f"{game} {phase}", captions=captions(state)), role=role)]
    except Exception:
        log.exception("the map of %s could not be drawn", game)
        return []


@cache
def _png_unavailable() -> bool:
    """Whether no PNG can be drawn here (no Cairo library): mail then goes without maps."""
    try:
        import judge.render.png  # noqa: F401
    except (ImportError, OSError):
        log.warning("maps are off: the Cairo library cannot be loaded")
        return True
    return False
