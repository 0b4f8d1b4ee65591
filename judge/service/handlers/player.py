"""A signed-on power's commands: offers and orders, ACCEPT, TRANSFER, STATUS, CLEAR, PRESS,
RESIGN, VOTE; and SET PASSWORD / SET ADDRESS, which the game master may use too.

A change of password or address is always told to the address registered before it, whoever
sent the mail and wherever its replies go, so that nobody can take a seat over silently; a new
address receives the seat's mail only once it has confirmed it wants it (`consent`).
"""

from __future__ import annotations

from sqlalchemy import select

from judge.commands import parse as cmd
from judge.engine.map import load_map
from judge.engine.orders import PhaseKind
from judge.mail.inbound import usable_address
from judge.payola.acceptance import AcceptanceError, parse_acceptance
from judge.payola.treasury import TreasuryError, forfeit, may_transfer, transfer
from judge.service import lifecycle, maps
from judge.service.handlers import consent
from judge.service.handlers.conversation import (
    PLAYER,
    SIGNED_ON,
    Context,
    Conversation,
    handles,
    masked,
    power_of,
)
from judge.service.handlers.submissions import set_by_mail_at
from judge.service.passwords import hash_password
from judge.service.render import render, when
from judge.store.models import Absence, Confirmation, Game, LedgerRow, Submission


@handles(cmd.OfferLine, PLAYER)
def offer_line(talk: Conversation, text: str, _: cmd.OfferLine) -> None:
    position = talk.active_position()
    if position is None or position.phase.kind is not PhaseKind.MOVEMENT:
        talk.echo(text, "error", "offers are only taken in a movement phase of a running game")
        return
    talk.context.sheet.append((talk.echo(text, "ok"), text))


@handles(cmd.OrderLine, PLAYER)
def order_line(talk: Conversation, text: str, _: cmd.OrderLine) -> None:
    position = talk.active_position()
    game = talk.context.game
    assert game is not None
    if position is None:
        talk.echo(text, "error", "unknown command (the game is not running)")
        return
    if position.phase.kind is PhaseKind.MOVEMENT and not lifecycle.options_of(game).loyal_units:
        talk.echo(text, "error", "unknown command (in a movement phase units are bribed, not ordered)")
        return
    talk.context.orders.append((talk.echo(text, "ok"), text))


@handles(cmd.Accept, PLAYER)
def accept(talk: Conversation, text: str, command: cmd.Accept) -> None:
    game, player = talk.context.game, talk.context.player
    assert game is not None and player is not None
    try:
        listed = parse_acceptance(command.text, load_map(game.variant).letters)
    except AcceptanceError as exc:
        talk.echo(text, "error", str(exc))
        return
    if why := talk.superseded(player.acceptance_at, "your acceptance list"):
        talk.echo(text, "ignored", why)
        return
    player.acceptance, player.acceptance_at = str(listed), talk.accepted
    talk.echo(text, "ok", f"acceptance list is now {listed}")


@handles(cmd.Transfer, PLAYER)
def transfer_money(talk: Conversation, text: str, command: cmd.Transfer) -> None:
    """Rule 2.3.  The balance is read inside the transaction that holds the game's row, so two
    transfers sent at once can never spend the same money twice."""
    game, power = talk.context.game, talk.context.power
    assert game is not None and power is not None
    try:
        receiver = power_of(game, command.to)
        row = lifecycle.current_phase(talk.session, game)
        allowed = row is None or may_transfer(lifecycle.position_of(row), power)  # Void: no donations
        _, entries = transfer(lifecycle.balances(talk.session, game), power, receiver, command.amount, allowed)
    except (ValueError, TreasuryError) as exc:
        talk.echo(text, "error", str(exc))
        return
    for entry in entries:
        talk.session.add(LedgerRow(game_id=game.id, power=entry.power, amount=entry.amount, kind="transfer",
                                   note=entry.note, phase=game.phase, created_at=talk.now))
    talk.session.flush()
    balance = lifecycle.balances(talk.session, game)
    talk.echo(text, "ok", f"{command.amount} AgP sent to {receiver.title()}; your balance is {balance[power]} AgP")
    player = lifecycle.seats(talk.session, game).get(receiver)
    if lifecycle.is_played(player):
        assert player is not None and player.address is not None
        talk.send(to=player.address, subject=f"{game.name} transfer received", kind="transfer", game_id=game.id,
                  body=render("transfer", game=game, sender=power, amount=command.amount, balance=balance[receiver]))


@handles(cmd.Status, PLAYER)
def status(talk: Conversation, text: str, _: cmd.Status) -> None:
    """Filled in when the power's lines end (``submissions.status_lines``), so that it shows the
    sheet or orders the same mail sends, whether they come before or after it."""
    talk.context.status_echoes.append(talk.echo(text, "info"))


@handles(cmd.Clear, PLAYER)
def clear(talk: Conversation, text: str, _: cmd.Clear) -> None:
    game, power = talk.context.game, talk.context.power
    assert game is not None and power is not None
    if game.phase is None:
        talk.echo(text, "error", "the game has not started")
        return
    if why := talk.superseded(set_by_mail_at(talk, game.phase, power, "sheet", "orders"), "your sheet or orders"):
        talk.echo(text, "ignored", why)
        return
    talk.context.sheet, talk.context.orders = [], []
    for kind in ("sheet", "orders"):
        talk.session.add(Submission(game_id=game.id, phase=game.phase, power=power, kind=kind, text="",
                                    parsed={}, created_at=talk.now, accepted_at=talk.accepted))
    talk.echo(text, "ok", "your sheet and orders for this phase are cleared")


@handles(cmd.Press, SIGNED_ON)
def press(talk: Conversation, text: str, command: cmd.Press) -> None:
    """Press to some powers (by name or initial), to the game master (``M``), or to everyone;
    the game master's press to everyone is a broadcast.  Each copy says who else received it."""
    game, power = talk.context.game, talk.context.power
    assert game is not None
    talk.presses += 1
    if talk.presses > talk.settings.max_press_per_mail:
        talk.echo(text, "error", f"not sent: at most {talk.settings.max_press_per_mail} press messages are sent "
                  "from one mail")
        return
    seat = lifecycle.seats(talk.session, game)
    targets: dict[str, str] = {}  # address -> who it is, in the order named
    if command.to == ("ALL",):
        names = [p for p in load_map(game.variant).powers if p != power]
    else:
        try:
            names = list(dict.fromkeys(t if t == "MASTER" else power_of(game, t) for t in command.to))
        except ValueError as exc:
            talk.echo(text, "error", str(exc))
            return
    skipped = []
    for name in names:
        if name == "MASTER":
            if not talk.context.is_master:
                targets.setdefault(game.gm_address, "the game master")
            continue
        player = seat.get(name)
        if name != power and lifecycle.is_played(player):
            assert player is not None and player.address is not None
            targets.setdefault(player.address, name.title())
        else:
            skipped.append(name.title())
    sender = power.title() if power else "the game master"
    everyone = command.to == ("ALL",)
    sent, held = [], []
    for address, who in targets.items():
        others = [w for a, w in targets.items() if a != address]
        body = render("press", game=game, sender=sender, body=command.body, everyone=everyone, others=others)
        if talk.send(to=address, subject=f"{game.name} press from {sender}", kind="press", game_id=game.id,
                     body=body):
            sent.append(who)
        else:
            held.append(who)
    message = f"press sent to {', '.join(sent) or 'nobody'}"
    if skipped:
        message += f" (not to {', '.join(skipped)}: no player)"
    if held:
        message += (f"; not sent to {', '.join(held)}: one mail may cause at most "
                    f"{talk.settings.max_mails_per_mail} mails")
    talk.echo(text, "error" if held or not sent else "ok", message)


@handles(cmd.MapRequest, SIGNED_ON)
def map_request(talk: Conversation, text: str, _: cmd.MapRequest) -> None:
    """MAP: the current board; in a Tin Cup game a player's shows only what its power sees."""
    game, power = talk.context.game, talk.context.power
    assert game is not None
    position = talk.active_position()
    if position is None:
        talk.echo(text, "error", "the game is not running: there is no board to draw")
        return
    counted, seen = None, ""
    if lifecycle.options_of(game).blind and power is not None:
        position = lifecycle.sight_now(talk.session, game, power).after
        counted, seen = (power,), f" as {power.title()} sees it"
    if not (pictures := maps.position_map(game.name, position, counted=counted)):
        talk.echo(text, "error", "the map could not be drawn; the board is in STATUS")
    elif talk.attach(pictures):
        talk.echo(text, "ok", f"the map of {position.phase}{seen} is attached")
    else:
        talk.echo(text, "error", talk.too_big(sum(len(picture.data) for picture in pictures)))


@handles(cmd.Wait, PLAYER)
def wait(talk: Conversation, text: str, _: cmd.Wait) -> None:
    """DPjudge's WAIT: the phase is processed at its deadline, not when the last power submits."""
    _set_wait(talk, text, "WAIT", "the phase will wait for its deadline even if every power has submitted "
              "(NOWAIT to withdraw)")


@handles(cmd.NoWait, PLAYER)
def no_wait(talk: Conversation, text: str, _: cmd.NoWait) -> None:
    _set_wait(talk, text, "", "WAIT withdrawn: the phase is processed as soon as every power has submitted")


def _set_wait(talk: Conversation, text: str, flag: str, done: str) -> None:
    game, power = talk.context.game, talk.context.power
    assert game is not None and power is not None
    if game.phase is None or game.state not in ("active", "paused"):
        talk.echo(text, "error", "the game is not running")
        return
    if why := talk.superseded(set_by_mail_at(talk, game.phase, power, "wait"), "your WAIT or NOWAIT"):
        talk.echo(text, "ignored", why)
        return
    talk.session.add(Submission(game_id=game.id, phase=game.phase, power=power, kind="wait", text=flag, parsed={},
                                created_at=talk.now, accepted_at=talk.accepted))
    talk.echo(text, "ok", done)


@handles(cmd.SetPassword, SIGNED_ON)
def set_password(talk: Conversation, text: str, command: cmd.SetPassword) -> None:
    context = talk.context
    game = context.game
    assert game is not None
    if context.is_master:
        game.gm_password = hash_password(command.password)
    else:
        assert context.player is not None
        context.player.password = hash_password(command.password)
    talk.tell_registered(f"the password of {_seat_name(context)} was changed")
    talk.echo(masked(text, command.password), "ok", "password changed")


@handles(cmd.SetAddress, SIGNED_ON)
def set_address(talk: Conversation, text: str, command: cmd.SetAddress) -> None:
    """The seat's mail goes to a new address once that address has confirmed it wants it
    (`consent`); the address registered before is told of the change."""
    context = talk.context
    game = context.game
    assert game is not None
    address = usable_address(command.address)
    if not address:
        talk.echo(text, "error", f"'{command.address[:80]}' is not an address the judge can send mail to")
        return
    previous = game.gm_address if context.is_master else (context.player.address if context.player else None)
    if address != previous and consent.needed(talk, address):
        consent.ask(talk, text, address, "address", game, {"who": context.power or "MASTER", "previous": previous},
                    f"SET ADDRESS {address}", f"to receive the mail of {_seat_name(context)}")
        talk.tell_registered(f"the address of {_seat_name(context)} is to be changed to {address}, once that "
                             "address confirms")
        return
    _move(talk, game, context.power or "MASTER", address)
    talk.copies.add(address)
    talk.echo(text, "ok", f"mail will now go to {address}")


@consent.on_confirm("address")
def _address_confirmed(talk: Conversation, request: Confirmation, text: str) -> None:
    game = consent.game_of(talk, request)
    assert game is not None
    who, previous = request.details["who"], request.details["previous"]
    player = lifecycle.seats(talk.session, game).get(who)
    current = game.gm_address if who == "MASTER" else (
        player.address if player is not None and lifecycle.is_played(player) else None)
    if current != previous or game.state == "finished":
        talk.echo(text, "error", f"the seat's address has changed since {request.address} was asked: nothing done")
        return
    _move(talk, game, who, request.address)
    talk.echo(text, "ok", f"the mail of {_seat_name(Context(game=game, power=None if who == 'MASTER' else who))} "
              f"will now go to {request.address}")


def _move(talk: Conversation, game: Game, who: str, address: str) -> None:
    """Send the mail of seat ``who`` (a power, or MASTER) to ``address``; the address it had
    is told (one notice per address and mail, `Conversation.notices`)."""
    seat = _seat_name(Context(game=game, power=None if who == "MASTER" else who))
    if who == "MASTER":
        previous: str | None = game.gm_address
        game.gm_address = address
    else:
        player = lifecycle.seats(talk.session, game)[who]
        previous, player.address = player.address, address
    if previous and previous != address:
        talk.notices.setdefault(previous, []).append(f"the address of {seat} was changed to {address}")


def _seat_name(context: Context) -> str:
    assert context.game is not None
    who = "the game master" if context.is_master else (context.power or "").title()
    return f"{who} in {context.game.name}"


@handles(cmd.Resign, PLAYER)
def resign(talk: Conversation, text: str, _: cmd.Resign) -> None:
    game, power, player = talk.context.game, talk.context.power, talk.context.player
    assert game is not None and power is not None and player is not None
    player.resigned = True
    note = "you have resigned; your power is now a dummy"
    row = lifecycle.current_phase(talk.session, game)
    if row is not None:
        position = lifecycle.position_of(row)
        if not position.centers_of(power):
            for entry in forfeit(lifecycle.balances(talk.session, game), power)[1]:
                talk.session.add(LedgerRow(game_id=game.id, power=power, amount=entry.amount, kind="forfeit",
                                           note=entry.note, phase=game.phase, created_at=talk.now))
            note += " and, being eliminated, its treasury is forfeited (rule 2.4)"
    lifecycle.record(game, f"the player of {power.title()} resigned")
    talk.announce(f"the player of {power.title()} resigned: it is now a dummy power")
    talk.context = Context()
    talk.echo(text, "ok", note)


@handles(cmd.Vote, PLAYER)
def vote(talk: Conversation, text: str, command: cmd.Vote) -> None:
    """A secret vote for a draw including all survivors, or to concede to one power; the game
    ends when every voter (played, not eliminated) votes the same way, for a draw or for a
    concession to one of them (`lifecycle.settle_votes`).  In a Tin Cup game a concession to any
    power of the map is taken alike, since refusing one to an eliminated or unplayed power would
    tell what the board does not show; it ends the game only if that power is a voter.  Under
    SHOW_VOTES the number voting for a draw is told with the next results, not at once."""
    game, power, player = talk.context.game, talk.context.power, talk.context.player
    assert game is not None and power is not None and player is not None
    if game.state not in ("active", "paused"):
        talk.echo(text, "error", "the game is not running")
        return
    if power not in lifecycle.voters(talk.session, game):
        talk.echo(text, "error", "an eliminated power does not vote")
        return
    if why := talk.superseded(player.vote_at, "your vote"):
        talk.echo(text, "ignored", why)
        return
    if command.choice == "DRAW" and not lifecycle.rules_of(game).draws:
        talk.echo(text, "error", f"{game.name} allows no draws (NO_DRAW)")
        return
    if command.choice == "CONCEDE":
        try:
            to = power_of(game, command.power or "")
        except ValueError as exc:
            talk.echo(text, "error", str(exc))
            return
        if not lifecycle.options_of(game).blind and to not in lifecycle.voters(talk.session, game):
            talk.echo(text, "error", f"{to.title()} has no player or no supply center: it cannot be conceded to")
            return
        player.vote, said = f"CONCEDE:{to}", f"to concede the game to {to.title()}"
    else:
        player.vote = command.choice if command.choice == "DRAW" else None
        said = "for a draw including all survivors" if player.vote else "withdrawn (no vote)"
    player.vote_at = talk.accepted
    talk.echo(text, "ok", f"your vote, kept secret: {said}")
    talk.session.flush()
    result = lifecycle.settle_votes(talk.session, game, talk.settings, talk.now)
    if result:
        talk.echo("", "info", "", [f"every surviving power voted the same way: {result}; the game has ended"])


@handles(cmd.SetAbsence, PLAYER)
def set_absence(talk: Conversation, text: str, command: cmd.SetAbsence) -> None:
    """An absence: approved at once within the game's ABSENCE_DAYS a year, else by the game
    master; once approved, no deadline of the game falls inside it."""
    game, power = talk.context.game, talk.context.power
    assert game is not None and power is not None
    if game.state == "finished":
        talk.echo(text, "error", "the game has ended")
        return
    if command.start < talk.now.date():
        talk.echo(text, "error", "an absence cannot start in the past")
        return
    days = (command.end - command.start).days + 1
    taken = sum((a.end - a.start).days + 1 for a in talk.session.scalars(select(Absence).where(
        Absence.game_id == game.id, Absence.power == power, Absence.status == "approved",
        Absence.start >= command.start.replace(month=1, day=1))))
    absence = Absence(game_id=game.id, power=power, start=command.start, end=command.end, created_at=talk.now)
    talk.session.add(absence)
    if taken + days <= lifecycle.rules_of(game).absence_days:
        approve_absence(talk, absence)
        talk.echo(text, "ok", f"absence approved ({days} day(s); {taken + days} of the game's "
                  f"{lifecycle.rules_of(game).absence_days} a year)")
    else:
        absence.status = "pending"
        talk.send(to=game.gm_address, subject=f"{game.name}: absence asked by {power.title()}", kind="notice",
                  game_id=game.id, body=f"{power.title()} asks to be absent from {command.start} to {command.end} "
                  f"({days} day(s)).\nAPPROVE ABSENCE {power} or DENY ABSENCE {power}, signed on as the master.\n")
        talk.echo(text, "ok", "absence asked for: the game master decides (you will be told)")


def approve_absence(talk: Conversation, absence: Absence) -> None:
    """Approve an absence, move the deadline out of it, and tell everyone."""
    game = talk.context.game
    assert game is not None
    absence.status = "approved"
    talk.session.flush()
    if game.deadline is not None:
        moved = lifecycle.shift_for_absences(talk.session, game, game.deadline)
        if moved != game.deadline:
            game.deadline = moved
            talk.announce(f"{absence.power.title()} is absent from {absence.start} to {absence.end}: the deadline "
                          f"of {game.phase} moves to {when(moved)}")
            return
    talk.announce(f"{absence.power.title()} will be absent from {absence.start} to {absence.end}: no deadline "
                  "falls in those days")
