"""The life of a Payola game: its start, the processing of its phases, draws and concessions,
rolling back and forward, and the end-of-game publication.  The host keeps what every game has
(state, seats, deadlines and the clock: `judge.service.hosting.host`); this is Payola's part of it.

Theory of operation.  A game's truth is in the store: the current phase row holds the
position the phase starts from; balances are sums of ledger rows; the submissions of the
phase hold each power's latest offer sheet or orders.  Processing a phase, inside one unit
of work:

1. movement: offer sheets → Payola order determination (or direct orders for loyal units,
   a unit given none holding: `loyal_orders`) → engine adjudication → payments in the ledger;
   retreat and adjustment: the powers' own orders (the engine's defaults for those who sent
   none) → engine adjudication;
2. the phase row records what happened (orders, results, the sheets and acceptance lists
   used, the GM's chart) and a ledger mark, so that ``ROLLBACK`` can restore everything (to
   the phase before, or to an earlier one named: `rollback`);
3. the next phase row is opened (income is paid before each Spring movement, rule 2.1), or
   the game finishes on a victory;
4. every mail this causes is queued in the same transaction.

A ROLLBACK brings back the ledger, the acceptance lists and the votes on the game's end of the
phase gone back to (`rolling_back`, `votes_back`) and keeps marks of them, so that ROLLFORWARD
refuses once a power has paid or changed its list since, or a vote changed
(`changed_since_rollback`); the rest of a ROLLBACK is the host's (`judge.service.hosting.course`).

A phase is *due* when the GM says PROCESS, when every power that must act has done so (the
host's WAIT holds it to its deadline, not through the grace period), or when its deadline plus the
grace period has passed.  One in which no power has anything to do is due as soon as it opens
and the clock's next tick processes it (`judge.service.hosting.schedule`), except in a Tin Cup game,
where that would tell what rule 6.3 hides (`complete`).  Each processing is logged with its game,
phase and cause once its transaction commits (`judge.service.logs.log_on_commit`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, select
from sqlalchemy.orm import Session

from judge import api
from judge.api import (
    GAME_FLAGS,
    RUNNING,
    Closing,
    Drawn,
    Game,
    GameError,
    GameState,
    PhaseChange,
    PhaseRow,
    Player,
    Publication,
    Settings,
    by_language,
    current_phase,
    duration,
    in_words,
    is_played,
    latest_submissions,
    latest_texts,
    log_on_commit,
    observers,
    open_phase,
    page_url,
    players,
    processed_phases,
    queue,
    render,
    seats,
    split_options,
    writing_to,
)
from judge.engine.legal import adjustment_count, retreat_options
from judge.engine.map import GameMap, load_map
from judge.engine.notation import (
    NotationError,
    position_from_data,
    position_to_data,
    power_name,
    result_to_data,
    results_from_data,
)
from judge.engine.orders import Hold, MovementOrder, Order, OrderSyntaxError, PhaseKind, parse_order
from judge.engine.phases import PhaseResult, adjudicate
from judge.engine.position import Position
from judge.engine.results import OrderResult
from judge.games.payola import maps, public, seating, views
from judge.games.payola.store import LedgerRow, PayolaPhase, lists_of, phase_of, seat_of, seats_of, votes_of
from judge.language import SOURCE, Wording, current, later, ngettext, nlater, reading, worded
from judge.language import gettext as _
from judge.payola.acceptance import AcceptanceError, AcceptanceList, parse_acceptance
from judge.payola.blind import Sight, witness
from judge.payola.determination import Determination, PowerInput, determine_orders
from judge.payola.notation import determination_to_data, statement_to_data
from judge.payola.offers import OfferSheet, PhaseReader, parse_sheet
from judge.payola.options import Options, parse_options
from judge.payola.treasury import income_due, pay_income, void_start, zerosum_start, zerosum_year_end
from judge.wording import power_title

log = logging.getLogger("judge")


def game_map(game: Game) -> GameMap:
    return load_map(game.variant)


def power_of(game: Game, text: str) -> str:
    """A power of the game's map from its name or initial (ValueError with a message if none)."""
    try:
        return power_name(game_map(game), text)
    except NotationError as exc:
        raise ValueError(str(exc)) from None


PAYOLA_FLAGS = ("NO_DRAW", "SHOW_VOTES")
"""Flags of a Payola game at CREATE beside the host's (`judge.service.options.GAME_FLAGS`): no draw
votes; everyone told how many vote for a draw (never who)."""


def own_flags(game: Game) -> list[str]:
    """The flags and ``ABSENCE_DAYS`` the game was created with, the host's and Payola's."""
    return split_options(game.options, (*PAYOLA_FLAGS, *GAME_FLAGS))[0]


def options_of(game: Game) -> Options:
    """The game's Payola options (rule 6); its service options are in `judge.service.options.rules_of`."""
    return parse_options(split_options(game.options, (*PAYOLA_FLAGS, *GAME_FLAGS))[1])


def draws_allowed(game: Game) -> bool:
    """Whether the game takes draw votes (not NO_DRAW)."""
    return "NO_DRAW" not in own_flags(game)


def shows_votes(game: Game) -> bool:
    """SHOW_VOTES: how many vote for a draw is told with the results (never who)."""
    return "SHOW_VOTES" in own_flags(game)


_LEDGER = cast(Table, LedgerRow.__table__).c
_BALANCES = (select(_LEDGER.power, func.sum(_LEDGER.amount)).where(_LEDGER.game_id == bindparam("game_id"))
             .group_by(_LEDGER.power))  # a Core statement: every sheet that saves reads it


def position_of(row: PhaseRow) -> Position:
    position, _unused = position_from_data(row.position)
    return position


def sight_now(session: Session, game: Game, power: str, row: PhaseRow | None = None) -> Sight:
    """What ``power`` sees of the position of phase ``row`` (by default the current one) in a
    Tin Cup game: what the results of the phase that led to it showed (its ``after``), or at the
    start of the game the position seen from its units and home centers.  The same at every
    edge: STATUS, MAP, the briefing, offers and orders."""
    row = row or current_phase(session, game)
    assert row is not None
    position = position_of(row)
    return witness(power, *_led_to(session, game, row, position), position)


def _led_to(session: Session, game: Game, row: PhaseRow,
            position: Position) -> tuple[Position, tuple[OrderResult, ...]]:
    """The position and results of the phase that led to ``row`` (whose position is
    ``position``); at the start of the game, ``position`` and no results."""
    last = session.scalar(select(PhaseRow).where(PhaseRow.game_id == game.id, PhaseRow.status == "processed",
                                                 PhaseRow.id < row.id).order_by(PhaseRow.id.desc()).limit(1))
    if last is None or not last.result or last.result["adjudication"].get("next_phase") != row.name:
        return position, ()
    before = position_of(last)
    return before, results_from_data(before, last.result["adjudication"]["results"])


def balances(session: Session, game: Game) -> dict[str, int]:
    """Each power's balance: the sum of its ledger rows."""
    found = dict.fromkeys(game_map(game).powers, 0)
    for power, total in session.execute(_BALANCES, {"game_id": game.id}):
        found[power] = int(total or 0)
    return found


def spring_positions(session: Session, game: Game) -> list[tuple[str, dict[str, Any]]]:
    """The name and starting position of each Spring movement phase, in order (what SUMMARY
    counts centers from), without reading the phases' results."""
    rows = session.execute(select(PhaseRow.name, PhaseRow.position).where(
        PhaseRow.game_id == game.id, PhaseRow.name.like("S%M")).order_by(PhaseRow.id))
    return [(name, position) for name, position in rows]


def results_mails(session: Session, game: Game) -> int:
    """How many mails the results of a phase of ``game`` are (`_mail_results`): one per played
    power and observer, and the game master's chart."""
    return sum(1 for player in seats(session, game).values() if is_played(player)) + len(
        observers(session, game)) + 1


def acceptance_of(written: str | None, letters: dict[str, str]) -> AcceptanceList | None:
    """A power's acceptance list as written (`store.lists_of`), read; None if it has none."""
    if not written:
        return None
    try:
        return parse_acceptance(written, letters)
    except AcceptanceError:
        return None


def required_powers(session: Session, game: Game, position: Position,
                    seat: dict[str, Player] | None = None) -> list[str]:
    """Powers that must act in this phase: played powers with something to order (rule 3.3)
    (``seat``: the game's `seats`, if the caller has them).  A power whose dislodged units all
    have nowhere to retreat has nothing to order: they are disbanded.  Not in a Tin Cup game,
    where only their owner knows where they may go: the others would learn it from a phase
    that ends at once, so the owner is waited for as any power with a dislodged unit."""
    if seat is None:
        seat = seats(session, game)
    kind = position.phase.kind
    blind = options_of(game).blind
    needed = []
    for power in position.game_map.powers:
        if not is_played(seat.get(power)):
            continue
        if kind is PhaseKind.MOVEMENT:
            eliminated = not position.centers_of(power) and not position.units_of(power)
            if not eliminated:
                needed.append(power)
        elif kind is PhaseKind.RETREAT:
            if any(d.power == power and (blind or retreat_options(position, province))
                   for province, d in position.dislodged.items()):
                needed.append(power)
        elif adjustment_count(position, power) < 0 or (adjustment_count(position, power) > 0
                                                         and free_home_centers(position, power)):
            needed.append(power)
    return needed


def free_home_centers(position: Position, power: str) -> list[str]:
    """The home centers a power owns and no unit stands in: where it may build."""
    return [c for c in position.game_map.powers[power].home_centers
            if position.centers.get(c) == power and c not in position.units]


NO_OFFER = "nooffer"
"""The submission that marks a power's offer sheet in force as one without an offer ("no offer";
empty once a sheet with one replaces it): kept, it is not a submission (rule 3.3, ruling 15)."""


def waiting_for(session: Session, game: Game, texts: dict[tuple[str, str], str] | None = None,
                position: Position | None = None, seat: dict[str, Player] | None = None) -> list[str]:
    """The powers that must act in the current phase and have not, or (LOYAL_UNITS) whose
    latest offer sheet was rejected (`submissions.keep_rejection`) (``texts``: the phase's
    `latest_texts`, ``position`` its position and ``seat`` the game's `seats`, if the caller
    has them)."""
    if game.state not in RUNNING or game.phase is None:
        return []
    if position is None:
        row = current_phase(session, game)
        if row is None:
            return []
        position = position_of(row)
    kind = "sheet" if position.phase.kind is PhaseKind.MOVEMENT else "orders"
    if texts is None:
        texts = latest_texts(session, game, game.phase)

    def submitted(power: str, what: str) -> bool:
        found = bool(texts.get((power, what), "").strip())  # CLEAR withdraws a submission
        return found and not (what == "sheet" and texts.get((power, NO_OFFER)))  # ruling 15

    needed = required_powers(session, game, position, seat)
    return [p for p in needed if (not submitted(p, kind) and not submitted(p, "orders")) or submitted(p, "rejected")]


def complete(session: Session, game: Game, position: Position | None = None,
             seat: dict[str, Player] | None = None) -> bool:
    """Every power that must act has done so: process now, unless a power asks to WAIT (the host's,
    `judge.service.hosting.host.closes_early`) (``position``: the current phase's, and ``seat``: the
    game's `seats`, if the caller has them).

    A phase in which no power has anything to do is complete as soon as
    it opens (`judge.games.GameKind.closes_at_next_tick`), except in a Tin Cup game: there it
    waits for its deadline, since its ending at once would tell every power that no other
    played power had a unit to retreat, a build to make or a unit to remove, which rule 6.3
    keeps to each power."""
    if position is None:
        row = current_phase(session, game)
        if row is None:
            return False
        position = position_of(row)
    if seat is None:
        seat = seats(session, game)
    if options_of(game).blind and not required_powers(session, game, position, seat):
        return False
    texts = latest_texts(session, game, game.phase) if game.phase else {}
    return not waiting_for(session, game, texts, position, seat)


def notice(session: Session, game: Game, row: PhaseRow, power: str, which: str, until: datetime,
           extended: datetime | None = None) -> str:
    """The reminder or late notice (``which``) to ``power``, which has not acted in phase ``row``
    (or, under LOYAL_UNITS, whose last offer sheet was rejected); ``extended``: the deadline an
    automatic extension would give the phase (ruling H3)."""
    texts = latest_texts(session, game, row.name)
    return render(f"payola/{which}", game=game, power=power, until=until, extended=extended,
                  movement=row.name.endswith("M"),
                  loyal=options_of(game).loyal_units, rejected=bool(texts.get((power, "rejected"))),
                  no_offer=bool(texts.get((power, "sheet"), "").strip() and texts.get((power, NO_OFFER))))


# -- starting ---------------------------------------------------------------------------------------


def start_game(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """Assign powers (`seating`: the players' wishes by a seeded draw, then at random), open the
    first phase, pay first income (the host then makes the game active)."""
    the_map = game_map(game)
    seated = players(session, game)
    if not seated:
        raise GameError(_("nobody has joined the game yet"), "NOBODY_JOINED")
    if len(seated) > len(the_map.powers):
        raise GameError(_("more players than powers"), "TOO_MANY_PLAYERS")
    why: dict[int, seating.Seat] = {}
    wishes = [player.preferences or ([player.requested] if player.requested else []) for player in seated]
    for player, seat in zip(seated, seating.assign(list(the_map.powers), wishes, game.seed), strict=True):
        api.assign_seat(player, seat.power)
        why[player.id] = seat  # its reason worded in the player's language (`seating.Seat.why`)
    free = [power for power in the_map.powers if power not in {player.seat for player in seated}]
    for power in free:
        session.add(Player(game_id=game.id, seat=power, dummy=True, joined_at=now))
    session.flush()
    position = Position.initial(the_map)
    _open_phase(session, game, position, now)
    _funds, entries = void_start({}, position, options_of(game))  # rule 6.2: powers with units and no center (Void)
    for entry in entries:
        session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind=entry.kind.value,
                              note=entry.note, phase=str(position.phase), created_at=now))
    session.flush()
    blind = options_of(game).blind
    whole = maps.position_map(game.name, position, role="board") if settings.maps else []
    grace = duration(game, "grace")
    common = {"game": game, "players": _roster(session, game), "deadline": game.deadline,
              "letters": "".join(info.letter for info in the_map.powers.values()),
              "loyal": options_of(game).loyal_units}

    def worded() -> dict[str, str | None]:  # in the language being written
        return {"board": views.board_summary(the_map), "grace": in_words(grace) if grace else None}

    for player in players(session, game):
        if is_played(player):
            assert player.address is not None and player.seat is not None
            attached = whole
            if blind and settings.maps:
                sight = sight_now(session, game, player.seat)
                attached = maps.position_map(game.name, sight.after, (player.seat, sight.view), role="board")
            with writing_to(session, settings, player.address, game):
                reason = why[player.id].why if player.id in why else ""
                queue(session, settings, to=player.address, subject=_("{game} starts", game=game.name), kind="start",
                      now=now, game_id=game.id, attachments=attached, opens=player.seat,
                      body=render("payola/start", **common, **worded(), power=player.seat,
                                  balance=balances(session, game)[player.seat], why=reason, blind=blind,
                                  acceptance=(seat_of(session, player).acceptance
                                              or f"{the_map.powers[player.seat].letter}?"),
                                  drawn=bool(attached)))
    with writing_to(session, settings, game.gm_address, game):
        queue(session, settings, to=game.gm_address, subject=_("{game} starts", game=game.name), kind="start", now=now,
              game_id=game.id, attachments=whole,
              body=render("payola/start", **common, **worded(), power=None, balance=None, why="", blind=False,
                          drawn=bool(whole)))
    watched = [] if blind else whole  # a Tin Cup game shows observers no position while it runs
    for language, readers in by_language(session, settings, game, observers(session, game)).items():
        with reading(language):  # what anyone watching the game may know of its start, one text a language
            body = render("payola/start", **common, **worded(), power=None, balance=None, why="", blind=blind,
                          drawn=bool(watched), observer=True)
            for observer in readers:
                queue(session, settings, to=observer, subject=_("{game} starts", game=game.name), kind="start", now=now,
                      game_id=game.id, attachments=watched, body=body)


def _roster(session: Session, game: Game) -> list[tuple[str, str]]:
    """Each seat and whether it is played, in the board's order (never the order of joining)."""
    seat = seats(session, game)
    return [(power, "played" if is_played(seat[power]) else "dummy") for power in game_map(game).powers
            if power in seat]


def _open_phase(session: Session, game: Game, position: Position, now: datetime) -> PhaseRow:
    name = str(position.phase)
    row = open_phase(session, game, name, position_to_data(position), now)
    if options_of(game).zerosum and position.phase.year == position.game_map.start_year and name.startswith("S"):
        for power, amount in zerosum_start({p: len(position.centers_of(p)) for p in position.game_map.powers}).items():
            session.add(LedgerRow(game_id=game.id, power=power, amount=amount, kind="zerosum",
                                  note="10 AgP per supply center (rule 6.7)", phase=name, created_at=now))
    if position.phase.kind is PhaseKind.MOVEMENT and income_due(position.phase.season.value, options_of(game)):
        counts = {p: len(position.centers_of(p)) for p in position.game_map.powers}
        _funds, entries = pay_income({}, counts, position.game_map.victory_centers, options_of(game))
        for entry in entries:
            session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind=entry.kind.value,
                                  note=entry.note, phase=name, created_at=now))
    session.flush()
    phase_of(session, row).ledger_start = _last_ledger_id(session, game)
    return row


def _last_ledger_id(session: Session, game: Game) -> int:
    return session.scalar(select(func.max(LedgerRow.id)).where(LedgerRow.game_id == game.id)) or 0


# -- processing -------------------------------------------------------------------------------------


@dataclass
class Processed:
    """What processing a phase produced, for the mails."""

    phase: str
    adjudication: dict[str, Any]
    determination: dict[str, Any] | None
    statements: dict[str, dict[str, Any]]
    next_phase: str | None
    winner: str | None
    report: dict[str, Any]  # the public part: see views
    actions: list[tuple[str, str]]  # what the judge did by itself, with the power each line is about
    closing: Closing  # why the phase closed, what every results mail says first, whether again after a ROLLBACK


def _orders_from(session: Session, game: Game, row: PhaseRow, position: Position) -> dict[str, list[Order | str]]:
    orders: dict[str, list[Order | str]] = {}
    latest = latest_submissions(session, game, row.name)
    for power in position.game_map.powers:
        submission = latest.get((power, "orders"))
        if submission is None:
            continue
        bucket = orders.setdefault(power, [])
        for text in submission.text.splitlines():
            if text.strip():
                try:
                    bucket.append(parse_order(text, position.game_map, position.phase.kind))
                except OrderSyntaxError as exc:
                    bucket.append(f"{text}: {exc}")
    return orders


def _determine(session: Session, game: Game, row: PhaseRow, position: Position,
               money: dict[str, int]) -> tuple[Determination, dict[str, str], dict[str, str], dict[str, list[str]]]:
    """Order determination from the phase's sheets, lists and (LOYAL_UNITS) orders; with the
    sheets and lists used, and under LOYAL_UNITS the units of each played power that had no
    order of their own and hold (`loyal_orders`)."""
    options = options_of(game)
    seat = seats(session, game)
    written = lists_of(session, seat)
    letters = position.game_map.letters
    dummies = {p for p in position.game_map.powers if not is_played(seat.get(p))}
    inputs: dict[str, PowerInput] = {}
    sheets_used: dict[str, str] = {}
    lists_used: dict[str, str] = {}
    latest = latest_submissions(session, game, row.name)
    led_to = _led_to(session, game, row, position) if options.blind else None
    reader = PhaseReader(position)  # the phase's sheets share their readings of orders and amounts
    for power in position.game_map.powers:
        submission = latest.get((power, "sheet"))
        sheet = OfferSheet()
        if submission is not None and submission.text.strip():
            seen = witness(power, *led_to, position).after if led_to is not None else None
            parsed, errors = parse_sheet(
                submission.text, position, power, options, dummies, reader=reader, seen=seen)
            if not errors:
                sheet = parsed
                sheets_used[power] = submission.text
        acceptance = acceptance_of(written.get(power), letters)
        if acceptance is not None:
            lists_used[power] = str(acceptance)
        inputs[power] = PowerInput(money.get(power, 0), sheet, acceptance, power in dummies)
    direct: dict[str, list[MovementOrder]] = {}
    held: dict[str, list[str]] = {}
    if options.loyal_units:
        direct, held = loyal_orders(position, _orders_from(session, game, row, position), dummies)
    result = determine_orders(position, inputs, options, row.seed, direct)
    return result, sheets_used, lists_used, held


def loyal_orders(position: Position, given: dict[str, list[Order | str]],
                 dummies: set[str]) -> tuple[dict[str, list[MovementOrder]], dict[str, list[str]]]:
    """LOYAL_UNITS (rule 6.5): each played power's own orders, and a HOLD for each of its units
    it gave none (the default, as in Diplomacy), so that every unit is in the results with the
    order it issued; with the units so held, by power, for "what the judge did by itself"."""
    direct: dict[str, list[MovementOrder]] = {}
    held: dict[str, list[str]] = {}
    for power in position.game_map.powers:
        if power in dummies:
            continue  # a dummy's units are bribed
        orders = [o for o in given.get(power, []) if isinstance(o, MovementOrder)]
        ordered = {o.unit.province for o in orders}
        idle = [placed.unit for placed in position.units_of(power) if placed.unit.province not in ordered]
        direct[power] = orders + [Hold(unit) for unit in idle]
        if idle:
            held[power] = [str(unit) for unit in idle]
    return direct, held


def process_phase(session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
    """Adjudicate the current phase, open the next one (or say the game is won), queue the mails,
    each saying the ``closing``'s notes first (`judge.service.hosting.kinds.Phases.process`).  What the
    phase keeps (its results, an order's reason, the report) is kept in English whoever's mail closed the
    phase; each mail is written in its reader's language."""
    with reading(SOURCE):
        return _process_phase(session, game, settings, now, closing)


def _process_phase(session: Session, game: Game, settings: Settings, now: datetime, closing: Closing) -> PhaseChange:
    row = current_phase(session, game)
    assert row is not None
    kept = phase_of(session, row)
    kept.rollforward = None  # processed: there is no ROLLBACK of it to undo any more
    position = position_of(row)
    kept.ledger_mark = _last_ledger_id(session, game)
    seat = seats(session, game)
    kept.acceptance = lists_of(session, seat)
    determination_data: dict[str, Any] | None = None
    statements: dict[str, dict[str, Any]] = {}
    if position.phase.kind is PhaseKind.MOVEMENT:
        money = balances(session, game)
        determination, sheets_used, lists_used, held = _determine(session, game, row, position, money)
        letters = position.game_map.letters
        determination_data = determination_to_data(determination, options_of(game), {}, letters)
        determination_data["sheets"] = sheets_used
        determination_data["lists"] = lists_used
        determination_data["dummies"] = [p for p in position.game_map.powers if not is_played(seat.get(p))]
        for power, statement in determination.statements.items():
            statements[power] = statement_to_data(statement, options_of(game))
            if statement.spent:
                session.add(LedgerRow(game_id=game.id, power=power, amount=-statement.spent, kind="payment",
                                      note=f"bribes accepted in {row.name}", phase=row.name, created_at=now))
        orders: dict[str, list[Order | str]] = {p: list(o) for p, o in determination.orders().items()}
    else:
        orders = _orders_from(session, game, row, position)
        held = {}
    outcome = adjudicate(position, orders)
    adjudication = result_to_data(outcome)
    played = [p for p, player in seat.items() if is_played(player)]
    texts = latest_texts(session, game, row.name)  # a sheet without an offer is none (rule 3.3, ruling 15)
    sheets = None if determination_data is None or options_of(game).loyal_units else [
        p for p in determination_data["sheets"] if not texts.get((p, NO_OFFER))]
    actions = views.automatic_actions(position, adjudication["results"], outcome.position, sheets, played, held)
    report = {"phase": row.name, "results": adjudication["results"], "automatic": [text for _who, text in actions],
              "board": views.board(outcome.position)}
    api.processed(row, {"adjudication": adjudication, "determination": determination_data, "report": report,
                        VOTES: votes_kept(session, seat)},  # as they stood: a ROLLBACK brings them back (`votes_back`)
                  now)
    winner = outcome.winner
    if options_of(game).zerosum and position.phase.season.value == "F" and outcome.position.phase.season.value != "F":
        _zerosum_year_end(session, game, position.phase.year, outcome.position, now)
    if winner is None:
        _open_phase(session, game, outcome.position, now)
    processed = Processed(row.name, adjudication, determination_data, statements,
                          None if winner else str(outcome.position.phase), winner, report, actions, closing)
    _mail_results(session, game, settings, processed, row, now, position, outcome)
    log_on_commit(session, log, "game %s %s processed (%s); %s", game.name, row.name, closing.cause,
                  f"{power_title(winner)} wins" if winner else f"next {processed.next_phase}")
    result = nlater("{power} has won with {count} supply center", "{power} has won with {count} supply centers",
                    len(outcome.position.centers_of(winner)), power=power_title(winner)) if winner is not None else None
    return PhaseChange(row.name, processed.next_phase, winner, result)


def _zerosum_year_end(session: Session, game: Game, year: int, after: Position, now: datetime) -> None:
    """Rule 6.7 at the end of a Fall turn: the bribes paid this year to each power's units go to
    that power, a neutral center's first captor gets 10, and a captured center takes money from
    its former owner."""
    paid_to: dict[str, int] = {}
    ever_owned: set[str] = set()
    centers_at_start: dict[str, str] = {}
    for row in session.scalars(select(PhaseRow).where(PhaseRow.game_id == game.id).order_by(PhaseRow.id)):
        owned = {c: p for p, centers in row.position.get("centers", {}).items() for c in centers}
        ever_owned.update(owned)
        if row.name == f"S{year:04d}M":
            centers_at_start = owned
        determination = (row.result or {}).get("determination")
        if determination and row.name[1:5] == f"{year:04d}":
            for unit in determination["units"].values():
                paid_to[unit["owner"]] = paid_to.get(unit["owner"], 0) + sum(unit["paid"].values())
    _funds, entries = zerosum_year_end(balances(session, game), paid_to, centers_at_start, dict(after.centers),
                                  frozenset(ever_owned), options_of(game).blind)
    for entry in entries:
        session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind="zerosum",
                              note=entry.note, phase=f"F{year:04d}M", created_at=now))


def _mail_results(session: Session, game: Game, settings: Settings, processed: Processed, row: PhaseRow,
                  now: datetime, before: Position, outcome: PhaseResult) -> None:
    """Each player gets the public report and its own private part; the game master the chart;
    all of them the maps.  In a Tin Cup game each player gets instead what it saw of the phase
    (its :class:`Sight`), with maps of that alone, and observers get no position at all.  What
    is the same in several mails is rendered once: the public report (but in Tin Cup), the
    observers' mail, the maps."""

    def subject() -> str:  # in the language being written in
        return processed.closing.subject(game.name, processed.phase)

    accounts = _accounts_since(session, game, row)
    money = balances(session, game)
    blind = options_of(game).blind
    page = page_url(settings.web_url, game.name)

    def pictures(sight: Sight | None = None) -> list[Drawn]:
        if not settings.maps:
            return []
        if sight is None:
            return maps.phase_maps(game.name, before, outcome.results, outcome.position)
        return maps.phase_maps(game.name, sight.before, sight.results, sight.after, (sight.power, sight.view))

    everything = pictures()
    votes = _draw_votes(session, game)
    if blind:
        public = views.blind_results_view(processed.report, None, [], None, [], 0)
    else:
        public = views.results_view(processed.report, None, None, [], 0)
    shared: dict[str, dict[str, str]] = {}  # the public report, the same for all who read one language

    def common(language: str) -> dict[str, str]:
        if blind:
            return {}
        if language not in shared:
            shared[language] = {"public": render("payola/results_public", view=public)}
        return shared[language]

    led_to = _led_to(session, game, row, before) if blind and before.phase.kind is PhaseKind.RETREAT else None
    for power, player in seats(session, game).items():
        if not is_played(player):
            continue
        assert player.address is not None
        private = (processed.statements.get(power), accounts.get(power, []), money[power])
        if blind:
            sight = witness(power, before, outcome.results, outcome.position)
            actions = processed.actions
            if led_to is not None:  # its units' retreats as it saw them (`views.automatic_actions`)
                actions = views.automatic_actions(before, processed.report["results"], outcome.position, None, (),
                                                  seen=witness(power, *led_to, before).after)
            view = views.blind_results_view(processed.report, sight, actions, *private)
            attached = pictures(sight)
        else:
            view, attached = views.results_view(processed.report, power, *private), everything
        with writing_to(session, settings, player.address, game):
            body = render("payola/results", game=game, view=view, next_phase=processed.next_phase,
                          winner=processed.winner, deadline=game.deadline, web_url=page,
                          votes=worded(votes) if votes else None,
                          notes=processed.closing.lines, **common(current()))
            queue(session, settings, to=player.address, subject=subject(), body=body, kind="results", now=now,
                  game_id=game.id, attachments=attached, opens=power if processed.next_phase else None)
    for language, readers in by_language(session, settings, game, observers(session, game)).items():
        with reading(language):  # one text for all of them who read one language
            body = render("payola/results", game=game, view=public, next_phase=processed.next_phase,
                          winner=processed.winner, deadline=game.deadline, web_url=page,
                          notes=processed.closing.lines, **common(language))
            for observer in readers:
                queue(session, settings, to=observer, subject=subject(), body=body, kind="results", now=now,
                      game_id=game.id, attachments=[] if blind else everything)
    with writing_to(session, settings, game.gm_address, game):
        body = render("payola/chart", game=game, processed=processed, accounts=accounts, balances=money,
                      deadline=game.deadline, worded=views.Action)
        queue(session, settings, to=game.gm_address, body=body,
              subject=_("{game} {phase} chart", game=game.name, phase=processed.phase), kind="chart", now=now,
              game_id=game.id, attachments=everything)


def _draw_votes(session: Session, game: Game) -> Wording | None:
    """Under SHOW_VOTES, how many vote for a draw, when that changed since it was last told:
    told with a phase's results rather than when a vote comes, which would point at the voter.
    A Tin Cup game's count leaves out how many powers survive (each power's own secret).  A stored
    wording (`judge.language.nlater`), worded in each reader's language as its mail is written."""
    if not shows_votes(game) or game.state not in RUNNING:
        return None
    voting = voters(session, game)
    seat = seats(session, game)
    votes = votes_of(session, {p: seat[p] for p in voting})
    draws = sum(votes[p] == "DRAW" for p in voting)
    if draws == game.settings.get("draws_told", 0):
        return None
    api.keep_setting(game, "draws_told", draws)
    if options_of(game).blind:
        return nlater("{count} surviving power now votes for a draw.", "{count} surviving powers now vote for a draw.",
                      draws)
    return nlater("{count} of the {total} surviving powers now vote for a draw.",
                  "{count} of the {total} surviving powers now vote for a draw.", draws, total=len(voting))


def _accounts_since(session: Session, game: Game, row: PhaseRow) -> dict[str, list[dict[str, Any]]]:
    """Each power's balance changes since the phase opened (rule 2.5): transfers, payments, and
    the income or deposits of the phase that follows."""
    kept = phase_of(session, row)
    start = kept.ledger_start if kept.ledger_start is not None else (kept.ledger_mark or 0)
    rows = session.execute(select(LedgerRow.power, LedgerRow.kind, LedgerRow.amount, LedgerRow.note)
                           .where(LedgerRow.game_id == game.id, LedgerRow.id > start).order_by(LedgerRow.id))
    found: dict[str, list[tuple[str, int, str]]] = {}
    for power, kind, amount, note in rows:
        found.setdefault(power, []).append((kind, amount, note))
    return {power: views.account(entries) for power, entries in found.items()}


# -- votes, absences, and going forward again -------------------------------------------------------


VOTES = "votes"
"""The key of each phase's result, and of a ROLLBACK's marks, where the powers' votes on the game's
end are kept (the phase row's result rather than ``payola_phases``, which has no place for them:
`votes_kept`)."""


def voters(session: Session, game: Game) -> list[str]:
    """The powers that vote on a draw or concession: played, and not eliminated (owning a center)."""
    row = current_phase(session, game)
    if row is None:
        return []
    position = position_of(row)
    seat = seats(session, game)
    return [p for p in position.game_map.powers if is_played(seat.get(p)) and position.centers_of(p)]


def settle_votes(session: Session, game: Game, settings: Settings, now: datetime) -> Wording | None:
    """End the game on a draw or a concession, as the classic judges do.  A draw including all
    survivors (DIAS) when every voter votes DRAW; a concession to a power when it is itself a
    voter and every other voter concedes to it: its own vote is not needed, whatever it is (a
    power need not agree to win; a concession to a power without a player, or eliminated, ends
    nothing).  Returns the result announced (a stored wording, `judge.language.later`), or None."""
    if game.state not in RUNNING:
        return None
    voting = voters(session, game)
    seat = seats(session, game)
    votes = votes_of(session, {p: seat[p] for p in voting})
    conceded = {vote.partition(":")[2] for vote in votes.values() if vote and vote.startswith("CONCEDE:")}
    winners = [p for p in voting if p in conceded and all(v == f"CONCEDE:{p}" for q, v in votes.items() if q != p)]
    winner = winners[0] if len(winners) == 1 else None  # two survivors conceding to each other: neither wins
    survivors: list[str] = []
    if winner is not None:
        result = later("conceded to {power} by every other surviving power", power=power_title(winner))
    elif voting and set(votes.values()) == {"DRAW"} and draws_allowed(game):
        row = current_phase(session, game)
        assert row is not None
        position = position_of(row)
        survivors = [p for p in position.game_map.powers if position.centers_of(p)]
        result = later("a draw including all survivors: {powers}", powers=", ".join(power_title(p) for p in survivors))
    else:
        return None
    api.end_game(session, game, settings, now, result, winner, drawn=survivors)
    return result


def votes_kept(session: Session, seat: dict[str, Player]) -> dict[str, dict[str, str | None]]:
    """Each power's vote as it stands, with when the mail that set it was accepted (a vote withdrawn
    by mail too), for a phase's result to keep as it was processed with (`votes_back`)."""
    rows = seats_of(session, list(seat.values()))
    return {power: {"vote": row.vote, "at": row.vote_at.isoformat() if row.vote_at else None}
            for power, player in seat.items()
            if (row := rows.get(player.id)) is not None and (row.vote or row.vote_at)}


def votes_back(session: Session, game: Game, to: PhaseRow) -> None:
    """A ROLLBACK to the phase of ``to``: each power's vote as it stood when the phase was processed
    (kept in its result), as its acceptance list stands again: a vote cast since is undone, one
    withdrawn or changed since stands again.  But a power's vote is its player's: one cast before
    the power's player took it over is not brought back (a new player starts with none,
    `judge.games.payola.kind.PayolaLobby.handed_over`).  A phase processed before the results kept
    the votes (an older judge's) leaves them as they are.  Under SHOW_VOTES the count is told again
    with the next results when it differs from the one last told (`_draw_votes`)."""
    kept = (to.result or {}).get(VOTES)
    if not isinstance(kept, dict):
        return
    for power, player in seats(session, game).items():
        vote = kept.get(power) or {}
        at = datetime.fromisoformat(vote["at"]) if vote.get("at") else None
        row = seat_of(session, player)
        if at is not None and at < player.joined_at:  # cast by the player before
            row.vote, row.vote_at = None, None
        else:
            row.vote, row.vote_at = vote.get("vote"), at


def _standing(session: Session, game: Game) -> dict[str, str]:
    """Each power's vote standing, as kept (``DRAW``, ``CONCEDE:FRANCE``), for ROLLFORWARD to
    compare: a power with none is left out."""
    return {power: vote for power, vote in votes_of(session, seats(session, game)).items() if vote}


def changed_since_rollback(session: Session, game: Game) -> str | None:
    """Which powers have paid money or changed their acceptance lists since the ROLLBACK (its
    marks in the phase's record), and how many votes on the game's end changed, which ROLLFORWARD
    would discard (the host checks the sheets and orders sent: `judge.service.hosting.course.rolling_forward`).
    Whose vote is not said: votes are secret, from the game master's answers too."""
    row = current_phase(session, game)
    marks = phase_of(session, row).rollforward if row is not None else None
    if not marks:
        return None
    changes = []
    changed = set(session.scalars(select(LedgerRow.power).where(
        LedgerRow.game_id == game.id, LedgerRow.id > marks["ledger"], LedgerRow.amount < 0)))
    now_written = lists_of(session, seats(session, game))
    changed |= {seat for seat in {*now_written, *marks["acceptance"]}
                if now_written.get(seat) != marks["acceptance"].get(seat)}
    if changed:
        names = ", ".join(power_title(power) for power in game_map(game).powers if power in changed)
        changes.append(_("{powers} changed money or acceptance lists", powers=names))
    if (then := marks.get(VOTES)) is not None:  # a ROLLBACK of an older judge kept no votes
        now = _standing(session, game)
        voted = sum(then.get(power) != now.get(power) for power in {*then, *now})
        if voted == 1:
            changes.append(_("a vote on the game's end changed"))
        elif voted:
            changes.append(ngettext("{count} vote on the game's end changed", "{count} votes on the game's end changed",
                                    voted))
    return "; ".join(changes) or None


# -- the end, and going back ------------------------------------------------------------------------


def publication(session: Session, game: Game) -> Publication:
    """The end's publication: every offer sheet, acceptance list and chart (rules 3.6, 4.5)."""
    return Publication(_("Everything that was secret is now published (rules 3.6 and 4.5)."), secrets(session, game))


def secrets(session: Session, game: Game) -> list[str]:
    """Every sheet, acceptance list and chart of every processed phase (each its
    `judge.games.payola.public.published_phase`), the treasuries and the supply centers, each in
    the board's order, as lines: final once the game has ended, as they are now before (a REVEAL)."""
    rows = processed_phases(session, game)
    money = balances(session, game)
    order = list(game_map(game).powers)
    last = rows[-1].result.get("report") if rows and rows[-1].result else None
    centers = [(p["power"], p["centers"]) for p in (last or {}).get("board", {}).get("powers", []) if p["centers"]]
    centers.sort(key=lambda entry: (-len(entry[1]), order.index(entry[0])))
    published = {row.name: public.published_phase(row.name, row.result["determination"])
                 for row in rows if row.result and row.result.get("determination")}
    return render("payola/published", phases=rows, balances=money, blind=options_of(game).blind, published=published,
                  centers=centers, final=game.state == GameState.FINISHED,
                  after=rows[-1].name if rows else None).strip("\n").splitlines()


def reveal(session: Session, game: Game, settings: Settings, now: datetime) -> None:
    """REVEAL: publish every secret of the game now, while it goes on (`secrets`); what was
    published is kept in the game's settings (``revealed``: up to which phase, and the treasuries
    then) for its pages to show."""
    rows = processed_phases(session, game)
    api.keep_setting(game, "revealed", {"through": rows[-1].name if rows else None,
                                        "balances": balances(session, game)})
    api.publish(session, game, settings, now, subject=lambda: _("{game}: every secret revealed", game=game.name),
                headline=lambda: _("has had its secrets revealed by the game master; the game goes on"),
                publication=lambda: Publication(_("Everything that was secret until now is published; what comes next "
                                                  "stays secret until the end (rules 3.6 and 4.5)."),
                                                secrets(session, game)))


def rolling_back(session: Session, game: Game, to: PhaseRow, later: Sequence[PhaseRow]) -> None:
    """A ROLLBACK to the processed phase of ``to`` (the host drops the later phases and opens it
    again): the records of the later phases dropped, and the ledger, the acceptance lists and the
    votes (`votes_back`) as they were when it was processed; marks kept for ROLLFORWARD
    (`changed_since_rollback`)."""
    for row in later:
        session.execute(delete(PayolaPhase).where(PayolaPhase.phase_id == row.id))
    kept = phase_of(session, to)
    session.execute(delete(LedgerRow).where(LedgerRow.game_id == game.id, LedgerRow.id > (kept.ledger_mark or 0)))
    lists = kept.acceptance or {}
    for player in players(session, game):
        if player.seat:
            seat_of(session, player).acceptance = lists.get(player.seat)
    votes_back(session, game, to)
    kept.ledger_mark = None
    session.flush()
    kept.rollforward = {"ledger": _last_ledger_id(session, game), "acceptance": lists,  # what ROLLFORWARD finds
                        VOTES: _standing(session, game)}
