"""Handling one mail: store it, read its commands, act on them, and answer.

``receive`` stores the raw mail in its own transaction (that is what SMTP's 250 waits
for); ``process_mail`` then reads it and does everything it asks in one more transaction,
replies included.  A mail whose Message-ID was seen before is not applied again; automatic
mail is recorded and never answered.  Whatever goes wrong inside, the sender gets a short
apology, never a traceback.

Every reply echoes each line with what became of it.  After ``SIGNON`` the lines act for
that power (or the game master).  Offer lines in one mail form one sheet that replaces the
power's sheet for the phase as a whole; orders in a retreat or adjustment phase (or for
loyal units) likewise replace the power's earlier orders.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from judge.commands import parse as cmd
from judge.engine.legal import check_order
from judge.engine.map import available_maps, load_map
from judge.engine.notation import NotationError, power_name
from judge.engine.orders import OrderSyntaxError, PhaseKind, parse_order
from judge.engine.position import Position
from judge.mail.inbound import InboundMail, parse_mail
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.offers import parse_sheet
from judge.payola.options import OptionError, parse_options
from judge.payola.treasury import TreasuryError, forfeit, transfer
from judge.service import lifecycle
from judge.service.config import Settings
from judge.service.outbox import queue
from judge.service.passwords import hash_password, verify_password
from judge.service.render import render
from judge.store.database import Database
from judge.store.models import Game, LedgerRow, Player, Submission
from judge.store.models import InboundMail as InboundRow

log = logging.getLogger("judge")


@dataclass
class Echo:
    """One line of the reply: the line as written, and what became of it."""

    text: str
    outcome: str  # ok, error, ignored, info
    message: str = ""
    extra: list[str] = field(default_factory=list)


class _Refusal(Exception):
    """A bad password: the whole mail gets one short refusal."""


@dataclass
class _Context:
    game: Game | None = None
    power: str | None = None  # None with a game: the game master
    player: Player | None = None
    sheet: list[tuple[int, str]] = field(default_factory=list)  # (echo index, text)
    orders: list[tuple[int, str]] = field(default_factory=list)

    @property
    def is_master(self) -> bool:
        return self.game is not None and self.power is None


# -- entry points ------------------------------------------------------------------------------------


def receive(db: Database, raw: bytes, now: datetime, envelope_from: str | None = None) -> int:
    """Store a raw mail (its own transaction) and return its id."""
    mail = parse_mail(raw, envelope_from=envelope_from)
    with db.transaction() as session:
        row = InboundRow(message_id=mail.message_id, envelope_from=envelope_from, raw=raw, received_at=now,
                         status="new")
        session.add(row)
        session.flush()
        return row.id


def process_mail(db: Database, settings: Settings, mail_id: int, now: datetime) -> str:
    """Apply a stored mail; returns its final status (done, duplicate, automatic, failed)."""
    try:
        with db.transaction() as session:
            # Claim the mail first: a second processor (another daemon, or cron's tick) waits for
            # this transaction and then finds it no longer new.  A crash rolls the claim back.
            claimed = session.execute(update(InboundRow).where(InboundRow.id == mail_id, InboundRow.status == "new")
                                      .values(status="applying"))
            row = session.get(InboundRow, mail_id)
            if row is None or not claimed.rowcount:  # type: ignore[attr-defined]
                return row.status if row else "missing"
            mail = parse_mail(row.raw, envelope_from=row.envelope_from)
            row.processed_at = now
            if mail.message_id and session.scalar(
                select(InboundRow.id).where(InboundRow.message_id == mail.message_id, InboundRow.id != row.id,
                                            InboundRow.status.in_(("done", "automatic", "failed")))
            ):
                row.status = "duplicate"
                return row.status
            if mail.automatic:
                row.status = "automatic"
                return row.status
            _Conversation(session, settings, mail, now).run()
            row.status = "done"
            return row.status
    except Exception as exc:
        log.exception("mail %s failed", mail_id)
        with db.transaction() as session:
            row = session.get(InboundRow, mail_id)
            if row is not None:
                row.status, row.error, row.processed_at = "failed", f"{type(exc).__name__}: {exc}", now
                mail = parse_mail(row.raw, envelope_from=row.envelope_from)
                if mail.reply_to and not mail.automatic:
                    queue(session, settings, to=mail.reply_to, subject=_reply_subject(mail), kind="reply", now=now,
                          in_reply_to=mail.message_id, body=render("failure", settings=settings))
        return "failed"


def _reply_subject(mail: InboundMail) -> str:
    subject = mail.subject.strip()
    return subject if subject.lower().startswith("re:") else f"Re: {subject or 'your mail to the judge'}"


# -- the conversation -------------------------------------------------------------------------------


class _Conversation:
    def __init__(self, session: Session, settings: Settings, mail: InboundMail, now: datetime) -> None:
        self.session = session
        self.settings = settings
        self.mail = mail
        self.now = now
        self.echoes: list[Echo] = []
        self.notes: list[str] = []
        self.context = _Context()
        self.copies: set[str] = set()
        self.positions: dict[tuple[int, str], Position | None] = {}

    def run(self) -> None:
        if self.mail.no_text:
            self.notes.append("Your mail had no text part the judge could read; send your commands as plain text.")
        if self.mail.html_only:
            self.notes.append("Your mail had no plain-text part: the judge read its HTML part as text.")
        if self.mail.truncated:
            self.notes.append("Your mail was too long: only its beginning was read.")
        savepoint = self.session.begin_nested()
        try:
            for line in cmd.parse_lines(self.mail.lines):
                self._line(line)
            self._close_block()
            savepoint.commit()
        except _Refusal:
            savepoint.rollback()  # nothing in a refused mail is applied
            queue(self.session, self.settings, to=self.mail.reply_to, subject=_reply_subject(self.mail), kind="reply",
                  now=self.now, in_reply_to=self.mail.message_id, body=render("refusal"))
            return
        body = render("reply", echoes=self.echoes, notes=self.notes, settings=self.settings)
        subject = _reply_subject(self.mail)
        queue(self.session, self.settings, to=self.mail.reply_to, subject=subject, kind="reply", now=self.now,
              in_reply_to=self.mail.message_id, body=body, game_id=self.context.game.id if self.context.game else None)
        for address in sorted(self.copies - {self.mail.reply_to, self.mail.sender}):
            queue(self.session, self.settings, to=address, subject=f"Copy: {subject}", kind="reply", now=self.now,
                  body=body)
        self._process_if_complete()

    def echo(self, text: str, outcome: str, message: str = "", extra: list[str] | None = None) -> int:
        self.echoes.append(Echo(text, outcome, message, extra or []))
        return len(self.echoes) - 1

    # -- dispatch ----------------------------------------------------------------------------

    def _line(self, line: cmd.Line) -> None:
        command = line.command
        if isinstance(command, cmd.BadCommand):
            self.echo(line.text, "error", command.error)
            return
        if isinstance(command, cmd.SignOn):
            self._close_block()
            self._signon(line.text, command)
            return
        if isinstance(command, cmd.SignOff):
            self._close_block()
            self.context = _Context()
            self.echo(line.text, "ok", "signed off")
            return
        handler = getattr(self, f"_{type(command).__name__.lower()}", None)
        anyone = (cmd.Help, cmd.ListGames, cmd.Create, cmd.Join)
        if not isinstance(command, anyone) and self.context.game is None:
            self.echo(line.text, "error", "sign on first: SIGNON POWER@game password")
            return
        if isinstance(command, cmd.Start | cmd.SetDeadline | cmd.SetDuration | cmd.Process | cmd.Pause | cmd.Resume
                      | cmd.Rollback | cmd.Dummy | cmd.Terminate) and not self.context.is_master:
            self.echo(line.text, "error", "only the game master, signed on as MASTER@game, can do this")
            return
        if isinstance(command, cmd.Accept | cmd.Transfer | cmd.Status | cmd.Clear | cmd.Press | cmd.Resign
                      | cmd.OfferLine | cmd.OrderLine) and self.context.is_master:
            self.echo(line.text, "error", "that is a player's command; sign on as a power")
            return
        assert handler is not None
        handler(line.text, command)

    # -- anyone --------------------------------------------------------------------------------

    def _help(self, text: str, _: cmd.Help) -> None:
        self.echo(text, "info", "", render("help", settings=self.settings).splitlines())

    def _listgames(self, text: str, command: cmd.ListGames) -> None:
        if command.game is None:
            games = self.session.scalars(select(Game).order_by(Game.name)).all()
            self.echo(text, "info", "", [f"{g.name}: {g.state}" + (f", {g.phase}" if g.phase else "") for g in games]
                      or ["no games yet"])
            return
        game = self._game(command.game)
        if game is None:
            self.echo(text, "error", f"there is no game '{command.game}'")
            return
        waiting = set(lifecycle.waiting_for(self.session, game))
        seat = lifecycle.seats(self.session, game)
        lines = [f"state: {game.state}", f"variant: {game.variant} {' '.join(game.options)}".rstrip()]
        if game.phase:
            lines.append(f"phase: {game.phase}, deadline {_when(game.deadline)}")
        for power in load_map(game.variant).powers:
            player = seat.get(power)
            if player is None:
                continue
            played = "played" if lifecycle.is_played(player) else "dummy"
            status = "" if game.state != "active" or not lifecycle.is_played(player) else (
                ", waiting" if power in waiting else ", submitted")
            lines.append(f"{power.title()}: {played}{status}")
        if game.state == "forming":
            lines.append(f"{len(lifecycle.players(self.session, game))} player(s) joined")
        self.echo(text, "info", "", lines)

    def _create(self, text: str, command: cmd.Create) -> None:
        if self._game(command.game) is not None:
            self.echo(text, "error", f"a game named '{command.game}' already exists")
            return
        if command.variant not in available_maps():
            self.echo(text, "error", f"unknown variant '{command.variant}' (known: {', '.join(available_maps())})")
            return
        try:
            options = parse_options(command.options)
        except OptionError as exc:
            self.echo(text, "error", str(exc))
            return
        game = Game(name=command.game, variant=command.variant, options=options.names, state="forming",
                    gm_address=self.mail.reply_to, gm_password=hash_password(command.password),
                    seed=secrets.randbelow(2**31), settings=dict(self.settings.durations), created_at=self.now)
        self.session.add(game)
        self.session.flush()
        self.echo(text.replace(command.password, "****"), "ok",
                  f"game '{game.name}' created; you are its master (SIGNON MASTER@{game.name} password)")

    def _join(self, text: str, command: cmd.Join) -> None:
        shown = text.replace(command.password, "****")
        game = self._game(command.game)
        if game is None:
            self.echo(shown, "error", f"there is no game '{command.game}'")
            return
        if game.state != "forming":
            self.echo(shown, "error", "that game has already started")
            return
        the_map = load_map(game.variant)
        requested = None
        if command.power:
            try:
                requested = _power(game, command.power)
            except ValueError as exc:
                self.echo(shown, "error", str(exc))
                return
        joined = lifecycle.players(self.session, game)
        if len(joined) >= len(the_map.powers):
            self.echo(shown, "error", "the game is full")
            return
        if any(p.address == self.mail.reply_to for p in joined):
            self.echo(shown, "error", "you have already joined this game")
            return
        self.session.add(Player(game_id=game.id, requested=requested, address=self.mail.reply_to,
                                password=hash_password(command.password), joined_at=self.now))
        self.session.flush()
        wish = f" (you asked for {requested.title()})" if requested else ""
        self.echo(shown, "ok", f"you joined '{game.name}'{wish}; powers are assigned when the game starts")

    def _signon(self, text: str, command: cmd.SignOn) -> None:
        game = self._game(command.game)
        if game is None:
            raise _Refusal
        if command.who == "MASTER":
            if not verify_password(command.password, game.gm_password):
                raise _Refusal
            self.context = _Context(game=game)
            self.echo(text.replace(command.password, "****"), "ok", f"signed on as master of {game.name}")
            return
        try:
            power = _power(game, command.who)
        except ValueError:
            raise _Refusal from None
        player = lifecycle.seats(self.session, game).get(power)
        if player is None or not lifecycle.is_played(player) or not verify_password(command.password, player.password):
            raise _Refusal
        self.context = _Context(game=game, power=power, player=player)
        if player.address and player.address != self.mail.reply_to:
            self.copies.add(player.address)
        self.echo(text.replace(command.password, "****"), "ok", f"signed on as {power.title()} in {game.name}")

    # -- players -----------------------------------------------------------------------------------

    def _active_position(self) -> Position | None:
        """The position of the signed-on game's current phase (read once per phase and mail)."""
        game = self.context.game
        assert game is not None
        if game.state not in ("active", "paused") or game.phase is None:
            return None
        key = (game.id, game.phase)
        if key not in self.positions:
            row = lifecycle.current_phase(self.session, game)
            self.positions[key] = lifecycle.position_of(row) if row else None
        return self.positions[key]

    def _offerline(self, text: str, _: cmd.OfferLine) -> None:
        position = self._active_position()
        if position is None or position.phase.kind is not PhaseKind.MOVEMENT:
            self.echo(text, "error", "offers are only taken in a movement phase of a running game")
            return
        self.context.sheet.append((self.echo(text, "ok"), text))

    def _orderline(self, text: str, _: cmd.OrderLine) -> None:
        position = self._active_position()
        game = self.context.game
        assert game is not None
        if position is None:
            self.echo(text, "error", "unknown command (the game is not running)")
            return
        loyal = lifecycle.options_of(game).loyal_units
        if position.phase.kind is PhaseKind.MOVEMENT and not loyal:
            self.echo(text, "error", "unknown command (in a movement phase units are bribed, not ordered)")
            return
        self.context.orders.append((self.echo(text, "ok"), text))

    def _close_block(self) -> None:
        """At the end of a power's lines: its offer sheet and orders replace the old ones as a whole."""
        context = self.context
        if context.game is None or context.power is None:
            return
        if context.sheet:
            self._store_sheet(context)
        if context.orders:
            self._store_orders(context)
        context.sheet, context.orders = [], []

    def _store_sheet(self, context: _Context) -> None:
        game, power = context.game, context.power
        assert game is not None and power is not None
        position = self._active_position()
        assert position is not None
        seat = lifecycle.seats(self.session, game)
        dummies = {p for p in position.game_map.powers if not lifecycle.is_played(seat.get(p))}
        text = "\n".join(t for _, t in context.sheet)
        sheet, errors = parse_sheet(text, position, power, lifecycle.options_of(game), dummies)
        if errors:
            for number, (index, _) in enumerate(context.sheet, 1):
                found = [e for e in errors if e.line == number]
                if found:
                    self.echoes[index].outcome, self.echoes[index].message = "error", found[0].error
                else:
                    self.echoes[index].outcome = "ignored"
                    self.echoes[index].message = "not applied: the sheet has errors, your previous sheet stays"
            return
        self.session.add(Submission(game_id=game.id, phase=str(position.phase), power=power, kind="sheet", text=text,
                                    parsed={"offers": len(sheet.offers), "savings": sheet.savings},
                                    created_at=self.now))
        last = context.sheet[-1][0]
        self.echoes[last].message = (f"offer sheet accepted: {len(sheet.offers)} offer(s), savings {sheet.savings} AgP;"
                                     " it replaces any earlier sheet for this phase")

    def _store_orders(self, context: _Context) -> None:
        game, power = context.game, context.power
        assert game is not None and power is not None
        position = self._active_position()
        assert position is not None
        bad = False
        for index, text in context.orders:
            try:
                order = parse_order(text, position.game_map, position.phase.kind)
            except OrderSyntaxError as exc:
                self.echoes[index].outcome, self.echoes[index].message = "error", str(exc)
                bad = True
                continue
            verdict = check_order(position, power, order)
            if verdict.illegal is not None:
                self.echoes[index].outcome, self.echoes[index].message = "error", verdict.illegal.message
                bad = True
            else:
                self.echoes[index].message = str(verdict.order)
        if bad:
            for index, _ in context.orders:
                if self.echoes[index].outcome == "ok":
                    self.echoes[index].outcome = "ignored"
                    self.echoes[index].message = "not applied: some orders have errors, your previous orders stay"
            return
        text = "\n".join(t for _, t in context.orders)
        self.session.add(Submission(game_id=game.id, phase=str(position.phase), power=power, kind="orders", text=text,
                                    parsed={"orders": [self.echoes[i].message for i, _ in context.orders]},
                                    created_at=self.now))

    def _accept(self, text: str, command: cmd.Accept) -> None:
        game, player = self.context.game, self.context.player
        assert game is not None and player is not None
        letters = load_map(game.variant).letters
        try:
            listed = parse_acceptance(command.text, letters)
        except AcceptanceError as exc:
            self.echo(text, "error", str(exc))
            return
        player.acceptance = str(listed)
        self.echo(text, "ok", f"acceptance list is now {listed}")

    def _transfer(self, text: str, command: cmd.Transfer) -> None:
        game, power = self.context.game, self.context.power
        assert game is not None and power is not None
        try:
            receiver = _power(game, command.to)
            _, entries = transfer(lifecycle.balances(self.session, game), power, receiver, command.amount)
        except (ValueError, TreasuryError) as exc:
            self.echo(text, "error", str(exc))
            return
        for entry in entries:
            self.session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind="transfer",
                                       note=entry.note, phase=game.phase, created_at=self.now))
        self.session.flush()
        balance = lifecycle.balances(self.session, game)
        self.echo(text, "ok", f"{command.amount} AgP sent to {receiver.title()}; your balance is {balance[power]} AgP")
        player = lifecycle.seats(self.session, game).get(receiver)
        if lifecycle.is_played(player):
            assert player is not None and player.address is not None
            queue(self.session, self.settings, to=player.address, subject=f"{game.name} transfer received",
                  kind="transfer", now=self.now, game_id=game.id,
                  body=render("transfer", game=game, sender=power, amount=command.amount,
                              balance=balance[receiver]))

    def _status(self, text: str, _: cmd.Status) -> None:
        game, power = self.context.game, self.context.power
        assert game is not None and power is not None
        balance = lifecycle.balances(self.session, game)[power]
        sheet = lifecycle.latest_submission(self.session, game, game.phase or "", power, "sheet")
        orders = lifecycle.latest_submission(self.session, game, game.phase or "", power, "orders")
        player = self.context.player
        lines = [f"game {game.name}, {game.state}, phase {game.phase or '-'}, deadline {_when(game.deadline)}",
                 f"your balance: {balance} AgP",
                 f"your acceptance list: {(player and player.acceptance) or 'the default (own first, then ?)'}"]
        current = sheet.text if sheet and sheet.text else (orders.text if orders and orders.text else "")
        lines.append("your current sheet/orders:" if current else "no sheet or orders yet for this phase")
        lines.extend(f"  {line}" for line in current.splitlines())
        self.echo(text, "info", "", lines)

    def _clear(self, text: str, _: cmd.Clear) -> None:
        game, power = self.context.game, self.context.power
        assert game is not None and power is not None
        if game.phase is None:
            self.echo(text, "error", "the game has not started")
            return
        self.context.sheet, self.context.orders = [], []
        for kind in ("sheet", "orders"):
            self.session.add(Submission(game_id=game.id, phase=game.phase, power=power, kind=kind, text="",
                                        parsed={}, created_at=self.now))
        self.echo(text, "ok", "your sheet and orders for this phase are cleared")

    def _press(self, text: str, command: cmd.Press) -> None:
        game, power = self.context.game, self.context.power
        assert game is not None and power is not None
        the_map = load_map(game.variant)
        seat = lifecycle.seats(self.session, game)
        if command.to == ("ALL",):
            targets = [p for p in the_map.powers if p != power]
        else:
            try:
                targets = [_power(game, letter) for letter in command.to]
            except ValueError as exc:
                self.echo(text, "error", str(exc))
                return
        sent = []
        for target in targets:
            player = seat.get(target)
            if target != power and lifecycle.is_played(player):
                assert player is not None and player.address is not None
                queue(self.session, self.settings, to=player.address, subject=f"{game.name} press from {power.title()}",
                      kind="press", now=self.now, game_id=game.id,
                      body=render("press", game=game, sender=power, body=command.body,
                                  everyone=command.to == ("ALL",)))
                sent.append(target.title())
        self.echo(text, "ok", f"press sent to {', '.join(sent) or 'nobody (no played power among them)'}")

    def _setpassword(self, text: str, command: cmd.SetPassword) -> None:
        shown = text.replace(command.password, "****")
        if self.context.is_master:
            assert self.context.game is not None
            self.context.game.gm_password = hash_password(command.password)
        else:
            assert self.context.player is not None
            self.context.player.password = hash_password(command.password)
        self.echo(shown, "ok", "password changed")

    def _setaddress(self, text: str, command: cmd.SetAddress) -> None:
        if self.context.is_master:
            assert self.context.game is not None
            self.context.game.gm_address = command.address
        else:
            assert self.context.player is not None
            self.context.player.address = command.address
        self.copies.add(command.address)
        self.echo(text, "ok", f"mail will now go to {command.address}")

    def _resign(self, text: str, _: cmd.Resign) -> None:
        game, power, player = self.context.game, self.context.power, self.context.player
        assert game is not None and power is not None and player is not None
        player.resigned = True
        note = "you have resigned; your power is now a dummy"
        row = lifecycle.current_phase(self.session, game)
        if row is not None:
            position = lifecycle.position_of(row)
            if not position.centers_of(power):
                for entry in forfeit(lifecycle.balances(self.session, game), power)[1]:
                    self.session.add(LedgerRow(game_id=game.id, power=power, amount=entry.amount, kind="forfeit",
                                               note=entry.note, phase=game.phase, created_at=self.now))
                note += " and, being eliminated, its treasury is forfeited (rule 2.4)"
        self.context = _Context()
        self.echo(text, "ok", note)

    # -- the game master --------------------------------------------------------------------------

    def _start(self, text: str, _: cmd.Start) -> None:
        game = self.context.game
        assert game is not None
        try:
            lifecycle.start_game(self.session, game, self.settings, self.now)
        except lifecycle.GameError as exc:
            self.echo(text, "error", str(exc))
            return
        self.echo(text, "ok", f"{game.name} has started: {game.phase}, deadline {_when(game.deadline)}")

    def _setdeadline(self, text: str, command: cmd.SetDeadline) -> None:
        game = self.context.game
        assert game is not None
        if game.state not in ("active", "paused"):
            self.echo(text, "error", "the game is not running")
            return
        game.deadline = command.when.astimezone(UTC).replace(tzinfo=None)
        self.echo(text, "ok", f"deadline set to {_when(game.deadline)}")

    def _setduration(self, text: str, command: cmd.SetDuration) -> None:
        game = self.context.game
        assert game is not None
        game.settings = {**game.settings, command.setting: command.hours}
        self.echo(text, "ok", f"{command.setting} set to {command.hours:g} hours")

    def _process(self, text: str, _: cmd.Process) -> None:
        game = self.context.game
        assert game is not None
        try:
            processed = lifecycle.process_phase(self.session, game, self.settings, self.now)
        except lifecycle.GameError as exc:
            self.echo(text, "error", str(exc))
            return
        self.echo(text, "ok", f"{processed.phase} processed" + (f"; now {processed.next_phase}"
                                                                 if processed.next_phase else ""))

    def _pause(self, text: str, _: cmd.Pause) -> None:
        game = self.context.game
        assert game is not None
        if game.state != "active":
            self.echo(text, "error", "only a running game can be paused")
            return
        game.state = "paused"
        self.echo(text, "ok", "game paused: deadlines will not fire")

    def _resume(self, text: str, _: cmd.Resume) -> None:
        game = self.context.game
        assert game is not None
        if game.state != "paused":
            self.echo(text, "error", "the game is not paused")
            return
        game.state = "active"
        if game.deadline is not None and game.deadline < self.now:
            game.deadline = self.now + lifecycle.phase_duration(game, game.phase or "M")
        self.echo(text, "ok", f"game resumed; deadline {_when(game.deadline)}")

    def _rollback(self, text: str, _: cmd.Rollback) -> None:
        game = self.context.game
        assert game is not None
        try:
            phase = lifecycle.rollback(self.session, game, self.now)
        except lifecycle.GameError as exc:
            self.echo(text, "error", str(exc))
            return
        self.echo(text, "ok", f"rolled back to {phase}; deadline {_when(game.deadline)}")

    def _dummy(self, text: str, command: cmd.Dummy) -> None:
        game = self.context.game
        assert game is not None
        try:
            power = _power(game, command.power)
        except ValueError as exc:
            self.echo(text, "error", str(exc))
            return
        player = lifecycle.seats(self.session, game).get(power)
        if player is None:
            self.echo(text, "error", "powers are assigned when the game starts")
            return
        player.dummy = True
        self.echo(text, "ok", f"{power.title()} is now a dummy power")

    def _terminate(self, text: str, _: cmd.Terminate) -> None:
        game = self.context.game
        assert game is not None
        if game.state == "finished":
            self.echo(text, "error", "the game has already ended")
            return
        lifecycle.finish_game(self.session, game, self.settings, self.now, "the game master ended the game")
        self.echo(text, "ok", "game ended; everything is published to all players")

    # -- helpers -------------------------------------------------------------------------------------

    def _game(self, name: str) -> Game | None:
        return self.session.scalar(select(Game).where(Game.name == name.lower()))

    def _process_if_complete(self) -> None:
        """A phase is processed as soon as every power that must act has done so."""
        game = self.context.game
        if game is None:
            return
        self.session.flush()
        if game.state == "active" and game.phase and not lifecycle.waiting_for(self.session, game):
            lifecycle.process_phase(self.session, game, self.settings, self.now)


def _power(game: Game, text: str) -> str:
    """A power of the game's map from its name or initial."""
    try:
        return power_name(load_map(game.variant), text)
    except NotationError as exc:
        raise ValueError(str(exc)) from None


def _when(moment: datetime | None) -> str:
    return "none" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")
